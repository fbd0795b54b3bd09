package notify_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/notify"
)

// sender records what it is asked to send and fails for the users in
// failFor, each as many times as given there.
type sender struct {
	mu      sync.Mutex
	failFor map[string]int
	sent    []string // "kind user" of every successful send
	tries   int
}

func (s *sender) send(_ context.Context, n bot.Notification) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tries++
	if s.failFor[n.UserID] > 0 {
		s.failFor[n.UserID]--
		return errors.New("discord says no")
	}
	s.sent = append(s.sent, n.Kind.String()+" "+n.UserID)
	return nil
}

func (s *sender) got() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.sent...)
}

func TestRetryDelay(t *testing.T) {
	want := []time.Duration{30 * time.Second, time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute,
		16 * time.Minute, 32 * time.Minute, time.Hour, time.Hour}
	for attempts, w := range want {
		if got := notify.RetryDelay(attempts); got != w {
			t.Errorf("RetryDelay(%d) = %v, want %v", attempts, got, w)
		}
	}
	if got := notify.RetryDelay(1 << 20); got != time.Hour {
		t.Errorf("RetryDelay(huge) = %v, want 1h", got)
	}
}

func TestDelivererRetriesWithBackoff(t *testing.T) {
	e := newEnv(t)
	e.start(t, "chess") // challenge-received bob, challenge-accepted alice, your-turn alice
	s := &sender{failFor: map[string]int{"bob": 3}}
	var logs bytes.Buffer
	d := notify.NewDeliverer(e.db, s.send, e.clock.Now, slog.New(slog.NewTextHandler(&logs, nil)))

	n, err := d.RunOnce(ctx)
	if err != nil || n != 2 {
		t.Fatalf("first run delivered %d, %v; want 2", n, err)
	}
	if want := []string{"challenge-accepted alice", "your-turn alice"}; !reflect.DeepEqual(s.got(), want) {
		t.Fatalf("sent %v, want %v", s.got(), want)
	}
	if !strings.Contains(logs.String(), "discord says no") {
		t.Errorf("the failure is not logged: %q", logs.String())
	}
	pending := func() []bot.Notification {
		ns, err := e.db.PendingNotifications(ctx, endOfTime, 0)
		if err != nil {
			t.Fatal(err)
		}
		return ns
	}
	// bob's notification waits 30 s, then 1 min, then 2 min.
	for i, wait := range []time.Duration{30 * time.Second, time.Minute, 2 * time.Minute} {
		ns := pending()
		if len(ns) != 1 || ns[0].UserID != "bob" || ns[0].Attempts != i+1 || !ns[0].NotBefore.Equal(e.clock.Now().Add(wait)) {
			t.Fatalf("after %d failures the outbox holds %+v; want bob's with %d attempts, not before %v", i+1, ns, i+1, e.clock.Now().Add(wait))
		}
		tries := s.tries
		e.clock.Advance(wait - time.Nanosecond)
		if n, err := d.RunOnce(ctx); err != nil || n != 0 || s.tries != tries {
			t.Fatalf("retry %d came early: delivered %d, %v, %d tries", i+1, n, err, s.tries-tries)
		}
		e.clock.Advance(time.Nanosecond)
		n, err := d.RunOnce(ctx)
		if err != nil || s.tries != tries+1 {
			t.Fatalf("retry %d: %d tries, %v", i+1, s.tries-tries, err)
		}
		if i < 2 && n != 0 || i == 2 && n != 1 {
			t.Fatalf("retry %d delivered %d", i+1, n)
		}
	}
	if ns := pending(); len(ns) != 0 {
		t.Errorf("the outbox still holds %+v", ns)
	}
	if want := []string{"challenge-accepted alice", "your-turn alice", "challenge-received bob"}; !reflect.DeepEqual(s.got(), want) {
		t.Errorf("sent %v, want %v", s.got(), want)
	}
	if n, err := d.RunOnce(ctx); n != 0 || err != nil {
		t.Errorf("an empty outbox: %d, %v", n, err)
	}
}

func TestDelivererNeverDrops(t *testing.T) {
	e := newEnv(t)
	e.start(t, "chess")
	s := &sender{failFor: map[string]int{"alice": 1 << 30, "bob": 1 << 30}}
	d := notify.NewDeliverer(e.db, s.send, e.clock.Now, slog.New(slog.DiscardHandler))
	for i := 0; i < 20; i++ {
		if n, err := d.RunOnce(ctx); n != 0 || err != nil {
			t.Fatalf("run %d: %d, %v", i, n, err)
		}
		e.clock.Advance(time.Hour)
	}
	ns, err := e.db.PendingNotifications(ctx, endOfTime, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(ns) != 3 {
		t.Fatalf("%d notifications left, want all 3", len(ns))
	}
	for _, n := range ns {
		if n.Attempts != 20 {
			t.Errorf("%s %s: %d attempts, want 20", n.Kind, n.UserID, n.Attempts)
		}
	}
	// Once the adapter can send again, everything arrives.
	s.failFor = nil
	if n, err := d.RunOnce(ctx); n != 3 || err != nil {
		t.Errorf("after recovery: %d, %v; want 3", n, err)
	}
}

func TestDelivererManyInBatches(t *testing.T) {
	e := newEnv(t)
	for i := 0; i < 40; i++ { // 3 notifications each: more than one batch
		e.start(t, "chess")
	}
	s := &sender{failFor: map[string]int{"bob": 1 << 30}}
	d := notify.NewDeliverer(e.db, s.send, e.clock.Now, slog.New(slog.DiscardHandler))
	n, err := d.RunOnce(ctx)
	if err != nil || n != 80 {
		t.Fatalf("delivered %d, %v; want 80 (bob's 40 failing)", n, err)
	}
	ns, _ := e.db.PendingNotifications(ctx, endOfTime, 0)
	if len(ns) != 40 {
		t.Errorf("%d kept for a retry, want 40", len(ns))
	}
}

func TestDelivererRun(t *testing.T) {
	e := newEnv(t)
	e.start(t, "chess")
	s := &sender{}
	d := notify.NewDeliverer(e.db, s.send, e.clock.Now, slog.New(slog.DiscardHandler))
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- d.Run(runCtx, time.Hour) }()
	waitFor := func(n int) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); len(s.got()) < n; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("delivered %v, want %d", s.got(), n)
			}
		}
	}
	waitFor(3) // the first run happens at once
	g := e.start(t, "chess")
	d.Poke() // a poke delivers without waiting for the hour
	waitFor(6)
	e.play(t, g.ID, "alice e4")
	d.Poke()
	waitFor(7)
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run returned %v, want nil", err)
	}
}
