package notify_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/notify"
)

// TestDigest: a player with a daily digest gets no message per event;
// at the digest hour (in their time zone) one message lists the games
// where it is their turn and what happened since; reminders come at
// once. Without the digest, each event comes at once.
func TestDigest(t *testing.T) {
	e := newEnv(t)
	e.setDigest(t, "bob", true, 8, 120) // 08:00 at UTC+2: 06:00 UTC
	var sent []bot.Notification
	d := notify.NewDeliverer(e.db, func(_ context.Context, n bot.Notification) error {
		sent = append(sent, n)
		return nil
	}, e.clock.Now, slog.New(slog.DiscardHandler)).Digests(e.db)
	run := func() []string {
		t.Helper()
		sent = nil
		if _, err := d.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, n := range sent {
			out = append(out, n.Kind.String()+" "+n.UserID)
		}
		return out
	}
	g := e.start(t, "chess") // t0 = 12:00 UTC
	run()
	e.play(t, g.ID, "alice e4", "bob e5", "alice Nf3")
	if got := run(); strings.Join(got, ",") != "your-turn alice" {
		t.Errorf("sent %q: bob's turns are held, alice's is not", got)
	}
	// 06:00 UTC next day is bob's 08:00.
	e.clock.Advance(18*time.Hour - time.Minute)
	if got := run(); len(got) != 0 {
		t.Errorf("sent before the digest hour: %q", got)
	}
	e.clock.Advance(time.Minute)
	got := run()
	if strings.Join(got, ",") != "digest bob" {
		t.Fatalf("at the digest hour: %q", got)
	}
	if sent[0].ID == 0 {
		t.Error("the digest has no ID: a resend could not carry the same nonce")
	}
	// Only "your turn" notices were held: the adapter lists the games
	// where it is bob's turn, so the text has nothing more to say.
	if sent[0].Text != "" {
		t.Errorf("digest text %q: a your-turn notice is not repeated", sent[0].Text)
	}
	// A reminder is urgent: it comes at once.
	e.clock.Advance(2 * 24 * time.Hour)
	if _, err := e.svc.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	if got := run(); strings.Join(got, ",") != "reminder bob" {
		t.Errorf("reminder: sent %q", got)
	}
	// Off again: events come at once.
	e.setDigest(t, "bob", false, 0, 0)
	e.play(t, g.ID, "bob Nc6", "alice Bb5")
	if got := run(); strings.Join(got, ",") != "your-turn alice,your-turn bob" {
		t.Errorf("without the digest: sent %q", got)
	}
}

// TestDigestText: the digest's text leaves out "your turn" notices (the
// adapter lists those games with their moves and boards) and writes the
// times of the others in the user's time zone.
func TestDigestText(t *testing.T) {
	e := newEnv(t)
	e.setDigest(t, "bob", true, 8, -330) // UTC-5:30
	held := []bot.Notification{
		{ID: 7, Kind: bot.NotifyYourTurn, UserID: "bob", Text: "Your turn in game 1 (Chess). Move before 2026-03-04 12:00 UTC."},
		{ID: 9, Kind: bot.NotifyPause, UserID: "bob", Text: "<@alice> is on vacation until 2026-03-31 02:00 UTC at the latest:\nmeanwhile."},
	}
	n, err := notify.NewDigests(e.db).Digest(ctx, "bob", held, e.clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	want := "Since the last digest:\n• <@alice> is on vacation until 2026-03-30 20:30 UTC-5:30 at the latest: meanwhile."
	if n.ID != 7 || n.Kind != bot.NotifyDigest || n.Text != want {
		t.Errorf("digest %+v, want text %q", n, want)
	}
	for offset, want := range map[int]string{0: "2026-03-04 12:00 UTC", 120: "2026-03-04 14:00 UTC+2", -330: "2026-03-04 06:30 UTC-5:30",
		14 * 60: "2026-03-05 02:00 UTC+14"} {
		if got := notify.LocalTime(time.Date(2026, 3, 4, 12, 0, 0, 0, time.UTC), offset); got != want {
			t.Errorf("LocalTime at offset %d: %q, want %q", offset, got, want)
		}
	}
}
