package storage

import (
	"github.com/fairypost/fairypost/bot"
	bolt "go.etcd.io/bbolt"
)

// BulkLoadGames stores games as new games (fresh IDs, Version 1, indexes
// maintained as UpdateChallenge would), batch games per transaction: a
// fast loader for the benchmarks' large fixtures, which one transaction
// (and one fsync) per game would take minutes to build. games are
// updated in place. Tests only.
func (db *DB) BulkLoadGames(games []*bot.Game, batch int) error {
	for len(games) > 0 {
		n := min(batch, len(games))
		err := db.bolt.Update(func(tx *bolt.Tx) error {
			ids := tx.Bucket(bucketMeta).Bucket(keyIDs)
			for _, g := range games[:n] {
				id, err := ids.NextSequence()
				if err != nil {
					return err
				}
				g.ID, g.Version = id, 1
				if err := putGame(tx, nil, g); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		games = games[n:]
	}
	return nil
}

// CheckStructure is checkStructure, for the benchmarks.
func CheckStructure(path string) error { return checkStructure(path) }

// CheckConsistency runs bbolt's consistency check (check) on the file at
// path, for the benchmarks.
func CheckConsistency(path string) error {
	b, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer b.Close()
	return check(b)
}
