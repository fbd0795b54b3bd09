package etcdstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/storage"
	"go.etcd.io/etcd/api/v3/mvccpb"
	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// Tournaments (bot.TournamentStore), as package storage keeps them:
//
//	P tournament/ID                          the record (package storage's JSON)
//	P ix/tournaments_by_channel/CH \x00 ID   listed by a prefix scan in ID order
//	P ix/running_tournaments/ \x00 ID        the running or paused ones
//	P ix/tournaments_by_start/T              open ones with a start time (time key)
//
// A tournament takes its ID from the counter of challenges and games
// (meta/ids); an update that pairs a round creates the round's games in
// its own transaction, so a round's games exist exactly when the
// tournament says they do. etcd bounds a transaction's operations
// (--max-txn-ops, 128 by default): a round of more than about a dozen
// games needs a larger bound, and is refused with a message saying so.

var _ bot.TournamentStore = (*Store)(nil)

const (
	ixTournamentsByChannel = "tournaments_by_channel"
	ixRunningTournaments   = "running_tournaments"
	ixTournamentsByStart   = "tournaments_by_start"
)

func (s *Store) tournamentKey(id uint64) string { return s.p + "tournament/" + hex16(id) }

// tournamentIndexKeys returns every index key of t (none for nil).
func (s *Store) tournamentIndexKeys(t *bot.Tournament) []string {
	if t == nil {
		return nil
	}
	var keys []string
	if t.ChannelID != "" {
		keys = append(keys, s.entryKey(ixTournamentsByChannel, t.ChannelID, t.ID))
	}
	if storage.TournamentRunning(t) {
		keys = append(keys, s.entryKey(ixRunningTournaments, "", t.ID))
	}
	if at := storage.TournamentStart(t); !at.IsZero() {
		keys = append(keys, s.indexPrefix(ixTournamentsByStart)+timeKey(at, t.ID))
	}
	return keys
}

// putTournamentOps returns the operations that store t in place of old
// (nil for a new one), move its index entries and append notes under
// token.
func (s *Store) putTournamentOps(old, t *bot.Tournament, token string, notes []bot.Notification) ([]clientv3.Op, error) {
	b, err := storage.EncodeTournament(t)
	if err != nil {
		return nil, err
	}
	ops := []clientv3.Op{clientv3.OpPut(s.tournamentKey(t.ID), string(b))}
	ops = append(ops, reindexOps(s.tournamentIndexKeys(old), s.tournamentIndexKeys(t))...)
	nops, err := s.noteOps(token, notes)
	if err != nil {
		return nil, err
	}
	return append(ops, nops...), nil
}

// createWithID creates a record under the next ID of the counter of
// challenges, games and tournaments: ops returns the record's operations
// for that ID (it may run more than once, with another ID), and the
// counter is put and compared on its ModRevision in the same
// transaction, so two creations never share an ID.
func (s *Store) createWithID(ctx context.Context, ops func(id uint64) ([]clientv3.Op, error)) error {
	return s.casLoop(ctx, func() ([]clientv3.Cmp, []clientv3.Op, error) {
		last, rev, err := s.lastID(ctx)
		if err != nil {
			return nil, nil, err
		}
		id := last + 1
		more, err := ops(id)
		if err != nil {
			return nil, nil, err
		}
		more = append(more, clientv3.OpPut(s.idsKey(), strconv.FormatUint(id, 10)))
		return []clientv3.Cmp{clientv3.Compare(clientv3.ModRevision(s.idsKey()), "=", rev)}, more, nil
	})
}

// lastID reads the ID counter: the last ID given and its ModRevision.
func (s *Store) lastID(ctx context.Context) (uint64, int64, error) {
	v, rev, found, err := s.getOne(ctx, s.idsKey())
	if err != nil || !found {
		return 0, rev, err
	}
	last, err := strconv.ParseUint(string(v), 10, 64)
	if err != nil {
		return 0, 0, fmt.Errorf("etcd: ID counter %s holds %q, not a number", s.idsKey(), v)
	}
	return last, rev, nil
}

