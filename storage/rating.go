package storage

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/rating"
	bolt "go.etcd.io/bbolt"
)

// Ratings (bot.RatingStore). Three buckets, added within schema 3 and
// created by Open (a file opened read-only before a read-write Open made
// them reads as having no ratings):
//
//   - "ratings": pool key + 0x00 + user ID -> JSON standing, so a prefix
//     scan of a pool reads its leaderboard;
//   - "ratings_by_user": user ID + 0x00 + pool key -> empty, the pools a
//     user has a standing in, for player cards;
//   - "rating_history": pool key + 0x00 + user ID + 0x00 + the game's end
//     (Unix nanoseconds) + game ID, 8 big-endian bytes each -> JSON event,
//     so a prefix scan reads a player's history in a pool in the order the
//     games ended.
var (
	bucketRatings       = []byte("ratings")
	bucketRatingsByUser = []byte("ratings_by_user")
	bucketRatingHistory = []byte("rating_history")
	ratingBuckets       = [][]byte{bucketRatings, bucketRatingsByUser, bucketRatingHistory}
)

var _ bot.RatingStore = (*DB)(nil)

// standingRecord is the stored form of a bot.Standing.
type standingRecord struct {
	Schema     int       `json:"schema"`
	Pool       string    `json:"pool"`
	UserID     string    `json:"user"`
	Version    uint64    `json:"version"`
	Rating     float64   `json:"rating"`
	Deviation  float64   `json:"deviation"`
	Volatility float64   `json:"volatility"`
	Games      int       `json:"games"`
	Last       time.Time `json:"last"`
}

// ratingEventRecord is the stored form of a bot.RatingEvent.
type ratingEventRecord struct {
	Schema     int       `json:"schema"`
	GameID     uint64    `json:"game"`
	At         time.Time `json:"at"`
	Score      float64   `json:"score"`
	Rating     float64   `json:"rating"`
	Deviation  float64   `json:"deviation"`
	Volatility float64   `json:"volatility"`
}

// ratingChangeRecord is the stored form of a bot.RatingChange, within a
// game record.
type ratingChangeRecord struct {
	UserID string       `json:"user"`
	Pool   string       `json:"pool"`
	Before glickoRecord `json:"before"`
	After  glickoRecord `json:"after"`
}

// glickoRecord is the stored form of a rating.Glicko.
type glickoRecord struct {
	Rating     float64 `json:"r"`
	Deviation  float64 `json:"rd"`
	Volatility float64 `json:"vol"`
}

func encodeRatingChanges(cs []bot.RatingChange) []ratingChangeRecord {
	var out []ratingChangeRecord
	for _, c := range cs {
		var r ratingChangeRecord
		r.UserID = c.UserID
		r.Pool = c.Pool
		r.Before = encodeGlicko(c.Before)
		r.After = encodeGlicko(c.After)
		out = append(out, r)
	}
	return out
}

func decodeRatingChanges(rs []ratingChangeRecord) []bot.RatingChange {
	var out []bot.RatingChange
	for _, r := range rs {
		var c bot.RatingChange
		c.UserID = r.UserID
		c.Pool = r.Pool
		c.Before = decodeGlicko(r.Before)
		c.After = decodeGlicko(r.After)
		out = append(out, c)
	}
	return out
}

func encodeGlicko(g rating.Glicko) glickoRecord {
	var r glickoRecord
	r.Rating = g.Rating
	r.Deviation = g.Deviation
	r.Volatility = g.Volatility
	return r
}

func decodeGlicko(r glickoRecord) rating.Glicko {
	var g rating.Glicko
	g.Rating = r.Rating
	g.Deviation = r.Deviation
	g.Volatility = r.Volatility
	return g
}

// EncodeStanding returns the stored form of st, its Version as it is:
// the same bytes on every backend.
func EncodeStanding(st bot.Standing) ([]byte, error) {
	r := standingRecord{Schema: SchemaVersion}
	r.Pool = st.Pool
	r.UserID = st.UserID
	r.Version = st.Version
	r.Rating = st.Player.Rating
	r.Deviation = st.Player.Deviation
	r.Volatility = st.Player.Volatility
	r.Games = st.Player.Games
	r.Last = st.Player.Last
	return json.Marshal(r)
}

