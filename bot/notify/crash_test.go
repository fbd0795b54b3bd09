package notify_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/bot/notify"
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
	d := notify.NewDeliverer(e.db, send, e.clock.Now, slog.New(slog.NewTextHandler(&logs, nil)))

	for run := 1; run <= notify.MaxDeliveryCrashes; run++ {
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
		t.Errorf("still pending after %d crashes: %v, %v", notify.MaxDeliveryCrashes, ns, err)
	}
	aside, reasons, err := e.db.SetAsideNotifications(ctx)
	if err != nil || len(aside) != 1 || aside[0].UserID != "bob" || !strings.Contains(reasons[0], "crashed 3 times") ||
		!strings.Contains(reasons[0], "nil map") {
		t.Errorf("set aside: %v %q, %v; want bob's challenge, crashed 3 times", aside, reasons, err)
	}
	if n, err := d.RunOnce(ctx); n != 0 || err != nil || crashes != notify.MaxDeliveryCrashes {
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
	d := notify.NewDeliverer(panickyOutbox{e.db}, (&sender{}).send, e.clock.Now, slog.New(slog.NewTextHandler(&logs, nil)))
	_, err := d.RunOnce(ctx)
	var p *gameplay.PanicError
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
