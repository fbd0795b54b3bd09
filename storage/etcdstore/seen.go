package etcdstore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
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

// seenTries bounds the tries of one FirstSeen call, the first waiting
// seenRetryPause before the second, each later one twice as long (the
// caller's context bounds them too).
const (
	seenTries      = 6
	seenRetryPause = 50 * time.Millisecond
)

// FirstSeen implements bot.ReplayGuard with one transaction: it puts
// P seen/KEY if no such key exists and reports whether it did. The key
// is attached to the lease of until's minute, which expires at the end
// of that minute, when etcd deletes the key by itself; so every process
// on the prefix sees the key until then, and nothing is left to sweep.
//
// A try that fails (a member lost, a leader being elected) is made
// again, up to seenTries times while ctx lasts. The value put is a token
// drawn for this call, and the transaction reads the key when it exists,
// so a try that committed but whose answer was lost is recognised by the
// next as this call's own: true, not a replay. A lease that etcd no
// longer knows (it expired early, or was revoked by hand) is granted
// anew.
func (s *Store) FirstSeen(ctx context.Context, key string, until time.Time) (bool, error) {
	if key == "" {
		return false, bot.Errorf(bot.EINVALID, "a replay guard key must not be empty")
	}
	var raw [8]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return false, fmt.Errorf("etcd: drawing a token: %w", err)
	}
	return s.firstSeen(ctx, key, until, hex.EncodeToString(raw[:]))
}

// firstSeen is FirstSeen with the call's token.
func (s *Store) firstSeen(ctx context.Context, key string, until time.Time, token string) (bool, error) {
	k := s.seenKey(key)
	pause := seenRetryPause
	var err error
	for try := 0; try < seenTries; try++ {
		if try > 0 {
			select {
			case <-time.After(pause):
				pause *= 2
			case <-ctx.Done():
				return false, fmt.Errorf("etcd: %w (after %v)", ctx.Err(), err)
			}
		}
		var lease clientv3.LeaseID
		if lease, err = s.seen.lease(ctx, s.c, until); err != nil {
			err = fmt.Errorf("a lease for %s: %w", k, err)
			continue
		}
		var r *clientv3.TxnResponse
		r, err = s.c.Txn(ctx).If(clientv3.Compare(clientv3.CreateRevision(k), "=", 0)).
			Then(clientv3.OpPut(k, token, clientv3.WithLease(lease))).Else(clientv3.OpGet(k)).Commit()
		if errors.Is(err, rpctypes.ErrLeaseNotFound) {
			s.seen.forget(lease)
			continue
		}
		if err != nil {
			continue
		}
		if r.Succeeded {
			return true, nil
		}
		kvs := r.Responses[0].GetResponseRange().Kvs
		return len(kvs) == 1 && string(kvs[0].Value) == token, nil
	}
	return false, fmt.Errorf("etcd: %w", err)
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
