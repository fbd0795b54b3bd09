package bot

import (
	"context"
	"time"

	"github.com/fairypost/fairypost/rules"
)

// GameStatus is where a game stands. The numbers are persisted: never
// renumber them.
type GameStatus uint8

// Game statuses.
const (
	GameSetup    GameStatus = 10 // waiting for a pre-game choice (Game.Setup)
	GameActive   GameStatus = 20 // being played
	GameAborted  GameStatus = 25 // ended without a result
	GameFinished GameStatus = 30 // ended with a result (Game.Result, Game.Reason)
)

// String returns a lowercase name for logs and listings.
func (s GameStatus) String() string {
	switch s {
	case GameSetup:
		return "setup"
	case GameActive:
		return "active"
	case GameAborted:
		return "aborted"
	case GameFinished:
		return "finished"
	}
	return "unknown"
}

// Result is the result of a game. The numbers are persisted: never
// renumber them.
type Result uint8

// Results.
const (
	NoResult  Result = 0 // the game goes on, or was aborted
	WhiteWins Result = 1
	BlackWins Result = 2
	Draw      Result = 3
)

// String returns the PGN form: "*", "1-0", "0-1" or "1/2-1/2".
func (r Result) String() string {
	switch r {
	case WhiteWins:
		return "1-0"
	case BlackWins:
		return "0-1"
	case Draw:
		return "1/2-1/2"
	}
	return "*"
}

// Game is a correspondence game: the record the stores keep. The moves
// are the truth; FEN and ToAct are a cache of the position they lead to,
// kept for listings.
type Game struct {
	ID      uint64 // equal to the ID of the challenge it was started from
	Version uint64 // incremented by every write; 1 when created

	Variant  string   // rules registry key
	Options  string   // canonical "k=v,k=v" (rules.Registry.Resolve), "" for the defaults
	StartFEN string   // the start position
	Moves    []string // canonical moves (rules.FormatMove), in order
	FEN      string   // cache: the position after Moves
	ToAct    string   // cache: the user ID of the player to act, "" once the game is over

	// White and Black are user IDs. The two players of a game never
	// change: a pre-game choice only settles which colour each plays
	// (the Service relies on this to know a game's players by its ID).
	White, Black       string
	GuildID, ChannelID string // where the game is played ("" for the console)

	Status GameStatus
	Result Result
	Reason rules.Reason // why the game ended: rules.ReasonCheckmate, ReasonResignation, ...

	// Annotations are what the game keeps besides play: changed by
	// play (UpdateGame) and also, without a version bump, by
	// GameStore.AnnotateGame, the only fields that call can change.
	Annotations

	DaysPerMove int // days a player has for a turn; 0 = unlimited
	// BankDays is each player's time bank for the whole game when it
	// began (see ValidBankDays), 0 for none; WhiteBank and BlackBank are
	// what is left of each (see the top of timebank.go).
	BankDays             int
	WhiteBank, BlackBank time.Duration
	Deadline             time.Time // when the player to act runs out of time; zero when unlimited or over
	TurnStarted          time.Time // when the player to act began their turn (the clock's start)

	// WhiteAway and BlackAway are when each player's vacation ends at
	// the latest, zero when none was recorded (see StartVacation): while
	// it runs, that player's turn clock is moved later.
	WhiteAway, BlackAway time.Time
	// PauseOffer is the user ID of the player asking to pause the game,
	// "" when none (see Pause). PausedAt is when the game was paused by
	// consent of both, zero when it is not; PausedDeadline and
	// PausedRemindAt are then the Deadline and RemindAt set aside (the
	// game's own are zero, so it cannot time out).
	PauseOffer                     string
	PausedAt                       time.Time
	PausedDeadline, PausedRemindAt time.Time

	DrawOffer string // user ID of the player whose draw offer stands, "" when none
	Takeback  string // user ID of the player asking to take back their last turn, "" when none

	// Setup is the pre-game choice of a variant that has one (rules.PreGame),
	// while Status is GameSetup and as a record afterwards; nil otherwise.
	Setup *Setup

	// Rated games change their players' ratings when they end with a
	// result (see rating.go); Ratings are the changes, recorded in the
	// transaction that ended the game (nil until then, and for casual
	// games).
	Rated   bool
	Ratings []RatingChange
	// Level is the computer player's level in a game against it
	// (Service.ComputerID plays one side), 0 in a game between people.
	Level int
	// Tournament is the ID of the tournament the game is part of, 0 for
	// none (see tournament.go).
	Tournament uint64

	Created, Updated time.Time
}

