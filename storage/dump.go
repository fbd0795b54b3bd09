package storage

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/fairypost/fairypost/bot"
	bolt "go.etcd.io/bbolt"
)

// Dump is every record of a database, read in one transaction: what
// "fairypost migrate" copies to another backend.
type Dump struct {
	// LastID is the last challenge or game ID given: the next one is
	// larger, so a copy must never give out one up to it.
	LastID      uint64
	Games       []*bot.Game        // by ID
	Challenges  []*bot.Challenge   // by ID
	Preferences []*bot.Preferences // by user ID
	Outbox      []bot.Notification // by ID: the order of appending
	// Standings are the ratings, by pool, then user ID, each with its
	// Version.
	Standings []bot.Standing
	// RatingHistory is every rated game of every player, by pool, user
	// ID, then the order the games ended.
	RatingHistory []RatedGame
	Tournaments   []*bot.Tournament // by ID
	// Notes are the players' private notes, by game ID, then user ID.
	Notes []bot.Note
	// Follows are who follows which game, by game ID, then user ID.
	Follows []bot.Follow
	Secrets []Secret // by name (secret.go)
	// Analyses are the games' computer analyses, by game ID (analysis.go).
	Analyses []*bot.GameAnalysis
	// Variants are the servers' defined variants, by server then name
	// (variant.go).
	Variants []bot.DefinedVariant
}

// RatedGame is one entry of a player's rating history in a pool.
type RatedGame struct {
	Pool, UserID string
	Event        bot.RatingEvent
}

// Dump reads every record in one read transaction (a consistent state
// while others write). Everything is held in memory: about a kilobyte
// a game.
func (db *DB) Dump(ctx context.Context) (*Dump, error) {
	d := &Dump{}
	err := db.view(ctx, func(tx *bolt.Tx) error {
		d.LastID = tx.Bucket(bucketMeta).Bucket(keyIDs).Sequence()
		if err := tx.Bucket(bucketGames).ForEach(func(_, v []byte) error {
			g, err := decodeGame(v)
			d.Games = append(d.Games, g)
			return err
		}); err != nil {
			return err
		}
		if err := tx.Bucket(bucketChallenges).ForEach(func(_, v []byte) error {
			c, err := decodeChallenge(v)
			d.Challenges = append(d.Challenges, c)
			return err
		}); err != nil {
			return err
		}
		if err := tx.Bucket(bucketUsers).ForEach(func(_, v []byte) error {
			p, err := decodePreferences(v)
			d.Preferences = append(d.Preferences, p)
			return err
		}); err != nil {
			return err
		}
		if err := tx.Bucket(bucketOutbox).ForEach(func(k, v []byte) error {
			n, err := decodeNotification(v)
			if err != nil {
				return err
			}
			if len(k) != 8 || binary.BigEndian.Uint64(k) != n.ID {
				return fmt.Errorf("outbox key %x holds notification %d", k, n.ID)
			}
			d.Outbox = append(d.Outbox, n)
			return nil
		}); err != nil {
			return err
		}
		if err := dumpVariants(tx, d); err != nil {
			return err
		}
		if err := dumpSecrets(tx, d); err != nil {
			return err
		}
		if err := dumpAnalyses(tx, d); err != nil {
			return err
		}
		if err := dumpRatingsAndTournaments(tx, d); err != nil {
			return err
		}
		if err := tx.Bucket(bucketNotes).ForEach(func(_, v []byte) error {
			n, err := DecodeNote(v)
			d.Notes = append(d.Notes, n)
			return err
		}); err != nil {
			return err
		}
		return tx.Bucket(bucketFollows).ForEach(func(_, v []byte) error {
			f, err := DecodeFollow(v)
			d.Follows = append(d.Follows, f)
			return err
		})
	})
	if err != nil {
		return nil, fmt.Errorf("storage: dump: %w", err)
	}
	return d, nil
}

