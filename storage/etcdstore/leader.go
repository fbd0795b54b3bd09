package etcdstore

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// LeaderOptions configures Lead.
type LeaderOptions struct {
	// Name is the election ("scheduler"): processes leading different
	// names do not exclude each other. Its keys live under the store's
	// prefix, in election/NAME/.
	Name string
	// ID names this process among the candidates (for logs and
	// etcdctl): a host name and process ID, for instance.
	ID string
	// TTL is the lease of the leader: a leader that stops renewing it
	// (a process killed, a machine cut off) is replaced about TTL later.
	// The lease is renewed every TTL/6 and a failed renewal tried again
	// at once, so it outlives an etcd election shorter than about 5/6 of
	// TTL (an election lasts up to twice the members' election timeout).
	// Whole seconds, at least one; 0 is 5 seconds.
	TTL time.Duration
	// Logger receives a line when leadership is won and lost; nil logs
	// nothing.
	Logger *slog.Logger
}

// Lead runs fn while this process leads the election opts.Name among the
// processes sharing the store's cluster and prefix, and campaigns again
// each time it stops leading, until ctx is done. At most one process of
// the election runs fn at a time, up to the lease: fn's context is
// cancelled when ctx is done or the lease is lost (the cluster
// unreachable for TTL), and fn must then return promptly. A process
// whose lease expired may still be finishing fn while the next leader
// starts, so fn's work must tolerate a short overlap: the stores' version
// checks make a second application of the same change fail, and a
// notification may then be delivered twice. Lead returns nil when ctx is
// done, or the error that made it give up (the store's client closed).
func (s *Store) Lead(ctx context.Context, opts LeaderOptions, fn func(context.Context)) error {
	if opts.Name == "" {
		return errors.New("etcd election: no name")
	}
	ttl := int((opts.TTL + time.Second - 1) / time.Second)
	if opts.TTL == 0 {
		ttl = 5
	}
	if ttl < 1 {
		return fmt.Errorf("etcd election %s: lease %v, want at least 1s", opts.Name, opts.TTL)
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	for {
		if ctx.Err() != nil {
			return nil
		}
		if err := s.c.Ctx().Err(); err != nil {
			return fmt.Errorf("etcd election %s: client closed: %w", opts.Name, err)
		}
		err := s.leadOnce(ctx, opts, ttl, log, fn)
		if err == nil || ctx.Err() != nil {
			continue
		}
		log.Warn("etcd: election failed; trying again", "election", opts.Name, "err", err)
		select {
		case <-ctx.Done():
		case <-s.c.Ctx().Done():
		case <-time.After(time.Second):
		}
	}
}

// leadOnce takes a lease, campaigns, runs fn while leading, and gives up
// the leadership (when the lease is still there to give up).
func (s *Store) leadOnce(ctx context.Context, opts LeaderOptions, ttl int, log *slog.Logger, fn func(context.Context)) error {
	// The lease is granted under ctx, but kept alive (and revoked on the
	// way out) under a context that outlives ctx: a process stopping
	// gives the leadership up at once instead of letting it expire.
	granted := time.Now()
	lease, err := s.c.Grant(ctx, int64(ttl))
	if err != nil {
		return err
	}
	sess, err := concurrency.NewSession(s.c, concurrency.WithLease(lease.ID), concurrency.WithTTL(ttl),
		concurrency.WithContext(context.WithoutCancel(ctx)))
	if err != nil {
		return err
	}
	defer sess.Close() // revokes the lease: the others need not wait for it to expire
	el := concurrency.NewElection(sess, s.p+"election/"+opts.Name+"/")
	// The session's own renewal gives up when a renewal gets no answer
	// for the lease's TTL, as during an etcd election; holdLease renews
	// more often and tries again at once, so an election shorter than
	// about 5/6 of the TTL does not take the leadership away.
	hctx, stopHold := context.WithCancel(context.WithoutCancel(ctx))
	defer stopHold()
	lost := make(chan error, 1)
	go func() { lost <- s.holdLease(hctx, lease.ID, time.Duration(ttl)*time.Second, granted, log) }()
	cctx, stopCampaign := context.WithCancel(ctx)
	go func() {
		select {
		case err := <-lost:
			lost <- err
			stopCampaign()
		case <-cctx.Done():
		}
	}()
	err = el.Campaign(cctx, opts.ID)
	stopCampaign()
	if err != nil {
		select {
		case lerr := <-lost:
			return fmt.Errorf("lease lost while campaigning: %w", lerr)
		default:
		}
		return err
	}
	log.Info("etcd: leading", "election", opts.Name, "id", opts.ID, "lease", fmt.Sprintf("%x", sess.Lease()))
	lctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case err := <-lost: // the lease expired or could not be renewed in time
			if err != nil && lctx.Err() == nil {
				log.Warn("etcd: leadership lost", "election", opts.Name, "id", opts.ID, "err", err)
			}
			cancel()
		case <-lctx.Done():
		}
	}()
	fn(lctx)
	stopHold()
	rctx, stop := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer stop()
	if err := el.Resign(rctx); err != nil && ctx.Err() == nil {
		return err
	}
	log.Info("etcd: stepped down", "election", opts.Name, "id", opts.ID)
	return nil
}

