package storage_test

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/storage"
	bolt "go.etcd.io/bbolt"
)

// farFuture is after every time the tests store.
var farFuture = time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC)

// gameIDs returns the IDs of gs in order.
func gameIDs(gs []*bot.Game) []uint64 {
	var out []uint64
	for _, g := range gs {
		out = append(out, g.ID)
	}
	return out
}

// toRemind returns the IDs GamesToRemind lists at t, checking that each
// is listed by right.
func toRemind(tb testing.TB, db *storage.DB, t time.Time) []uint64 {
	tb.Helper()
	gs, err := db.GamesToRemind(ctx, t)
	if err != nil {
		tb.Fatal(err)
	}
	for _, g := range gs {
		if g.RemindAt.IsZero() || g.RemindAt.After(t) {
			tb.Errorf("GamesToRemind(%v) lists game %d reminded at %v", t, g.ID, g.RemindAt)
		}
	}
	return gameIDs(gs)
}

// setRemindAt sets game id's RemindAt (zero: none).
func setRemindAt(tb testing.TB, db *storage.DB, id uint64, at time.Time) {
	tb.Helper()
	if _, err := db.UpdateGame(ctx, id, bot.AnyVersion, func(g *bot.Game) ([]bot.Notification, error) {
		g.RemindAt = at
		return nil, nil
	}); err != nil {
		tb.Fatal(err)
	}
}

