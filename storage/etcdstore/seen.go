package etcdstore

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/fairypost/fairypost/bot"
	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
)

var _ bot.ReplayGuard = (*Store)(nil)

// seenBucket is the span of the times until which keys of FirstSeen are
// kept that share one lease: the leases alive at once are bounded by the
// span of those times (a few minutes for the interactions endpoint) over
// seenBucket, however many keys are recorded.
const seenBucket = time.Minute

// seenKey is the key of FirstSeen's key: P seen/KEY.
func (s *Store) seenKey(key string) string { return s.p + "seen/" + key }

// FirstSeen implements bot.ReplayGuard with one transaction: it puts
// P seen/KEY if no such key exists and reports whether it did. The key
// is attached to the lease of until's minute, which expires at the end
// of that minute, when etcd deletes the key by itself; so every process
// on the prefix sees the key until then, and nothing is left to sweep.
// A lease that etcd no longer knows (it expired early, or was revoked by
// hand) is granted anew once.
func (s *Store) FirstSeen(ctx context.Context, key string, until time.Time) (bool, error) {
	if key == "" {
		return false, bot.Errorf(bot.EINVALID, "a replay guard key must not be empty")
	}
	k := s.seenKey(key)
	for try := 0; ; try++ {
		lease, err := s.seen.lease(ctx, s.c, until)
		if err != nil {
			return false, fmt.Errorf("etcd: a lease for %s: %w", k, err)
		}
		r, err := s.c.Txn(ctx).If(clientv3.Compare(clientv3.CreateRevision(k), "=", 0)).
			Then(clientv3.OpPut(k, "", clientv3.WithLease(lease))).Commit()
		if errors.Is(err, rpctypes.ErrLeaseNotFound) && try == 0 {
			s.seen.forget(lease)
			continue
		}
		if err != nil {
			return false, fmt.Errorf("etcd: %w", err)
		}
		return r.Succeeded, nil
	}
}

// seenLeases are the leases of FirstSeen, one per bucket of times. Its
// zero value is ready to use.
type seenLeases struct {
	mu     sync.Mutex
	byEnd  map[int64]*seenLease // by the end of their bucket, in Unix seconds
	pruned time.Time
}

// seenLease is one lease being granted or granted: ready is closed
// once id or err is set.
type seenLease struct {
	ready chan struct{}
	id    clientv3.LeaseID
	err   error
}

// lease returns the lease that outlives until: the one of until's bucket,
// granted by the first caller that needs it (the others wait for it), to
// expire at the bucket's end. A failed grant is not kept: the next call
// tries again.
func (l *seenLeases) lease(ctx context.Context, c *clientv3.Client, until time.Time) (clientv3.LeaseID, error) {
	end := until.Truncate(seenBucket).Add(seenBucket)
	now := time.Now()
	l.mu.Lock()
	if l.byEnd == nil {
		l.byEnd = make(map[int64]*seenLease)
	}
	if now.Sub(l.pruned) >= seenBucket { // leases past their end have expired in etcd
		for e := range l.byEnd {
			if time.Unix(e, 0).Before(now) {
				delete(l.byEnd, e)
			}
		}
		l.pruned = now
	}
	e, ok := l.byEnd[end.Unix()]
	if !ok {
		e = &seenLease{ready: make(chan struct{})}
		l.byEnd[end.Unix()] = e
	}
	l.mu.Unlock()
	if !ok {
		e.id, e.err = grantUntil(ctx, c, end, now)
		if e.err != nil {
			l.mu.Lock()
			if l.byEnd[end.Unix()] == e {
				delete(l.byEnd, end.Unix())
			}
			l.mu.Unlock()
		}
		close(e.ready)
	}
	select {
	case <-e.ready:
		return e.id, e.err
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// grantUntil grants a lease that expires no earlier than end: its TTL is
// counted in whole seconds from now, plus one for the time the grant
// takes to reach etcd. etcd raises a TTL below its minimum to the minimum.
func grantUntil(ctx context.Context, c *clientv3.Client, end, now time.Time) (clientv3.LeaseID, error) {
	ttl := int64(math.Ceil(end.Sub(now).Seconds())) + 1
	r, err := c.Grant(ctx, max(ttl, 1))
	if err != nil {
		return 0, err
	}
	return r.ID, nil
}

// forget drops lease id, which etcd no longer knows, so that the next
// call grants a new one.
func (l *seenLeases) forget(id clientv3.LeaseID) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for end, e := range l.byEnd {
		select {
		case <-e.ready:
			if e.id == id {
				delete(l.byEnd, end)
			}
		default:
		}
	}
}

// seenLeaseCount returns how many leases l holds (tests).
func (l *seenLeases) seenLeaseCount() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.byEnd)
}
