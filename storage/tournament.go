package storage

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/tournament"
	bolt "go.etcd.io/bbolt"
)

// Tournaments (bot.TournamentStore). Buckets added within schema 3 and
// created by Open, like the rating buckets (a file opened read-only
// before has no tournaments): "tournaments" (ID, 8 big-endian bytes, from
// the sequence of challenges and games -> JSON record),
// "tournaments_by_channel" (channel + 0x00 + ID -> empty),
// "running_tournaments" (ID -> empty, for the events running or paused)
// and "tournaments_by_start" (StartAt + ID as in games_by_deadline ->
// empty, for open tournaments with a start time).
var (
	bucketTournaments          = []byte("tournaments")
	bucketTournamentsByChannel = []byte("tournaments_by_channel")
	bucketRunningTournaments   = []byte("running_tournaments")
	bucketTournamentsByStart   = []byte("tournaments_by_start")
	tournamentBuckets          = [][]byte{bucketTournaments, bucketTournamentsByChannel, bucketRunningTournaments,
		bucketTournamentsByStart}
)

var _ bot.TournamentStore = (*DB)(nil)

// tournamentRecord is the stored form of a bot.Tournament; its event's
// enums (kind, status, results) are stored as their explicit numbers.
type tournamentRecord struct {
	Schema      int                  `json:"schema"`
	ID          uint64               `json:"id"`
	Version     uint64               `json:"version"`
	GuildID     string               `json:"guild,omitempty"`
	ChannelID   string               `json:"channel"`
	Organizer   string               `json:"organizer"`
	Variant     string               `json:"variant"`
	Options     string               `json:"options,omitempty"`
	DaysPerMove int                  `json:"days_per_move"`
	Rated       bool                 `json:"rated,omitempty"`
	StartAt     time.Time            `json:"start_at,omitzero"`
	Kind        uint8                `json:"kind"`
	Rounds      int                  `json:"rounds"`
	Status      uint8                `json:"status"`
	Players     []string             `json:"players"`
	Withdrawn   []string             `json:"withdrawn,omitempty"`
	Schedule    []roundRecord        `json:"schedule,omitempty"`
	Games       []tournamentGameLink `json:"games,omitempty"`
	Created     time.Time            `json:"created"`
	Updated     time.Time            `json:"updated"`
}

type roundRecord struct {
	Games []pairingRecord `json:"games"`
	Bye   string          `json:"bye,omitempty"`
}

type pairingRecord struct {
	White  string `json:"white"`
	Black  string `json:"black"`
	Result uint8  `json:"result"`
}

type tournamentGameLink struct {
	Round  int    `json:"round"`
	White  string `json:"white"`
	Black  string `json:"black"`
	GameID uint64 `json:"game"`
}

// EncodeTournament returns the stored form of t: the same bytes on every
// backend.
func EncodeTournament(t *bot.Tournament) ([]byte, error) {
	r := tournamentRecord{Schema: SchemaVersion}
	r.ID = t.ID
	r.Version = t.Version
	r.GuildID = t.GuildID
	r.ChannelID = t.ChannelID
	r.Organizer = t.Organizer
	r.Variant = t.Variant
	r.Options = t.Options
	r.DaysPerMove = t.DaysPerMove
	r.Rated = t.Rated
	r.StartAt = t.StartAt
	r.Kind = uint8(t.Event.Kind)
	r.Rounds = t.Event.Rounds
	r.Status = uint8(t.Event.Status)
	r.Players = t.Event.Players
	r.Withdrawn = t.Event.Withdrawn
	for _, rd := range t.Event.Schedule {
		rr := roundRecord{Games: []pairingRecord{}}
		rr.Bye = rd.Bye
		for _, g := range rd.Games {
			var p pairingRecord
			p.White = g.White
			p.Black = g.Black
			p.Result = uint8(g.Result)
			rr.Games = append(rr.Games, p)
		}
		r.Schedule = append(r.Schedule, rr)
	}
	for _, g := range t.Games {
		var l tournamentGameLink
		l.Round = g.Round
		l.White = g.White
		l.Black = g.Black
		l.GameID = g.GameID
		r.Games = append(r.Games, l)
	}
	r.Created = t.Created
	r.Updated = t.Updated
	return json.Marshal(r)
}

