package storage

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/fairypost/fairypost/bot"
)

// Problem is one thing Check found wrong with a database: where (a
// bucket's name, or "file" for bbolt's own pages) and what.
type Problem struct {
	Where string
	What  string
}

func (p Problem) String() string { return p.Where + ": " + p.What }

// Check reads the whole database in one read transaction and returns
// what is wrong with it, nil when it is sound:
//
//   - bbolt's consistency check (every page reachable once or free, keys
//     in order, the freelist and the meta pages agreeing);
//   - every game and challenge record decodes and is stored under its
//     own ID;
//   - every index holds exactly the entries its records call for, both
//     ways: an entry whose record is missing or says otherwise, and an
//     entry a record calls for that is missing, are each a Problem. The
//     indexes are games_by_user, games_by_channel, active_games_by_user,
//     active_games_by_channel (ongoing games only), games_by_deadline,
//     games_by_remind, challenges_by_user, challenges_by_channel and
//     challenges_by_expiry (pending challenges only);
//   - every note and follow record decodes, is stored under its own game
//     and user, and names a game that exists.
//
// It changes nothing, so it may run on a database opened ReadOnly, and
// alongside the bot (it holds one read transaction: writers go on). Its
// cost grows with the size of the file: it reads every record once. The
// error is for a database that could not be read at all (closed, ctx
// done), not for what was found.
func (db *DB) Check(ctx context.Context) ([]Problem, error) {
	var problems []Problem
	err := db.view(ctx, func(tx *bolt.Tx) error {
		for err := range tx.Check() {
			problems = append(problems, Problem{Where: "file", What: oneLine(err.Error())})
		}
		if len(problems) > 0 {
			// The pages contradict each other: reading the records
			// could fault. What bbolt found is the answer.
			return nil
		}
		problems = append(problems, checkIndexes(tx)...)
		return ctx.Err()
	})
	if err != nil {
		return nil, err
	}
	return problems, nil
}

// expected is the entries an index should hold, by key, each with the
// record that calls for it (for messages).
type expected map[string]string

// add records that the record what calls for key.
func (e expected) add(key []byte, what string) { e[string(key)] = what }

