package storage

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
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

// ActiveGamesByUser returns the ongoing games of userID by ID
// (bot.GameStore): it reads active_games_by_user, so finished games cost
// nothing.
func (db *DB) ActiveGamesByUser(ctx context.Context, userID string) ([]*bot.Game, error) {
	return db.gamesBy(ctx, bucketActiveByUser, userID)
}

// ActiveGamesByChannel returns the ongoing games of channelID by ID
// (bot.GameStore), from active_games_by_channel.
func (db *DB) ActiveGamesByChannel(ctx context.Context, channelID string) ([]*bot.Game, error) {
	return db.gamesBy(ctx, bucketActiveByChannel, channelID)
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
	err := db.update(ctx, func(tx *bolt.Tx) (err error) {
		out, err = updateGameIn(tx, id, expected, nil, fn)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// updateGameIn is one game update inside tx: load game id, refuse a
// version other than expected (unless AnyVersion), run check (when not
// nil: what else the update needs of the file) then fn on a copy, and
// store the copy with the next version, its index entries and fn's
// notifications.
func updateGameIn(tx *bolt.Tx, id, expected uint64, check func() error, fn func(*bot.Game) ([]bot.Notification, error)) (*bot.Game, error) {
	old, err := getGame(tx, id)
	if err != nil {
		return nil, err
	}
	if expected != bot.AnyVersion && expected != old.Version {
		return nil, bot.Errorf(bot.ECONFLICT, "Game %d has changed since you saw it (version %d, now %d): look again.", id, expected, old.Version)
	}
	if check != nil {
		if err := check(); err != nil {
			return nil, err
		}
	}
	g := old.Clone()
	notes, err := fn(g)
	if err != nil {
		return nil, err
	}
	g.ID, g.Version = old.ID, old.Version+1
	if err := putGame(tx, old, g); err != nil {
		return nil, err
	}
	if err := appendNotifications(tx, notes); err != nil {
		return nil, err
	}
	return g, nil
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
	if err := reindexActive(tx, &was, g); err != nil {
		return err
	}
	if err := retime(tx.Bucket(bucketGamesByDeadline), was.Deadline, g.Deadline, g.ID); err != nil {
		return err
	}
	return retime(tx.Bucket(bucketGamesByRemind), was.RemindAt, g.RemindAt, g.ID)
}

// reindexActive moves game g's entries in the indexes of ongoing games
// (was: the record it replaces, zero for a new game): a game that ended
// leaves them.
func reindexActive(tx *bolt.Tx, was, g *bot.Game) error {
	keys := func(g *bot.Game) (users, channels []string) {
		if !g.Ongoing() {
			return nil, nil
		}
		return []string{g.White, g.Black}, []string{g.ChannelID}
	}
	oldUsers, oldChannels := keys(was)
	newUsers, newChannels := keys(g)
	if err := reindex(tx.Bucket(bucketActiveByUser), oldUsers, newUsers, g.ID); err != nil {
		return err
	}
	return reindex(tx.Bucket(bucketActiveByChannel), oldChannels, newChannels, g.ID)
}

// indexActiveGames upgrades a file from schema 2 to 3: the ongoing games
// get their entries in active_games_by_user and active_games_by_channel
// (created empty by Open). No record changes.
func indexActiveGames(tx *bolt.Tx) error {
	return tx.Bucket(bucketGames).ForEach(func(_, v []byte) error {
		g, err := decodeGame(v)
		if err != nil {
			return err
		}
		return reindexActive(tx, &bot.Game{}, g)
	})
}

// retime moves id's entry in the time index b from old to new (zero
// times have no entry).
func retime(b *bolt.Bucket, old, new time.Time, id uint64) error {
	if old.Equal(new) {
		return nil
	}
	if !old.IsZero() {
		if err := b.Delete(timeKey(old, id)); err != nil {
			return err
		}
	}
	if !new.IsZero() {
		return b.Put(timeKey(new, id), []byte{})
	}
	return nil
}

// GamesDue returns the games with a deadline not after t, earliest first
// (bot.GameStore). It reads games_by_deadline up to t.
func (db *DB) GamesDue(ctx context.Context, t time.Time) ([]*bot.Game, error) {
	return db.gamesUntil(ctx, bucketGamesByDeadline, t)
}

// GamesToRemind returns the games with a RemindAt not after t, earliest
// first (bot.GameStore). It reads games_by_remind up to t.
func (db *DB) GamesToRemind(ctx context.Context, t time.Time) ([]*bot.Game, error) {
	return db.gamesUntil(ctx, bucketGamesByRemind, t)
}

// gamesUntil returns the games of the time index up to t, in its order.
func (db *DB) gamesUntil(ctx context.Context, index []byte, t time.Time) ([]*bot.Game, error) {
	var out []*bot.Game
	err := db.view(ctx, func(tx *bolt.Tx) error {
		return scanUntil(tx.Bucket(index), t, func(id uint64) error {
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

// EarliestGameTimes returns the first deadline and the first reminder
// time of all games (bot.GameStore): the first keys of games_by_deadline
// and games_by_remind, in one read transaction, without reading a game.
func (db *DB) EarliestGameTimes(ctx context.Context) (deadline, remindAt time.Time, err error) {
	err = db.view(ctx, func(tx *bolt.Tx) error {
		var err error
		if deadline, err = firstTime(tx.Bucket(bucketGamesByDeadline)); err != nil {
			return err
		}
		remindAt, err = firstTime(tx.Bucket(bucketGamesByRemind))
		return err
	})
	return deadline, remindAt, err
}

// migrateRemindAt upgrades a file from schema 1 to 2, whose games carry
// RemindAt, indexed in games_by_remind (created empty by Open): every
// game being played (set up or active) with a deadline and a player to
// act not reminded yet this turn gets the RemindAt package bot would have
// given it (bot.RemindTime), with the player's stored reminder setting
// (the default when they chose none). The records are rewritten without
// a new Version (the schedule is not part of play) and no other index
// changes. Other games need nothing: their RemindAt is zero.
func migrateRemindAt(tx *bolt.Tx) error {
	games := tx.Bucket(bucketGames)
	var remindKeys [][]byte
	c := games.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		g, err := decodeGame(v)
		if err != nil {
			return err
		}
		if !(g.Status == bot.GameActive || g.Status == bot.GameSetup) || g.Deadline.IsZero() || g.ToAct == "" || g.Reminded {
			continue
		}
		p, err := getPreferences(tx, g.ToAct)
		if err != nil {
			return err
		}
		if g.RemindAt = gameplay.RemindTime(g, p.ReminderPercent); g.RemindAt.IsZero() {
			continue
		}
		b, err := encodeGame(g)
		if err != nil {
			return err
		}
		key := slices.Clone(k)
		if err := games.Put(key, b); err != nil {
			return fmt.Errorf("game %d: %w", g.ID, err)
		}
		remindKeys = append(remindKeys, timeKey(g.RemindAt, g.ID))
		// A Put moves the cursor's ground: back to where it was.
		if k, _ = c.Seek(key); !bytes.Equal(k, key) {
			return fmt.Errorf("game %d: lost the cursor", g.ID)
		}
	}
	// In key order: bbolt splits a node only at commit, and inserting
	// in the middle of a large one moves all after it.
	slices.SortFunc(remindKeys, bytes.Compare)
	byRemind := tx.Bucket(bucketGamesByRemind)
	for _, k := range remindKeys {
		if err := byRemind.Put(k, []byte{}); err != nil {
			return err
		}
	}
	return nil
}

// AnnotateGame changes game id's Annotations without changing its
// Version (bot.GameStore), with its indexes and the notifications fn
// returns, in one bbolt transaction.
func (db *DB) AnnotateGame(ctx context.Context, id uint64, fn func(bot.Game, *bot.Annotations) ([]bot.Notification, error)) (*bot.Game, error) {
	var out *bot.Game
	err := db.update(ctx, func(tx *bolt.Tx) error {
		old, err := getGame(tx, id)
		if err != nil {
			return err
		}
		g, notes, err := annotate(old, fn)
		if err != nil {
			return err
		}
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

// annotate calls fn with a copy of old and a copy of its annotations,
// and returns old with the annotations fn left: nothing else of the game
// can change.
func annotate(old *bot.Game, fn func(bot.Game, *bot.Annotations) ([]bot.Notification, error)) (*bot.Game, []bot.Notification, error) {
	g := old.Clone()
	a := old.Clone().Annotations
	notes, err := fn(*old.Clone(), &a)
	if err != nil {
		return nil, nil, err
	}
	g.Annotations = a
	return g, notes, nil
}
