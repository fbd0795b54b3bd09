package etcdstore

import (
	"context"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/storage"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// Preferences returns userID's preferences, bot.DefaultPreferences (with
// Version 0) when none are stored (bot.UserStore).
func (s *Store) Preferences(ctx context.Context, userID string) (*bot.Preferences, error) {
	if userID == "" {
		return nil, bot.Errorf(bot.EINVALID, "No user given.")
	}
	p, _, err := s.loadPreferences(ctx, userID)
	return p, err
}

// loadPreferences reads userID's preferences and their ModRevision (0
// and the defaults when none are stored).
func (s *Store) loadPreferences(ctx context.Context, userID string) (*bot.Preferences, int64, error) {
	v, rev, found, err := s.getOne(ctx, s.userKey(userID))
	if err != nil {
		return nil, 0, err
	}
	if !found {
		return bot.DefaultPreferences(userID), 0, nil
	}
	p, err := storage.DecodePreferences(v)
	return p, rev, err
}

// UpdatePreferences changes userID's preferences in one transaction
// guarded by their ModRevision (bot.UserStore): fn edits a copy of the
// stored preferences or of the defaults; its error is returned as it is
// and changes nothing. The copy is stored with the user's ID and Version
// incremented, whatever fn did to those.
func (s *Store) UpdatePreferences(ctx context.Context, userID string, fn func(*bot.Preferences) error) (*bot.Preferences, error) {
	if userID == "" {
		return nil, bot.Errorf(bot.EINVALID, "No user given.")
	}
	var out *bot.Preferences
	err := s.casLoop(ctx, func() ([]clientv3.Cmp, []clientv3.Op, error) {
		old, rev, err := s.loadPreferences(ctx, userID)
		if err != nil {
			return nil, nil, err
		}
		p := *old
		if err := fn(&p); err != nil {
			return nil, nil, err
		}
		p.UserID, p.Version = userID, old.Version+1
		b, err := storage.EncodePreferences(&p)
		if err != nil {
			return nil, nil, err
		}
		out = &p
		// ModRevision 0 compares equal for a key that does not exist.
		return []clientv3.Cmp{clientv3.Compare(clientv3.ModRevision(s.userKey(userID)), "=", rev)},
			[]clientv3.Op{clientv3.OpPut(s.userKey(userID), string(b))}, nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
