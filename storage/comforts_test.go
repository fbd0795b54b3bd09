package storage_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
)

// TestComfortFieldsRoundTrip: conditional lines, followers, notes,
// vacations, pauses, time banks and digests are kept in the game and
// preferences records across a reopening, and AnnotateGame may change a
// game's lines, followers and notes without moving its Version (but
// cannot change play: it edits a copy).
func TestComfortFieldsRoundTrip(t *testing.T) {
	path := t.TempDir() + "/fp.db"
	db := mustOpenDB(t, path)
	g := mustAddGame(t, db, "alice", "bob", "c1", "e2e4")
	lines := []bot.Forecast{{Owner: "alice", Base: 1, Moves: []string{"e7e5", "g1f3"}}, {Owner: "bob", Base: 1, Moves: []string{"e7e5"}}}
	a, err := db.AnnotateGame(ctx, g.ID, func(_ bot.Game, a *bot.Annotations) ([]bot.Notification, error) {
		a.Forecasts = lines
		return nil, nil
	})
	if err != nil || a.Version != g.Version || !reflect.DeepEqual(a.Forecasts, lines) {
		t.Fatalf("annotate: %+v, %v", a, err)
	}
	// Followers and notes are records of their own.
	if err := db.UpdateFollow(ctx, g.ID, "carol", func(bool, int) (bool, error) { return true, nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := db.UpdateNote(ctx, g.ID, "alice", func(string) (string, error) { return "castle long", nil }); err != nil {
		t.Fatal(err)
	}
	if p, err := db.AnnotateGame(ctx, g.ID, func(g bot.Game, a *bot.Annotations) ([]bot.Notification, error) {
		a.Forecasts = nil
		g.PausedAt = t0 // a copy: not stored
		return nil, nil
	}); err != nil || !p.PausedAt.IsZero() || p.Forecasts != nil {
		t.Errorf("an annotation pausing its copy of the game: %+v, %v", p, err)
	}
	away, paused := t0.Add(30*24*time.Hour), t0.Add(time.Hour)
	u, err := db.UpdateGame(ctx, g.ID, bot.AnyVersion, func(g *bot.Game) ([]bot.Notification, error) {
		g.BlackAway, g.PauseOffer, g.PausedAt = away, "alice", paused
		g.BankDays, g.WhiteBank, g.BlackBank = 3, 3*24*time.Hour, 5*time.Hour
		g.PausedDeadline, g.PausedRemindAt, g.Deadline = g.Deadline, g.Deadline.Add(-time.Hour), time.Time{}
		return nil, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.UpdatePreferences(ctx, "bob", func(p *bot.Preferences) error {
		p.VacationSince, p.VacationUntil, p.VacationYear, p.VacationUsed = t0, away, 2026, 4
		p.Digest, p.DigestHour, p.UTCOffset = true, 7, -330
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	db = mustOpenDB(t, path)
	got, err := db.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, u) {
		t.Errorf("read back\n%+v\nwant\n%+v", got, u)
	}
	if fs, err := db.Followers(ctx, g.ID); err != nil || !reflect.DeepEqual(fs, []string{"carol"}) {
		t.Errorf("followers read back %v, %v", fs, err)
	}
	if n, err := db.Note(ctx, g.ID, "alice"); err != nil || n != "castle long" || u.Version != g.Version+1 {
		t.Errorf("note read back %q, %v (game version %d, want %d)", n, err, u.Version, g.Version+1)
	}
	p, err := db.Preferences(ctx, "bob")
	if err != nil || !p.VacationSince.Equal(t0) || !p.VacationUntil.Equal(away) || p.VacationYear != 2026 || p.VacationUsed != 4 ||
		!p.Digest || p.DigestHour != 7 || p.UTCOffset != -330 {
		t.Errorf("preferences read back %+v, %v", p, err)
	}
	// The games_by_deadline index follows a deadline set aside.
	if due, err := db.GamesDue(ctx, t0.Add(1000*time.Hour)); err != nil || len(due) != 0 {
		t.Errorf("a paused game is due: %v, %v", due, err)
	}
}