// Annotations are the fields of a Game that change without a version
// bump (GameStore.AnnotateGame): nothing of play, so buttons carrying the
// version a player saw stay valid across such changes.
type Annotations struct {
	// ThreadID is where an adapter posts the game (a Discord thread in
	// the game's ChannelID), "" until it has made one; see
	// Service.SetThread.
	ThreadID string
	// Reminded says the player to act was reminded of the game's
	// Deadline during this turn.
	Reminded bool
	// RemindAt is when the player to act is to be reminded of Deadline
	// this turn (RemindTime with their Preferences.ReminderPercent, read
	// when the turn started or the setting changed); zero when never:
	// no deadline, reminders off, already reminded, or the game is over.
	// The stores index it, so a sweep finds the reminders due without
	// reading every game.
	RemindAt time.Time
	// Forecasts are the players' conditional lines (Forecast), private to
	// each owner until played; nil when none. They stay on the game:
	// a move answers them inside its own transaction.
	Forecasts []Forecast
}

// Player returns the user ID playing white (white true) or black.
func (g *Game) Player(white bool) string {
	if white {
		return g.White
	}
	return g.Black
}

// IsPlayer reports whether userID plays in g.
func (g *Game) IsPlayer(userID string) bool {
	return userID != "" && (userID == g.White || userID == g.Black)
}

// Clone returns a deep copy of g.
func (g *Game) Clone() *Game {
	c := *g
	c.Moves = append([]string(nil), g.Moves...)
	c.Ratings = append([]RatingChange(nil), g.Ratings...)
	c.Annotations = g.Annotations.copy()
	if g.Setup != nil {
		s := *g.Setup
		c.Setup = &s
	}
	return &c
}

// copy returns a deep copy of a.
func (a Annotations) copy() Annotations {
	a.Forecasts = cloneForecasts(a.Forecasts)
	return a
}

// Setup is the pre-game choice of a variant with a random start
// (docs/variants/annihilation.md, Z6): one player (ArmyPicker: the challenged player
// unless the challenge said otherwise) picks the army they play, then
// the other (FirstPicker) picks which army moves first. The start
// position is then the variant's pre-game start for Seed, normalised so
// that the first mover plays White.
type Setup struct {
	Seed       uint64 // the random start drawn when the challenge was accepted
	Challenger string // user ID of the challenger
	Challenged string // user ID of the player who accepted the challenge
	// Chooser says which of them picks the army; the zero value (records
	// written before it was configurable) is ChooserChallenged.
	Chooser ArmyChooser
	// Army is the army the army picker picked, as its colour in the
	// drawn position: "white" or "black"; "" until picked.
	Army string
	// FirstMover is the colour, in the drawn position, of the army that
	// moves first: "white" or "black"; "" until picked.
	FirstMover string
}

// ArmyPicker returns the user ID of the player who picks the army.
func (s *Setup) ArmyPicker() string {
	if s.Chooser == ChooserChallenger {
		return s.Challenger
	}
	return s.Challenged
}

// FirstPicker returns the user ID of the player who picks who moves
// first: the other player.
func (s *Setup) FirstPicker() string {
	if s.Chooser == ChooserChallenger {
		return s.Challenged
	}
	return s.Challenger
}

// AnyVersion passed as the expected version of an update skips the
// version check: the update applies to whatever version is current, still
// within one transaction. Requests that come from something the user saw
// (a button) pass the version they saw instead.
const AnyVersion uint64 = 0

// Ongoing reports whether g is not over: in its pre-game choice or being
// played. Stores index such games apart (GameStore.ActiveGamesByUser).
func (g *Game) Ongoing() bool { return g.Status == GameSetup || g.Status == GameActive }

