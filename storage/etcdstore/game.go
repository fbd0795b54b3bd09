package etcdstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/storage"
	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// Game returns game id (bot.GameStore).
func (s *Store) Game(ctx context.Context, id uint64) (*bot.Game, error) {
	g, _, err := s.loadGame(ctx, id)
	return g, err
}

// loadGame reads game id and its ModRevision, ENOTFOUND if there is none.
func (s *Store) loadGame(ctx context.Context, id uint64) (*bot.Game, int64, error) {
	v, rev, found, err := s.getOne(ctx, s.gameKey(id))
	if err != nil {
		return nil, 0, err
	}
	if !found {
		return nil, 0, bot.Errorf(bot.ENOTFOUND, "There is no game %d.", id)
	}
	g, err := storage.DecodeGame(v)
	return g, rev, err
}

// GamesByUser returns userID's games in ID order (bot.GameStore).
func (s *Store) GamesByUser(ctx context.Context, userID string) ([]*bot.Game, error) {
	return s.gamesBy(ctx, ixGamesByUser, userID)
}

// GamesByChannel returns channelID's games in ID order (bot.GameStore).
func (s *Store) GamesByChannel(ctx context.Context, channelID string) ([]*bot.Game, error) {
	return s.gamesBy(ctx, ixGamesByChannel, channelID)
}

// ActiveGamesByUser returns userID's ongoing games in ID order
// (bot.GameStore), from the index of ongoing games.
func (s *Store) ActiveGamesByUser(ctx context.Context, userID string) ([]*bot.Game, error) {
	return s.gamesBy(ctx, ixActiveByUser, userID)
}

// ActiveGamesByChannel returns channelID's ongoing games in ID order
// (bot.GameStore), from the index of ongoing games.
func (s *Store) ActiveGamesByChannel(ctx context.Context, channelID string) ([]*bot.Game, error) {
	return s.gamesBy(ctx, ixActiveByChannel, channelID)
}

func (s *Store) gamesBy(ctx context.Context, index, key string) ([]*bot.Game, error) {
	if key == "" {
		return nil, nil
	}
	return s.listGames(ctx, func() ([]uint64, int64, error) { return s.indexIDs(ctx, index, key) })
}

// listGames reads the games that list names, at the revision list read
// them at, again from the start if etcd compacted that revision away in
// between.
func (s *Store) listGames(ctx context.Context, list func() ([]uint64, int64, error)) ([]*bot.Game, error) {
	for {
		ids, rev, err := list()
		if err != nil {
			return nil, err
		}
		gs, err := s.gamesAt(ctx, ids, rev)
		if !errors.Is(err, rpctypes.ErrCompacted) {
			return gs, err
		}
	}
}

