package storage

import (
	"context"
	"time"

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

// PendingNotifications returns up to limit undelivered notifications
// whose NotBefore is zero or not after now, oldest (lowest ID) first
// (bot.Outbox). It reads the outbox in ID order, skipping those that
// wait: the outbox is small (delivered notifications are removed), so
// no index by NotBefore is kept.
func (db *DB) PendingNotifications(ctx context.Context, now time.Time, limit int) ([]bot.Notification, error) {
	var out []bot.Notification
	err := db.view(ctx, func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketOutbox).Cursor()
		for k, v := c.First(); k != nil && (limit <= 0 || len(out) < limit); k, v = c.Next() {
			n, err := decodeNotification(v)
			if err != nil {
				return err
			}
			if n.NotBefore.After(now) {
				continue
			}
			out = append(out, n)
		}
		return nil
	})
	return out, err
}

// RetryNotification records a failed delivery of notification id: its
// Attempts is incremented and NotBefore set, in one transaction. A
// notification no longer there is not an error (bot.Outbox).
func (db *DB) RetryNotification(ctx context.Context, id uint64, notBefore time.Time) error {
	return db.update(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketOutbox)
		v := b.Get(itob(id))
		if v == nil {
			return nil
		}
		n, err := decodeNotification(v)
		if err != nil {
			return err
		}
		n.Attempts++
		n.NotBefore = notBefore
		v, err = encodeNotification(&n)
		if err != nil {
			return err
		}
		return b.Put(itob(id), v)
	})
}

// AckNotification removes notification id from the outbox (bot.Outbox).
func (db *DB) AckNotification(ctx context.Context, id uint64) error {
	return db.update(ctx, func(tx *bolt.Tx) error {
		return tx.Bucket(bucketOutbox).Delete(itob(id))
	})
}
