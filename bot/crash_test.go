package bot_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/internal/testkit"
	"github.com/fairypost/fairypost/storage"
)

// TestDelivererSurvivesPanic: a send that panics on one notification
// (a bug in an adapter) does not stop delivery: the others are sent, the
// crash is logged with the notification, and after MaxDeliveryCrashes
// crashes that notification is set aside for good instead of being
// retried forever.
func TestDelivererSurvivesPanic(t *testing.T) {
	e := newEnv(t)
	e.start(t, "chess") // challenge-received bob, challenge-accepted alice, your-turn alice
	s := &sender{}
	crashes := 0
	send := func(ctx context.Context, n bot.Notification) error {
		if n.UserID == "bob" {
			crashes++
			var m map[string]int
			m["boom"]++ // a nil map: a real runtime panic
		}
		return s.send(ctx, n)
	}
	var logs bytes.Buffer
	d := bot.NewDeliverer(e.db, send, e.clock.Now, slog.New(slog.NewTextHandler(&logs, nil)))

	for run := 1; run <= bot.MaxDeliveryCrashes; run++ {
		n, err := d.RunOnce(ctx)
		if err != nil {
			t.Fatalf("run %d: %v", run, err)
		}
		if want := map[bool]int{true: 2, false: 0}[run == 1]; n != want {
			t.Fatalf("run %d delivered %d, want %d", run, n, want)
		}
		if crashes != run {
			t.Fatalf("run %d: bob's notification was tried %d times", run, crashes)
		}
		e.clock.Advance(time.Hour)
	}
	if want := []string{"challenge-accepted alice", "your-turn alice"}; !reflect.DeepEqual(s.got(), want) {
		t.Errorf("sent %v, want %v", s.got(), want)
	}
	if ns, err := e.db.PendingNotifications(ctx, endOfTime, 0); err != nil || len(ns) != 0 {
		t.Errorf("still pending after %d crashes: %v, %v", bot.MaxDeliveryCrashes, ns, err)
	}
	aside, reasons, err := e.db.SetAsideNotifications(ctx)
	if err != nil || len(aside) != 1 || aside[0].UserID != "bob" || !strings.Contains(reasons[0], "crashed 3 times") ||
		!strings.Contains(reasons[0], "nil map") {
		t.Errorf("set aside: %v %q, %v; want bob's challenge, crashed 3 times", aside, reasons, err)
	}
	if n, err := d.RunOnce(ctx); n != 0 || err != nil || crashes != bot.MaxDeliveryCrashes {
		t.Errorf("a run after setting aside: %d, %v, %d tries", n, err, crashes)
	}
	log := logs.String()
	for _, want := range []string{"delivering a notification crashed; will retry", "user=bob", "nil map",
		"notification set aside", "kind=challenge-received"} {
		if !strings.Contains(log, want) {
			t.Errorf("the log lacks %q:\n%s", want, log)
		}
	}
}

func itoa(v uint64) string { return strconv.FormatUint(v, 10) }

// panickyOutbox is an outbox whose reads panic, as bbolt does on a page
// it cannot read.
type panickyOutbox struct{ *storage.DB }

func (panickyOutbox) PendingNotifications(context.Context, time.Time, int) ([]bot.Notification, error) {
	panic("page 3: unexpected page type")
}

// TestDelivererOutboxPanic: a panic while reading the outbox is an error
// of RunOnce, and Run goes on serving.
func TestDelivererOutboxPanic(t *testing.T) {
	e := newEnv(t)
	var logs testkit.Buffer // written by Run's goroutine while the test reads it
	d := bot.NewDeliverer(panickyOutbox{e.db}, (&sender{}).send, e.clock.Now, slog.New(slog.NewTextHandler(&logs, nil)))
	_, err := d.RunOnce(ctx)
	var p *bot.PanicError
	if !errors.As(err, &p) || !strings.Contains(err.Error(), "unexpected page type") {
		t.Fatalf("RunOnce: %v, want a PanicError", err)
	}
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- d.Run(runCtx, 10*time.Millisecond) }()
	for deadline := time.Now().Add(10 * time.Second); strings.Count(logs.String(), "unexpected page type") < 2; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("Run did not go on after a panic; logs:\n%s", logs.String())
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run: %v", err)
	}
}

// crashingGames is a game store whose updates of one game panic.
type crashingGames struct {
	*storage.DB
	id uint64
}

func (c crashingGames) UpdateGame(ctx context.Context, id, expected uint64, fn func(*bot.Game) ([]bot.Notification, error)) (*bot.Game, error) {
	if id == c.id {
		panic("a bug handling this game")
	}
	return c.DB.UpdateGame(ctx, id, expected, fn)
}

// TestSweepSurvivesPanic: a game whose handling panics does not stop the
// sweep: the other game due is timed out, and the error names the game
// that crashed. The Scheduler logs it and goes on.
func TestSweepSurvivesPanic(t *testing.T) {
	e := newEnv(t)
	e.noReminders(t, "alice", "bob")
	g1 := e.start(t, "chess")
	e.play(t, g1.ID, "alice e4", "bob e5")
	g2 := e.start(t, "chess")
	e.play(t, g2.ID, "alice e4", "bob e5")
	e.clock.Advance(3 * day)
	svc := bot.NewService(bot.Stores{Games: crashingGames{e.db, g1.ID}, Challenges: e.db, Users: e.db, Outbox: e.db},
		registry(t), bot.Clock(e.clock.Now))
	rep, err := svc.Sweep(ctx)
	var p *bot.PanicError
	if !errors.As(err, &p) || !strings.Contains(err.Error(), "game "+itoa(g1.ID)) || rep.TimedOut != 1 {
		t.Fatalf("sweep: %+v, %v; want game %d timed out and a panic of game %d", rep, err, g2.ID, g1.ID)
	}
	if g := e.game(t, g2.ID); g.Status != bot.GameFinished {
		t.Errorf("game %d: %s", g2.ID, g.Status)
	}

	var logs bytes.Buffer
	runCtx, cancel := context.WithCancel(ctx)
	fire := make(chan time.Time)
	sched := bot.NewScheduler(svc, slog.New(slog.NewTextHandler(&logs, nil)),
		bot.SchedulerTimer(func(time.Duration) <-chan time.Time { return fire }))
	done := make(chan error, 1)
	go func() { done <- sched.Run(runCtx) }()
	for i := 0; i < 2; i++ {
		fire <- time.Time{} // the scheduler sleeps again after each failed sweep
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run: %v", err)
	}
	if n := strings.Count(logs.String(), "a bug handling this game"); n < 2 {
		t.Errorf("the crash was logged %d times over three sweeps:\n%s", n, logs.String())
	}
}
