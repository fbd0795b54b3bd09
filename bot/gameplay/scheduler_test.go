package gameplay_test

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/internal/testkit"
)

// fakeTimer is a Scheduler's timer driven by the test: every sleep the
// scheduler starts is reported on asked, and it wakes when the test
// sends on fire.
type fakeTimer struct {
	asked chan time.Duration
	fire  chan time.Time
}

func newFakeTimer() *fakeTimer {
	return &fakeTimer{asked: make(chan time.Duration, 8), fire: make(chan time.Time)}
}

func (f *fakeTimer) after(d time.Duration) <-chan time.Time {
	f.asked <- d
	return f.fire
}

// sleep waits until the scheduler sleeps (its sweep is done) and returns
// for how long.
func (f *fakeTimer) sleep(tb testing.TB) time.Duration {
	tb.Helper()
	select {
	case d := <-f.asked:
		return d
	case <-time.After(10 * time.Second):
		tb.Fatal("the scheduler does not sleep")
	}
	return 0
}

// runScheduler starts a Scheduler over e.svc with a fake timer and the
// options; it is stopped (and must return nil) at cleanup.
func (e *env) runScheduler(tb testing.TB, log *slog.Logger, opts ...gameplay.SchedulerOption) (*gameplay.Scheduler, *fakeTimer) {
	tb.Helper()
	ft := newFakeTimer()
	s := gameplay.NewScheduler(e.svc, log, append([]gameplay.SchedulerOption{gameplay.SchedulerTimer(ft.after)}, opts...)...)
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- s.Run(runCtx) }()
	tb.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			tb.Errorf("Run returned %v, want nil", err)
		}
	})
	return s, ft
}

func TestSchedulerWakesAtDeadlinesAndReminders(t *testing.T) {
	e := newEnv(t)
	g := e.start(t, "chess")
	e.play(t, g.ID, "alice e4", "bob e5") // alice to act until t0+3d, reminded at t0+57.6h
	e.drain(t)
	var logs testkit.Buffer
	s, ft := e.runScheduler(t, slog.New(slog.NewTextHandler(&logs, nil)), gameplay.SchedulerMaxSleep(1000*time.Hour))

	if d := ft.sleep(t); d != 72*time.Hour*8/10 {
		t.Fatalf("first sleep %v, want until alice's reminder", d)
	}
	e.clock.Advance(72 * time.Hour * 8 / 10)
	ft.fire <- e.clock.Now()
	if d := ft.sleep(t); d != 72*time.Hour*2/10 {
		t.Fatalf("sleep after the reminder %v, want until the deadline", d)
	}
	if got := kinds(e.drain(t)); len(got) != 1 || got[0] != "reminder alice" {
		t.Fatalf("notifications %v", got)
	}

	// A move starts bob's clock: the adapter pokes, the scheduler looks
	// again without waiting.
	e.clock.Advance(time.Hour)
	e.play(t, g.ID, "alice Nf3")
	e.drain(t)
	s.Poke()
	if d := ft.sleep(t); d != 72*time.Hour*8/10 {
		t.Fatalf("sleep after the poke %v, want until bob's reminder", d)
	}
	// The clock jumps past bob's deadline (the machine slept): the
	// next wake-up ends the game.
	e.clock.Advance(100 * time.Hour)
	ft.fire <- e.clock.Now()
	if d := ft.sleep(t); d != 1000*time.Hour {
		t.Fatalf("sleep with nothing scheduled %v, want the longest", d)
	}
	if g := e.game(t, g.ID); g.Status != bot.GameFinished || g.Result != bot.WhiteWins || g.Reason != "timeout" {
		t.Errorf("bob ran out of time: %s %s %s", g.Status, g.Result, g.Reason)
	}
	if got := kinds(e.drain(t)); strings.Join(got, ",") != "game-over alice,game-over bob" {
		t.Errorf("notifications %v", got)
	}
	if l := logs.String(); !strings.Contains(l, "reminded=1") || !strings.Contains(l, "timed_out=1") {
		t.Errorf("log:\n%s", l)
	}
}

