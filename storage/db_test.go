package storage_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/internal/testkit"
	"github.com/fairypost/fairypost/storage"
	bolt "go.etcd.io/bbolt"
)

var ctx = context.Background()

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// mustOpenDB opens the database at path (a fresh file in tb's temporary
// directory when path is ""), checked (indexes against records included)
// and closed at cleanup.
func mustOpenDB(tb testing.TB, path string) *storage.DB {
	tb.Helper()
	if path == "" {
		return testkit.OpenDB(tb)
	}
	return testkit.OpenDBAt(tb, path)
}

// mustAddGame stores a challenge from white to black and accepts it into
// a game with the given moves (not checked: storage does not know rules).
func mustAddGame(tb testing.TB, db *storage.DB, white, black, channel string, moves ...string) *bot.Game {
	tb.Helper()
	c := &bot.Challenge{Challenger: white, Challenged: black, ChannelID: channel, Variant: "chess",
		Color: bot.ColorWhite, Status: bot.ChallengePending, Expires: t0.Add(time.Hour), Created: t0, Updated: t0}
	if err := db.CreateChallenge(ctx, c, nil); err != nil {
		tb.Fatal(err)
	}
	_, g, err := db.UpdateChallenge(ctx, c.ID, c.Version, func(c *bot.Challenge) (bot.ChallengeChange, error) {
		c.Status = bot.ChallengeAccepted
		return bot.ChallengeChange{Game: &bot.Game{Variant: "chess", White: white, Black: black, ChannelID: channel,
			Moves: moves, Status: bot.GameActive, DaysPerMove: 3, Deadline: t0.Add(72 * time.Hour), Created: t0, Updated: t0},
			Notifications: []bot.Notification{{Kind: bot.NotifyYourTurn, UserID: white, Text: "go", Created: t0}}}, nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// allGames returns every game of the users.
func allGames(tb testing.TB, db *storage.DB, users ...string) map[uint64]*bot.Game {
	tb.Helper()
	out := map[uint64]*bot.Game{}
	for _, u := range users {
		gs, err := db.GamesByUser(ctx, u)
		if err != nil {
			tb.Fatal(err)
		}
		for _, g := range gs {
			out[g.ID] = g
		}
	}
	return out
}

func TestReopenKeepsEverything(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fairypost.db")
	db := mustOpenDB(t, path)
	g1 := mustAddGame(t, db, "alice", "bob", "c1", "e2e4", "e7e5")
	g2 := mustAddGame(t, db, "bob", "carol", "c2")
	before := allGames(t, db, "alice", "bob", "carol")
	notes, _ := db.PendingNotifications(ctx, t0, 0)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = mustOpenDB(t, path)
	if after := allGames(t, db, "alice", "bob", "carol"); !reflect.DeepEqual(before, after) {
		t.Fatalf("after reopening\n got %+v\nwant %+v", after, before)
	}
	if got, _ := db.PendingNotifications(ctx, t0, 0); !reflect.DeepEqual(got, notes) || len(got) != 2 {
		t.Errorf("outbox after reopening %+v, want %+v", got, notes)
	}
	if g1.ID == g2.ID {
		t.Error("two games with one ID")
	}
	// IDs keep growing after reopening.
	g3 := mustAddGame(t, db, "dave", "erin", "c1")
	if g3.ID <= g2.ID {
		t.Errorf("new game ID %d after %d", g3.ID, g2.ID)
	}
}

func TestBackup(t *testing.T) {
	dir := t.TempDir()
	db := mustOpenDB(t, "")
	mustAddGame(t, db, "alice", "bob", "c1", "d2d4")
	mustAddGame(t, db, "carol", "alice", "c1")
	f, err := os.Create(filepath.Join(dir, "backup.db"))
	if err != nil {
		t.Fatal(err)
	}
	n, err := db.Backup(f)
	if err != nil || n == 0 {
		t.Fatalf("backup: %d bytes, %v", n, err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	copy := mustOpenDB(t, f.Name())
	want, got := allGames(t, db, "alice", "bob", "carol"), allGames(t, copy, "alice", "bob", "carol")
	if len(want) != 2 || !reflect.DeepEqual(got, want) {
		t.Errorf("backup holds %+v, want %+v", got, want)
	}
}

func TestSecondOpenTimesOut(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fairypost.db")
	mustOpenDB(t, path)
	start := time.Now()
	db, err := storage.Open(path, storage.Options{Timeout: 100 * time.Millisecond})
	if err == nil {
		db.Close()
		t.Fatal("a second Open of a file in use succeeded")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("second Open took %v", d)
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fairypost.db")
	db := mustOpenDB(t, path)
	db.Close()
	b, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	err = b.Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte("meta")).Put([]byte("schema"), []byte{0, 0, 0, 0, 0, 0, 0, storage.SchemaVersion + 1})
	})
	b.Close()
	if err != nil {
		t.Fatal(err)
	}
	if db, err := storage.Open(path, storage.Options{Timeout: time.Second}); err == nil {
		db.Close()
		t.Fatal("opened a file with a newer schema")
	}
}

// TestIndexesFollowUpdates: the by-user and by-channel indexes follow a
// change of players and channel, and a refused update changes nothing.
func TestIndexesFollowUpdates(t *testing.T) {
	db := mustOpenDB(t, "")
	g := mustAddGame(t, db, "alice", "bob", "c1")
	g, err := db.UpdateGame(ctx, g.ID, g.Version, func(g *bot.Game) ([]bot.Notification, error) {
		g.White, g.Black, g.ChannelID = "bob", "carol", "c2"
		return nil, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		user string
		n    int
	}{{"alice", 0}, {"bob", 1}, {"carol", 1}} {
		if gs, _ := db.GamesByUser(ctx, c.user); len(gs) != c.n {
			t.Errorf("%s has %d games, want %d", c.user, len(gs), c.n)
		}
	}
	if gs, _ := db.GamesByChannel(ctx, "c1"); len(gs) != 0 {
		t.Errorf("c1 still lists %d games", len(gs))
	}
	if gs, _ := db.GamesByChannel(ctx, "c2"); len(gs) != 1 {
		t.Errorf("c2 lists %d games", len(gs))
	}
	if _, err := db.UpdateGame(ctx, g.ID, g.Version-1, func(*bot.Game) ([]bot.Notification, error) {
		t.Error("fn called for a stale version")
		return nil, nil
	}); bot.ErrorCode(err) != bot.ECONFLICT {
		t.Errorf("stale version: %v", err)
	}
	if _, err := db.Game(ctx, 42); bot.ErrorCode(err) != bot.ENOTFOUND {
		t.Errorf("missing game: %v", err)
	}
}

// TestActiveIndexesFollowStatus: the indexes of ongoing games list a game
// while it is set up or played and drop it when it ends, while the
// indexes of all games keep it.
func TestActiveIndexesFollowStatus(t *testing.T) {
	db := mustOpenDB(t, "")
	g := mustAddGame(t, db, "alice", "bob", "c1")
	other := mustAddGame(t, db, "alice", "carol", "c1")
	ids := func(gs []*bot.Game, err error) []uint64 {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		var out []uint64
		for _, g := range gs {
			out = append(out, g.ID)
		}
		return out
	}
	if got := ids(db.ActiveGamesByUser(ctx, "alice")); !slices.Equal(got, []uint64{g.ID, other.ID}) {
		t.Fatalf("alice's active games %v", got)
	}
	if _, err := db.UpdateGame(ctx, g.ID, g.Version, func(g *bot.Game) ([]bot.Notification, error) {
		g.Status, g.Result, g.Reason, g.ToAct = bot.GameFinished, bot.WhiteWins, "resignation", ""
		return nil, nil
	}); err != nil {
		t.Fatal(err)
	}
	if got := ids(db.ActiveGamesByUser(ctx, "alice")); !slices.Equal(got, []uint64{other.ID}) {
		t.Errorf("alice's active games after one ended: %v", got)
	}
	if got := ids(db.ActiveGamesByUser(ctx, "bob")); len(got) != 0 {
		t.Errorf("bob's active games after his only game ended: %v", got)
	}
	if got := ids(db.ActiveGamesByChannel(ctx, "c1")); !slices.Equal(got, []uint64{other.ID}) {
		t.Errorf("c1's active games: %v", got)
	}
	if got := ids(db.GamesByUser(ctx, "bob")); !slices.Equal(got, []uint64{g.ID}) {
		t.Errorf("bob's games (all): %v", got)
	}
}

func TestOutboxAck(t *testing.T) {
	db := mustOpenDB(t, "")
	mustAddGame(t, db, "alice", "bob", "c1")
	mustAddGame(t, db, "alice", "carol", "c1")
	ns, err := db.PendingNotifications(ctx, t0, 1)
	if err != nil || len(ns) != 1 {
		t.Fatalf("pending: %v %v", ns, err)
	}
	for range 2 { // a second ack is not an error
		if err := db.AckNotification(ctx, ns[0].ID); err != nil {
			t.Fatal(err)
		}
	}
	rest, _ := db.PendingNotifications(ctx, t0, 0)
	if len(rest) != 1 || rest[0].ID <= ns[0].ID {
		t.Errorf("after ack: %+v", rest)
	}
}

// TestGamesDue: the deadline index lists games in deadline order up to the
// time asked, and follows a deadline that moves or goes away.
func TestGamesDue(t *testing.T) {
	db := mustOpenDB(t, "")
	g1 := mustAddGame(t, db, "alice", "bob", "c1") // deadline t0+72h
	g2 := mustAddGame(t, db, "carol", "dave", "c1")
	g2, err := db.UpdateGame(ctx, g2.ID, g2.Version, func(g *bot.Game) ([]bot.Notification, error) {
		g.Deadline = t0.Add(time.Hour)
		return nil, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ids := func(at time.Time) []uint64 {
		gs, err := db.GamesDue(ctx, at)
		if err != nil {
			t.Fatal(err)
		}
		var out []uint64
		for _, g := range gs {
			out = append(out, g.ID)
		}
		return out
	}
	if got := ids(t0); got != nil {
		t.Errorf("due at t0: %v", got)
	}
	if got := ids(t0.Add(time.Hour)); !reflect.DeepEqual(got, []uint64{g2.ID}) {
		t.Errorf("due at t0+1h: %v", got)
	}
	if got := ids(t0.Add(100 * time.Hour)); !reflect.DeepEqual(got, []uint64{g2.ID, g1.ID}) {
		t.Errorf("due at t0+100h: %v", got)
	}
	if _, err := db.UpdateGame(ctx, g2.ID, bot.AnyVersion, func(g *bot.Game) ([]bot.Notification, error) {
		g.Deadline = time.Time{}
		return nil, nil
	}); err != nil {
		t.Fatal(err)
	}
	if got := ids(t0.Add(100 * time.Hour)); !reflect.DeepEqual(got, []uint64{g1.ID}) {
		t.Errorf("due after clearing a deadline: %v", got)
	}
}