// CreateTournament stores a new tournament with a fresh ID from the
// counter of challenges and games (bot.TournamentStore, createWithID).
func (s *Store) CreateTournament(ctx context.Context, t *bot.Tournament, notes []bot.Notification) error {
	var out *bot.Tournament
	err := s.createWithID(ctx, func(id uint64) ([]clientv3.Op, error) {
		out = t.Clone()
		out.ID, out.Version = id, 1
		return s.putTournamentOps(nil, out, "t"+hex16(id), notes)
	})
	if err != nil {
		return err
	}
	*t = *out
	return nil
}

// Tournament returns tournament id (bot.TournamentStore).
func (s *Store) Tournament(ctx context.Context, id uint64) (*bot.Tournament, error) {
	t, _, err := s.loadTournament(ctx, id)
	return t, err
}

// loadTournament reads tournament id and its ModRevision, ENOTFOUND if
// there is none.
func (s *Store) loadTournament(ctx context.Context, id uint64) (*bot.Tournament, int64, error) {
	v, rev, found, err := s.getOne(ctx, s.tournamentKey(id))
	if err != nil {
		return nil, 0, err
	}
	if !found {
		return nil, 0, bot.Errorf(bot.ENOTFOUND, "There is no tournament %d.", id)
	}
	t, err := storage.DecodeTournament(v)
	return t, rev, err
}

// TournamentsByChannel returns channelID's tournaments in ID order
// (bot.TournamentStore).
func (s *Store) TournamentsByChannel(ctx context.Context, channelID string) ([]*bot.Tournament, error) {
	if channelID == "" {
		return nil, nil
	}
	return s.listTournaments(ctx, func() ([]uint64, int64, error) { return s.indexIDs(ctx, ixTournamentsByChannel, channelID) })
}

// RunningTournaments returns the running or paused tournaments in ID
// order (bot.TournamentStore), from their index.
func (s *Store) RunningTournaments(ctx context.Context) ([]*bot.Tournament, error) {
	return s.listTournaments(ctx, func() ([]uint64, int64, error) { return s.indexIDs(ctx, ixRunningTournaments, "") })
}

// TournamentsToStart returns the open tournaments whose start time is not
// after t, earliest first (bot.TournamentStore).
func (s *Store) TournamentsToStart(ctx context.Context, t time.Time) ([]*bot.Tournament, error) {
	return s.listTournaments(ctx, func() ([]uint64, int64, error) { return s.timeIDs(ctx, ixTournamentsByStart, t) })
}

// EarliestTournamentStart returns the time of the start index's first
// key, the zero time when it is empty (bot.TournamentStore).
func (s *Store) EarliestTournamentStart(ctx context.Context) (time.Time, error) {
	op := s.firstTimeOp(ixTournamentsByStart)
	r, err := s.c.Get(ctx, string(op.KeyBytes()), clientv3.WithPrefix(), clientv3.WithKeysOnly(), clientv3.WithLimit(1))
	if err != nil {
		return time.Time{}, readError(err)
	}
	return s.firstTime(ixTournamentsByStart, r)
}

// listTournaments reads the tournaments that list names at the revision
// list read them at, again from the start if etcd compacted it away.
func (s *Store) listTournaments(ctx context.Context, list func() ([]uint64, int64, error)) ([]*bot.Tournament, error) {
	for {
		ids, rev, err := list()
		if err != nil {
			return nil, err
		}
		keys := make([]string, len(ids))
		for i, id := range ids {
			keys[i] = s.tournamentKey(id)
		}
		vals, err := s.getMany(ctx, keys, rev)
		if errors.Is(err, rpctypes.ErrCompacted) {
			continue
		}
		if err != nil {
			return nil, err
		}
		var out []*bot.Tournament
		for _, v := range vals {
			t, err := storage.DecodeTournament(v)
			if err != nil {
				return nil, err
			}
			out = append(out, t)
		}
		return out, nil
	}
}

