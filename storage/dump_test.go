package storage_test

import (
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/storage"
)

// TestDumpVerify: a dump holds every record with the ID sequence, and
// Verify accepts the database it came from but not one that differs.
func TestDumpVerify(t *testing.T) {
	db := mustOpenDB(t, "")
	g1 := mustAddGame(t, db, "alice", "bob", "c1", "e2e4")
	g2 := mustAddGame(t, db, "carol", "alice", "c2")
	c := mustChallenge(t, db, "bob", "carol", t0.Add(time.Hour))
	if _, err := db.UpdatePreferences(ctx, "bob", func(p *bot.Preferences) error { p.ReminderPercent = 7; return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := db.UpdateNote(ctx, g1.ID, "bob", func(string) (string, error) { return "trade", nil }); err != nil {
		t.Fatal(err)
	}
	if err := db.UpdateFollow(ctx, g2.ID, "dave", func(bool, int) (bool, error) { return true, nil }); err != nil {
		t.Fatal(err)
	}
	d, err := db.Dump(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d.LastID != c.ID || len(d.Games) != 2 || d.Games[0].ID != g1.ID || d.Games[1].ID != g2.ID || len(d.Challenges) != 3 ||
		len(d.Preferences) != 1 || d.Preferences[0].ReminderPercent != 7 || len(d.Outbox) != 2 {
		t.Fatalf("dump: last ID %d, %d games, %d challenges, %d preferences, %d notifications", d.LastID,
			len(d.Games), len(d.Challenges), len(d.Preferences), len(d.Outbox))
	}
	if len(d.Notes) != 1 || d.Notes[0] != (bot.Note{GameID: g1.ID, UserID: "bob", Text: "trade"}) ||
		len(d.Follows) != 1 || d.Follows[0] != (bot.Follow{GameID: g2.ID, UserID: "dave"}) {
		t.Fatalf("dump: notes %+v, follows %+v", d.Notes, d.Follows)
	}
	st := db.Stores()
	if err := storage.Verify(ctx, d, st); err != nil {
		t.Fatalf("Verify on the source: %v", err)
	}
	for what, change := range map[string]func(d *storage.Dump){
		"game 1 differs":      func(d *storage.Dump) { d.Games[0].Moves = nil },
		"challenge 3 differs": func(d *storage.Dump) { d.Challenges[2].Status = bot.ChallengeDeclined },
		"outbox holds 2":      func(d *storage.Dump) { d.Outbox = d.Outbox[:1] },
		"preferences of bob":  func(d *storage.Dump) { d.Preferences[0].ReminderPercent = 8 },
		"notes on game 1":     func(d *storage.Dump) { d.Notes[0].Text = "other" },
		"followers of game 2": func(d *storage.Dump) { d.Follows = nil },
		", want [": func(d *storage.Dump) { // a record missing: its listings differ
			d.Games = d.Games[:1]
			d.Challenges = d.Challenges[:1]
		},
	} {
		d, err := db.Dump(ctx)
		if err != nil {
			t.Fatal(err)
		}
		change(d)
		if err := storage.Verify(ctx, d, st); err == nil || !strings.Contains(err.Error(), what) {
			t.Errorf("Verify after a change (%s): %v", what, err)
		}
	}
}
