package etcdstore

import (
	"context"
	"fmt"
	"strconv"

	"github.com/fairypost/fairypost/storage"
	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// dumpPage is how many keys one read of Dump returns.
const dumpPage = 1000

// Dump reads every record under the prefix at one etcd revision (a
// consistent state while others write), in pages of 1,000 keys:
// games and challenges by ID, preferences by user ID, notifications in
// the order of appending, standings and rating histories by pool and
// user, tournaments by ID, notes and follows by game and user, secrets by name, analyses by game. Everything is held in memory.
func (s *Store) Dump(ctx context.Context) (*storage.Dump, error) {
	d := &storage.Dump{}
	r, err := s.c.Get(ctx, s.idsKey()) // fixes the revision every read is made at
	if err != nil {
		return nil, fmt.Errorf("etcd: %w", err)
	}
	rev := r.Header.Revision
	if len(r.Kvs) == 1 {
		if d.LastID, err = strconv.ParseUint(string(r.Kvs[0].Value), 10, 64); err != nil {
			return nil, fmt.Errorf("etcd: ID counter %s holds %q, not a number", s.idsKey(), r.Kvs[0].Value)
		}
	}
	if err := s.scan(ctx, s.p+"game/", rev, func(kv *mvccpb.KeyValue) error {
		g, err := storage.DecodeGame(kv.Value)
		d.Games = append(d.Games, g)
		return err
	}); err != nil {
		return nil, err
	}
	if err := s.scan(ctx, s.p+"challenge/", rev, func(kv *mvccpb.KeyValue) error {
		c, err := storage.DecodeChallenge(kv.Value)
		d.Challenges = append(d.Challenges, c)
		return err
	}); err != nil {
		return nil, err
	}
	if err := s.scan(ctx, s.p+"user/", rev, func(kv *mvccpb.KeyValue) error {
		p, err := storage.DecodePreferences(kv.Value)
		d.Preferences = append(d.Preferences, p)
		return err
	}); err != nil {
		return nil, err
	}
	if err := s.scan(ctx, s.outboxPrefix(), rev, func(kv *mvccpb.KeyValue) error {
		n, err := s.decodeNote(kv)
		d.Outbox = append(d.Outbox, n)
		return err
	}); err != nil {
		return nil, err
	}
	sortNotes(d.Outbox)
	if err := s.dumpRatings(ctx, rev, d); err != nil {
		return nil, err
	}
	if err := s.dumpTournaments(ctx, rev, d); err != nil {
		return nil, err
	}
	if err := s.dumpNotesAndFollows(ctx, rev, d); err != nil {
		return nil, err
	}
	if err := s.dumpVariants(ctx, rev, d); err != nil {
		return nil, err
	}
	if err := s.dumpSecrets(ctx, rev, d); err != nil {
		return nil, err
	}
	if err := s.dumpAnalyses(ctx, rev, d); err != nil {
		return nil, err
	}
	return d, nil
}

// scan calls fn with every key under prefix at revision rev, in key
// order, reading dumpPage keys at a time.
func (s *Store) scan(ctx context.Context, prefix string, rev int64, fn func(*mvccpb.KeyValue) error) error {
	end := clientv3.GetPrefixRangeEnd(prefix)
	from := prefix
	for {
		r, err := s.c.Get(ctx, from, clientv3.WithRange(end), clientv3.WithRev(rev), clientv3.WithLimit(dumpPage))
		if err != nil {
			return fmt.Errorf("etcd: %w", err)
		}
		for _, kv := range r.Kvs {
			if err := fn(kv); err != nil {
				return err
			}
		}
		if !r.More || len(r.Kvs) == 0 {
			return nil
		}
		from = string(r.Kvs[len(r.Kvs)-1].Key) + "\x00"
	}
}