// DecodeTournament reads what EncodeTournament wrote.
func DecodeTournament(b []byte) (*bot.Tournament, error) {
	var r tournamentRecord
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("tournament record: %w", err)
	}
	if !readableSchema(r.Schema) {
		return nil, fmt.Errorf("tournament %d: record schema %d, want 1 to %d", r.ID, r.Schema, SchemaVersion)
	}
	t := &bot.Tournament{}
	t.ID = r.ID
	t.Version = r.Version
	t.GuildID = r.GuildID
	t.ChannelID = r.ChannelID
	t.Organizer = r.Organizer
	t.Variant = r.Variant
	t.Options = r.Options
	t.DaysPerMove = r.DaysPerMove
	t.Rated = r.Rated
	t.StartAt = r.StartAt
	t.Event.Kind = tournament.Kind(r.Kind)
	t.Event.Rounds = r.Rounds
	t.Event.Status = tournament.Status(r.Status)
	t.Event.Players = r.Players
	t.Event.Withdrawn = r.Withdrawn
	for _, rr := range r.Schedule {
		rd := tournament.Round{Games: []tournament.Game{}}
		rd.Bye = rr.Bye
		for _, p := range rr.Games {
			var g tournament.Game
			g.White = p.White
			g.Black = p.Black
			g.Result = tournament.Result(p.Result)
			rd.Games = append(rd.Games, g)
		}
		t.Event.Schedule = append(t.Event.Schedule, rd)
	}
	for _, l := range r.Games {
		var g bot.TournamentGame
		g.Round = l.Round
		g.White = l.White
		g.Black = l.Black
		g.GameID = l.GameID
		t.Games = append(t.Games, g)
	}
	t.Created = r.Created
	t.Updated = r.Updated
	return t, nil
}

// TournamentRunning reports whether t's event is running or paused: the
// tournaments RunningTournaments lists.
func TournamentRunning(t *bot.Tournament) bool {
	return t.Event.Status == tournament.Running || t.Event.Status == tournament.Paused
}

// TournamentStart is when t starts by itself, the zero time when it does
// not (no start time, or no longer open): its key in the index that
// TournamentsToStart reads.
func TournamentStart(t *bot.Tournament) time.Time {
	if t.Event.Status != tournament.Open {
		return time.Time{}
	}
	return t.StartAt
}

// putTournament stores t, which replaces old (nil for a new one), with
// its index entries.
func putTournament(tx *bolt.Tx, old, t *bot.Tournament) error {
	for _, name := range tournamentBuckets {
		if tx.Bucket(name) == nil {
			return fmt.Errorf("the bucket %s is missing", name)
		}
	}
	b, err := EncodeTournament(t)
	if err != nil {
		return err
	}
	if err := tx.Bucket(bucketTournaments).Put(itob(t.ID), b); err != nil {
		return err
	}
	var was bot.Tournament
	if old != nil {
		was = *old
	}
	if err := reindex(tx.Bucket(bucketTournamentsByChannel), []string{was.ChannelID}, []string{t.ChannelID}, t.ID); err != nil {
		return err
	}
	if err := retime(tx.Bucket(bucketTournamentsByStart), TournamentStart(&was), TournamentStart(t), t.ID); err != nil {
		return err
	}
	if TournamentRunning(t) {
		return tx.Bucket(bucketRunningTournaments).Put(itob(t.ID), []byte{})
	}
	return tx.Bucket(bucketRunningTournaments).Delete(itob(t.ID))
}

// TournamentsToStart returns the open tournaments whose start time is not
// after t, earliest first (bot.TournamentStore), from tournaments_by_start.
func (db *DB) TournamentsToStart(ctx context.Context, t time.Time) ([]*bot.Tournament, error) {
	var out []*bot.Tournament
	err := db.view(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketTournamentsByStart)
		if b == nil {
			return nil
		}
		return scanUntil(b, t, func(id uint64) error {
			tr, err := getTournament(tx, id)
			if err != nil {
				return err
			}
			out = append(out, tr)
			return nil
		})
	})
	return out, err
}

// EarliestTournamentStart returns the first key's time of
// tournaments_by_start (bot.TournamentStore).
func (db *DB) EarliestTournamentStart(ctx context.Context) (time.Time, error) {
	var at time.Time
	err := db.view(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketTournamentsByStart)
		if b == nil {
			return nil
		}
		var err error
		at, err = firstTime(b)
		return err
	})
	return at, err
}

