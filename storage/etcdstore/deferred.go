package etcdstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/storage"
)

var _ bot.DeferredStore = (*Store)(nil)

// deferredKey is where the deferred answer of interactionID is kept.
func (s *Store) deferredKey(interactionID string) string { return s.p + "deferred/" + interactionID }

// PutDeferred implements bot.DeferredStore. The key is attached to a
// lease that outlives a.Expires (the leases of FirstSeen, shared by
// time), so that etcd drops it once the token is dead even when no
// process is left to delete it.
func (s *Store) PutDeferred(ctx context.Context, a bot.DeferredAnswer) error {
	v, err := storage.EncodeDeferred(a, time.Now())
	if err != nil {
		return err
	}
	k := s.deferredKey(a.InteractionID)
	for try := 0; ; try++ {
		lease, err := s.seen.lease(ctx, s.c, a.Expires)
		if err != nil {
			return fmt.Errorf("etcd: a lease for %s: %w", k, err)
		}
		_, err = s.c.Put(ctx, k, string(v), clientv3.WithLease(lease))
		if errors.Is(err, rpctypes.ErrLeaseNotFound) && try == 0 {
			s.seen.forget(lease) // expired early (a clock jump): grant another
			continue
		}
		if err != nil {
			return fmt.Errorf("etcd: %w", err)
		}
		return nil
	}
}

// DeleteDeferred implements bot.DeferredStore.
func (s *Store) DeleteDeferred(ctx context.Context, interactionID string) error {
	if interactionID == "" {
		return nil
	}
	if _, err := s.c.Delete(ctx, s.deferredKey(interactionID)); err != nil {
		return fmt.Errorf("etcd: %w", err)
	}
	return nil
}

// DeferredAnswers implements bot.DeferredStore. The records past their
// time go with their lease; until then they are left out here.
func (s *Store) DeferredAnswers(ctx context.Context, now time.Time) ([]bot.DeferredAnswer, error) {
	r, err := s.c.Get(ctx, s.p+"deferred/", clientv3.WithPrefix())
	if err != nil {
		return nil, fmt.Errorf("etcd: %w", err)
	}
	var out []bot.DeferredAnswer
	for _, kv := range r.Kvs {
		a, err := storage.DecodeDeferred(kv.Value)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", kv.Key, err)
		}
		if a.Expires.After(now) {
			out = append(out, a)
		}
	}
	storage.SortDeferred(out)
	return out, nil
}

// Candidates returns the IDs of the processes taking part in election
// name (LeaderOptions.ID), the leader included: every process that runs
// Lead and whose lease lives. A process killed leaves the list when its
// lease expires (LeaderOptions.TTL).
func (s *Store) Candidates(ctx context.Context, name string) ([]string, error) {
	r, err := s.c.Get(ctx, s.p+"election/"+name+"/", clientv3.WithPrefix())
	if err != nil {
		return nil, fmt.Errorf("etcd: %w", err)
	}
	out := make([]string, 0, len(r.Kvs))
	for _, kv := range r.Kvs {
		out = append(out, string(kv.Value))
	}
	return out, nil
}
