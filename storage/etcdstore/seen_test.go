package etcdstore_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/fairypost/fairypost/storage/etcdstore/etcdtest"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// TestFirstSeenLeases: a recorded key is attached to a lease that lives
// at least until the key's until (so etcd deletes it by itself, and no
// earlier); keys whose untils fall in one minute share one lease, so 50
// keys make at most two leases (the minute may turn during the test).
func TestFirstSeenLeases(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	s := openStore(t, c)
	ctx := t.Context()
	before, err := s.Client().Leases(ctx)
	if err != nil {
		t.Fatal(err)
	}
	until := time.Now().Add(5 * time.Minute)
	for i := range 50 {
		if ok, err := s.FirstSeen(ctx, fmt.Sprintf("sig%d", i), until); err != nil || !ok {
			t.Fatalf("key %d: %v, %v", i, ok, err)
		}
	}
	after, err := s.Client().Leases(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(after.Leases) - len(before.Leases); n < 1 || n > 2 {
		t.Errorf("50 keys with one until made %d leases, want 1 (2 if the minute turned)", n)
	}
	if n := s.SeenLeaseCount(); n != 1 {
		t.Errorf("the store holds %d leases for one until, want 1", n)
	}
	r, err := s.Client().Get(ctx, s.Prefix()+"seen/sig7")
	if err != nil || len(r.Kvs) != 1 {
		t.Fatalf("the recorded key: %v, %v", r, err)
	}
	lease := clientv3.LeaseID(r.Kvs[0].Lease)
	if lease == 0 {
		t.Fatal("the recorded key has no lease: it would never be deleted")
	}
	ttl, err := s.Client().TimeToLive(ctx, lease)
	if err != nil {
		t.Fatal(err)
	}
	if left := time.Duration(ttl.TTL) * time.Second; left < time.Until(until) || left > time.Until(until)+seenSlack {
		t.Errorf("the key's lease has %v left; want between %v (until) and a minute more", left, time.Until(until).Round(time.Second))
	}
}

// seenSlack is how much longer than until a lease may live: to the end
// of until's minute, plus a second.
const seenSlack = time.Minute + 2*time.Second

// TestFirstSeenLeaseGone: when the shared lease is revoked behind the
// store's back (its keys go with it), the next call grants a new lease
// instead of failing, and the key it records is kept.
func TestFirstSeenLeaseGone(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	s := openStore(t, c)
	ctx := t.Context()
	until := time.Now().Add(5 * time.Minute)
	if ok, err := s.FirstSeen(ctx, "a", until); err != nil || !ok {
		t.Fatalf("first key: %v, %v", ok, err)
	}
	r, err := s.Client().Get(ctx, s.Prefix()+"seen/a")
	if err != nil || len(r.Kvs) != 1 {
		t.Fatalf("the recorded key: %v, %v", r, err)
	}
	if _, err := s.Client().Revoke(ctx, clientv3.LeaseID(r.Kvs[0].Lease)); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.FirstSeen(ctx, "b", until); err != nil || !ok {
		t.Fatalf("a key after the lease was revoked: %v, %v; want true and no error", ok, err)
	}
	if ok, err := s.FirstSeen(ctx, "b", until); err != nil || ok {
		t.Fatalf("that key again: %v, %v; want false", ok, err)
	}
}

// BenchmarkFirstSeen is the cost the replay guard adds to each request
// of the interactions endpoint on etcd: one transaction (a raft commit,
// fsync on, one member) with a new key each time.
func BenchmarkFirstSeen(b *testing.B) {
	c := etcdtest.Start(b, 1, etcdtest.Options{Fsync: true})
	s := openStore(b, c)
	until := time.Now().Add(5 * time.Minute)
	b.ResetTimer()
	for i := range b.N {
		if ok, err := s.FirstSeen(b.Context(), fmt.Sprintf("sig%d", i), until); err != nil || !ok {
			b.Fatal(ok, err)
		}
	}
}

// TestFirstSeenOwnTry: a try made again by the same call (its first try
// committed, but the answer was lost) finds the key with the call's own
// token and answers true; any other call answers false.
func TestFirstSeenOwnTry(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	s := openStore(t, c)
	ctx := t.Context()
	until := time.Now().Add(5 * time.Minute)
	for i, want := range []bool{true, true} {
		if ok, err := s.FirstSeenToken(ctx, "k", until, "call1"); err != nil || ok != want {
			t.Fatalf("try %d of the same call: %v, %v; want %v", i+1, ok, err, want)
		}
	}
	if ok, err := s.FirstSeenToken(ctx, "k", until, "call2"); err != nil || ok {
		t.Fatalf("another call: %v, %v; want false", ok, err)
	}
	if ok, err := s.FirstSeen(ctx, "k", until); err != nil || ok {
		t.Fatalf("FirstSeen after those: %v, %v; want false", ok, err)
	}
}