// DecodeStanding reads what EncodeStanding wrote.
func DecodeStanding(b []byte) (bot.Standing, error) {
	var r standingRecord
	if err := json.Unmarshal(b, &r); err != nil {
		return bot.Standing{}, fmt.Errorf("standing record: %w", err)
	}
	if !readableSchema(r.Schema) {
		return bot.Standing{}, fmt.Errorf("standing of %s in %s: record schema %d, want 1 to %d", r.UserID, r.Pool, r.Schema, SchemaVersion)
	}
	var st bot.Standing
	st.Pool = r.Pool
	st.UserID = r.UserID
	st.Version = r.Version
	st.Player.Rating = r.Rating
	st.Player.Deviation = r.Deviation
	st.Player.Volatility = r.Volatility
	st.Player.Games = r.Games
	st.Player.Last = r.Last
	return st, nil
}

// EncodeRatingEvent returns the stored form of ev (its pool and player
// are in its key).
func EncodeRatingEvent(ev bot.RatingEvent) ([]byte, error) {
	r := ratingEventRecord{Schema: SchemaVersion}
	r.GameID = ev.GameID
	r.At = ev.Entry.At
	r.Score = ev.Entry.Score
	r.Rating = ev.Entry.After.Rating
	r.Deviation = ev.Entry.After.Deviation
	r.Volatility = ev.Entry.After.Volatility
	return json.Marshal(r)
}

// DecodeRatingEvent reads what EncodeRatingEvent wrote.
func DecodeRatingEvent(b []byte) (bot.RatingEvent, error) {
	var r ratingEventRecord
	if err := json.Unmarshal(b, &r); err != nil {
		return bot.RatingEvent{}, fmt.Errorf("rating event record: %w", err)
	}
	if !readableSchema(r.Schema) {
		return bot.RatingEvent{}, fmt.Errorf("rating event of game %d: record schema %d, want 1 to %d", r.GameID, r.Schema, SchemaVersion)
	}
	var ev bot.RatingEvent
	ev.GameID = r.GameID
	ev.Entry.At = r.At
	ev.Entry.Score = r.Score
	ev.Entry.After.Rating = r.Rating
	ev.Entry.After.Deviation = r.Deviation
	ev.Entry.After.Volatility = r.Volatility
	return ev, nil
}

// pairKey returns a + 0x00 + b.
func pairKey(a, b string) []byte {
	return append(append([]byte(a), 0), b...)
}

// boltRatingTx is the bot.RatingTx of one bbolt read-write transaction.
type boltRatingTx struct{ tx *bolt.Tx }

// Standing reads userID's standing in pool (bot.RatingTx).
func (r boltRatingTx) Standing(pool, userID string) (bot.Standing, error) {
	b := r.tx.Bucket(bucketRatings).Get(pairKey(pool, userID))
	if b == nil {
		return bot.Standing{Pool: pool, UserID: userID}, nil
	}
	return DecodeStanding(b)
}

// PutStanding writes st with its version checked and incremented, its
// entry in ratings_by_user and ev in rating_history (bot.RatingTx).
func (r boltRatingTx) PutStanding(st bot.Standing, ev bot.RatingEvent) error {
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
	if err := putStanding(r.tx, st); err != nil {
		return err
	}
	return putRatingEvent(r.tx, st.Pool, st.UserID, ev)
}

// putStanding stores st as it is (its Version included) with its entry
// in ratings_by_user.
func putStanding(tx *bolt.Tx, st bot.Standing) error {
	b, err := EncodeStanding(st)
	if err != nil {
		return err
	}
	if err := tx.Bucket(bucketRatings).Put(pairKey(st.Pool, st.UserID), b); err != nil {
		return err
	}
	return tx.Bucket(bucketRatingsByUser).Put(pairKey(st.UserID, st.Pool), []byte{})
}

