package storage

import (
	"context"
	"time"

	"github.com/fairypost/fairypost/bot"
	bolt "go.etcd.io/bbolt"
)

// CreateChallenge stores a new challenge with a fresh ID
// (bot.ChallengeStore).
func (db *DB) CreateChallenge(ctx context.Context, c *bot.Challenge, notes []bot.Notification) error {
	return db.update(ctx, func(tx *bolt.Tx) error {
		id, err := tx.Bucket(bucketMeta).Bucket(keyIDs).NextSequence()
		if err != nil {
			return err
		}
		n := c.Clone()
		n.ID, n.Version = id, 1
		for i := range notes {
			if notes[i].ChallengeID == 0 {
				notes[i].ChallengeID = id
			}
		}
		if err := putChallenge(tx, nil, n); err != nil {
			return err
		}
		if err := appendNotifications(tx, notes); err != nil {
			return err
		}
		*c = *n
		return nil
	})
}

// Challenge returns challenge id (bot.ChallengeStore).
func (db *DB) Challenge(ctx context.Context, id uint64) (*bot.Challenge, error) {
	var c *bot.Challenge
	err := db.view(ctx, func(tx *bolt.Tx) error {
		var err error
		c, err = getChallenge(tx, id)
		return err
	})
	return c, err
}

// ChallengesByUser returns the challenges userID made or received, in ID
// order (bot.ChallengeStore).
func (db *DB) ChallengesByUser(ctx context.Context, userID string) ([]*bot.Challenge, error) {
	return db.challengesBy(ctx, bucketChallengesByUser, userID)
}

// ChallengesByChannel returns channelID's challenges in ID order
// (bot.ChallengeStore).
func (db *DB) ChallengesByChannel(ctx context.Context, channelID string) ([]*bot.Challenge, error) {
	return db.challengesBy(ctx, bucketChallengesByChannel, channelID)
}

func (db *DB) challengesBy(ctx context.Context, index []byte, key string) ([]*bot.Challenge, error) {
	var out []*bot.Challenge
	if key == "" {
		return nil, nil
	}
	err := db.view(ctx, func(tx *bolt.Tx) error {
		for _, id := range indexScan(tx.Bucket(index), key) {
			c, err := getChallenge(tx, id)
			if err != nil {
				return err
			}
			out = append(out, c)
		}
		return nil
	})
	return out, err
}

// UpdateChallenge is the compare-and-swap of bot.ChallengeStore, in one
// bbolt read-write transaction; a game the change asks for is created in
// it with the challenge's ID.
func (db *DB) UpdateChallenge(ctx context.Context, id, expected uint64, fn func(*bot.Challenge) (bot.ChallengeChange, error)) (*bot.Challenge, *bot.Game, error) {
	var outC *bot.Challenge
	var outG *bot.Game
	err := db.update(ctx, func(tx *bolt.Tx) error {
		old, err := getChallenge(tx, id)
		if err != nil {
			return err
		}
		if expected != bot.AnyVersion && expected != old.Version {
			return bot.Errorf(bot.ECONFLICT, "Challenge %d has changed since you saw it: look again.", id)
		}
		c := old.Clone()
		change, err := fn(c)
		if err != nil {
			return err
		}
		c.ID, c.Version = old.ID, old.Version+1
		if err := putChallenge(tx, old, c); err != nil {
			return err
		}
		if change.Game != nil {
			g := change.Game.Clone()
			g.ID, g.Version = id, 1
			if tx.Bucket(bucketGames).Get(itob(id)) != nil {
				return bot.Errorf(bot.ECONFLICT, "Game %d already exists.", id)
			}
			if err := putGame(tx, nil, g); err != nil {
				return err
			}
			outG = g
		}
		if err := appendNotifications(tx, change.Notifications); err != nil {
			return err
		}
		outC = c
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return outC, outG, nil
}

// getChallenge loads challenge id, ENOTFOUND if there is none.
func getChallenge(tx *bolt.Tx, id uint64) (*bot.Challenge, error) {
	b := tx.Bucket(bucketChallenges).Get(itob(id))
	if b == nil {
		return nil, bot.Errorf(bot.ENOTFOUND, "There is no challenge %d.", id)
	}
	return decodeChallenge(b)
}

// putChallenge stores c, which replaces old (nil when new), and moves its
// index entries.
func putChallenge(tx *bolt.Tx, old, c *bot.Challenge) error {
	b, err := encodeChallenge(c)
	if err != nil {
		return err
	}
	if err := tx.Bucket(bucketChallenges).Put(itob(c.ID), b); err != nil {
		return err
	}
	var was bot.Challenge
	if old != nil {
		was = *old
	}
	if err := reindex(tx.Bucket(bucketChallengesByUser), []string{was.Challenger, was.Challenged}, []string{c.Challenger, c.Challenged}, c.ID); err != nil {
		return err
	}
	if err := reindex(tx.Bucket(bucketChallengesByChannel), []string{was.ChannelID}, []string{c.ChannelID}, c.ID); err != nil {
		return err
	}
	byExpiry := tx.Bucket(bucketChallengesByExpiry)
	if old != nil && was.Status == bot.ChallengePending {
		if err := byExpiry.Delete(timeKey(was.Expires, c.ID)); err != nil {
			return err
		}
	}
	if c.Status == bot.ChallengePending {
		return byExpiry.Put(timeKey(c.Expires, c.ID), []byte{})
	}
	return nil
}

// indexPendingChallenges fills challenges_by_expiry from the challenges
// bucket: Open runs it when it creates the index in a file written
// before the index existed.
func indexPendingChallenges(tx *bolt.Tx) error {
	byExpiry := tx.Bucket(bucketChallengesByExpiry)
	return tx.Bucket(bucketChallenges).ForEach(func(_, v []byte) error {
		c, err := decodeChallenge(v)
		if err != nil {
			return err
		}
		if c.Status != bot.ChallengePending {
			return nil
		}
		return byExpiry.Put(timeKey(c.Expires, c.ID), []byte{})
	})
}

// ChallengesExpiring returns the pending challenges whose Expires is not
// after t, earliest first (bot.ChallengeStore). It reads the
// challenges_by_expiry index, which holds pending challenges only.
func (db *DB) ChallengesExpiring(ctx context.Context, t time.Time) ([]*bot.Challenge, error) {
	var out []*bot.Challenge
	err := db.view(ctx, func(tx *bolt.Tx) error {
		return scanUntil(tx.Bucket(bucketChallengesByExpiry), t, func(id uint64) error {
			c, err := getChallenge(tx, id)
			if err != nil {
				return err
			}
			out = append(out, c)
			return nil
		})
	})
	return out, err
}

// EarliestExpiry returns the first expiry of a pending challenge
// (bot.ChallengeStore): the first key of challenges_by_expiry, without
// reading a challenge.
func (db *DB) EarliestExpiry(ctx context.Context) (time.Time, error) {
	var t time.Time
	err := db.view(ctx, func(tx *bolt.Tx) error {
		var err error
		t, err = firstTime(tx.Bucket(bucketChallengesByExpiry))
		return err
	})
	return t, err
}
