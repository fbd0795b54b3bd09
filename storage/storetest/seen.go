package storetest

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
)

// OpenGuard returns the replay guard of a fresh, empty backend for test
// t, closed when t ends.
type OpenGuard func(t *testing.T) bot.ReplayGuard

// RunReplayGuard runs the conformance tests of bot.ReplayGuard as
// subtests of t, each on a guard of its own from open.
func RunReplayGuard(t *testing.T, open OpenGuard) {
	tests := []struct {
		name string
		fn   func(*testing.T, bot.ReplayGuard)
	}{
		{"FirstThenSeen", testFirstThenSeen},
		{"KeysIndependent", testKeysIndependent},
		{"EmptyKeyRefused", testEmptyKeyRefused},
		{"ConcurrentSameKey", testConcurrentSameKey},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, open(t)) })
	}
}

// firstSeen calls g.FirstSeen, failing t on an error.
func firstSeen(t *testing.T, g bot.ReplayGuard, key string, until time.Time) bool {
	t.Helper()
	ok, err := g.FirstSeen(t.Context(), key, until)
	if err != nil {
		t.Fatalf("FirstSeen(%q): %v", key, err)
	}
	return ok
}

// testFirstThenSeen: a key is new the first time, and seen every later
// time while it is remembered.
func testFirstThenSeen(t *testing.T, g bot.ReplayGuard) {
	until := time.Now().Add(5 * time.Minute)
	if !firstSeen(t, g, "k1", until) {
		t.Fatal("the first FirstSeen of a key said it was seen before")
	}
	for i := range 3 {
		if firstSeen(t, g, "k1", until) {
			t.Fatalf("call %d with the same key said it was new", i+2)
		}
	}
	// A later until does not make the key new again.
	if firstSeen(t, g, "k1", until.Add(time.Minute)) {
		t.Fatal("the same key with a later until said it was new")
	}
}

// testKeysIndependent: recording one key does not record another, also
// when one is a prefix of the other.
func testKeysIndependent(t *testing.T, g bot.ReplayGuard) {
	until := time.Now().Add(5 * time.Minute)
	keys := []string{"ab", "abc", "a", "b0c1", "B0C1"}
	for _, k := range keys {
		if !firstSeen(t, g, k, until) {
			t.Errorf("key %q said it was seen before, after only other keys", k)
		}
	}
	for _, k := range keys {
		if firstSeen(t, g, k, until) {
			t.Errorf("key %q said it was new the second time", k)
		}
	}
}

// testEmptyKeyRefused: an empty key is EINVALID and records nothing.
func testEmptyKeyRefused(t *testing.T, g bot.ReplayGuard) {
	ok, err := g.FirstSeen(t.Context(), "", time.Now().Add(time.Minute))
	if ok || bot.ErrorCode(err) != bot.EINVALID {
		t.Errorf("FirstSeen of an empty key: %v, %v; want false and EINVALID", ok, err)
	}
}

// testConcurrentSameKey: of many concurrent calls with one key, exactly
// one gets true; each of several keys raced at once has its own winner.
func testConcurrentSameKey(t *testing.T, g bot.ReplayGuard) {
	const workers, keys = 8, 4
	until := time.Now().Add(5 * time.Minute)
	won := make([][]bool, keys)
	for k := range won {
		won[k] = make([]bool, workers)
	}
	start := make(chan struct{})
	var wg sync.WaitGroup
	for k := range keys {
		for w := range workers {
			wg.Go(func() {
				<-start
				ok, err := g.FirstSeen(t.Context(), fmt.Sprintf("race-%d", k), until)
				if err != nil {
					t.Error(err)
				}
				won[k][w] = ok
			})
		}
	}
	close(start)
	wg.Wait()
	for k, ws := range won {
		n := 0
		for _, ok := range ws {
			if ok {
				n++
			}
		}
		if n != 1 {
			t.Errorf("key race-%d: %d of %d concurrent calls were told they were first, want exactly 1", k, n, workers)
		}
	}
}