// checkIndexes compares every index with the entries the records call
// for.
func checkIndexes(tx *bolt.Tx) []Problem {
	var problems []Problem
	bad := func(where, format string, args ...any) {
		problems = append(problems, Problem{Where: where, What: fmt.Sprintf(format, args...)})
	}
	want := map[string]expected{}
	for _, name := range indexNames {
		want[name] = expected{}
	}
	byKey := func(b []byte, key string, id uint64, what string) {
		if key != "" {
			want[string(b)].add(indexKey(key, id), what)
		}
	}
	records := func(bucket []byte, each func(id uint64, v []byte)) {
		b := tx.Bucket(bucket)
		if b == nil {
			bad(string(bucket), "the bucket is missing")
			return
		}
		b.ForEach(func(k, v []byte) error {
			if len(k) != 8 || v == nil {
				bad(string(bucket), "key %x is not a record's ID", k)
				return nil
			}
			each(binary.BigEndian.Uint64(k), v)
			return nil
		})
	}
	gameIDs := map[uint64]bool{}
	records(bucketGames, func(id uint64, v []byte) {
		gameIDs[id] = true
		g, err := decodeGame(v)
		if err != nil {
			bad(string(bucketGames), "record %d does not decode: %v", id, err)
			return
		}
		if g.ID != id {
			bad(string(bucketGames), "record %d holds game %d", id, g.ID)
			return
		}
		what := fmt.Sprintf("game %d", id)
		for _, u := range []string{g.White, g.Black} {
			byKey(bucketGamesByUser, u, id, what)
			if g.Ongoing() {
				byKey(bucketActiveByUser, u, id, what)
			}
		}
		byKey(bucketGamesByChannel, g.ChannelID, id, what)
		if g.Ongoing() {
			byKey(bucketActiveByChannel, g.ChannelID, id, what)
		}
		if !g.Deadline.IsZero() {
			want[string(bucketGamesByDeadline)].add(timeKey(g.Deadline, id), what)
		}
		if !g.RemindAt.IsZero() {
			want[string(bucketGamesByRemind)].add(timeKey(g.RemindAt, id), what)
		}
	})
	records(bucketChallenges, func(id uint64, v []byte) {
		c, err := decodeChallenge(v)
		if err != nil {
			bad(string(bucketChallenges), "record %d does not decode: %v", id, err)
			return
		}
		if c.ID != id {
			bad(string(bucketChallenges), "record %d holds challenge %d", id, c.ID)
			return
		}
		what := fmt.Sprintf("challenge %d", id)
		for _, u := range []string{c.Challenger, c.Challenged} {
			byKey(bucketChallengesByUser, u, id, what)
		}
		byKey(bucketChallengesByChannel, c.ChannelID, id, what)
		if c.Status == bot.ChallengePending {
			want[string(bucketChallengesByExpiry)].add(timeKey(c.Expires, id), what)
		}
	})
	// The rating and tournament buckets are missing only from a file no
	// read-write Open has seen since they were added: it holds none.
	optional := map[string]bool{}
	for _, name := range append(ratingBuckets, tournamentBuckets...) {
		if tx.Bucket(name) == nil {
			optional[string(name)] = true
		}
	}
	tournaments := records
	if optional[string(bucketTournaments)] {
		tournaments = func([]byte, func(uint64, []byte)) {}
	}
	tournaments(bucketTournaments, func(id uint64, v []byte) {
		t, err := DecodeTournament(v)
		if err != nil {
			bad(string(bucketTournaments), "record %d does not decode: %v", id, err)
			return
		}
		if t.ID != id {
			bad(string(bucketTournaments), "record %d holds tournament %d", id, t.ID)
			return
		}
		what := fmt.Sprintf("tournament %d", id)
		byKey(bucketTournamentsByChannel, t.ChannelID, id, what)
		if TournamentRunning(t) {
			want[string(bucketRunningTournaments)].add(itob(id), what)
		}
		if at := TournamentStart(t); !at.IsZero() {
			want[string(bucketTournamentsByStart)].add(timeKey(at, id), what)
		}
	})
	if b := tx.Bucket(bucketRatings); b != nil {
		b.ForEach(func(k, v []byte) error {
			st, err := DecodeStanding(v)
			switch {
			case err != nil:
				bad(string(bucketRatings), "standing %q does not decode: %v", k, err)
			case !bytes.Equal(k, pairKey(st.Pool, st.UserID)):
				bad(string(bucketRatings), "key %q holds the standing of %s in %s", k, st.UserID, st.Pool)
			default:
				want[string(bucketRatingsByUser)].add(pairKey(st.UserID, st.Pool), fmt.Sprintf("the standing of %s in %s", st.UserID, st.Pool))
			}
			return nil
		})
	}
	problems = append(problems, checkNotesAndFollows(tx, gameIDs)...)
	for _, name := range indexNames {
		if optional[name] && len(want[name]) == 0 {
			continue
		}
		problems = append(problems, compareIndex(tx, name, want[name])...)
	}
	return problems
}

