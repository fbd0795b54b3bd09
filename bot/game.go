package bot

import (
	"context"
	"time"
)

// GameStatus is where a game stands. The numbers are persisted: never
// renumber them.
type GameStatus uint8

// Game statuses.
const (
	GameActive   GameStatus = 20 // being played
	GameAborted  GameStatus = 25 // ended without a result
	GameFinished GameStatus = 30 // ended with a result (Game.Result, Game.Reason)
)

// String returns a lowercase name for logs and listings.
func (s GameStatus) String() string {
	switch s {
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
	Options  string   // canonical "k=v,k=v" (rules.FormatOptions), "" for the defaults
	StartFEN string   // the start position
	Moves    []string // canonical moves (rules.FormatMove), in order
	FEN      string   // cache: the position after Moves
	ToAct    string   // cache: the user ID of the player to act, "" once the game is over

	White, Black       string // user IDs
	GuildID, ChannelID string // where the game is played ("" for the console)

	Status GameStatus
	Result Result
	Reason string // why the game ended: "checkmate", "resignation", ...

	DaysPerMove int       // days a player has for a turn; 0 = unlimited
	Deadline    time.Time // when the player to act runs out of time; zero when unlimited or over

	Created, Updated time.Time
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
	return &c
}

// AnyVersion passed as the expected version of an update skips the
// version check: the update applies to whatever version is current, still
// within one transaction. Requests that come from something the user saw
// (a button) pass the version they saw instead.
const AnyVersion uint64 = 0

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

	// GamesDue returns the games whose Deadline is set and not after
	// t, earliest deadline first: the games a scheduler must look at.
	GamesDue(ctx context.Context, t time.Time) ([]*Game, error)

	// UpdateGame changes game id in one transaction: it loads the game
	// (ENOTFOUND if there is none), refuses with ECONFLICT when expected
	// is not AnyVersion and differs from the stored version, and calls fn
	// with a copy. If fn returns an error, nothing changes and the error
	// is returned as it is. Otherwise the copy is stored with Version
	// incremented and Updated left as fn set it, the indexes follow, and
	// the notifications fn returned are appended to the outbox, all
	// atomically, and the game as stored is returned. fn may run more
	// than once (an implementation may retry on contention) and must not
	// have other side effects. fn must not change ID or Version.
	UpdateGame(ctx context.Context, id, expected uint64, fn func(*Game) ([]Notification, error)) (*Game, error)
}