// UpdateTournament is the compare-and-swap of bot.TournamentStore: one
// transaction guarded by the tournament's ModRevision (and the ID
// counter's, when fn took IDs, and the absence of each game it creates)
// puts the tournament, its index entries, the games of the change with
// theirs, the counter and the notifications.
func (s *Store) UpdateTournament(ctx context.Context, id, expected uint64, fn func(*bot.Tournament, func() (uint64, error)) (bot.TournamentChange, error)) (*bot.Tournament, error) {
	var out *bot.Tournament
	var games int
	err := s.casLoop(ctx, func() ([]clientv3.Cmp, []clientv3.Op, error) {
		old, rev, err := s.loadTournament(ctx, id)
		if err != nil {
			return nil, nil, err
		}
		if expected != bot.AnyVersion && expected != old.Version {
			return nil, nil, bot.Errorf(bot.ECONFLICT, "Tournament %d has changed since you saw it (version %d, now %d): look again.", id, expected, old.Version)
		}
		t := old.Clone()
		var last uint64
		var counterRev int64
		counted := false
		given := map[uint64]bool{}
		newID := func() (uint64, error) {
			if !counted {
				var err error
				if last, counterRev, err = s.lastID(ctx); err != nil {
					return 0, err
				}
				counted = true
			}
			last++
			given[last] = true
			return last, nil
		}
		change, err := fn(t, newID)
		if err != nil {
			return nil, nil, err
		}
		t.ID, t.Version = old.ID, old.Version+1
		ops, err := s.putTournamentOps(old, t, fmt.Sprintf("t%s.%s", hex16(id), hex16(uint64(rev))), change.Notifications)
		if err != nil {
			return nil, nil, err
		}
		cmps := []clientv3.Cmp{clientv3.Compare(clientv3.ModRevision(s.tournamentKey(id)), "=", rev)}
		if counted {
			ops = append(ops, clientv3.OpPut(s.idsKey(), strconv.FormatUint(last, 10)))
			cmps = append(cmps, clientv3.Compare(clientv3.ModRevision(s.idsKey()), "=", counterRev))
		}
		for _, g := range change.Games {
			if !given[g.ID] {
				return nil, nil, bot.Errorf(bot.EINTERNAL, "Tournament %d: game %d was not given its ID by this update.", id, g.ID)
			}
			if _, _, found, err := s.getOne(ctx, s.gameKey(g.ID)); err != nil || found {
				if err == nil {
					err = bot.Errorf(bot.ECONFLICT, "Game %d already exists.", g.ID)
				}
				return nil, nil, err
			}
			n := g.Clone()
			n.Version = 1
			gops, err := s.putGameOps(nil, n, "", nil)
			if err != nil {
				return nil, nil, err
			}
			ops = append(ops, gops...)
			cmps = append(cmps, clientv3.Compare(clientv3.CreateRevision(s.gameKey(g.ID)), "=", 0))
		}
		games, out = len(change.Games), t
		return cmps, ops, nil
	})
	if errors.Is(err, rpctypes.ErrTooManyOps) {
		return nil, bot.Errorf(bot.EINVALID, "Tournament %d: this round's %d games do not fit in one etcd transaction: the operator must raise etcd's --max-txn-ops (see docs/operations.md).", id, games)
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// dumpTournaments adds every tournament at revision rev to d, by ID.
func (s *Store) dumpTournaments(ctx context.Context, rev int64, d *storage.Dump) error {
	return s.scan(ctx, s.p+"tournament/", rev, func(kv *mvccpb.KeyValue) error {
		t, err := storage.DecodeTournament(kv.Value)
		d.Tournaments = append(d.Tournaments, t)
		return err
	})
}