// checkNotesAndFollows checks that every note and follow record decodes,
// is kept under its own game and user, and names one of games.
func checkNotesAndFollows(tx *bolt.Tx, games map[uint64]bool) []Problem {
	var problems []Problem
	for _, c := range []struct {
		bucket []byte
		what   string
		decode func([]byte) (uint64, string, error)
	}{
		{bucketNotes, "note", func(v []byte) (uint64, string, error) { n, err := DecodeNote(v); return n.GameID, n.UserID, err }},
		{bucketFollows, "follow", func(v []byte) (uint64, string, error) { f, err := DecodeFollow(v); return f.GameID, f.UserID, err }},
	} {
		b := tx.Bucket(c.bucket)
		if b == nil {
			problems = append(problems, Problem{Where: string(c.bucket), What: "the bucket is missing"})
			continue
		}
		b.ForEach(func(k, v []byte) error {
			bad := func(format string, args ...any) {
				problems = append(problems, Problem{Where: string(c.bucket), What: fmt.Sprintf(format, args...)})
			}
			id, user, err := c.decode(v)
			switch {
			case err != nil:
				bad("the %s under key %x does not decode: %v", c.what, k, err)
			case !bytes.Equal(k, gameUserKey(id, user)) || user == "":
				bad("key %x holds the %s of game %d by %q", k, c.what, id, user)
			case !games[id]:
				bad("the %s of game %d by %s names a game that does not exist", c.what, id, user)
			}
			return nil
		})
	}
	return problems
}

// indexNames are the indexes Check compares with their records, in the
// order it reports on them.
var indexNames = []string{string(bucketGamesByUser), string(bucketGamesByChannel), string(bucketActiveByUser),
	string(bucketActiveByChannel), string(bucketGamesByDeadline), string(bucketGamesByRemind),
	string(bucketChallengesByUser), string(bucketChallengesByChannel), string(bucketChallengesByExpiry),
	string(bucketTournamentsByChannel), string(bucketRunningTournaments), string(bucketTournamentsByStart),
	string(bucketRatingsByUser)}

// timeIndexes are those of indexNames keyed by time (timeKey), the others
// by user or channel (indexKey), by ID (running_tournaments) or by user
// and pool (ratings_by_user).
var timeIndexes = []string{string(bucketGamesByDeadline), string(bucketGamesByRemind), string(bucketChallengesByExpiry),
	string(bucketTournamentsByStart)}

// compareIndex compares the index called name with the entries want.
func compareIndex(tx *bolt.Tx, name string, want expected) []Problem {
	b := tx.Bucket([]byte(name))
	if b == nil {
		return []Problem{{Where: name, What: "the index is missing"}}
	}
	var problems []Problem
	seen := map[string]bool{}
	b.ForEach(func(k, v []byte) error {
		key := string(k)
		seen[key] = true
		if _, ok := want[key]; !ok {
			problems = append(problems, Problem{Where: name, What: "entry " + describeEntry(name, k) + " matches no record"})
		} else if len(v) != 0 {
			problems = append(problems, Problem{Where: name, What: "entry " + describeEntry(name, k) + " has a value"})
		}
		return nil
	})
	var missing []string
	for key, what := range want {
		if !seen[key] {
			missing = append(missing, fmt.Sprintf("entry %s of %s is missing", describeEntry(name, []byte(key)), what))
		}
	}
	slices.Sort(missing)
	for _, m := range missing {
		problems = append(problems, Problem{Where: name, What: m})
	}
	return problems
}

// describeEntry writes the key k of the index called name for people:
// `"alice" → 12` for an index by user or channel, `2026-03-01T12:00:00Z →
// 12` for a time index, the bytes in hex when k has neither shape.
func describeEntry(name string, k []byte) string {
	if slices.Contains(timeIndexes, name) {
		if len(k) != 16 {
			return fmt.Sprintf("%x", k)
		}
		t := time.Unix(0, int64(binary.BigEndian.Uint64(k[:8]))).UTC()
		return fmt.Sprintf("%s → %d", t.Format(time.RFC3339Nano), binary.BigEndian.Uint64(k[8:]))
	}
	// indexKey: the key, a zero byte, the 8-byte ID.
	if len(k) < 9 || k[len(k)-9] != 0 {
		return fmt.Sprintf("%x", k)
	}
	return fmt.Sprintf("%q → %d", k[:len(k)-9], binary.BigEndian.Uint64(k[len(k)-8:]))
}