// Load writes every record of d into the database, which must hold no
// record yet: games and challenges keep their IDs and versions, with
// their index entries; preferences are copied as they are; the
// notifications are appended in d's order with new IDs (this file's
// sequence). The ID sequence is set to d's LastID (or the largest ID, if
// larger), so no ID is given twice. It is one transaction: all or
// nothing.
func (db *DB) Load(ctx context.Context, d *Dump) error {
	return db.update(ctx, func(tx *bolt.Tx) error {
		for _, name := range slices.Concat([][]byte{bucketGames, bucketChallenges, bucketUsers, bucketOutbox, bucketNotes, bucketFollows}, ratingBuckets, tournamentBuckets) {
			if k, _ := tx.Bucket(name).Cursor().First(); k != nil {
				return fmt.Errorf("storage: load: %s holds records already: load into a new file", db.Path())
			}
		}
		last := d.LastID
		for _, g := range d.Games {
			if err := putGame(tx, nil, g); err != nil {
				return err
			}
			last = max(last, g.ID)
		}
		for _, c := range d.Challenges {
			if err := putChallenge(tx, nil, c); err != nil {
				return err
			}
			last = max(last, c.ID)
		}
		for _, p := range d.Preferences {
			if p.UserID == "" {
				return fmt.Errorf("storage: load: preferences without a user")
			}
			b, err := encodePreferences(p)
			if err != nil {
				return err
			}
			if err := tx.Bucket(bucketUsers).Put([]byte(p.UserID), b); err != nil {
				return err
			}
		}
		if err := appendNotifications(tx, d.Outbox); err != nil {
			return err
		}
		for _, st := range d.Standings {
			if st.Pool == "" || st.UserID == "" {
				return fmt.Errorf("storage: load: a standing without a pool or a user")
			}
			if err := putStanding(tx, st); err != nil {
				return err
			}
		}
		for _, h := range d.RatingHistory {
			if err := putRatingEvent(tx, h.Pool, h.UserID, h.Event); err != nil {
				return err
			}
		}
		for _, t := range d.Tournaments {
			if err := putTournament(tx, nil, t); err != nil {
				return err
			}
			last = max(last, t.ID)
		}
		for _, n := range d.Notes {
			if n.UserID == "" || n.Text == "" {
				return fmt.Errorf("storage: load: a note on game %d without a user or a text", n.GameID)
			}
			if err := putNote(tx, n); err != nil {
				return err
			}
		}
		for _, f := range d.Follows {
			if f.UserID == "" {
				return fmt.Errorf("storage: load: a follow of game %d without a user", f.GameID)
			}
			if err := putFollow(tx, f); err != nil {
				return err
			}
		}
		if err := loadVariants(tx, d); err != nil {
			return err
		}
		if err := loadSecrets(tx, d); err != nil {
			return err
		}
		if err := loadAnalyses(tx, d); err != nil {
			return err
		}
		return tx.Bucket(bucketMeta).Bucket(keyIDs).SetSequence(last)
	})
}

// dumpRatingsAndTournaments adds the standings, the rating histories and
// the tournaments of tx to d (none in a file whose buckets were never
// made: opened read-only only).
func dumpRatingsAndTournaments(tx *bolt.Tx, d *Dump) error {
	if err := prefixScan(tx.Bucket(bucketRatings), nil, func(_, v []byte) error {
		st, err := DecodeStanding(v)
		d.Standings = append(d.Standings, st)
		return err
	}); err != nil {
		return err
	}
	if err := prefixScan(tx.Bucket(bucketRatingHistory), nil, func(k, v []byte) error {
		pool, rest, ok1 := bytes.Cut(k, []byte{0})
		user, _, ok2 := bytes.Cut(rest, []byte{0})
		if !ok1 || !ok2 || len(rest) != len(user)+1+16 {
			return fmt.Errorf("corrupt rating history key %x", k)
		}
		ev, err := DecodeRatingEvent(v)
		d.RatingHistory = append(d.RatingHistory, RatedGame{Pool: string(pool), UserID: string(user), Event: ev})
		return err
	}); err != nil {
		return err
	}
	return prefixScan(tx.Bucket(bucketTournaments), nil, func(_, v []byte) error {
		t, err := DecodeTournament(v)
		d.Tournaments = append(d.Tournaments, t)
		return err
	})
}