// gamesAt reads the games ids at revision rev, in the order of ids.
func (s *Store) gamesAt(ctx context.Context, ids []uint64, rev int64) ([]*bot.Game, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = s.gameKey(id)
	}
	vals, err := s.getMany(ctx, keys, rev)
	if err != nil {
		return nil, err
	}
	out := make([]*bot.Game, len(vals))
	for i, v := range vals {
		if out[i], err = storage.DecodeGame(v); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// GamesDue returns the games with a deadline not after t, earliest first
// (bot.GameStore).
func (s *Store) GamesDue(ctx context.Context, t time.Time) ([]*bot.Game, error) {
	return s.gamesUntil(ctx, ixGamesByDeadline, t)
}

// GamesToRemind returns the games with a RemindAt not after t, earliest
// first (bot.GameStore).
func (s *Store) GamesToRemind(ctx context.Context, t time.Time) ([]*bot.Game, error) {
	return s.gamesUntil(ctx, ixGamesByRemind, t)
}

func (s *Store) gamesUntil(ctx context.Context, index string, t time.Time) ([]*bot.Game, error) {
	return s.listGames(ctx, func() ([]uint64, int64, error) { return s.timeIDs(ctx, index, t) })
}

// EarliestGameTimes returns the first deadline and the first reminder
// time of all games (bot.GameStore): the first key of each time index,
// both read in one transaction, without reading a game.
func (s *Store) EarliestGameTimes(ctx context.Context) (deadline, remindAt time.Time, err error) {
	r, err := s.c.Txn(ctx).Then(s.firstTimeOp(ixGamesByDeadline), s.firstTimeOp(ixGamesByRemind)).Commit()
	if err != nil {
		return time.Time{}, time.Time{}, readError(err)
	}
	if deadline, err = s.firstTime(ixGamesByDeadline, (*clientv3.GetResponse)(r.Responses[0].GetResponseRange())); err != nil {
		return time.Time{}, time.Time{}, err
	}
	if remindAt, err = s.firstTime(ixGamesByRemind, (*clientv3.GetResponse)(r.Responses[1].GetResponseRange())); err != nil {
		return time.Time{}, time.Time{}, err
	}
	return deadline, remindAt, nil
}

// UpdateGame is the compare-and-swap of bot.GameStore: one etcd
// transaction guarded by the game's ModRevision puts the game, moves its
// index entries and appends fn's notifications. On a concurrent change
// the whole update, fn included, is tried again.
func (s *Store) UpdateGame(ctx context.Context, id, expected uint64, fn func(*bot.Game) ([]bot.Notification, error)) (*bot.Game, error) {
	return s.updateGame(ctx, id, expected, func(g *bot.Game) (gameChange, error) {
		notes, err := fn(g)
		return gameChange{notes: notes}, err
	})
}

// gameChange is what an update of a game writes besides the game: its
// notifications, and the comparisons and operations of other records
// read and written in the same transaction (the standings of a rated
// game).
type gameChange struct {
	notes []bot.Notification
	cmps  []clientv3.Cmp
	ops   []clientv3.Op
}

// updateGame is UpdateGame with fn's other records in the transaction.
func (s *Store) updateGame(ctx context.Context, id, expected uint64, fn func(*bot.Game) (gameChange, error)) (*bot.Game, error) {
	var out *bot.Game
	err := s.casLoop(ctx, func() ([]clientv3.Cmp, []clientv3.Op, error) {
		old, rev, err := s.loadGame(ctx, id)
		if err != nil {
			return nil, nil, err
		}
		if expected != bot.AnyVersion && expected != old.Version {
			return nil, nil, bot.Errorf(bot.ECONFLICT, "Game %d has changed since you saw it (version %d, now %d): look again.", id, expected, old.Version)
		}
		g := old.Clone()
		change, err := fn(g)
		if err != nil {
			return nil, nil, err
		}
		g.ID, g.Version = old.ID, old.Version+1
		ops, err := s.putGameOps(old, g, fmt.Sprintf("g%s.%s", hex16(id), hex16(uint64(rev))), change.notes)
		if err != nil {
			return nil, nil, err
		}
		out = g
		cmps := append([]clientv3.Cmp{clientv3.Compare(clientv3.ModRevision(s.gameKey(id)), "=", rev)}, change.cmps...)
		return cmps, append(ops, change.ops...), nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// AnnotateGame changes game id's Annotations without
// changing its Version (bot.GameStore), with its index entries and fn's
// notifications, in one transaction guarded by the ModRevision.
func (s *Store) AnnotateGame(ctx context.Context, id uint64, fn func(bot.Game, *bot.Annotations) ([]bot.Notification, error)) (*bot.Game, error) {
	var out *bot.Game
	err := s.casLoop(ctx, func() ([]clientv3.Cmp, []clientv3.Op, error) {
		old, rev, err := s.loadGame(ctx, id)
		if err != nil {
			return nil, nil, err
		}
		g, notes, err := storage.Annotate(old, fn)
		if err != nil {
			return nil, nil, err
		}
		ops, err := s.putGameOps(old, g, fmt.Sprintf("g%s.%s", hex16(id), hex16(uint64(rev))), notes)
		if err != nil {
			return nil, nil, err
		}
		out = g
		return []clientv3.Cmp{clientv3.Compare(clientv3.ModRevision(s.gameKey(id)), "=", rev)}, ops, nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// putGameOps returns the operations that store g in place of old (nil
// for a new game), move its index entries and append notes under token.
func (s *Store) putGameOps(old, g *bot.Game, token string, notes []bot.Notification) ([]clientv3.Op, error) {
	b, err := storage.EncodeGame(g)
	if err != nil {
		return nil, err
	}
	ops := []clientv3.Op{clientv3.OpPut(s.gameKey(g.ID), string(b))}
	ops = append(ops, reindexOps(s.gameIndexKeys(old), s.gameIndexKeys(g))...)
	nops, err := s.noteOps(token, notes)
	if err != nil {
		return nil, err
	}
	return append(ops, nops...), nil
}
