package bot

import "context"

// GameUpdate is one update of a game as the finishers see it, inside the
// update's transaction. Finishers edit it in place.
type GameUpdate struct {
	// Game is the game as the change left it, to be stored.
	Game *Game
	// Before is what the game was when the update read it.
	Before GameBefore
	// Notifications are appended to the outbox with the game.
	Notifications []Notification
	// Ratings reads and writes the players' standings in the same
	// transaction; nil when the Service keeps no ratings
	// (Stores.Ratings).
	Ratings RatingTx
}

// GameBefore is what a finisher may compare an update with: the game as
// it was read.
type GameBefore struct {
	Ongoing   bool   // Game.Ongoing
	ToAct     string // Game.ToAct
	Moves     int    // len(Game.Moves)
	DrawOffer string // Game.DrawOffer
}

// gameBefore returns what g is now, for GameUpdate.Before.
func NewGameBefore(g *Game) GameBefore {
	return GameBefore{Ongoing: g.Ongoing(), ToAct: g.ToAct, Moves: len(g.Moves), DrawOffer: g.DrawOffer}
}

// A Finisher is a feature's part of the transaction of every game
// update: it may edit u (the game, the notifications) and read or write
// the standings through u.Ratings. It is pure as the update's function
// is (GameStore.UpdateGame): it calls no store, may run more than once,
// and its error changes nothing and is returned by the update.
type Finisher func(u *GameUpdate) error

// A GameEvent runs after an update of game g is committed, with the game
// as stored. It must not fail the update: its work is either re-derived
// from the stores when lost (the sweep) or a wake-up whose target scans
// the stores when it starts.
type GameEvent func(ctx context.Context, g *Game)
