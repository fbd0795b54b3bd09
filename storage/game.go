package storage

import (
	"context"
	"time"

	"github.com/fairypost/fairypost/bot"
	bolt "go.etcd.io/bbolt"
)

// Game returns game id (bot.GameStore).
func (db *DB) Game(ctx context.Context, id uint64) (*bot.Game, error) {
	var g *bot.Game
	err := db.view(ctx, func(tx *bolt.Tx) error {
		var err error
		g, err = getGame(tx, id)
		return err
	})
	return g, err
}

// GamesByUser returns userID's games in ID order (bot.GameStore).
func (db *DB) GamesByUser(ctx context.Context, userID string) ([]*bot.Game, error) {
	return db.gamesBy(ctx, bucketGamesByUser, userID)
}

// GamesByChannel returns channelID's games in ID order (bot.GameStore).
func (db *DB) GamesByChannel(ctx context.Context, channelID string) ([]*bot.Game, error) {
	return db.gamesBy(ctx, bucketGamesByChannel, channelID)
}

func (db *DB) gamesBy(ctx context.Context, index []byte, key string) ([]*bot.Game, error) {
	var out []*bot.Game
	if key == "" {
		return nil, nil
	}
	err := db.view(ctx, func(tx *bolt.Tx) error {
		for _, id := range indexScan(tx.Bucket(index), key) {
			g, err := getGame(tx, id)
			if err != nil {
				return err
			}
			out = append(out, g)
		}
		return nil
	})
	return out, err
}

// UpdateGame is the compare-and-swap of bot.GameStore, in one bbolt
// read-write transaction.
func (db *DB) UpdateGame(ctx context.Context, id, expected uint64, fn func(*bot.Game) ([]bot.Notification, error)) (*bot.Game, error) {
	var out *bot.Game
	err := db.update(ctx, func(tx *bolt.Tx) error {
		old, err := getGame(tx, id)
		if err != nil {
			return err
		}
		if expected != bot.AnyVersion && expected != old.Version {
			return bot.Errorf(bot.ECONFLICT, "Game %d has changed since you saw it (version %d, now %d): look again.", id, expected, old.Version)
		}
		g := old.Clone()
		notes, err := fn(g)
		if err != nil {
			return err
		}
		g.ID, g.Version = old.ID, old.Version+1
		if err := putGame(tx, old, g); err != nil {
			return err
		}
		if err := appendNotifications(tx, notes); err != nil {
			return err
		}
		out = g
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// getGame loads game id, ENOTFOUND if there is none.
func getGame(tx *bolt.Tx, id uint64) (*bot.Game, error) {
	b := tx.Bucket(bucketGames).Get(itob(id))
	if b == nil {
		return nil, bot.Errorf(bot.ENOTFOUND, "There is no game %d.", id)
	}
	return decodeGame(b)
}

// putGame stores g, which replaces old (nil for a new game), and moves its
// index entries.
func putGame(tx *bolt.Tx, old, g *bot.Game) error {
	b, err := encodeGame(g)
	if err != nil {
		return err
	}
	if err := tx.Bucket(bucketGames).Put(itob(g.ID), b); err != nil {
		return err
	}
	var was bot.Game
	if old != nil {
		was = *old
	}
	if err := reindex(tx.Bucket(bucketGamesByUser), []string{was.White, was.Black}, []string{g.White, g.Black}, g.ID); err != nil {
		return err
	}
	if err := reindex(tx.Bucket(bucketGamesByChannel), []string{was.ChannelID}, []string{g.ChannelID}, g.ID); err != nil {
		return err
	}
	byDeadline := tx.Bucket(bucketGamesByDeadline)
	if !was.Deadline.IsZero() {
		if err := byDeadline.Delete(timeKey(was.Deadline, g.ID)); err != nil {
			return err
		}
	}
	if !g.Deadline.IsZero() {
		return byDeadline.Put(timeKey(g.Deadline, g.ID), []byte{})
	}
	return nil
}

// GamesDue returns the games with a deadline not after t, earliest first
// (bot.GameStore).
func (db *DB) GamesDue(ctx context.Context, t time.Time) ([]*bot.Game, error) {
	var out []*bot.Game
	err := db.view(ctx, func(tx *bolt.Tx) error {
		return scanUntil(tx.Bucket(bucketGamesByDeadline), t, func(id uint64) error {
			g, err := getGame(tx, id)
			if err != nil {
				return err
			}
			out = append(out, g)
			return nil
		})
	})
	return out, err
}

// SetGameThread records where an adapter posts game id (bot.GameStore):
// the stored record's ThreadID changes, its Version does not.
func (db *DB) SetGameThread(ctx context.Context, id uint64, threadID string) error {
	return db.update(ctx, func(tx *bolt.Tx) error {
		old, err := getGame(tx, id)
		if err != nil {
			return err
		}
		g := old.Clone()
		g.ThreadID = threadID
		return putGame(tx, old, g)
	})
}
