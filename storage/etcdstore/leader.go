package etcdstore

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

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
	if err := el.Campaign(ctx, opts.ID); err != nil {
		return err
	}
	log.Info("etcd: leading", "election", opts.Name, "id", opts.ID, "lease", fmt.Sprintf("%x", sess.Lease()))
	lctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-sess.Done(): // the lease expired or could not be renewed
			log.Warn("etcd: leadership lost", "election", opts.Name, "id", opts.ID)
			cancel()
		case <-lctx.Done():
		}
	}()
	fn(lctx)
	rctx, stop := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer stop()
	if err := el.Resign(rctx); err != nil && ctx.Err() == nil {
		return err
	}
	log.Info("etcd: stepped down", "election", opts.Name, "id", opts.ID)
	return nil
}

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
