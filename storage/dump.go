package storage

import (
	"context"
	"encoding/binary"
	"fmt"

	"github.com/fairypost/fairypost/bot"
	bolt "go.etcd.io/bbolt"
)

// Dump is every record of a database, read in one transaction: what
// "fairypost migrate" copies to another backend.
type Dump struct {
	// LastID is the last challenge or game ID given: the next one is
	// larger, so a copy must never give out one up to it.
	LastID      uint64
	Games       []*bot.Game        // by ID
	Challenges  []*bot.Challenge   // by ID
	Preferences []*bot.Preferences // by user ID
	Outbox      []bot.Notification // by ID: the order of appending
}

// Dump reads every record in one read transaction (a consistent state
// while others write). Everything is held in memory: about a kilobyte
// a game.
func (db *DB) Dump(ctx context.Context) (*Dump, error) {
	d := &Dump{}
	err := db.view(ctx, func(tx *bolt.Tx) error {
		d.LastID = tx.Bucket(bucketMeta).Bucket(keyIDs).Sequence()
		if err := tx.Bucket(bucketGames).ForEach(func(_, v []byte) error {
			g, err := decodeGame(v)
			d.Games = append(d.Games, g)
			return err
		}); err != nil {
			return err
		}
		if err := tx.Bucket(bucketChallenges).ForEach(func(_, v []byte) error {
			c, err := decodeChallenge(v)
			d.Challenges = append(d.Challenges, c)
			return err
		}); err != nil {
			return err
		}
		if err := tx.Bucket(bucketUsers).ForEach(func(_, v []byte) error {
			p, err := decodePreferences(v)
			d.Preferences = append(d.Preferences, p)
			return err
		}); err != nil {
			return err
		}
		return tx.Bucket(bucketOutbox).ForEach(func(k, v []byte) error {
			n, err := decodeNotification(v)
			if err != nil {
				return err
			}
			if len(k) != 8 || binary.BigEndian.Uint64(k) != n.ID {
				return fmt.Errorf("outbox key %x holds notification %d", k, n.ID)
			}
			d.Outbox = append(d.Outbox, n)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("storage: dump: %w", err)
	}
	return d, nil
}
