package etcdstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/storage/etcdstore"
	"github.com/fairypost/fairypost/storage/etcdstore/etcdtest"
)

// TestWatchChanges: a change made through another client (another
// process) wakes the watcher: a new deadline its schedule function, a
// new notification its deliver function.
func TestWatchChanges(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	s := openStore(t, c)
	other, err := etcdstore.Open(context.Background(), etcdstore.Options{Endpoints: c.Endpoints, Prefix: s.Prefix()})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	schedule, deliver := make(chan struct{}, 100), make(chan struct{}, 100)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		s.WatchChanges(ctx, func() { schedule <- struct{}{} }, func() { deliver <- struct{}{} })
		close(done)
	}()
	defer func() { cancel(); <-done }()
	wait := func(what string, ch chan struct{}, change func()) {
		t.Helper()
		// The watch may start after the first change: change until woken.
		for range 200 {
			change()
			select {
			case <-ch:
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
		t.Fatalf("no call after %s", what)
	}
	g := addGame(t, other, "alice", "bob", "c1")
	wait("a deadline moved", schedule, func() {
		if _, err := other.UpdateGame(t.Context(), g.ID, bot.AnyVersion, func(g *bot.Game) ([]bot.Notification, error) {
			g.Deadline = g.Deadline.Add(-time.Minute)
			return nil, nil
		}); err != nil {
			t.Fatal(err)
		}
	})
	wait("a notification appended", deliver, func() {
		if _, err := other.AnnotateGame(t.Context(), g.ID, func(bot.Game, *bot.Annotations) ([]bot.Notification, error) {
			return []bot.Notification{{Text: "hello"}}, nil
		}); err != nil {
			t.Fatal(err)
		}
	})
}
