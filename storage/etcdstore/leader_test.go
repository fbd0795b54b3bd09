package etcdstore_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fairypost/fairypost/storage/etcdstore"
	"github.com/fairypost/fairypost/storage/etcdstore/etcdtest"
)

// candidate is one process taking part in an election in the test.
type candidate struct {
	store  *etcdstore.Store
	cancel context.CancelFunc
	done   chan error
	leads  atomic.Int64 // times elected
}

// TestLeaderFailover: three processes (three clients) campaign; exactly
// one runs the work at a time. The leader stopping (its context
// cancelled) hands over at once; the leader dying without a word (its
// connection closed, its lease left to expire, as after kill -9) is
// replaced once its lease runs out.
func TestLeaderFailover(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	prefix := openStore(t, c).Prefix()
	var running atomic.Int64
	var mu sync.Mutex
	var leaders []string
	cands := map[string]*candidate{}
	for _, id := range []string{"a", "b", "c"} {
		s, err := etcdstore.Open(context.Background(), etcdstore.Options{Endpoints: c.Endpoints, Prefix: prefix})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		ctx, cancel := context.WithCancel(context.Background())
		cd := &candidate{store: s, cancel: cancel, done: make(chan error, 1)}
		cands[id] = cd
		go func() {
			cd.done <- s.Lead(ctx, etcdstore.LeaderOptions{Name: "scheduler", ID: id, TTL: time.Second}, func(ctx context.Context) {
				if n := running.Add(1); n != 1 {
					t.Errorf("%s leads while %d others do", id, n-1)
				}
				cd.leads.Add(1)
				mu.Lock()
				leaders = append(leaders, id)
				mu.Unlock()
				<-ctx.Done()
				running.Add(-1)
			})
		}()
		t.Cleanup(func() { cancel(); <-cd.done })
	}
	leader := func(exclude ...string) string {
		t.Helper()
		wait, stop := context.WithTimeout(context.Background(), 30*time.Second)
		defer stop()
		for {
			mu.Lock()
			var last string
			if len(leaders) > 0 {
				last = leaders[len(leaders)-1]
			}
			mu.Unlock()
			ok := last != "" && running.Load() == 1
			for _, x := range exclude {
				ok = ok && last != x
			}
			if ok {
				return last
			}
			select {
			case <-wait.Done():
				t.Fatalf("no new leader (excluding %v); leaders so far %v", exclude, leaders)
			case <-time.After(5 * time.Millisecond):
			}
		}
	}
	first := leader()
	if got, err := cands[first].store.Leader(context.Background(), "scheduler"); err != nil || got != first {
		t.Errorf("Leader() = %q, %v; want %q", got, err, first)
	}
	// A graceful stop hands over.
	cands[first].cancel()
	if err := <-cands[first].done; err != nil {
		t.Errorf("Lead after its context ended: %v", err)
	}
	cands[first].done <- nil // for the cleanup
	second := leader(first)
	// A leader dying without a word: its lease expires and a third
	// process takes over.
	died := time.Now()
	cands[second].store.Client().Close()
	third := leader(first, second)
	t.Logf("leaders %v; takeover %v after the leader's connection was closed (lease 1s)", leaders, time.Since(died).Round(time.Millisecond))
	if third == "" || cands[third].leads.Load() != 1 {
		t.Errorf("third leader %q elected %d times", third, cands[third].leads.Load())
	}
	if err := <-cands[second].done; err == nil {
		t.Error("Lead on a closed client returned no error")
	}
	cands[second].done <- nil
}
