package storage

import (
	"context"

	"github.com/fairypost/fairypost/bot"
	bolt "go.etcd.io/bbolt"
)

// Preferences returns userID's preferences, bot.DefaultPreferences (with
// Version 0) when none are stored (bot.UserStore).
func (db *DB) Preferences(ctx context.Context, userID string) (*bot.Preferences, error) {
	if userID == "" {
		return nil, bot.Errorf(bot.EINVALID, "No user given.")
	}
	var p *bot.Preferences
	err := db.view(ctx, func(tx *bolt.Tx) error {
		var err error
		p, err = getPreferences(tx, userID)
		return err
	})
	return p, err
}

// UpdatePreferences changes userID's preferences in one bbolt read-write
// transaction (bot.UserStore): fn edits a copy of the stored preferences
// or of the defaults; its error is returned as it is and changes nothing.
// The copy is stored with the user's ID and Version incremented, whatever
// fn did to those.
func (db *DB) UpdatePreferences(ctx context.Context, userID string, fn func(*bot.Preferences) error) (*bot.Preferences, error) {
	if userID == "" {
		return nil, bot.Errorf(bot.EINVALID, "No user given.")
	}
	var out *bot.Preferences
	err := db.update(ctx, func(tx *bolt.Tx) error {
		old, err := getPreferences(tx, userID)
		if err != nil {
			return err
		}
		p := *old
		if err := fn(&p); err != nil {
			return err
		}
		p.UserID, p.Version = userID, old.Version+1
		b, err := encodePreferences(&p)
		if err != nil {
			return err
		}
		if err := tx.Bucket(bucketUsers).Put([]byte(userID), b); err != nil {
			return err
		}
		out = &p
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// getPreferences loads userID's preferences, the defaults when there are
// none.
func getPreferences(tx *bolt.Tx, userID string) (*bot.Preferences, error) {
	b := tx.Bucket(bucketUsers).Get([]byte(userID))
	if b == nil {
		return bot.DefaultPreferences(userID), nil
	}
	return decodePreferences(b)
}
