package discord

import (
	"testing"
	"time"
)

// TestReplayCache: a signature is accepted once; the cache never holds
// more than its capacity, and once it had to forget an entry it refuses
// every timestamp up to the forgotten one's (it can no longer tell a
// replay of those); expired entries are dropped.
func TestReplayCache(t *testing.T) {
	c := newReplayCache(3)
	later := time.Now().Add(time.Hour)
	for k, sig := range []string{"a", "b", "c"} {
		if !c.add(int64(100+k), sig, later) {
			t.Fatalf("new signature %s refused", sig)
		}
	}
	if c.add(101, "b", later) {
		t.Error("a replayed (timestamp, signature) accepted")
	}
	if !c.add(101, "b2", later) {
		t.Error("another signature at the same second refused")
	}
	// "b2" made a fourth entry: "a" (timestamp 100) was forgotten.
	if n := c.len(); n != 3 {
		t.Errorf("%d entries, capacity 3", n)
	}
	if c.add(100, "a", later) || c.add(99, "z", later) {
		t.Error("a timestamp at or below a forgotten entry's was accepted")
	}
	for k := range 1000 {
		c.add(int64(200+k), "s", later)
	}
	if n, order := c.len(), len(c.order); n != 3 || order > 6 {
		t.Errorf("after 1,000 signatures: %d entries, %d slots kept", n, order)
	}
	// Expired entries are dropped at the next add.
	d := newReplayCache(10)
	d.add(1, "x", time.Now().Add(-time.Second))
	d.add(2, "y", time.Now().Add(-time.Second))
	if !d.add(3, "z", later) || d.len() != 1 {
		t.Errorf("expired entries kept: %d entries", d.len())
	}
	if !d.add(1, "x", later) {
		t.Error("an expired entry still refused (no floor is set by expiry)")
	}
}

// TestReplayCacheForget: a signature forgotten (its request was refused
// because the shared guard failed) is accepted again, once, and the
// entry it left in the insertion order does not break the capacity.
func TestReplayCacheForget(t *testing.T) {
	c := newReplayCache(2)
	later := time.Now().Add(time.Hour)
	if !c.add(100, "a", later) {
		t.Fatal("new signature refused")
	}
	c.forget(100, "a")
	if !c.add(100, "a", later) {
		t.Fatal("a forgotten signature was refused")
	}
	if c.add(100, "a", later) {
		t.Fatal("a signature added again after being forgotten was accepted twice")
	}
	if !c.add(101, "b", later) || c.len() > 2 {
		t.Fatalf("another signature: the cache holds %d entries, at most 2", c.len())
	}
}
