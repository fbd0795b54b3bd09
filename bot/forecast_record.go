package bot

// Forecast is one conditional line of a game, stored in the game record
// (Game.Forecasts) and shown only to its owner until it is played.
type Forecast struct {
	Owner string // user ID of the player who stored the line, a player of the game
	// Base is the number of the game's moves (len(Game.Moves)) the line
	// starts after: Moves[0] is to be the game's next move at ply Base.
	Base int
	// Moves are the line's moves in canonical form (rules.FormatMove),
	// in the order they are to be played from Base on: moves of the
	// opponent (expected), of the owner (to play) and forced passes.
	// After every move of the game the line is cut to what is still to
	// come and Base moved on, so a stored line's Base is the game's
	// length as of its last move.
	Moves []string
}

// cloneForecasts returns a deep copy of fs.
func cloneForecasts(fs []Forecast) []Forecast {
	if fs == nil {
		return nil
	}
	out := make([]Forecast, len(fs))
	for i, f := range fs {
		out[i] = Forecast{Owner: f.Owner, Base: f.Base, Moves: append([]string(nil), f.Moves...)}
	}
	return out
}
