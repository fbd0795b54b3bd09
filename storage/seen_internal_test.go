package storage

import (
	"fmt"
	"testing"
	"time"
)

// TestSeenSetExpiry: a key is seen until its until, new again after it,
// and the sweep (at most once a minute) drops the keys past their until
// while keeping the others.
func TestSeenSetExpiry(t *testing.T) {
	var s seenSet
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	if !s.firstSeen("a", t0.Add(5*time.Minute), t0) || !s.firstSeen("b", t0.Add(20*time.Minute), t0) {
		t.Fatal("new keys said they were seen")
	}
	if s.firstSeen("a", t0.Add(5*time.Minute), t0.Add(5*time.Minute)) {
		t.Error("a key at its until said it was new")
	}
	if !s.firstSeen("a", t0.Add(15*time.Minute), t0.Add(6*time.Minute)) {
		t.Error("a key past its until said it was still seen")
	}
	if s.firstSeen("a", t0.Add(15*time.Minute), t0.Add(7*time.Minute)) {
		t.Error("a key recorded again was not seen")
	}
	s.firstSeen("c", t0.Add(30*time.Minute), t0.Add(16*time.Minute)) // sweeps a
	if n := s.seenLen(); n != 2 {
		t.Errorf("after the sweep %d keys are held, want 2 (b and c)", n)
	}
	if s.firstSeen("b", t0.Add(20*time.Minute), t0.Add(16*time.Minute)) {
		t.Error("the sweep dropped a key before its until")
	}
}

// BenchmarkFirstSeen is the cost the replay guard adds to each request
// of the interactions endpoint on a bbolt file: a map in memory.
func BenchmarkFirstSeen(b *testing.B) {
	var s seenSet
	now := time.Now()
	until := now.Add(5 * time.Minute)
	keys := make([]string, b.N)
	for i := range keys {
		keys[i] = fmt.Sprintf("sig%d", i)
	}
	b.ResetTimer()
	for i := range b.N {
		if !s.firstSeen(keys[i], until, now) {
			b.Fatal("a new key was seen")
		}
	}
}
