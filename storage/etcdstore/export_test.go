package etcdstore

import (
	"context"

	"github.com/fairypost/fairypost/bot"
)

// ListGames exposes listGames to the tests.
func (s *Store) ListGames(ctx context.Context, list func() ([]uint64, int64, error)) ([]*bot.Game, error) {
	return s.listGames(ctx, list)
}

// SeenLeaseCount exposes how many leases FirstSeen holds to the tests.
func (s *Store) SeenLeaseCount() int { return s.seen.seenLeaseCount() }
