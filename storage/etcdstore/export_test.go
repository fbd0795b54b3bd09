package etcdstore

import (
	"context"
	"time"

	"github.com/fairypost/fairypost/bot"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// ListGames exposes listGames to the tests.
func (s *Store) ListGames(ctx context.Context, list func() ([]uint64, int64, error)) ([]*bot.Game, error) {
	return s.listGames(ctx, list)
}

// SeenLeaseCount exposes how many leases FirstSeen holds to the tests.
func (s *Store) SeenLeaseCount() int { return s.seen.seenLeaseCount() }

// FirstSeenToken exposes FirstSeen with a given token to the tests (a
// try made again by the same call).
func (s *Store) FirstSeenToken(ctx context.Context, key string, until time.Time, token string) (bool, error) {
	return s.firstSeen(ctx, key, until, token)
}

// Landed exposes landed to the tests: whether it found ops applied.
func (s *Store) Landed(ctx context.Context, ops []clientv3.Op) bool {
	return s.landed(ctx, ops) == applied
}

// LandedNot exposes landed to the tests: whether it found ops not applied.
func (s *Store) LandedNot(ctx context.Context, ops []clientv3.Op) bool {
	return s.landed(ctx, ops) == notApplied
}