// GameStore keeps games. Implementations are safe for concurrent use.
// Games are created only together with the acceptance of a challenge
// (ChallengeStore.UpdateChallenge).
type GameStore interface {
	// Game returns the game id, or an ENOTFOUND error.
	Game(ctx context.Context, id uint64) (*Game, error)

	// GamesByUser returns the games userID plays in, any status,
	// ordered by ID.
	GamesByUser(ctx context.Context, userID string) ([]*Game, error)

	// GamesByChannel returns the games played in channelID, any status,
	// ordered by ID.
	GamesByChannel(ctx context.Context, channelID string) ([]*Game, error)

	// ActiveGamesByUser returns the games userID plays that are not over
	// (Game.Ongoing), ordered by ID. Its cost does not grow with the
	// user's finished games: stores keep an index of ongoing games.
	ActiveGamesByUser(ctx context.Context, userID string) ([]*Game, error)

	// ActiveGamesByChannel returns the games of channelID that are not
	// over, ordered by ID, at a cost independent of finished games.
	ActiveGamesByChannel(ctx context.Context, channelID string) ([]*Game, error)

	// GamesDue returns the games whose Deadline is set and not after
	// t, earliest deadline first: the games a scheduler must look at.
	GamesDue(ctx context.Context, t time.Time) ([]*Game, error)

	// GamesToRemind returns the games whose RemindAt is set and not
	// after t, earliest RemindAt first: the reminders a scheduler must
	// look at.
	GamesToRemind(ctx context.Context, t time.Time) ([]*Game, error)

	// EarliestGameTimes returns the earliest Deadline and the earliest
	// RemindAt of all games, each the zero time when no game has one.
	// It reads no game, only where each index starts, so a scheduler may
	// call it on every wake-up whatever the number of games.
	EarliestGameTimes(ctx context.Context) (deadline, remindAt time.Time, err error)

	// UpdateGame changes game id in one transaction: it loads the game
	// (ENOTFOUND if there is none), refuses with ECONFLICT when expected
	// is not AnyVersion and differs from the stored version, and calls fn
	// with a copy. If fn returns an error, nothing changes and the error
	// is returned as it is. Otherwise the copy is stored with Version
	// incremented and Updated left as fn set it, the indexes follow, and
	// the notifications fn returned are appended to the outbox, all
	// atomically, and the game as stored is returned. fn may run more
	// than once (an implementation may retry on contention) and must not
	// have other side effects. fn must not change ID or Version. fn is
	// pure: it must not call any store, this one included (no read, no
	// write), for the update is one transaction over this record alone
	// (one etcd transaction, one bbolt write transaction that a read of
	// another transaction must not nest in). What it needs from elsewhere
	// (the players' reminder settings) is read before the update and
	// passed in; an implementation may rely on this.
	UpdateGame(ctx context.Context, id, expected uint64, fn func(*Game) ([]Notification, error)) (*Game, error)

	// AnnotateGame changes what a game record keeps besides play (its
	// Annotations), in one transaction like UpdateGame but without a
	// version check and without changing Version or Updated. fn reads g,
	// a copy of the game as stored (a value: changing it changes nothing),
	// edits a, the game's annotations, and returns the notifications to
	// append; if it returns an error nothing changes and the error is
	// returned as it is. Otherwise the game is stored with *a as its
	// annotations and all else as it was, the indexes follow (RemindAt),
	// and the notifications are appended, all atomically. ENOTFOUND for
	// an unknown game. Returns the game as stored. fn is pure and may run
	// more than once, as UpdateGame's: it calls no store.
	AnnotateGame(ctx context.Context, id uint64, fn func(g Game, a *Annotations) ([]Notification, error)) (*Game, error)
}

// Outcome returns the outcome a finished game shows (its own reason:
// resignation, agreement, time, ...), the zero Outcome for a game not
// finished.
func (g *Game) Outcome() rules.Outcome {
	if g.Status != GameFinished {
		return rules.Outcome{}
	}
	o := rules.Outcome{Reason: g.Reason}
	switch g.Result {
	case WhiteWins:
		o.Result = rules.WhiteWins
	case BlackWins:
		o.Result = rules.BlackWins
	case Draw:
		o.Result = rules.Draw
	}
	return o
}