// putRatingEvent stores ev in userID's history in pool.
func putRatingEvent(tx *bolt.Tx, pool, userID string, ev bot.RatingEvent) error {
	e, err := EncodeRatingEvent(ev)
	if err != nil {
		return err
	}
	key := append(append(pairKey(pool, userID), 0), timeKey(ev.Entry.At, ev.GameID)...)
	return tx.Bucket(bucketRatingHistory).Put(key, e)
}

// UpdateGameRated is UpdateGame with the standings of the same bbolt
// transaction at hand (bot.RatingStore).
func (db *DB) UpdateGameRated(ctx context.Context, id, expected uint64, fn func(*bot.Game, bot.RatingTx) ([]bot.Notification, error)) (*bot.Game, error) {
	var out *bot.Game
	err := db.update(ctx, func(tx *bolt.Tx) (err error) {
		buckets := func() error {
			for _, name := range ratingBuckets {
				if tx.Bucket(name) == nil {
					return fmt.Errorf("the bucket %s is missing", name)
				}
			}
			return nil
		}
		out, err = updateGameIn(tx, id, expected, buckets, func(g *bot.Game) ([]bot.Notification, error) {
			return fn(g, boltRatingTx{tx})
		})
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// prefixScan calls fn with every key and value of b under prefix, in
// order; a missing bucket holds nothing.
func prefixScan(b *bolt.Bucket, prefix []byte, fn func(k, v []byte) error) error {
	if b == nil {
		return nil
	}
	c := b.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		if err := fn(k, v); err != nil {
			return err
		}
	}
	return nil
}

// PoolStandings returns every standing in pool, by user ID
// (bot.RatingStore): one prefix scan of ratings.
func (db *DB) PoolStandings(ctx context.Context, pool string) ([]bot.Standing, error) {
	var out []bot.Standing
	err := db.view(ctx, func(tx *bolt.Tx) error {
		return prefixScan(tx.Bucket(bucketRatings), pairKey(pool, ""), func(_, v []byte) error {
			st, err := DecodeStanding(v)
			if err != nil {
				return err
			}
			out = append(out, st)
			return nil
		})
	})
	return out, err
}

// UserStandings returns userID's standings by pool key (bot.RatingStore):
// a prefix scan of ratings_by_user, then one read per pool.
func (db *DB) UserStandings(ctx context.Context, userID string) ([]bot.Standing, error) {
	if userID == "" {
		return nil, nil
	}
	var out []bot.Standing
	err := db.view(ctx, func(tx *bolt.Tx) error {
		prefix := pairKey(userID, "")
		return prefixScan(tx.Bucket(bucketRatingsByUser), prefix, func(k, _ []byte) error {
			pool := string(k[len(prefix):])
			v := tx.Bucket(bucketRatings).Get(pairKey(pool, userID))
			if v == nil {
				return fmt.Errorf("ratings_by_user lists %s in %s, which has no standing", userID, pool)
			}
			st, err := DecodeStanding(v)
			if err != nil {
				return err
			}
			out = append(out, st)
			return nil
		})
	})
	return out, err
}

// RatingHistory returns userID's rated games in pool in the order they
// ended (bot.RatingStore): one prefix scan of rating_history.
func (db *DB) RatingHistory(ctx context.Context, pool, userID string) ([]bot.RatingEvent, error) {
	var out []bot.RatingEvent
	err := db.view(ctx, func(tx *bolt.Tx) error {
		prefix := append(pairKey(pool, userID), 0)
		return prefixScan(tx.Bucket(bucketRatingHistory), prefix, func(k, v []byte) error {
			if len(k) != len(prefix)+16 {
				return fmt.Errorf("corrupt rating history key %x", k)
			}
			ev, err := DecodeRatingEvent(v)
			if err != nil {
				return err
			}
			out = append(out, ev)
			return nil
		})
	})
	return out, err
}