// earliest returns EarliestGameTimes and EarliestExpiry.
func earliest(tb testing.TB, db *storage.DB) (deadline, remindAt, expiry time.Time) {
	tb.Helper()
	deadline, remindAt, err := db.EarliestGameTimes(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	if expiry, err = db.EarliestExpiry(ctx); err != nil {
		tb.Fatal(err)
	}
	return deadline, remindAt, expiry
}

// TestRemindIndex: games_by_remind lists the games with a RemindAt in
// its order (then ID) up to the time asked, and follows a RemindAt that
// is set, moves or goes away; a refused update leaves it alone; it
// survives a reopen.
func TestRemindIndex(t *testing.T) {
	db := mustOpenDB(t, "")
	g1 := mustAddGame(t, db, "alice", "bob", "c1")
	g2 := mustAddGame(t, db, "carol", "dave", "c1")
	g3 := mustAddGame(t, db, "erin", "frank", "c1")
	if got := toRemind(t, db, farFuture); got != nil {
		t.Fatalf("games without RemindAt listed: %v", got)
	}
	setRemindAt(t, db, g1.ID, t0.Add(3*time.Hour))
	setRemindAt(t, db, g2.ID, t0.Add(time.Hour))
	setRemindAt(t, db, g3.ID, t0.Add(3*time.Hour)) // as g1: after it by ID
	for _, c := range []struct {
		at   time.Time
		want []uint64
	}{
		{t0, nil},
		{t0.Add(time.Hour - 1), nil},
		{t0.Add(time.Hour), []uint64{g2.ID}},
		{t0.Add(3 * time.Hour), []uint64{g2.ID, g1.ID, g3.ID}},
		{farFuture, []uint64{g2.ID, g1.ID, g3.ID}},
	} {
		if got := toRemind(t, db, c.at); !reflect.DeepEqual(got, c.want) {
			t.Errorf("to remind at %v: %v, want %v", c.at, got, c.want)
		}
	}
	// g2 reminded (RemindAt cleared), g1 moved later, twice: listed once.
	setRemindAt(t, db, g2.ID, time.Time{})
	setRemindAt(t, db, g1.ID, t0.Add(5*time.Hour))
	setRemindAt(t, db, g1.ID, t0.Add(4*time.Hour))
	refused := errors.New("refused")
	if _, err := db.UpdateGame(ctx, g3.ID, bot.AnyVersion, func(g *bot.Game) ([]bot.Notification, error) {
		g.RemindAt = time.Time{}
		return nil, refused
	}); err != refused {
		t.Fatalf("refused update: %v", err)
	}
	want := []uint64{g3.ID, g1.ID}
	if got := toRemind(t, db, farFuture); !reflect.DeepEqual(got, want) {
		t.Errorf("after the updates: %v, want %v", got, want)
	}
	// Moving a thread keeps the entry.
	if _, err := db.AnnotateGame(ctx, g1.ID, func(_ bot.Game, a *bot.Annotations) ([]bot.Notification, error) {
		a.ThreadID = "th1"
		return nil, nil
	}); err != nil {
		t.Fatal(err)
	}
	path := db.Path()
	db.Close()
	db = mustOpenDB(t, path)
	if got := toRemind(t, db, farFuture); !reflect.DeepEqual(got, want) {
		t.Errorf("after reopening: %v, want %v", got, want)
	}
	if g, err := db.Game(ctx, g1.ID); err != nil || !g.RemindAt.Equal(t0.Add(4*time.Hour)) {
		t.Errorf("g1 read back: %+v %v", g, err)
	}
}

// TestEarliestTimes: EarliestGameTimes and EarliestExpiry give the first
// deadline, reminder and pending challenge's expiry, zero when there is
// none, to the nanosecond.
func TestEarliestTimes(t *testing.T) {
	db := mustOpenDB(t, "")
	if d, r, e := earliest(t, db); !d.IsZero() || !r.IsZero() || !e.IsZero() {
		t.Fatalf("an empty store: %v %v %v", d, r, e)
	}
	g1 := mustAddGame(t, db, "alice", "bob", "c1") // deadline t0+72h; its challenge accepted
	g2 := mustAddGame(t, db, "carol", "dave", "c1")
	if _, err := db.UpdateGame(ctx, g2.ID, bot.AnyVersion, func(g *bot.Game) ([]bot.Notification, error) {
		g.Deadline = t0.Add(50*time.Hour + 7)
		return nil, nil
	}); err != nil {
		t.Fatal(err)
	}
	if d, r, e := earliest(t, db); !d.Equal(t0.Add(50*time.Hour+7)) || !r.IsZero() || !e.IsZero() {
		t.Fatalf("two games, no reminder, no challenge pending: %v %v %v", d, r, e)
	}
	setRemindAt(t, db, g1.ID, t0.Add(60*time.Hour))
	setRemindAt(t, db, g2.ID, t0.Add(40*time.Hour+1))
	mustChallenge(t, db, "erin", "frank", t0.Add(7*24*time.Hour))
	c := mustChallenge(t, db, "frank", "erin", t0.Add(2*time.Hour+3))
	if d, r, e := earliest(t, db); !d.Equal(t0.Add(50*time.Hour+7)) || !r.Equal(t0.Add(40*time.Hour+1)) || !e.Equal(t0.Add(2*time.Hour+3)) {
		t.Fatalf("got %v %v %v", d, r, e)
	}
	if _, _, err := db.UpdateChallenge(ctx, c.ID, bot.AnyVersion, func(c *bot.Challenge) (bot.ChallengeChange, error) {
		c.Status = bot.ChallengeDeclined
		return bot.ChallengeChange{}, nil
	}); err != nil {
		t.Fatal(err)
	}
	setRemindAt(t, db, g2.ID, time.Time{})
	if d, r, e := earliest(t, db); !d.Equal(t0.Add(50*time.Hour+7)) || !r.Equal(t0.Add(60*time.Hour)) || !e.Equal(t0.Add(7*24*time.Hour)) {
		t.Fatalf("after a decline and a reminder: %v %v %v", d, r, e)
	}
}

// schema1Game is a game record as schema 1 wrote it: no remind_at.
type schema1Game struct {
	Schema      int       `json:"schema"`
	ID          uint64    `json:"id"`
	Version     uint64    `json:"version"`
	Variant     string    `json:"variant"`
	StartFEN    string    `json:"start_fen"`
	Moves       []string  `json:"moves"`
	FEN         string    `json:"fen"`
	ToAct       string    `json:"to_act,omitempty"`
	White       string    `json:"white"`
	Black       string    `json:"black"`
	ChannelID   string    `json:"channel,omitempty"`
	Status      uint8     `json:"status"`
	Result      uint8     `json:"result"`
	Reason      string    `json:"reason,omitempty"`
	DaysPerMove int       `json:"days_per_move"`
	Deadline    time.Time `json:"deadline"`
	TurnStarted time.Time `json:"turn_started,omitzero"`
	Reminded    bool      `json:"reminded,omitempty"`
	Created     time.Time `json:"created"`
	Updated     time.Time `json:"updated"`
}

// writeSchema1File writes a schema-1 database at path: the layout of
// schema 1 (no games_by_remind, schema 1 in meta) with games (indexed by
// deadline) and users' preferences as schema 1 wrote them.
func writeSchema1File(t *testing.T, path string, games []schema1Game, percents map[string]int) {
	t.Helper()
	mustOpenDB(t, path).Close()
	b, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	key := func(id uint64) []byte { return []byte{0, 0, 0, 0, 0, 0, 0, byte(id)} }
	err = b.Update(func(tx *bolt.Tx) error {
		if err := tx.DeleteBucket([]byte("games_by_remind")); err != nil {
			return err
		}
		if err := tx.Bucket([]byte("meta")).Put([]byte("schema"), []byte{0, 0, 0, 0, 0, 0, 0, 1}); err != nil {
			return err
		}
		if err := tx.Bucket([]byte("meta")).Bucket([]byte("ids")).SetSequence(uint64(len(games))); err != nil {
			return err
		}
		for _, g := range games {
			v, err := json.Marshal(g)
			if err != nil {
				return err
			}
			if err := tx.Bucket([]byte("games")).Put(key(g.ID), v); err != nil {
				return err
			}
			if !g.Deadline.IsZero() {
				k := make([]byte, 16)
				binary.BigEndian.PutUint64(k, uint64(g.Deadline.UnixNano()))
				binary.BigEndian.PutUint64(k[8:], g.ID)
				if err := tx.Bucket([]byte("games_by_deadline")).Put(k, []byte{}); err != nil {
					return err
				}
			}
			for _, u := range []string{g.White, g.Black} {
				if err := tx.Bucket([]byte("games_by_user")).Put(append(append([]byte(u), 0), key(g.ID)...), []byte{}); err != nil {
					return err
				}
			}
			if err := tx.Bucket([]byte("games_by_channel")).Put(append(append([]byte(g.ChannelID), 0), key(g.ID)...), []byte{}); err != nil {
				return err
			}
		}
		for u, p := range percents {
			v, err := json.Marshal(map[string]any{"schema": 1, "user": u, "version": 1, "delivery": 1, "reminder_percent": p})
			if err != nil {
				return err
			}
			if err := tx.Bucket([]byte("users")).Put([]byte(u), v); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// schemaOf returns the schema version stored in the file at path.
func schemaOf(t *testing.T, path string) uint64 {
	t.Helper()
	b, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var v uint64
	err = b.View(func(tx *bolt.Tx) error {
		for _, c := range tx.Bucket([]byte("meta")).Get([]byte("schema")) {
			v = v<<8 | uint64(c)
		}
		if tx.Bucket([]byte("games_by_remind")) == nil {
			return errors.New("no games_by_remind")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestMigrateRemindAt: Open brings a schema-1 file to schema 2, giving
// every game being played with a deadline and a player to act not yet
// reminded the RemindAt package bot gives (bot.RemindTime), with the
// player's stored reminder setting or the default, indexed in
// games_by_remind; other games stay without one; no Version moves; the
// migration runs once.
func TestMigrateRemindAt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fairypost.db")
	const fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	deadline := t0.Add(72 * time.Hour)
	game := func(id uint64, toAct string, status bot.GameStatus) schema1Game {
		black := toAct
		if black == "" || black == "zed" {
			black = "yan"
		}
		return schema1Game{Schema: 1, ID: id, Version: 4, Variant: "chess", StartFEN: fen, Moves: []string{}, FEN: fen,
			ToAct: toAct, White: "zed", Black: black, ChannelID: "c1", Status: uint8(status), DaysPerMove: 3,
			Deadline: deadline, TurnStarted: t0, Created: t0, Updated: t0}
	}
	games := []schema1Game{
		game(1, "bob", bot.GameActive),     // default 20%: 14.4 hours before the deadline
		game(2, "carol", bot.GameActive),   // chose 50%
		game(3, "dave", bot.GameActive),    // chose no reminders
		game(4, "bob", bot.GameActive),     // reminded already
		game(5, "", bot.GameFinished),      // over
		game(6, "erin", bot.GameSetup),     // pre-game choice, 20%
		game(7, "bob", bot.GameActive),     // unlimited
		game(8, "carol", bot.GameActive),   // no TurnStarted: the turn is DaysPerMove, at 50%
		game(9, "frank", bot.GameAborted),  // aborted
		game(10, "bob", bot.GameActive),    // 1-day turn, started an hour before
		game(11, "zed", bot.GameActive),    // White to act; 20%
		game(12, "bob", bot.GameFinished),  // finished (with a stale player to act)
		game(13, "erin", bot.GameActive),   // as 1, later deadline
		game(14, "dave", bot.GameSetup),    // reminders off in a setup
		game(15, "carol", bot.GameAborted), // aborted with a stale deadline
	}
	games[3].Reminded = true
	games[4].Deadline, games[4].Result, games[4].Reason = time.Time{}, 1, "checkmate"
	games[6].DaysPerMove, games[6].Deadline = 0, time.Time{}
	games[7].TurnStarted = time.Time{}
	games[9].DaysPerMove, games[9].TurnStarted, games[9].Deadline = 1, t0.Add(-time.Hour), t0.Add(23*time.Hour)
	games[12].Deadline = deadline.Add(time.Hour)
	writeSchema1File(t, path, games, map[string]int{"carol": 50, "dave": 0})

	db, err := storage.Open(path, storage.Options{Timeout: time.Second})
	if err != nil {
		t.Fatalf("opening a schema-1 file: %v", err)
	}
	want := map[uint64]time.Time{
		1:  deadline.Add(-72 * time.Hour / 5),
		2:  deadline.Add(-36 * time.Hour),
		6:  deadline.Add(-72 * time.Hour / 5),
		8:  deadline.Add(-36 * time.Hour),
		10: t0.Add(23*time.Hour - 24*time.Hour/5),
		11: deadline.Add(-72 * time.Hour / 5),
		13: deadline.Add(time.Hour - 73*time.Hour/5), // a 73-hour turn
	}
	check := func(db *storage.DB, when string) {
		t.Helper()
		for _, s := range games {
			g, err := db.Game(ctx, s.ID)
			if err != nil {
				t.Fatalf("%s: game %d: %v", when, s.ID, err)
			}
			if !g.RemindAt.Equal(want[s.ID]) {
				t.Errorf("%s: game %d RemindAt %v, want %v", when, s.ID, g.RemindAt, want[s.ID])
			}
			if g.Version != 4 || g.ToAct != s.ToAct || !g.Deadline.Equal(s.Deadline) || g.Reminded != s.Reminded {
				t.Errorf("%s: game %d changed: %+v", when, s.ID, g)
			}
			// What package bot computes from the record and the setting.
			percent := map[string]int{"carol": 50, "dave": 0}[g.ToAct]
			if _, ok := map[string]int{"carol": 50, "dave": 0}[g.ToAct]; !ok {
				percent = bot.DefaultReminderPercent
			}
			c := g.Clone()
			c.RemindAt = time.Time{}
			if at := gameplay.RemindTime(c, percent); !at.Equal(g.RemindAt) {
				t.Errorf("%s: game %d RemindAt %v, bot.RemindTime says %v", when, s.ID, g.RemindAt, at)
			}
		}
		if got, want := toRemind(t, db, farFuture), []uint64{10, 2, 8, 1, 6, 11, 13}; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: games to remind %v, want %v", when, got, want)
		}
		if _, r, _ := earliest(t, db); !r.Equal(want[10]) {
			t.Errorf("%s: earliest reminder %v, want %v", when, r, want[10])
		}
	}
	check(db, "migrated")
	// The rest of the store works: the old records decode and update.
	if gs, err := db.GamesByUser(ctx, "zed"); err != nil || len(gs) != len(games) {
		t.Errorf("zed's games: %d %v", len(gs), err)
	}
	if p, err := db.Preferences(ctx, "carol"); err != nil || p.ReminderPercent != 50 {
		t.Errorf("carol's preferences: %+v %v", p, err)
	}
	db.Close()
	if v := schemaOf(t, path); v != storage.SchemaVersion {
		t.Errorf("schema after Open: %d, want %d", v, storage.SchemaVersion)
	}
	// A second Open migrates nothing again: a RemindAt cleared stays so.
	db = mustOpenDB(t, path)
	setRemindAt(t, db, 13, time.Time{})
	db.Close()
	db = mustOpenDB(t, path)
	if got, want := toRemind(t, db, farFuture), []uint64{10, 2, 8, 1, 6, 11}; !reflect.DeepEqual(got, want) {
		t.Errorf("after clearing one and reopening: %v, want %v", got, want)
	}
}
