package etcdstore

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/storage"
	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// Compile-time checks that Store implements the stores of package bot.
var (
	_ bot.NoteStore   = (*Store)(nil)
	_ bot.FollowStore = (*Store)(nil)
)

// Keys of notes and follows: one per game and user, a game's under one
// prefix, in user order.
func (s *Store) notePrefix(gameID uint64) string   { return s.p + "note/" + hex16(gameID) + "/" }
func (s *Store) followPrefix(gameID uint64) string { return s.p + "follow/" + hex16(gameID) + "/" }

// Note returns userID's note on game gameID, "" when none (bot.NoteStore).
func (s *Store) Note(ctx context.Context, gameID uint64, userID string) (string, error) {
	v, _, found, err := s.getOne(ctx, s.notePrefix(gameID)+userID)
	if err != nil || !found {
		return "", err
	}
	n, err := storage.DecodeNote(v)
	return n.Text, err
}

// Notes returns the notes on game gameID, by user ID (bot.NoteStore).
func (s *Store) Notes(ctx context.Context, gameID uint64) ([]bot.Note, error) {
	r, err := s.c.Get(ctx, s.notePrefix(gameID), clientv3.WithPrefix())
	if err != nil {
		return nil, readError(err)
	}
	var out []bot.Note
	for _, kv := range r.Kvs {
		n, err := storage.DecodeNote(kv.Value)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}

// UpdateNote changes userID's note on game gameID in one transaction
// guarded by the note's ModRevision (bot.NoteStore).
func (s *Store) UpdateNote(ctx context.Context, gameID uint64, userID string, fn func(string) (string, error)) (string, error) {
	if userID == "" {
		return "", bot.Errorf(bot.EINVALID, "No user given.")
	}
	key := s.notePrefix(gameID) + userID
	var text string
	err := s.casLoop(ctx, func() ([]clientv3.Cmp, []clientv3.Op, error) {
		v, rev, found, err := s.getOne(ctx, key)
		if err != nil {
			return nil, nil, err
		}
		old := ""
		if found {
			n, err := storage.DecodeNote(v)
			if err != nil {
				return nil, nil, err
			}
			old = n.Text
		}
		if text, err = fn(old); err != nil {
			return nil, nil, err
		}
		// ModRevision 0 compares equal for a key that does not exist.
		cmps := []clientv3.Cmp{clientv3.Compare(clientv3.ModRevision(key), "=", rev)}
		if text == "" {
			return cmps, []clientv3.Op{clientv3.OpDelete(key)}, nil
		}
		b, err := storage.EncodeNote(bot.Note{GameID: gameID, UserID: userID, Text: text})
		if err != nil {
			return nil, nil, err
		}
		return cmps, []clientv3.Op{clientv3.OpPut(key, string(b))}, nil
	})
	if err != nil {
		return "", err
	}
	return text, nil
}

// Followers returns the users following game gameID, by user ID
// (bot.FollowStore).
func (s *Store) Followers(ctx context.Context, gameID uint64) ([]string, error) {
	r, err := s.c.Get(ctx, s.followPrefix(gameID), clientv3.WithPrefix())
	if err != nil {
		return nil, readError(err)
	}
	var out []string
	for _, kv := range r.Kvs {
		f, err := storage.DecodeFollow(kv.Value)
		if err != nil {
			return nil, err
		}
		out = append(out, f.UserID)
	}
	return out, nil
}

// UpdateFollow decides whether userID follows game gameID in one
// transaction (bot.FollowStore). It reads the game's follows at one
// revision and commits only if none was written since (every key under
// the game's prefix still older than that revision), so the count fn
// sees cannot grow behind its back.
func (s *Store) UpdateFollow(ctx context.Context, gameID uint64, userID string, fn func(bool, int) (bool, error)) error {
	if userID == "" {
		return bot.Errorf(bot.EINVALID, "No user given.")
	}
	prefix := s.followPrefix(gameID)
	key := prefix + userID
	return s.casLoop(ctx, func() ([]clientv3.Cmp, []clientv3.Op, error) {
		r, err := s.c.Get(ctx, prefix, clientv3.WithPrefix(), clientv3.WithKeysOnly())
		if err != nil {
			return nil, nil, readError(err)
		}
		follows := false
		for _, kv := range r.Kvs {
			follows = follows || string(kv.Key) == key
		}
		after, err := fn(follows, len(r.Kvs))
		if err != nil || after == follows {
			return nil, nil, err
		}
		cmps := []clientv3.Cmp{clientv3.Compare(clientv3.ModRevision(prefix).WithPrefix(), "<", r.Header.Revision+1)}
		if !after {
			return cmps, []clientv3.Op{clientv3.OpDelete(key)}, nil
		}
		b, err := storage.EncodeFollow(bot.Follow{GameID: gameID, UserID: userID})
		if err != nil {
			return nil, nil, err
		}
		return cmps, []clientv3.Op{clientv3.OpPut(key, string(b))}, nil
	})
}

// noteAndFollowOps returns the operations that put notes and follows.
func (s *Store) noteAndFollowOps(notes []bot.Note, follows []bot.Follow) ([]clientv3.Op, error) {
	var ops []clientv3.Op
	for _, n := range notes {
		if n.UserID == "" || n.Text == "" {
			return nil, fmt.Errorf("etcd: a note on game %d without a user or a text", n.GameID)
		}
		b, err := storage.EncodeNote(n)
		if err != nil {
			return nil, err
		}
		ops = append(ops, clientv3.OpPut(s.notePrefix(n.GameID)+n.UserID, string(b)))
	}
	for _, f := range follows {
		if f.UserID == "" {
			return nil, fmt.Errorf("etcd: a follow of game %d without a user", f.GameID)
		}
		b, err := storage.EncodeFollow(f)
		if err != nil {
			return nil, err
		}
		ops = append(ops, clientv3.OpPut(s.followPrefix(f.GameID)+f.UserID, string(b)))
	}
	return ops, nil
}

// dumpNotesAndFollows reads every note and follow at revision rev into d.
func (s *Store) dumpNotesAndFollows(ctx context.Context, rev int64, d *storage.Dump) error {
	if err := s.scan(ctx, s.p+"note/", rev, func(kv *mvccpb.KeyValue) error {
		n, err := storage.DecodeNote(kv.Value)
		d.Notes = append(d.Notes, n)
		return err
	}); err != nil {
		return err
	}
	return s.scan(ctx, s.p+"follow/", rev, func(kv *mvccpb.KeyValue) error {
		f, err := storage.DecodeFollow(kv.Value)
		d.Follows = append(d.Follows, f)
		return err
	})
}

// migrateNotesAndFollows brings data of schema 3 to schema 4: the notes
// and followers schema 3 kept inside game records become note and
// follow keys, each game written again without them in the same
// transaction (guarded by its ModRevision), and the schema key is set
// last, compared with the 3 it held. Run by every process that finds
// schema 3: several at once each move what is left and one sets the key.
func (s *Store) migrateNotesAndFollows(ctx context.Context, schemaKey string) error {
	r, err := s.c.Get(ctx, s.p+"game/", clientv3.WithPrefix())
	if err != nil {
		return fmt.Errorf("etcd: %w", err)
	}
	for _, kv := range r.Kvs {
		var legacy struct {
			Followers []string `json:"followers"`
			Notes     []struct {
				UserID string `json:"user"`
				Text   string `json:"text"`
			} `json:"notes"`
		}
		if err := json.Unmarshal(kv.Value, &legacy); err != nil {
			return fmt.Errorf("etcd: game record %s: %w", kv.Key, err)
		}
		if len(legacy.Followers) == 0 && len(legacy.Notes) == 0 {
			continue
		}
		g, err := storage.DecodeGame(kv.Value)
		if err != nil {
			return err
		}
		var notes []bot.Note
		var follows []bot.Follow
		for _, n := range legacy.Notes {
			notes = append(notes, bot.Note{GameID: g.ID, UserID: n.UserID, Text: n.Text})
		}
		for _, u := range legacy.Followers {
			follows = append(follows, bot.Follow{GameID: g.ID, UserID: u})
		}
		ops, err := s.noteAndFollowOps(notes, follows)
		if err != nil {
			return err
		}
		b, err := storage.EncodeGame(g)
		if err != nil {
			return err
		}
		ops = append(ops, clientv3.OpPut(string(kv.Key), string(b)))
		if _, err := s.c.Txn(ctx).If(clientv3.Compare(clientv3.ModRevision(string(kv.Key)), "=", kv.ModRevision)).
			Then(ops...).Commit(); err != nil {
			return fmt.Errorf("etcd: %w", err)
		}
		// A failed comparison: another process migrated this game (or an
		// old one changed it); the next Open finds what is left.
	}
	_, err = s.c.Txn(ctx).If(clientv3.Compare(clientv3.Value(schemaKey), "=", "3")).
		Then(clientv3.OpPut(schemaKey, strconv.Itoa(storage.SchemaVersion))).Commit()
	if err != nil {
		return fmt.Errorf("etcd: %w", err)
	}
	return nil
}
