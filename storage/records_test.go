package storage_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/storage"
	bolt "go.etcd.io/bbolt"
)

// TestGameRoundTripsEveryField: a game with every field set, the new
// ones included, comes back exactly, through UpdateGame and a reopen.
func TestGameRoundTripsEveryField(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fairypost.db")
	db := mustOpenDB(t, path)
	g := mustAddGame(t, db, "alice", "bob", "c1", "e2e4")
	turn := time.Date(2026, 3, 2, 8, 30, 15, 123456789, time.UTC)
	want, err := db.UpdateGame(ctx, g.ID, g.Version, func(g *bot.Game) ([]bot.Notification, error) {
		g.Options = "seed=1"
		g.FEN = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
		g.ToAct = "bob"
		g.GuildID = "g1"
		g.Status = bot.GameSetup
		g.Result = bot.Draw
		g.Reason = "agreement"
		g.TurnStarted = turn
		g.Reminded = true
		g.RemindAt = turn.Add(time.Hour)
		g.DrawOffer = "alice"
		g.Takeback = "bob"
		g.Setup = &bot.Setup{Seed: 1<<64 - 3, Challenger: "alice", Challenged: "bob", Chooser: bot.ChooserChallenger,
			Army: "black", FirstMover: "white"}
		g.Updated = turn.Add(time.Minute)
		return nil, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, v := range map[string]any{"Options": want.Options, "GuildID": want.GuildID, "Reason": want.Reason,
		"TurnStarted": want.TurnStarted, "Reminded": want.Reminded, "RemindAt": want.RemindAt, "DrawOffer": want.DrawOffer,
		"Takeback": want.Takeback, "Setup": want.Setup, "Deadline": want.Deadline} {
		if reflect.ValueOf(v).IsZero() {
			t.Fatalf("test game leaves %s unset", name)
		}
	}
	got, err := db.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read back\n got %+v\nwant %+v", got, want)
	}
	if got.Setup == want.Setup {
		t.Error("Setup shared between the returned and the stored game")
	}
	db.Close()
	db = mustOpenDB(t, path)
	if got, _ := db.Game(ctx, g.ID); !reflect.DeepEqual(got, want) || *got.Setup != *want.Setup {
		t.Errorf("after reopening\n got %+v\nwant %+v", got, want)
	}
	// Clearing the new fields clears them in the record.
	cleared, err := db.UpdateGame(ctx, g.ID, bot.AnyVersion, func(g *bot.Game) ([]bot.Notification, error) {
		g.TurnStarted, g.Reminded, g.RemindAt, g.DrawOffer, g.Takeback, g.Setup = time.Time{}, false, time.Time{}, "", "", nil
		return nil, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := db.Game(ctx, g.ID); !reflect.DeepEqual(got, cleared) || got.Setup != nil || !got.TurnStarted.IsZero() || !got.RemindAt.IsZero() {
		t.Errorf("after clearing\n got %+v\nwant %+v", got, cleared)
	}
}

// TestChooserRecords: who picks the army (bot.ArmyChooser) is stored
// with a challenge and a game's setup as its explicit number, and a
// record written before it existed reads as the challenged player
// picking, the default of docs/variants/annihilation.md#z6.
func TestChooserRecords(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fairypost.db")
	db := mustOpenDB(t, path)
	c := &bot.Challenge{Challenger: "alice", Challenged: "bob", ChannelID: "c1", Variant: "annihilation",
		Color: bot.ColorRandom, Chooser: bot.ChooserChallenger, Status: bot.ChallengePending, Expires: t0.Add(time.Hour),
		Created: t0, Updated: t0}
	if err := db.CreateChallenge(ctx, c, nil); err != nil {
		t.Fatal(err)
	}
	_, g, err := db.UpdateChallenge(ctx, c.ID, c.Version, func(c *bot.Challenge) (bot.ChallengeChange, error) {
		c.Status = bot.ChallengeAccepted
		return bot.ChallengeChange{Game: &bot.Game{Variant: "annihilation", White: "alice", Black: "bob", ChannelID: "c1",
			Status: bot.GameSetup, ToAct: "alice", Created: t0, Updated: t0,
			Setup: &bot.Setup{Seed: 7, Challenger: "alice", Challenged: "bob", Chooser: bot.ChooserChallenger}}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	db = mustOpenDB(t, path)
	if got, err := db.Challenge(ctx, c.ID); err != nil || got.Chooser != bot.ChooserChallenger {
		t.Errorf("challenge read back: %+v, %v", got, err)
	}
	if got, err := db.Game(ctx, g.ID); err != nil || got.Setup == nil || got.Setup.Chooser != bot.ChooserChallenger ||
		got.Setup.ArmyPicker() != "alice" || got.Setup.FirstPicker() != "bob" {
		t.Errorf("game read back: %+v, %v", got, err)
	}
	// The stored number is the enum's own.
	db.Close()
	err = rawDB(t, path, false, func(tx *bolt.Tx) error {
		var rec struct {
			Chooser int `json:"chooser"`
			Setup   struct {
				Chooser int `json:"chooser"`
			} `json:"setup"`
		}
		key := []byte{0, 0, 0, 0, 0, 0, 0, byte(c.ID)}
		for _, bucket := range []string{"challenges", "games"} {
			v := tx.Bucket([]byte(bucket)).Get(key)
			if err := json.Unmarshal(v, &rec); err != nil {
				return err
			}
		}
		if rec.Chooser != 2 || rec.Setup.Chooser != 2 {
			return fmt.Errorf("stored chooser %d, setup chooser %d, want 2", rec.Chooser, rec.Setup.Chooser)
		}
		return nil
	})
	if err != nil {
		t.Error(err)
	}
}

// rawDB runs fn in a bbolt transaction (read-write when write) on the
// closed database file at path.
func rawDB(t *testing.T, path string, write bool, fn func(*bolt.Tx) error) error {
	t.Helper()
	b, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if write {
		return b.Update(fn)
	}
	return b.View(fn)
}

// TestOldSetupRecord: a setup stored before the army chooser existed
// names the challenged player as the army picker.
func TestOldSetupRecord(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fairypost.db")
	db := mustOpenDB(t, path)
	g := mustAddGame(t, db, "alice", "bob", "c1")
	key := []byte{0, 0, 0, 0, 0, 0, 0, byte(g.ID)}
	db.Close()
	err := rawDB(t, path, true, func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("games"))
		var rec map[string]any
		if err := json.Unmarshal(b.Get(key), &rec); err != nil {
			return err
		}
		rec["setup"] = map[string]any{"seed": "5", "challenger": "alice", "challenged": "bob", "army": "white"}
		v, err := json.Marshal(rec)
		if err != nil {
			return err
		}
		return b.Put(key, v)
	})
	if err != nil {
		t.Fatal(err)
	}
	db = mustOpenDB(t, path)
	got, err := db.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := bot.Setup{Seed: 5, Challenger: "alice", Challenged: "bob", Army: "white"}
	if got.Setup == nil || *got.Setup != want || got.Setup.ArmyPicker() != "bob" || got.Setup.FirstPicker() != "alice" {
		t.Errorf("old setup read as %+v, want %+v with bob picking the army", got.Setup, want)
	}
}

// TestNotificationRoundTrip: every field of a notification, Attempts and
// NotBefore included, comes back from the outbox.
func TestNotificationRoundTrip(t *testing.T) {
	db := mustOpenDB(t, "")
	g := mustAddGame(t, db, "alice", "bob", "c1")
	n := bot.Notification{Kind: bot.NotifyTakenBack, UserID: "alice", GuildID: "g1", ChannelID: "c1",
		GameID: g.ID, ChallengeID: g.ID, Text: "taken back", Created: t0, Attempts: 4, NotBefore: t0.Add(time.Minute)}
	if _, err := db.UpdateGame(ctx, g.ID, g.Version, func(*bot.Game) ([]bot.Notification, error) {
		return []bot.Notification{n}, nil
	}); err != nil {
		t.Fatal(err)
	}
	ns, err := db.PendingNotifications(ctx, t0.Add(time.Minute), 0)
	if err != nil || len(ns) != 2 {
		t.Fatalf("pending: %+v %v", ns, err)
	}
	n.ID = ns[1].ID
	if !reflect.DeepEqual(ns[1], n) {
		t.Errorf("read back\n got %+v\nwant %+v", ns[1], n)
	}
}

// oldGame and oldChallenge are schema-1 records as written before the
// fields and buckets added within schema 1 existed.
const (
	oldGame = `{"schema":1,"id":%d,"version":3,"variant":"chess","start_fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",` +
		`"moves":["e2e4"],"fen":"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1","to_act":"bob","white":"alice","black":"bob",` +
		`"channel":"c1","status":20,"result":0,"days_per_move":3,"deadline":"2026-03-04T12:00:00Z","created":"2026-03-01T12:00:00Z","updated":"2026-03-01T12:00:00Z"}`
	oldChallenge = `{"schema":1,"id":%d,"version":1,"challenger":"carol","challenged":"dave","channel":"c2","variant":"chess",` +
		`"days_per_move":3,"color":1,"status":%d,"expires":"%s","created":"2026-03-01T12:00:00Z","updated":"2026-03-01T12:00:00Z"}`
	oldNotification = `{"schema":1,"id":%d,"kind":20,"user":"bob","game":1,"text":"go","created":"2026-03-01T12:00:00Z"}`
)

// TestOldFileOpens: a schema-1 file written before challenges_by_expiry
// and users existed opens; its records decode with the new fields zero
// (but for RemindAt, which the migration to schema 2 sets);
// Open indexes its pending challenges by expiry; preferences work.
func TestOldFileOpens(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fairypost.db")
	mustOpenDB(t, path).Close()
	b, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	key := func(id uint64) []byte { return []byte{0, 0, 0, 0, 0, 0, 0, byte(id)} }
	err = b.Update(func(tx *bolt.Tx) error {
		for _, name := range []string{"challenges_by_expiry", "users", "games_by_remind"} {
			if err := tx.DeleteBucket([]byte(name)); err != nil {
				return err
			}
		}
		if err := tx.Bucket([]byte("meta")).Put([]byte("schema"), []byte{0, 0, 0, 0, 0, 0, 0, 1}); err != nil {
			return err
		}
		// IDs 1..4 as the old sequence would have given them.
		if err := tx.Bucket([]byte("meta")).Bucket([]byte("ids")).SetSequence(4); err != nil {
			return err
		}
		puts := []struct {
			bucket string
			id     uint64
			v      string
		}{
			{"games", 1, sprintf(oldGame, 1)},
			{"challenges", 2, sprintf(oldChallenge, 2, bot.ChallengePending, "2026-03-08T12:00:00Z")},
			{"challenges", 3, sprintf(oldChallenge, 3, bot.ChallengeDeclined, "2026-03-02T12:00:00Z")},
			{"challenges", 4, sprintf(oldChallenge, 4, bot.ChallengePending, "2026-03-05T12:00:00Z")},
			{"outbox", 1, sprintf(oldNotification, 1)},
		}
		for _, p := range puts {
			if err := tx.Bucket([]byte(p.bucket)).Put(key(p.id), []byte(p.v)); err != nil {
				return err
			}
		}
		return nil
	})
	b.Close()
	if err != nil {
		t.Fatal(err)
	}
	db, err := storage.Open(path, storage.Options{Timeout: time.Second})
	if err != nil {
		t.Fatalf("opening a file without the new buckets: %v", err)
	}
	defer db.Close()
	g, err := db.Game(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := &bot.Game{ID: 1, Version: 3, Variant: "chess", StartFEN: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		Moves: []string{"e2e4"}, FEN: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", ToAct: "bob",
		White: "alice", Black: "bob", ChannelID: "c1", Status: bot.GameActive, DaysPerMove: 3,
		Deadline: t0.Add(72 * time.Hour), Created: t0, Updated: t0,
		Annotations: bot.Annotations{RemindAt: t0.Add(72*time.Hour - 72*time.Hour/5)}} // given by the migration to schema 2
	if !reflect.DeepEqual(g, want) {
		t.Errorf("old game\n got %+v\nwant %+v", g, want)
	}
	// The migration to schema 3 indexed the ongoing game.
	for _, u := range []string{"alice", "bob"} {
		if gs, err := db.ActiveGamesByUser(ctx, u); err != nil || len(gs) != 1 || gs[0].ID != 1 {
			t.Errorf("%s's active games after the migration: %v %v", u, gs, err)
		}
	}
	if gs, err := db.ActiveGamesByChannel(ctx, "c1"); err != nil || len(gs) != 1 {
		t.Errorf("c1's active games after the migration: %v %v", gs, err)
	}
	ns, err := db.PendingNotifications(ctx, time.Time{}, 0)
	if err != nil || len(ns) != 1 || ns[0].Attempts != 0 || !ns[0].NotBefore.IsZero() {
		t.Errorf("old notification: %+v %v", ns, err)
	}
	cs, err := db.ChallengesExpiring(ctx, t0.Add(30*24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if got := challengeIDs(cs); !reflect.DeepEqual(got, []uint64{4, 2}) {
		t.Errorf("pending challenges of an old file by expiry: %v, want [4 2]", got)
	}
	p, err := db.Preferences(ctx, "alice")
	if err != nil || !reflect.DeepEqual(p, bot.DefaultPreferences("alice")) {
		t.Errorf("preferences in an old file: %+v %v", p, err)
	}
	if _, err := db.UpdatePreferences(ctx, "alice", func(p *bot.Preferences) error { p.DMBlocked = true; return nil }); err != nil {
		t.Fatal(err)
	}
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

// challengeIDs returns the IDs of cs in order.
func challengeIDs(cs []*bot.Challenge) []uint64 {
	var out []uint64
	for _, c := range cs {
		out = append(out, c.ID)
	}
	return out
}

// TestPreferencesRecord: the stored preferences are JSON with the schema
// and Delivery as its explicit number.
func TestPreferencesRecord(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fairypost.db")
	db := mustOpenDB(t, path)
	if _, err := db.UpdatePreferences(ctx, "alice", func(p *bot.Preferences) error {
		p.Delivery, p.ReminderPercent = bot.DeliverChannel, 35
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	b, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var rec map[string]any
	err = b.View(func(tx *bolt.Tx) error {
		return json.Unmarshal(tx.Bucket([]byte("users")).Get([]byte("alice")), &rec)
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"schema": float64(storage.SchemaVersion), "user": "alice", "version": 1.0, "delivery": 2.0, "reminder_percent": 35.0}
	if !reflect.DeepEqual(rec, want) {
		t.Errorf("stored record %v, want %v", rec, want)
	}
}