// getTournament loads tournament id, ENOTFOUND if there is none.
func getTournament(tx *bolt.Tx, id uint64) (*bot.Tournament, error) {
	var b []byte
	if bk := tx.Bucket(bucketTournaments); bk != nil {
		b = bk.Get(itob(id))
	}
	if b == nil {
		return nil, bot.Errorf(bot.ENOTFOUND, "There is no tournament %d.", id)
	}
	return DecodeTournament(b)
}

// CreateTournament stores a new tournament with a fresh ID
// (bot.TournamentStore).
func (db *DB) CreateTournament(ctx context.Context, t *bot.Tournament, notes []bot.Notification) error {
	return db.update(ctx, func(tx *bolt.Tx) error {
		id, err := tx.Bucket(bucketMeta).Bucket(keyIDs).NextSequence()
		if err != nil {
			return err
		}
		n := t.Clone()
		n.ID, n.Version = id, 1
		if err := putTournament(tx, nil, n); err != nil {
			return err
		}
		if err := appendNotifications(tx, notes); err != nil {
			return err
		}
		*t = *n
		return nil
	})
}

// Tournament returns tournament id (bot.TournamentStore).
func (db *DB) Tournament(ctx context.Context, id uint64) (*bot.Tournament, error) {
	var t *bot.Tournament
	err := db.view(ctx, func(tx *bolt.Tx) error {
		var err error
		t, err = getTournament(tx, id)
		return err
	})
	return t, err
}

// TournamentsByChannel returns channelID's tournaments in ID order
// (bot.TournamentStore).
func (db *DB) TournamentsByChannel(ctx context.Context, channelID string) ([]*bot.Tournament, error) {
	var out []*bot.Tournament
	if channelID == "" {
		return nil, nil
	}
	err := db.view(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketTournamentsByChannel)
		if b == nil {
			return nil
		}
		for _, id := range indexScan(b, channelID) {
			t, err := getTournament(tx, id)
			if err != nil {
				return err
			}
			out = append(out, t)
		}
		return nil
	})
	return out, err
}

// RunningTournaments returns the running or paused tournaments in ID
// order (bot.TournamentStore), from running_tournaments.
func (db *DB) RunningTournaments(ctx context.Context) ([]*bot.Tournament, error) {
	var out []*bot.Tournament
	err := db.view(ctx, func(tx *bolt.Tx) error {
		return prefixScan(tx.Bucket(bucketRunningTournaments), nil, func(k, _ []byte) error {
			if len(k) != 8 {
				return fmt.Errorf("corrupt running_tournaments key %x", k)
			}
			t, err := getTournament(tx, binary.BigEndian.Uint64(k))
			if err != nil {
				return err
			}
			out = append(out, t)
			return nil
		})
	})
	return out, err
}

// UpdateTournament is the compare-and-swap of bot.TournamentStore, with
// the games it creates, in one bbolt read-write transaction.
func (db *DB) UpdateTournament(ctx context.Context, id, expected uint64, fn func(*bot.Tournament, func() (uint64, error)) (bot.TournamentChange, error)) (*bot.Tournament, error) {
	var out *bot.Tournament
	err := db.update(ctx, func(tx *bolt.Tx) error {
		old, err := getTournament(tx, id)
		if err != nil {
			return err
		}
		if expected != bot.AnyVersion && expected != old.Version {
			return bot.Errorf(bot.ECONFLICT, "Tournament %d has changed since you saw it (version %d, now %d): look again.", id, expected, old.Version)
		}
		t := old.Clone()
		ids := map[uint64]bool{}
		newID := func() (uint64, error) {
			n, err := tx.Bucket(bucketMeta).Bucket(keyIDs).NextSequence()
			ids[n] = err == nil
			return n, err
		}
		change, err := fn(t, newID)
		if err != nil {
			return err
		}
		t.ID, t.Version = old.ID, old.Version+1
		if err := putTournament(tx, old, t); err != nil {
			return err
		}
		for _, g := range change.Games {
			if !ids[g.ID] {
				return bot.Errorf(bot.EINTERNAL, "Tournament %d: game %d was not given its ID by this update.", id, g.ID)
			}
			if tx.Bucket(bucketGames).Get(itob(g.ID)) != nil {
				return bot.Errorf(bot.ECONFLICT, "Game %d already exists.", g.ID)
			}
			n := g.Clone()
			n.Version = 1
			if err := putGame(tx, nil, n); err != nil {
				return err
			}
		}
		if err := appendNotifications(tx, change.Notifications); err != nil {
			return err
		}
		out = t
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
