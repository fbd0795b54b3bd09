package bot

import (
	"context"

	"github.com/fairypost/fairypost/rating"
)

// The records and the store of ratings; how games are rated and what
// reads the ratings is package bot/ratings.

// Standing is one player's rating in one pool, as the stores keep it.
type Standing struct {
	Pool   string // rating.Pool.Key()
	UserID string
	// Version is incremented by every write; 0 for a player who has no
	// standing in the pool yet (the zero Player, a newcomer).
	Version uint64
	Player  rating.Player
}

// RatingEvent is one rated game in a player's history in one pool.
type RatingEvent struct {
	GameID uint64
	// Entry is when the game ended, the player's score and their rating
	// after it.
	Entry rating.HistoryEntry
}

// RatingChange is how one rated game moved one player's rating in one
// pool: Before is their rating when the game ended (deviation grown by
// inactivity, rating.System.Live), After the rating it left them with.
type RatingChange struct {
	UserID        string
	Pool          string // rating.Pool.Key()
	Before, After rating.Glicko
}

// RatingTx reads and writes standings inside the transaction of
// RatingStore.UpdateGameRated.
type RatingTx interface {
	// Standing returns userID's standing in pool as the transaction sees
	// it: Version 0 and the zero Player when there is none.
	Standing(pool, userID string) (Standing, error)
	// PutStanding stores st, whose Version must be the one Standing
	// returned (ECONFLICT otherwise), with Version incremented, and
	// appends ev to the player's history in st.Pool. Games are appended
	// in the order they end; an event for a game already in the history
	// replaces it.
	PutStanding(st Standing, ev RatingEvent) error
}

// RatingStore keeps ratings: standings per pool and player, and each
// player's history per pool. Implementations are safe for concurrent use.
// It is optional (Stores.Ratings): without one no game is rated.
//
// Implementations (storage.DB in bbolt; an etcd store must offer the same)
// keep standings so that a pool's standings and a user's standings are
// read without reading every record.
type RatingStore interface {
	// UpdateGameRated is GameStore.UpdateGame (same contract) with the
	// standings at hand: fn may read and write them through tx, and the
	// game, the standings, the history and the notifications are stored
	// atomically, or nothing is when fn fails.
	UpdateGameRated(ctx context.Context, id, expected uint64, fn func(*Game, RatingTx) ([]Notification, error)) (*Game, error)

	// PoolStandings returns every standing in pool, in no particular
	// order (a leaderboard ranks them).
	PoolStandings(ctx context.Context, pool string) ([]Standing, error)

	// UserStandings returns userID's standings in every pool they have
	// one in, ordered by pool key.
	UserStandings(ctx context.Context, userID string) ([]Standing, error)

	// RatingHistory returns userID's rated games in pool, in the order
	// they ended (games that ended at the same instant by game ID).
	RatingHistory(ctx context.Context, pool, userID string) ([]RatingEvent, error)
}
