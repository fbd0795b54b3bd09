package storage

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/fairypost/fairypost/bot"
	bolt "go.etcd.io/bbolt"
)

// Notes and follows (bot.NoteStore, bot.FollowStore) are records of
// their own, one per game and user, keyed by the game's ID (8 bytes)
// then the user ID, so a game's records are one prefix in user order.
var (
	bucketNotes   = []byte("notes")
	bucketFollows = []byte("follows")
)

// Compile-time checks that DB implements the stores of package bot.
var (
	_ bot.NoteStore   = (*DB)(nil)
	_ bot.FollowStore = (*DB)(nil)
)

// noteRecord is the stored form of a bot.Note.
type noteRecord struct {
	Schema int    `json:"schema"`
	GameID uint64 `json:"game"`
	UserID string `json:"user"`
	Text   string `json:"text"`
}

// followRecord is the stored form of a bot.Follow.
type followRecord struct {
	Schema int    `json:"schema"`
	GameID uint64 `json:"game"`
	UserID string `json:"user"`
}

// EncodeNote returns the stored form of n.
func EncodeNote(n bot.Note) ([]byte, error) {
	r := noteRecord{Schema: SchemaVersion}
	r.GameID = n.GameID
	r.UserID = n.UserID
	r.Text = n.Text
	return json.Marshal(r)
}

// DecodeNote reads a stored note.
func DecodeNote(b []byte) (bot.Note, error) {
	var r noteRecord
	if err := json.Unmarshal(b, &r); err != nil {
		return bot.Note{}, fmt.Errorf("note record: %w", err)
	}
	if !readableSchema(r.Schema) {
		return bot.Note{}, fmt.Errorf("note on game %d: record schema %d, want 1 to %d", r.GameID, r.Schema, SchemaVersion)
	}
	var n bot.Note
	n.GameID = r.GameID
	n.UserID = r.UserID
	n.Text = r.Text
	return n, nil
}

// EncodeFollow returns the stored form of f.
func EncodeFollow(f bot.Follow) ([]byte, error) {
	r := followRecord{Schema: SchemaVersion}
	r.GameID = f.GameID
	r.UserID = f.UserID
	return json.Marshal(r)
}

// DecodeFollow reads a stored follow.
func DecodeFollow(b []byte) (bot.Follow, error) {
	var r followRecord
	if err := json.Unmarshal(b, &r); err != nil {
		return bot.Follow{}, fmt.Errorf("follow record: %w", err)
	}
	if !readableSchema(r.Schema) {
		return bot.Follow{}, fmt.Errorf("follow of game %d: record schema %d, want 1 to %d", r.GameID, r.Schema, SchemaVersion)
	}
	var f bot.Follow
	f.GameID = r.GameID
	f.UserID = r.UserID
	return f, nil
}

// gameUserKey is the key of userID's note or follow of game gameID.
func gameUserKey(gameID uint64, userID string) []byte {
	return append(itob(gameID), userID...)
}

// checkUser refuses an empty user ID, which no note or follow has.
func checkUser(userID string) error {
	if userID == "" {
		return bot.Errorf(bot.EINVALID, "No user given.")
	}
	return nil
}

// Note returns userID's note on game gameID, "" when none (bot.NoteStore).
func (db *DB) Note(ctx context.Context, gameID uint64, userID string) (string, error) {
	var text string
	err := db.view(ctx, func(tx *bolt.Tx) error {
		v := tx.Bucket(bucketNotes).Get(gameUserKey(gameID, userID))
		if v == nil {
			return nil
		}
		n, err := DecodeNote(v)
		text = n.Text
		return err
	})
	return text, err
}

// Notes returns the notes on game gameID, by user ID (bot.NoteStore).
func (db *DB) Notes(ctx context.Context, gameID uint64) ([]bot.Note, error) {
	var out []bot.Note
	err := db.view(ctx, func(tx *bolt.Tx) error {
		return eachOfGame(tx.Bucket(bucketNotes), gameID, func(v []byte) error {
			n, err := DecodeNote(v)
			out = append(out, n)
			return err
		})
	})
	return out, err
}