// holdLease renews lease id until ctx is done (then it returns nil), a
// sixth of ttl after each renewal was sent, and returns an error when the
// lease is lost: etcd says it no longer exists, or no renewal succeeded
// within ttl of the last one sent (the lease may have expired on the
// cluster, and another process may lead). A renewal that fails (no raft
// leader, a member unreachable) is tried again at once, with short
// pauses: the lease rides out an etcd election shorter than about 5/6 of
// ttl. last is when the lease was granted.
func (s *Store) holdLease(ctx context.Context, id clientv3.LeaseID, ttl time.Duration, last time.Time, log *slog.Logger) error {
	every := ttl / 6
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(time.Until(last.Add(every))):
		}
		deadline := last.Add(ttl)
		pause := renewFirstPause
		for failed := 0; ; failed++ {
			// Each try is bounded: a renewal that reached a member while
			// its raft leader died waits for etcd's request timeout,
			// seconds, while one sent again finds the new leader.
			sent := time.Now()
			tryEnd := sent.Add(max(every, renewMinTry))
			if tryEnd.After(deadline) {
				tryEnd = deadline
			}
			rctx, cancel := context.WithDeadline(ctx, tryEnd)
			_, err := s.c.KeepAliveOnce(rctx, id)
			cancel()
			if err == nil {
				if failed > 0 {
					log.Info("etcd: lease renewed again", "lease", fmt.Sprintf("%x", id), "failed_tries", failed,
						"since_last", sent.Sub(last).Round(time.Millisecond))
				}
				last = sent
				s.renewals.Add(1)
				break
			}
			switch {
			case ctx.Err() != nil:
				return nil
			case errors.Is(err, rpctypes.ErrLeaseNotFound):
				return fmt.Errorf("lease %x expired", id)
			case !time.Now().Add(pause).Before(deadline):
				return fmt.Errorf("lease %x not renewed for %v: %w", id, time.Since(last).Round(time.Millisecond), err)
			}
			s.renewRetries.Add(1)
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(pause):
			}
			pause = min(2*pause, renewMaxPause)
		}
	}
}

// The pauses of holdLease between renewals that failed: doubling from
// the first to the last.
const (
	renewFirstPause = 50 * time.Millisecond
	renewMaxPause   = 250 * time.Millisecond
	renewMinTry     = 100 * time.Millisecond // the shortest bound of one try
)

// Renewals returns how many renewals of an election's lease succeeded:
// for tests.
func (s *Store) Renewals() int64 { return s.renewals.Load() }

// RenewRetries returns how many renewals of an election's lease failed
// and were tried again (an etcd election, for instance): for logs and
// tests.
func (s *Store) RenewRetries() int64 { return s.renewRetries.Load() }

// Leader returns the ID of the current leader of the election name, ""
// when there is none.
func (s *Store) Leader(ctx context.Context, name string) (string, error) {
	r, err := s.c.Get(ctx, s.p+"election/"+name+"/", clientv3.WithFirstCreate()...)
	if err != nil {
		return "", fmt.Errorf("etcd: %w", err)
	}
	if len(r.Kvs) == 0 {
		return "", nil
	}
	return string(r.Kvs[0].Value), nil
}
