package storage_test

import (
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/storage"
)

// mustChallenge stores a pending challenge from challenger to challenged
// expiring at expires.
func mustChallenge(tb testing.TB, db *storage.DB, challenger, challenged string, expires time.Time) *bot.Challenge {
	tb.Helper()
	c := &bot.Challenge{Challenger: challenger, Challenged: challenged, ChannelID: "c1", Variant: "chess",
		DaysPerMove: 3, Color: bot.ColorRandom, Status: bot.ChallengePending, Expires: expires, Created: t0, Updated: t0}
	if err := db.CreateChallenge(ctx, c, nil); err != nil {
		tb.Fatal(err)
	}
	return c
}

// expiring returns the IDs ChallengesExpiring lists at t.
func expiring(tb testing.TB, db *storage.DB, t time.Time) []uint64 {
	tb.Helper()
	cs, err := db.ChallengesExpiring(ctx, t)
	if err != nil {
		tb.Fatal(err)
	}
	for _, c := range cs {
		if c.Status != bot.ChallengePending || c.Expires.After(t) {
			tb.Errorf("ChallengesExpiring(%v) lists %+v", t, c)
		}
	}
	return challengeIDs(cs)
}

// TestChallengesExpiring: pending challenges are listed by expiry (then
// ID) up to the time asked; a challenge leaves the list when it stops
// being pending and moves in it when its expiry changes.
func TestChallengesExpiring(t *testing.T) {
	db := mustOpenDB(t, "")
	c1 := mustChallenge(t, db, "alice", "bob", t0.Add(3*time.Hour))
	c2 := mustChallenge(t, db, "carol", "", t0.Add(time.Hour))
	c3 := mustChallenge(t, db, "dave", "erin", t0.Add(3*time.Hour)) // same expiry as c1: after it by ID
	c4 := mustChallenge(t, db, "erin", "alice", t0.Add(5*time.Hour))
	c5 := mustChallenge(t, db, "bob", "alice", time.Time{}) // no expiry set: due at once
	for _, c := range []struct {
		at   time.Time
		want []uint64
	}{
		{time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC), []uint64{c5.ID}},
		{t0, []uint64{c5.ID}},
		{t0.Add(time.Hour - 1), []uint64{c5.ID}},
		{t0.Add(time.Hour), []uint64{c5.ID, c2.ID}},
		{t0.Add(3 * time.Hour), []uint64{c5.ID, c2.ID, c1.ID, c3.ID}},
		{time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC), []uint64{c5.ID, c2.ID, c1.ID, c3.ID, c4.ID}},
	} {
		if got := expiring(t, db, c.at); !reflect.DeepEqual(got, c.want) {
			t.Errorf("expiring at %v: %v, want %v", c.at, got, c.want)
		}
	}

	// c1 accepted (into a game), c5 declined, c2 expired: they leave the
	// index. c4's expiry moves earlier.
	leave := []struct {
		c      *bot.Challenge
		status bot.ChallengeStatus
	}{{c1, bot.ChallengeAccepted}, {c5, bot.ChallengeDeclined}, {c2, bot.ChallengeExpired}}
	for _, l := range leave {
		_, _, err := db.UpdateChallenge(ctx, l.c.ID, l.c.Version, func(c *bot.Challenge) (bot.ChallengeChange, error) {
			c.Status = l.status
			if l.status == bot.ChallengeAccepted {
				return bot.ChallengeChange{Game: &bot.Game{Variant: "chess", White: c.Challenger, Black: c.Challenged, Status: bot.GameActive}}, nil
			}
			return bot.ChallengeChange{}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := db.UpdateChallenge(ctx, c4.ID, bot.AnyVersion, func(c *bot.Challenge) (bot.ChallengeChange, error) {
		c.Expires = t0.Add(2 * time.Hour)
		return bot.ChallengeChange{}, nil
	}); err != nil {
		t.Fatal(err)
	}
	// A refused update leaves the index alone.
	refused := errors.New("refused")
	if _, _, err := db.UpdateChallenge(ctx, c3.ID, bot.AnyVersion, func(c *bot.Challenge) (bot.ChallengeChange, error) {
		c.Status = bot.ChallengeCancelled
		return bot.ChallengeChange{}, refused
	}); err != refused {
		t.Fatalf("refused update: %v", err)
	}
	want := []uint64{c4.ID, c3.ID}
	if got := expiring(t, db, time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC)); !reflect.DeepEqual(got, want) {
		t.Errorf("after the updates: %v, want %v", got, want)
	}
	// Reopening keeps the index as it is (no second fill).
	path := db.Path()
	db.Close()
	db = mustOpenDB(t, path)
	if got := expiring(t, db, time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC)); !reflect.DeepEqual(got, want) {
		t.Errorf("after reopening: %v, want %v", got, want)
	}
}