func TestSchedulerSleepsAtMostAnHour(t *testing.T) {
	e := newEnv(t)
	_, ft := e.runScheduler(t, slog.New(slog.DiscardHandler))
	if d := ft.sleep(t); d != time.Hour {
		t.Fatalf("sleep with nothing scheduled: %v, want 1h", d)
	}
	e.start(t, "chess") // due in days
	ft.fire <- e.clock.Now()
	if d := ft.sleep(t); d != time.Hour {
		t.Fatalf("sleep with a reminder in 57.6h: %v, want 1h", d)
	}
	// Something due in less than a second: a second, never a busy loop.
	e.clock.Advance(72*time.Hour*8/10 - time.Millisecond)
	ft.fire <- e.clock.Now()
	if d := ft.sleep(t); d != time.Second {
		t.Fatalf("sleep with a reminder in 1ms: %v, want 1s", d)
	}
	e.clock.Advance(time.Second)
	ft.fire <- e.clock.Now()
	if d := ft.sleep(t); d != time.Hour {
		t.Fatalf("sleep after the reminder: %v, want 1h", d)
	}
	if got := kinds(e.drain(t)); !strings.Contains(strings.Join(got, ","), "reminder alice") {
		t.Errorf("notifications %v", got)
	}
}

// openEnv opens the database at path with a Service on clock c.
func openEnv(tb testing.TB, path string, c *testkit.Clock) *env {
	tb.Helper()
	db := testkit.OpenDBAt(tb, path)
	return &env{db: db, clock: c, svc: testkit.Service(tb, db, c)}
}

func TestSchedulerAfterRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fairypost.db")
	c := testkit.NewClock(t0)
	first := openEnv(t, path, c)
	lost := first.start(t, "chess")
	first.play(t, lost.ID, "alice e4", "bob e5")
	aborted := first.start(t, "chess")
	reminded := first.challengeAccepted(t, gameplay.ChallengeRequest{Challenger: "carol", Challenged: "dave", DaysPerMove: 14})
	if _, err := first.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "erin", Challenged: "frank",
		ChannelID: "chan", Variant: "tank"}); err != nil {
		t.Fatal(err)
	}
	first.drain(t)
	// The process stops (no scheduler ran) and comes back 12 days later
	// with a new Service over the same file.
	if err := first.db.Close(); err != nil {
		t.Fatal(err)
	}
	c.Advance(12 * day)
	second := openEnv(t, path, c)
	var logs testkit.Buffer
	_, ft := second.runScheduler(t, slog.New(slog.NewTextHandler(&logs, nil)), gameplay.SchedulerMaxSleep(1000*time.Hour))
	if d := ft.sleep(t); d != 2*day {
		t.Errorf("sleep after catching up %v, want until carol's deadline in 2 days", d)
	}
	if g := second.game(t, lost.ID); g.Status != bot.GameFinished || g.Reason != "timeout" {
		t.Errorf("game %d: %s %s", g.ID, g.Status, g.Reason)
	}
	if g := second.game(t, aborted.ID); g.Status != bot.GameAborted {
		t.Errorf("game %d: %s", g.ID, g.Status)
	}
	if g := second.game(t, reminded.ID); g.Status != bot.GameActive || !g.Reminded {
		t.Errorf("game %d: %s, reminded %v", g.ID, g.Status, g.Reminded)
	}
	got := strings.Join(kinds(second.drain(t)), ",")
	want := "game-over alice,game-over bob,game-over alice,game-over bob,reminder carol,challenge-expired erin"
	if got != want {
		t.Errorf("notifications after the restart\n%s\nwant\n%s", got, want)
	}
	if l := logs.String(); !strings.Contains(l, "timed_out=1 aborted=1 reminded=1 expired=1") {
		t.Errorf("log:\n%s", l)
	}
}

func TestSchedulerStopsWithContext(t *testing.T) {
	e := newEnv(t)
	s := gameplay.NewScheduler(e.svc, nil, gameplay.SchedulerTimer(func(time.Duration) <-chan time.Time { return nil }))
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- s.Run(runCtx) }()
	s.Poke()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run returned %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not stop")
	}
}
