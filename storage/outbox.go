package storage

import (
	"context"

	"github.com/fairypost/fairypost/bot"
	bolt "go.etcd.io/bbolt"
)

// appendNotifications appends notes to the outbox inside tx, each with
// the next outbox sequence number as its ID.
func appendNotifications(tx *bolt.Tx, notes []bot.Notification) error {
	b := tx.Bucket(bucketOutbox)
	for _, n := range notes {
		id, err := b.NextSequence()
		if err != nil {
			return err
		}
		n.ID = id
		v, err := encodeNotification(&n)
		if err != nil {
			return err
		}
		if err := b.Put(itob(id), v); err != nil {
			return err
		}
	}
	return nil
}

// PendingNotifications returns up to limit undelivered notifications,
// oldest first (bot.Outbox).
func (db *DB) PendingNotifications(ctx context.Context, limit int) ([]bot.Notification, error) {
	var out []bot.Notification
	err := db.view(ctx, func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketOutbox).Cursor()
		for k, v := c.First(); k != nil && (limit <= 0 || len(out) < limit); k, v = c.Next() {
			n, err := decodeNotification(v)
			if err != nil {
				return err
			}
			out = append(out, n)
		}
		return nil
	})
	return out, err
}

// AckNotification removes notification id from the outbox (bot.Outbox).
func (db *DB) AckNotification(ctx context.Context, id uint64) error {
	return db.update(ctx, func(tx *bolt.Tx) error {
		return tx.Bucket(bucketOutbox).Delete(itob(id))
	})
}