// TestDeadlineIndexMoves: a game whose deadline changes moves in
// games_by_deadline (listed once, at the new time), and a finished game
// without a deadline leaves it.
func TestDeadlineIndexMoves(t *testing.T) {
	db := mustOpenDB(t, "")
	g1 := mustAddGame(t, db, "alice", "bob", "c1") // deadline t0+72h
	g2 := mustAddGame(t, db, "carol", "dave", "c1")
	due := func(at time.Time) []uint64 {
		gs, err := db.GamesDue(ctx, at)
		if err != nil {
			t.Fatal(err)
		}
		var ids []uint64
		for _, g := range gs {
			ids = append(ids, g.ID)
		}
		return ids
	}
	later := t0.Add(1000 * time.Hour)
	if got := due(later); !reflect.DeepEqual(got, []uint64{g1.ID, g2.ID}) {
		t.Fatalf("due: %v", got)
	}
	// g1's deadline moves later, past g2's, twice.
	for _, d := range []time.Duration{100 * time.Hour, 200 * time.Hour} {
		if _, err := db.UpdateGame(ctx, g1.ID, bot.AnyVersion, func(g *bot.Game) ([]bot.Notification, error) {
			g.Deadline = t0.Add(d)
			return nil, nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	if got := due(t0.Add(199 * time.Hour)); !reflect.DeepEqual(got, []uint64{g2.ID}) {
		t.Errorf("due before g1's new deadline: %v", got)
	}
	if got := due(later); !reflect.DeepEqual(got, []uint64{g2.ID, g1.ID}) {
		t.Errorf("due after g1's new deadline: %v, want [%d %d] once each", got, g2.ID, g1.ID)
	}
	// An update that keeps the deadline keeps one entry.
	if _, err := db.UpdateGame(ctx, g2.ID, bot.AnyVersion, func(g *bot.Game) ([]bot.Notification, error) {
		g.Reminded = true
		return nil, nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.UpdateGame(ctx, g1.ID, bot.AnyVersion, func(g *bot.Game) ([]bot.Notification, error) {
		g.Status, g.Result, g.Reason, g.Deadline = bot.GameFinished, bot.WhiteWins, "resignation", time.Time{}
		return nil, nil
	}); err != nil {
		t.Fatal(err)
	}
	if got := due(later); !reflect.DeepEqual(got, []uint64{g2.ID}) {
		t.Errorf("due after g1 finished: %v", got)
	}
}

// TestPreferences: defaults until stored; UpdatePreferences stores a
// copy with the version incremented; an error from fn changes nothing;
// fn cannot change the user or version; concurrent updates lose nothing.
func TestPreferences(t *testing.T) {
	db := mustOpenDB(t, "")
	p, err := db.Preferences(ctx, "alice")
	if err != nil || !reflect.DeepEqual(p, bot.DefaultPreferences("alice")) || p.Version != 0 {
		t.Fatalf("defaults: %+v %v", p, err)
	}
	p.Delivery = bot.DeliverOff // the caller's copy is its own
	if p, _ := db.Preferences(ctx, "alice"); p.Delivery != bot.DeliverDM {
		t.Errorf("changing a returned copy changed the store: %+v", p)
	}
	got, err := db.UpdatePreferences(ctx, "alice", func(p *bot.Preferences) error {
		if !reflect.DeepEqual(p, bot.DefaultPreferences("alice")) {
			t.Errorf("fn given %+v, want the defaults", p)
		}
		p.Delivery, p.ReminderPercent, p.DMBlocked = bot.DeliverChannel, 0, true
		p.UserID, p.Version = "mallory", 99
		return nil
	})
	want := &bot.Preferences{UserID: "alice", Version: 1, Delivery: bot.DeliverChannel, ReminderPercent: 0, DMBlocked: true}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("update: %+v %v, want %+v", got, err, want)
	}
	if p, _ := db.Preferences(ctx, "alice"); !reflect.DeepEqual(p, want) {
		t.Errorf("read back %+v, want %+v", p, want)
	}
	if p, _ := db.Preferences(ctx, "mallory"); p.Version != 0 {
		t.Errorf("fn's change of UserID stored preferences for mallory: %+v", p)
	}
	refused := bot.Errorf(bot.EINVALID, "No.")
	if _, err := db.UpdatePreferences(ctx, "alice", func(p *bot.Preferences) error {
		p.Delivery = bot.DeliverDM
		return refused
	}); err != refused {
		t.Errorf("fn's error: %v", err)
	}
	if p, _ := db.Preferences(ctx, "alice"); !reflect.DeepEqual(p, want) {
		t.Errorf("after a refused update %+v, want %+v", p, want)
	}
	if _, err := db.Preferences(ctx, ""); bot.ErrorCode(err) != bot.EINVALID {
		t.Errorf("no user: %v", err)
	}

	// 8 goroutines each add 1 to ReminderPercent 10 times.
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 10 {
				if _, err := db.UpdatePreferences(ctx, "bob", func(p *bot.Preferences) error {
					p.ReminderPercent++
					return nil
				}); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	if p, _ := db.Preferences(ctx, "bob"); p.Version != 80 || p.ReminderPercent != bot.DefaultReminderPercent+80 {
		t.Errorf("after 80 concurrent updates: %+v", p)
	}
	path := db.Path()
	db.Close()
	db = mustOpenDB(t, path)
	if p, _ := db.Preferences(ctx, "alice"); !reflect.DeepEqual(p, want) {
		t.Errorf("after reopening %+v, want %+v", p, want)
	}
}

// TestRetryNotification: a notification retried later is not pending
// before its NotBefore and is again from then on, with Attempts counted;
// order stays by ID; retrying one acknowledged is not an error.
func TestRetryNotification(t *testing.T) {
	db := mustOpenDB(t, "")
	for i := range 3 {
		mustAddGame(t, db, "alice", fmt.Sprint("user", i), "c1") // one notification each
	}
	all, err := db.PendingNotifications(ctx, t0, 0)
	if err != nil || len(all) != 3 {
		t.Fatalf("pending: %+v %v", all, err)
	}
	ids := func(now time.Time, limit int) []uint64 {
		ns, err := db.PendingNotifications(ctx, now, limit)
		if err != nil {
			t.Fatal(err)
		}
		var out []uint64
		for _, n := range ns {
			out = append(out, n.ID)
		}
		return out
	}
	n1, n2, n3 := all[0].ID, all[1].ID, all[2].ID
	if err := db.RetryNotification(ctx, n1, t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := db.RetryNotification(ctx, n2, t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		now   time.Time
		limit int
		want  []uint64
	}{
		{t0, 0, []uint64{n3}},
		{t0.Add(time.Minute - 1), 0, []uint64{n3}},
		{t0.Add(time.Minute), 0, []uint64{n1, n3}},
		{t0.Add(time.Minute), 1, []uint64{n1}},
		{t0.Add(time.Hour), 0, []uint64{n1, n2, n3}},
		{t0.Add(time.Hour), 2, []uint64{n1, n2}},
	} {
		if got := ids(c.now, c.limit); !reflect.DeepEqual(got, c.want) {
			t.Errorf("pending at %v (limit %d): %v, want %v", c.now, c.limit, got, c.want)
		}
	}
	// A second failure counts again.
	if err := db.RetryNotification(ctx, n1, t0.Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	ns, _ := db.PendingNotifications(ctx, t0.Add(2*time.Hour), 0)
	want := all[0]
	want.Attempts, want.NotBefore = 2, t0.Add(2*time.Hour)
	if len(ns) != 3 || !reflect.DeepEqual(ns[0], want) || ns[2].Attempts != 0 {
		t.Errorf("after two retries: %+v, want first %+v", ns, want)
	}
	if err := db.AckNotification(ctx, n1); err != nil {
		t.Fatal(err)
	}
	if err := db.RetryNotification(ctx, n1, t0.Add(3*time.Hour)); err != nil {
		t.Errorf("retrying an acknowledged notification: %v", err)
	}
	if got := ids(t0.Add(3*time.Hour), 0); !reflect.DeepEqual(got, []uint64{n2, n3}) {
		t.Errorf("after ack and a late retry: %v", got)
	}
}
