package etcdstore_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/storage/etcdstore"
	"github.com/fairypost/fairypost/storage/etcdstore/etcdtest"
)

// TestQuorum: on a three-member cluster whose raft leader crashes (its
// connections cut, its raft stopped without handing over leadership),
// the two members left (a quorum of 2/3) elect a leader and go on:
// writes through a client that knew all three members succeed, and two
// clients, each talking only to one of the two members left, racing to
// update a game at the same version get one success and one ECONFLICT,
// as on a whole cluster. With a second member stopped, no quorum is
// left: a write fails. (A request already on its way to the crashed
// leader fails after etcd's request timeout, seconds: the test starts
// once the two members left have elected a leader, as a client trying
// again would.)
func TestQuorum(t *testing.T) {
	c := etcdtest.Start(t, 3, etcdtest.Options{Relay: true})
	all := openStore(t, c)
	g := addGame(t, all, "alice", "bob", "c1")

	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	lead := -1
	for lead < 0 { // the leader is known once the members agree
		if lead = c.Leader(); lead < 0 {
			select {
			case <-ctx.Done():
				t.Fatal("no raft leader")
			case <-time.After(10 * time.Millisecond):
			}
		}
	}
	c.Kill(lead)
	for now := c.Leader(); now < 0 || now == lead; now = c.Leader() {
		select {
		case <-ctx.Done():
			t.Fatal("the members left elected no leader")
		case <-time.After(10 * time.Millisecond):
		}
	}
	var left []int
	for i := range c.Endpoints {
		if c.Running(i) {
			left = append(left, i)
		}
	}
	if len(left) != 2 {
		t.Fatalf("members running after stopping %d: %v", lead, left)
	}
	pinned := make([]*etcdstore.Store, 2)
	for k, i := range left {
		s, err := etcdstore.Open(ctx, etcdstore.Options{Endpoints: []string{c.Endpoints[i]}, Prefix: all.Prefix()})
		if err != nil {
			t.Fatalf("open on member %d: %v", i, err)
		}
		defer s.Close()
		pinned[k] = s
	}

	move := func(s *etcdstore.Store, g *bot.Game, m string) (*bot.Game, error) {
		return s.UpdateGame(ctx, g.ID, g.Version, func(g *bot.Game) ([]bot.Notification, error) {
			g.Moves = append(g.Moves, m)
			return []bot.Notification{{Kind: bot.NotifyYourTurn, UserID: "bob", GameID: g.ID, Text: m}}, nil
		})
	}
	for i, m := range []string{"e2e4", "e7e5", "g1f3"} {
		var err error
		if g, err = move(all, g, m); err != nil {
			t.Fatalf("write %d after the leader member stopped: %v", i, err)
		}
	}

	// The race: both read version v and write at v.
	var wg sync.WaitGroup
	got := make([]*bot.Game, 2)
	errs := make([]error, 2)
	for k, s := range pinned {
		wg.Go(func() { got[k], errs[k] = move(s, g, []string{"b8c6", "g8f6"}[k]) })
	}
	wg.Wait()
	won := -1
	for k := range pinned {
		switch {
		case errs[k] == nil:
			if won >= 0 {
				t.Fatalf("both racing updates at version %d succeeded", g.Version)
			}
			won = k
		case bot.ErrorCode(errs[k]) != bot.ECONFLICT:
			t.Fatalf("update through member %d: %v, want success or %s", left[k], errs[k], bot.ECONFLICT)
		}
	}
	if won < 0 {
		t.Fatalf("neither racing update succeeded: %v", errs)
	}
	stored, err := pinned[1-won].Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if want := append(append([]string{}, g.Moves...), got[won].Moves[len(g.Moves)]); stored.Version != g.Version+1 ||
		len(stored.Moves) != len(want) || stored.Moves[len(want)-1] != want[len(want)-1] {
		t.Errorf("stored game version %d moves %v; want version %d moves %v", stored.Version, stored.Moves, g.Version+1, want)
	}
	if ns, err := all.PendingNotifications(ctx, time.Now(), 0); err != nil || len(ns) != 4 {
		t.Errorf("%d notifications waiting (%v), want 4: one per update that succeeded", len(ns), err)
	}

	// One member of three: no quorum, nothing is written.
	c.Kill(left[0])
	short, stop := context.WithTimeout(ctx, 2*time.Second)
	defer stop()
	if _, err := pinned[1].UpdateGame(short, g.ID, stored.Version, func(g *bot.Game) ([]bot.Notification, error) {
		g.Moves = append(g.Moves, "f1c4")
		return nil, nil
	}); err == nil {
		t.Error("a write succeeded with one member of three running")
	}
}
