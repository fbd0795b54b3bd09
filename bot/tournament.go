package bot

import (
	"context"
	"slices"
	"time"

	"github.com/fairypost/fairypost/tournament"
)

// The records and the store of correspondence tournaments; what a
// tournament does is package bot/tournaments.

// Tournament is a correspondence tournament: the record the stores keep.
type Tournament struct {
	ID      uint64 // from the same sequence as challenges and games
	Version uint64 // incremented by every write; 1 when created

	GuildID, ChannelID string
	Organizer          string // user ID

	Variant     string // rules registry key
	Options     string // canonical options
	DaysPerMove int
	Rated       bool
	// StartAt is when the tournament starts by itself (the sweep starts
	// it, or cancels it when fewer than tournament.MinPlayers joined);
	// zero when the organiser starts it. Stores index it while the
	// tournament is open.
	StartAt time.Time

	Event tournament.Event
	// Games lists the game playing each pairing of Event.Schedule.
	Games []TournamentGame

	Created, Updated time.Time
}

// TournamentGame links one pairing of a tournament to its game.
type TournamentGame struct {
	Round        int // from 1
	White, Black string
	GameID       uint64
}

// Clone returns a deep copy of t.
func (t *Tournament) Clone() *Tournament {
	c := *t
	c.Games = slices.Clone(t.Games)
	e := t.Event
	e.Players = slices.Clone(e.Players)
	e.Withdrawn = slices.Clone(e.Withdrawn)
	e.Schedule = make([]tournament.Round, len(t.Event.Schedule))
	for i, r := range t.Event.Schedule {
		e.Schedule[i] = tournament.Round{Games: slices.Clone(r.Games), Bye: r.Bye}
	}
	if t.Event.Schedule == nil {
		e.Schedule = nil
	}
	c.Event = e
	return &c
}

// TournamentChange is what a TournamentStore.UpdateTournament function
// asks for besides the edited tournament.
type TournamentChange struct {
	// Games are created in the same transaction, each with the ID fn
	// got from its newID function and Version 1.
	Games []*Game
	// Notifications are appended to the outbox.
	Notifications []Notification
}

// TournamentStore keeps tournaments. Implementations are safe for
// concurrent use. It is optional (Stores.Tournaments): without one the
// tournament methods answer EINVALID.
type TournamentStore interface {
	// CreateTournament assigns t a new ID from the sequence of challenge
	// and game IDs, sets Version to 1, stores it and appends notifications to the
	// outbox, atomically.
	CreateTournament(ctx context.Context, t *Tournament, told []Notification) error

	// Tournament returns tournament id, or an ENOTFOUND error.
	Tournament(ctx context.Context, id uint64) (*Tournament, error)

	// TournamentsByChannel returns the tournaments made in channelID,
	// ordered by ID.
	TournamentsByChannel(ctx context.Context, channelID string) ([]*Tournament, error)

	// RunningTournaments returns the tournaments whose event is running
	// or paused, ordered by ID, at a cost independent of finished ones.
	RunningTournaments(ctx context.Context) ([]*Tournament, error)

	// TournamentsToStart returns the open tournaments whose StartAt is
	// set and not after t, earliest first.
	TournamentsToStart(ctx context.Context, t time.Time) ([]*Tournament, error)

	// EarliestTournamentStart returns the earliest StartAt of the open
	// tournaments, the zero time when none has one, reading only where
	// the index starts.
	EarliestTournamentStart(ctx context.Context) (time.Time, error)

	// UpdateTournament changes tournament id in one transaction, as
	// ChallengeStore.UpdateChallenge does: ENOTFOUND; ECONFLICT when
	// expected is not AnyVersion and differs; fn's error returned as it is
	// with nothing changed. fn gets a copy to edit and newID, which
	// returns a fresh ID from the sequence of challenge and game IDs for
	// each game it creates. The copy is stored with Version incremented,
	// the games of the change created (none may exist yet) with their
	// indexes, and the notifications appended, all atomically. fn may run
	// more than once and may read other stores.
	UpdateTournament(ctx context.Context, id, expected uint64, fn func(t *Tournament, newID func() (uint64, error)) (TournamentChange, error)) (*Tournament, error)
}