// UpdateNote changes userID's note on game gameID in one bbolt
// transaction (bot.NoteStore).
func (db *DB) UpdateNote(ctx context.Context, gameID uint64, userID string, fn func(string) (string, error)) (string, error) {
	if err := checkUser(userID); err != nil {
		return "", err
	}
	var text string
	err := db.update(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketNotes)
		key := gameUserKey(gameID, userID)
		old := ""
		if v := b.Get(key); v != nil {
			n, err := DecodeNote(v)
			if err != nil {
				return err
			}
			old = n.Text
		}
		var err error
		if text, err = fn(old); err != nil {
			return err
		}
		if text == "" {
			return b.Delete(key)
		}
		v, err := EncodeNote(bot.Note{GameID: gameID, UserID: userID, Text: text})
		if err != nil {
			return err
		}
		return b.Put(key, v)
	})
	if err != nil {
		return "", err
	}
	return text, nil
}

// Followers returns the users following game gameID, by user ID
// (bot.FollowStore).
func (db *DB) Followers(ctx context.Context, gameID uint64) ([]string, error) {
	var out []string
	err := db.view(ctx, func(tx *bolt.Tx) error {
		return eachOfGame(tx.Bucket(bucketFollows), gameID, func(v []byte) error {
			f, err := DecodeFollow(v)
			out = append(out, f.UserID)
			return err
		})
	})
	return out, err
}

// UpdateFollow decides whether userID follows game gameID in one bbolt
// transaction (bot.FollowStore).
func (db *DB) UpdateFollow(ctx context.Context, gameID uint64, userID string, fn func(bool, int) (bool, error)) error {
	if err := checkUser(userID); err != nil {
		return err
	}
	return db.update(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketFollows)
		key := gameUserKey(gameID, userID)
		n := 0
		if err := eachOfGame(b, gameID, func([]byte) error { n++; return nil }); err != nil {
			return err
		}
		follows := b.Get(key) != nil
		after, err := fn(follows, n)
		switch {
		case err != nil:
			return err
		case after == follows:
			return nil
		case !after:
			return b.Delete(key)
		}
		return putFollow(tx, bot.Follow{GameID: gameID, UserID: userID})
	})
}

// putNote and putFollow store a record under its key.
func putNote(tx *bolt.Tx, n bot.Note) error {
	v, err := EncodeNote(n)
	if err != nil {
		return err
	}
	return tx.Bucket(bucketNotes).Put(gameUserKey(n.GameID, n.UserID), v)
}

func putFollow(tx *bolt.Tx, f bot.Follow) error {
	v, err := EncodeFollow(f)
	if err != nil {
		return err
	}
	return tx.Bucket(bucketFollows).Put(gameUserKey(f.GameID, f.UserID), v)
}

// eachOfGame calls fn with each value of b (notes or follows) kept for
// game gameID, in user order.
func eachOfGame(b *bolt.Bucket, gameID uint64, fn func(v []byte) error) error {
	prefix := itob(gameID)
	c := b.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		if err := fn(v); err != nil {
			return err
		}
	}
	return nil
}

// migrateNotesAndFollows (schema 3 to 4) moves the notes and followers
// schema 3 kept inside game records into note and follow records, and
// writes each such game again without them. Nothing else of a game
// changes.
func migrateNotesAndFollows(tx *bolt.Tx) error {
	type moved struct {
		key []byte
		g   *bot.Game
	}
	var games []moved
	err := tx.Bucket(bucketGames).ForEach(func(k, v []byte) error {
		var r gameRecord
		if err := json.Unmarshal(v, &r); err != nil {
			return fmt.Errorf("game record %x: %w", k, err)
		}
		if len(r.Followers) == 0 && len(r.Notes) == 0 {
			return nil
		}
		for _, u := range r.Followers {
			if err := putFollow(tx, bot.Follow{GameID: r.ID, UserID: u}); err != nil {
				return err
			}
		}
		for _, n := range r.Notes {
			if err := putNote(tx, bot.Note{GameID: r.ID, UserID: n.UserID, Text: n.Text}); err != nil {
				return err
			}
		}
		g, err := decodeGame(v)
		if err != nil {
			return err
		}
		games = append(games, moved{bytes.Clone(k), g})
		return nil
	})
	if err != nil {
		return err
	}
	for _, m := range games {
		v, err := encodeGame(m.g)
		if err != nil {
			return err
		}
		if err := tx.Bucket(bucketGames).Put(m.key, v); err != nil {
			return err
		}
	}
	return nil
}
