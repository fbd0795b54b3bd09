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

// CreateChallenge stores a new challenge with a fresh ID
// (bot.ChallengeStore): the ID counter is incremented in the same
// transaction that puts the challenge, its index entries and notes, and
// compared on its ModRevision, so two creations never share an ID.
func (s *Store) CreateChallenge(ctx context.Context, c *bot.Challenge, notes []bot.Notification) error {
	var out *bot.Challenge
	err := s.createWithID(ctx, func(id uint64) ([]clientv3.Op, error) {
		n := c.Clone()
		n.ID, n.Version = id, 1
		mine := append([]bot.Notification(nil), notes...) // fresh IDs on each try
		for i := range mine {
			if mine[i].ChallengeID == 0 {
				mine[i].ChallengeID = id
			}
		}
		out = n
		return s.putChallengeOps(nil, n, "c"+hex16(id), mine)
	})
	if err != nil {
		return err
	}
	for i := range notes {
		if notes[i].ChallengeID == 0 {
			notes[i].ChallengeID = out.ID
		}
	}
	*c = *out
	return nil
}

// Challenge returns challenge id (bot.ChallengeStore).
func (s *Store) Challenge(ctx context.Context, id uint64) (*bot.Challenge, error) {
	c, _, err := s.loadChallenge(ctx, id)
	return c, err
}

// loadChallenge reads challenge id and its ModRevision, ENOTFOUND if
// there is none.
func (s *Store) loadChallenge(ctx context.Context, id uint64) (*bot.Challenge, int64, error) {
	v, rev, found, err := s.getOne(ctx, s.challengeKey(id))
	if err != nil {
		return nil, 0, err
	}
	if !found {
		return nil, 0, bot.Errorf(bot.ENOTFOUND, "There is no challenge %d.", id)
	}
	c, err := storage.DecodeChallenge(v)
	return c, rev, err
}

// ChallengesByUser returns the challenges userID made or received, in ID
// order (bot.ChallengeStore).
func (s *Store) ChallengesByUser(ctx context.Context, userID string) ([]*bot.Challenge, error) {
	return s.challengesBy(ctx, ixChallengesByUser, userID)
}

// ChallengesByChannel returns channelID's challenges in ID order
// (bot.ChallengeStore).
func (s *Store) ChallengesByChannel(ctx context.Context, channelID string) ([]*bot.Challenge, error) {
	return s.challengesBy(ctx, ixChallengesByChannel, channelID)
}

func (s *Store) challengesBy(ctx context.Context, index, key string) ([]*bot.Challenge, error) {
	if key == "" {
		return nil, nil
	}
	return s.listChallenges(ctx, func() ([]uint64, int64, error) { return s.indexIDs(ctx, index, key) })
}

// listChallenges is listGames for challenges.
func (s *Store) listChallenges(ctx context.Context, list func() ([]uint64, int64, error)) ([]*bot.Challenge, error) {
	for {
		ids, rev, err := list()
		if err != nil {
			return nil, err
		}
		cs, err := s.challengesAt(ctx, ids, rev)
		if !errors.Is(err, rpctypes.ErrCompacted) {
			return cs, err
		}
	}
}

// challengesAt reads the challenges ids at revision rev, in the order of
// ids.
func (s *Store) challengesAt(ctx context.Context, ids []uint64, rev int64) ([]*bot.Challenge, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = s.challengeKey(id)
	}
	vals, err := s.getMany(ctx, keys, rev)
	if err != nil {
		return nil, err
	}
	out := make([]*bot.Challenge, len(vals))
	for i, v := range vals {
		if out[i], err = storage.DecodeChallenge(v); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// ChallengesExpiring returns the pending challenges whose Expires is not
// after t, earliest first (bot.ChallengeStore), from the expiry index,
// which holds pending challenges only.
func (s *Store) ChallengesExpiring(ctx context.Context, t time.Time) ([]*bot.Challenge, error) {
	return s.listChallenges(ctx, func() ([]uint64, int64, error) { return s.timeIDs(ctx, ixChallengesByExpiry, t) })
}

// EarliestExpiry returns the first expiry of a pending challenge
// (bot.ChallengeStore): the first key of the expiry index.
func (s *Store) EarliestExpiry(ctx context.Context) (time.Time, error) {
	r, err := s.c.Get(ctx, s.indexPrefix(ixChallengesByExpiry), clientv3.WithPrefix(), clientv3.WithKeysOnly(), clientv3.WithLimit(1))
	if err != nil {
		return time.Time{}, readError(err)
	}
	return s.firstTime(ixChallengesByExpiry, r)
}

// UpdateChallenge is the compare-and-swap of bot.ChallengeStore: one
// transaction guarded by the challenge's ModRevision (and, when the
// change creates the game, by the game key being absent) puts the
// challenge, its index entries, the game with its index entries and the
// notifications.
func (s *Store) UpdateChallenge(ctx context.Context, id, expected uint64, fn func(*bot.Challenge) (bot.ChallengeChange, error)) (*bot.Challenge, *bot.Game, error) {
	var outC *bot.Challenge
	var outG *bot.Game
	err := s.casLoop(ctx, func() ([]clientv3.Cmp, []clientv3.Op, error) {
		old, rev, err := s.loadChallenge(ctx, id)
		if err != nil {
			return nil, nil, err
		}
		if expected != bot.AnyVersion && expected != old.Version {
			return nil, nil, bot.Errorf(bot.ECONFLICT, "Challenge %d has changed since you saw it: look again.", id)
		}
		c := old.Clone()
		change, err := fn(c)
		if err != nil {
			return nil, nil, err
		}
		c.ID, c.Version = old.ID, old.Version+1
		token := fmt.Sprintf("c%s.%s", hex16(id), hex16(uint64(rev)))
		cmps := []clientv3.Cmp{clientv3.Compare(clientv3.ModRevision(s.challengeKey(id)), "=", rev)}
		var ops []clientv3.Op
		outG = nil
		if change.Game != nil {
			_, _, exists, err := s.getOne(ctx, s.gameKey(id))
			if err != nil {
				return nil, nil, err
			}
			if exists {
				return nil, nil, bot.Errorf(bot.ECONFLICT, "Game %d already exists.", id)
			}
			g := change.Game.Clone()
			g.ID, g.Version = id, 1
			if ops, err = s.putGameOps(nil, g, "", nil); err != nil {
				return nil, nil, err
			}
			cmps = append(cmps, clientv3.Compare(clientv3.CreateRevision(s.gameKey(id)), "=", 0))
			outG = g
		}
		cops, err := s.putChallengeOps(old, c, token, change.Notifications)
		if err != nil {
			return nil, nil, err
		}
		outC = c
		return cmps, append(ops, cops...), nil
	})
	if err != nil {
		return nil, nil, err
	}
	return outC, outG, nil
}

// putChallengeOps returns the operations that store c in place of old
// (nil when new), move its index entries and append notes under token.
func (s *Store) putChallengeOps(old, c *bot.Challenge, token string, notes []bot.Notification) ([]clientv3.Op, error) {
	b, err := storage.EncodeChallenge(c)
	if err != nil {
		return nil, err
	}
	ops := []clientv3.Op{clientv3.OpPut(s.challengeKey(c.ID), string(b))}
	ops = append(ops, reindexOps(s.challengeIndexKeys(old), s.challengeIndexKeys(c))...)
	nops, err := s.noteOps(token, notes)
	if err != nil {
		return nil, err
	}
	return append(ops, nops...), nil
}
