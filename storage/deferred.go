package storage

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/fairypost/fairypost/bot"
)

var _ bot.DeferredStore = (*DB)(nil)

// bucketDeferred holds the deferred answers not answered yet
// (bot.DeferredStore), by interaction ID.
var bucketDeferred = []byte("deferred_answers")

// deferredBuckets are created by Open with the others.
var deferredBuckets = [][]byte{bucketDeferred}

// deferredRecord is the stored form of a bot.DeferredAnswer.
type deferredRecord struct {
	Schema        int       `json:"schema"`
	InteractionID string    `json:"interaction"`
	ApplicationID string    `json:"application"`
	Token         string    `json:"token"`
	Owner         string    `json:"owner"`
	UserID        string    `json:"user"`
	ChannelID     string    `json:"channel"`
	Request       string    `json:"request"`
	GameID        uint64    `json:"game,omitempty"`
	Move          string    `json:"move,omitempty"`
	Before        int       `json:"before"`
	Deferred      time.Time `json:"deferred"`
	Expires       time.Time `json:"expires"`
}

// EncodeDeferred returns the stored form of a, after checking it
// (EINVALID: no interaction ID or token, or expired at now).
func EncodeDeferred(a bot.DeferredAnswer, now time.Time) ([]byte, error) {
	if a.InteractionID == "" || a.Token == "" {
		return nil, bot.Errorf(bot.EINVALID, "A deferred answer needs its interaction's ID and token.")
	}
	if !a.Expires.After(now) {
		return nil, bot.Errorf(bot.EINVALID, "The deferred answer of interaction %s has expired.", a.InteractionID)
	}
	r := deferredRecord{Schema: SchemaVersion}
	r.InteractionID = a.InteractionID
	r.ApplicationID = a.ApplicationID
	r.Token = a.Token
	r.Owner = a.Owner
	r.UserID = a.UserID
	r.ChannelID = a.ChannelID
	r.Request = a.Request
	r.GameID = a.GameID
	r.Move = a.Move
	r.Before = a.Before
	r.Deferred = a.Deferred
	r.Expires = a.Expires
	return json.Marshal(r)
}

// DecodeDeferred reads a stored deferred answer.
func DecodeDeferred(b []byte) (bot.DeferredAnswer, error) {
	var r deferredRecord
	if err := json.Unmarshal(b, &r); err != nil {
		return bot.DeferredAnswer{}, bot.Errorf(bot.EINTERNAL, "a stored deferred answer does not decode: %v", err)
	}
	if r.Schema > SchemaVersion {
		return bot.DeferredAnswer{}, bot.Errorf(bot.EINTERNAL, "a deferred answer of schema %d is newer than this program's %d", r.Schema, SchemaVersion)
	}
	var a bot.DeferredAnswer
	a.InteractionID = r.InteractionID
	a.ApplicationID = r.ApplicationID
	a.Token = r.Token
	a.Owner = r.Owner
	a.UserID = r.UserID
	a.ChannelID = r.ChannelID
	a.Request = r.Request
	a.GameID = r.GameID
	a.Move = r.Move
	a.Before = r.Before
	a.Deferred = r.Deferred
	a.Expires = r.Expires
	return a, nil
}

// SortDeferred orders deferred answers by the time they were deferred,
// then by interaction ID.
func SortDeferred(as []bot.DeferredAnswer) {
	slices.SortFunc(as, func(a, b bot.DeferredAnswer) int {
		if c := a.Deferred.Compare(b.Deferred); c != 0 {
			return c
		}
		if a.InteractionID < b.InteractionID {
			return -1
		}
		if a.InteractionID > b.InteractionID {
			return 1
		}
		return 0
	})
}

// PutDeferred implements bot.DeferredStore.
func (db *DB) PutDeferred(ctx context.Context, a bot.DeferredAnswer) error {
	v, err := EncodeDeferred(a, time.Now())
	if err != nil {
		return err
	}
	return db.update(ctx, func(tx *bolt.Tx) error {
		return tx.Bucket(bucketDeferred).Put([]byte(a.InteractionID), v)
	})
}

// DeleteDeferred implements bot.DeferredStore.
func (db *DB) DeleteDeferred(ctx context.Context, interactionID string) error {
	if interactionID == "" {
		return nil
	}
	return db.update(ctx, func(tx *bolt.Tx) error {
		return tx.Bucket(bucketDeferred).Delete([]byte(interactionID))
	})
}

// DeferredAnswers implements bot.DeferredStore. The records past their
// time are swept here: they are deleted in the same transaction.
func (db *DB) DeferredAnswers(ctx context.Context, now time.Time) ([]bot.DeferredAnswer, error) {
	var out []bot.DeferredAnswer
	var expired [][]byte
	err := db.view(ctx, func(tx *bolt.Tx) error {
		return tx.Bucket(bucketDeferred).ForEach(func(k, v []byte) error {
			a, err := DecodeDeferred(v)
			if err != nil {
				return err
			}
			if a.Expires.After(now) {
				out = append(out, a)
			} else {
				expired = append(expired, slices.Clone(k))
			}
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	if len(expired) > 0 {
		err := db.update(ctx, func(tx *bolt.Tx) error {
			b := tx.Bucket(bucketDeferred)
			for _, k := range expired {
				// Put again since the read: only a record still expired goes.
				if v := b.Get(k); v != nil {
					if a, err := DecodeDeferred(v); err == nil && a.Expires.After(now) {
						continue
					}
				}
				if err := b.Delete(k); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	SortDeferred(out)
	return out, nil
}
