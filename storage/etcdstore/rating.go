package etcdstore

import (
	"context"
	"fmt"
	"strings"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/storage"
	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// Ratings (bot.RatingStore), as package storage keeps them in bbolt:
//
//	P rating/POOL \x00 USER                   a standing (package storage's JSON)
//	P ix/ratings_by_user/USER \x00 POOL       empty: the pools a user has a standing in
//	P rating_history/POOL \x00 USER \x00 T    a rated game, T the time key of its end
//	                                          and its game ID, so a prefix scan reads a
//	                                          player's history in the order games ended
//
// A rated game's end writes the game, both standings and both history
// entries in one transaction, guarded by the game's ModRevision and
// those of the standings it read.

var _ bot.RatingStore = (*Store)(nil)

const ixRatingsByUser = "ratings_by_user"

func (s *Store) standingKey(pool, userID string) string {
	return s.p + "rating/" + pool + "\x00" + userID
}
func (s *Store) historyPrefix(pool, userID string) string {
	return s.p + "rating_history/" + pool + "\x00" + userID + "\x00"
}

// UpdateGameRated is UpdateGame with the standings at hand
// (bot.RatingStore): the standings fn reads are compared on their
// ModRevision in the game's transaction, and what it writes is put
// there, so the result and the rating change land together or not at
// all.
func (s *Store) UpdateGameRated(ctx context.Context, id, expected uint64, fn func(*bot.Game, bot.RatingTx) ([]bot.Notification, error)) (*bot.Game, error) {
	return s.updateGame(ctx, id, expected, func(g *bot.Game) (gameChange, error) {
		tx := &ratingTx{s: s, ctx: ctx, written: map[string]bot.Standing{}}
		notes, err := fn(g, tx)
		if err != nil {
			return gameChange{}, err
		}
		return gameChange{notes: notes, cmps: tx.cmps, ops: tx.ops}, nil
	})
}

// ratingTx is the bot.RatingTx of one try of UpdateGameRated: reads go
// to etcd (each standing's first read noted for the comparison), writes
// wait for the transaction.
type ratingTx struct {
	s       *Store
	ctx     context.Context
	written map[string]bot.Standing // standings as this try read or put them, by key
	cmps    []clientv3.Cmp
	ops     []clientv3.Op
	keys    map[string]int // index in ops of each key put (etcd refuses a key twice)
}

// Standing reads userID's standing in pool (bot.RatingTx): from etcd the
// first time, then as this try read or wrote it, so that one try sees
// one state (a change by another process meanwhile fails the
// transaction's comparison, and the whole try runs again).
func (r *ratingTx) Standing(pool, userID string) (bot.Standing, error) {
	k := r.s.standingKey(pool, userID)
	if st, ok := r.written[k]; ok {
		return st, nil
	}
	v, rev, found, err := r.s.getOne(r.ctx, k)
	if err != nil {
		return bot.Standing{}, err
	}
	r.cmps = append(r.cmps, clientv3.Compare(clientv3.ModRevision(k), "=", rev))
	st := bot.Standing{Pool: pool, UserID: userID}
	if found {
		if st, err = storage.DecodeStanding(v); err != nil {
			return bot.Standing{}, err
		}
	}
	r.written[k] = st
	return st, nil
}

// PutStanding writes st with its version checked and incremented, its
// entry in ratings_by_user and ev in the history (bot.RatingTx).
func (r *ratingTx) PutStanding(st bot.Standing, ev bot.RatingEvent) error {
	if st.Pool == "" || st.UserID == "" {
		return bot.Errorf(bot.EINTERNAL, "A standing needs a pool and a user.")
	}
	old, err := r.Standing(st.Pool, st.UserID)
	if err != nil {
		return err
	}
	if old.Version != st.Version {
		return bot.Errorf(bot.ECONFLICT, "The rating of <@%s> in %s changed meanwhile: try again.", st.UserID, st.Pool)
	}
	st.Version++
	ops, err := r.s.standingOps(st, ev)
	if err != nil {
		return err
	}
	r.written[r.s.standingKey(st.Pool, st.UserID)] = st
	if r.keys == nil {
		r.keys = map[string]int{}
	}
	for _, op := range ops {
		k := string(op.KeyBytes())
		if i, ok := r.keys[k]; ok {
			r.ops[i] = op
			continue
		}
		r.keys[k] = len(r.ops)
		r.ops = append(r.ops, op)
	}
	return nil
}

// standingOps returns the puts of st (its Version as it is), its entry
// in ratings_by_user and ev in the history.
func (s *Store) standingOps(st bot.Standing, ev bot.RatingEvent) ([]clientv3.Op, error) {
	b, err := storage.EncodeStanding(st)
	if err != nil {
		return nil, err
	}
	ops := []clientv3.Op{
		clientv3.OpPut(s.standingKey(st.Pool, st.UserID), string(b)),
		clientv3.OpPut(s.entryKeyString(ixRatingsByUser, st.UserID, st.Pool), ""),
	}
	e, err := storage.EncodeRatingEvent(ev)
	if err != nil {
		return nil, err
	}
	return append(ops, clientv3.OpPut(s.historyPrefix(st.Pool, st.UserID)+timeKey(ev.Entry.At, ev.GameID), string(e))), nil
}

// entryKeyString is entryKey for an index whose entries name a string
// (a pool) rather than an ID.
func (s *Store) entryKeyString(index, key, value string) string {
	return s.indexPrefix(index) + key + "\x00" + value
}

// PoolStandings returns every standing in pool, by user ID
// (bot.RatingStore): one prefix scan.
func (s *Store) PoolStandings(ctx context.Context, pool string) ([]bot.Standing, error) {
	var out []bot.Standing
	err := s.scan(ctx, s.standingKey(pool, ""), 0, func(kv *mvccpb.KeyValue) error {
		st, err := storage.DecodeStanding(kv.Value)
		out = append(out, st)
		return err
	})
	return out, err
}

// UserStandings returns userID's standings by pool key (bot.RatingStore):
// the pools from ratings_by_user, then their standings, both read at one
// revision.
func (s *Store) UserStandings(ctx context.Context, userID string) ([]bot.Standing, error) {
	if userID == "" {
		return nil, nil
	}
	prefix := s.entryKeyString(ixRatingsByUser, userID, "")
	r, err := s.c.Get(ctx, prefix, clientv3.WithPrefix(), clientv3.WithKeysOnly())
	if err != nil {
		return nil, readError(err)
	}
	keys := make([]string, len(r.Kvs))
	for i, kv := range r.Kvs {
		keys[i] = s.standingKey(strings.TrimPrefix(string(kv.Key), prefix), userID)
	}
	vals, err := s.getMany(ctx, keys, r.Header.Revision)
	if err != nil {
		return nil, err
	}
	out := make([]bot.Standing, len(vals))
	for i, v := range vals {
		if out[i], err = storage.DecodeStanding(v); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// RatingHistory returns userID's rated games in pool in the order they
// ended (bot.RatingStore): one prefix scan.
func (s *Store) RatingHistory(ctx context.Context, pool, userID string) ([]bot.RatingEvent, error) {
	prefix := s.historyPrefix(pool, userID)
	var out []bot.RatingEvent
	err := s.scan(ctx, prefix, 0, func(kv *mvccpb.KeyValue) error {
		if len(kv.Key) != len(prefix)+timeKeyLen {
			return fmt.Errorf("etcd: corrupt rating history key %q", kv.Key)
		}
		ev, err := storage.DecodeRatingEvent(kv.Value)
		out = append(out, ev)
		return err
	})
	return out, err
}

// dumpRatings adds every standing and history entry at revision rev to
// d, in the order of package storage's Dump.
func (s *Store) dumpRatings(ctx context.Context, rev int64, d *storage.Dump) error {
	if err := s.scan(ctx, s.p+"rating/", rev, func(kv *mvccpb.KeyValue) error {
		st, err := storage.DecodeStanding(kv.Value)
		d.Standings = append(d.Standings, st)
		return err
	}); err != nil {
		return err
	}
	prefix := s.p + "rating_history/"
	return s.scan(ctx, prefix, rev, func(kv *mvccpb.KeyValue) error {
		parts := strings.Split(string(kv.Key[len(prefix):]), "\x00")
		if len(parts) != 3 || len(parts[2]) != timeKeyLen {
			return fmt.Errorf("etcd: corrupt rating history key %q", kv.Key)
		}
		ev, err := storage.DecodeRatingEvent(kv.Value)
		d.RatingHistory = append(d.RatingHistory, storage.RatedGame{Pool: parts[0], UserID: parts[1], Event: ev})
		return err
	})
}

// loadRatingOps returns the puts of d's standings and histories.
func (s *Store) loadRatingOps(d *storage.Dump) ([]clientv3.Op, error) {
	var ops []clientv3.Op
	for _, st := range d.Standings {
		if st.Pool == "" || st.UserID == "" {
			return nil, fmt.Errorf("etcd: a standing without a pool or a user")
		}
		b, err := storage.EncodeStanding(st)
		if err != nil {
			return nil, err
		}
		ops = append(ops, clientv3.OpPut(s.standingKey(st.Pool, st.UserID), string(b)),
			clientv3.OpPut(s.entryKeyString(ixRatingsByUser, st.UserID, st.Pool), ""))
	}
	for _, h := range d.RatingHistory {
		e, err := storage.EncodeRatingEvent(h.Event)
		if err != nil {
			return nil, err
		}
		ops = append(ops, clientv3.OpPut(s.historyPrefix(h.Pool, h.UserID)+timeKey(h.Event.Entry.At, h.Event.GameID), string(e)))
	}
	return ops, nil
}
