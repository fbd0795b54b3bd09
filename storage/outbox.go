package storage

import (
	"context"
	"encoding/json"
	"fmt"
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
// (bot.Outbox); notifications set aside are left out. It reads the
// outbox in ID order, skipping those that wait: the outbox is small
// (delivered notifications are removed), so no index by NotBefore is
// kept.
func (db *DB) PendingNotifications(ctx context.Context, now time.Time, limit int) ([]bot.Notification, error) {
	var out []bot.Notification
	err := db.view(ctx, func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketOutbox).Cursor()
		for k, v := c.First(); k != nil && (limit <= 0 || len(out) < limit); k, v = c.Next() {
			n, aside, err := decodeOutboxEntry(v)
			if err != nil {
				return err
			}
			if aside != "" || n.NotBefore.After(now) {
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
		n, aside, err := decodeOutboxEntry(v)
		if err != nil {
			return err
		}
		if aside != "" {
			return nil // set aside for good: not retried
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

// SetAsideNotification marks notification id as set aside with reason,
// in the outbox, where it stays (bot.Outbox): PendingNotifications skips
// it, SetAsideNotifications lists it. A notification no longer there is
// not an error.
func (db *DB) SetAsideNotification(ctx context.Context, id uint64, reason string) error {
	if reason == "" {
		reason = "set aside"
	}
	return db.update(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketOutbox)
		v := b.Get(itob(id))
		if v == nil {
			return nil
		}
		var r notificationRecord
		if err := json.Unmarshal(v, &r); err != nil {
			return fmt.Errorf("notification %d: %w", id, err)
		}
		r.SetAside = reason
		v, err := json.Marshal(r)
		if err != nil {
			return err
		}
		return b.Put(itob(id), v)
	})
}

// SetAsideNotifications returns the notifications set aside, oldest
// first, each with the reason it was set aside.
func (db *DB) SetAsideNotifications(ctx context.Context) ([]bot.Notification, []string, error) {
	var notes []bot.Notification
	var reasons []string
	err := db.view(ctx, func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketOutbox).Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			n, aside, err := decodeOutboxEntry(v)
			if err != nil {
				return err
			}
			if aside != "" {
				notes, reasons = append(notes, n), append(reasons, aside)
			}
		}
		return nil
	})
	return notes, reasons, err
}
