package bot

import (
	"context"
	"time"
)

// AnalysedPly is one atomic move of a stored game analysis. A turn's
// judgement, better move, evaluation before it and loss are on its last
// ply (a multi-part turn is judged as one); on other plies they are
// empty.
type AnalysedPly struct {
	// Move is the move in friendly form (SAN); White tells whose move.
	Move  string
	White bool
	// Eval is the evaluation after the move as the analysis writes it
	// ("+0.35", "#-3", "1-0"); WhiteWin is White's winning percentage
	// (0..100) after it.
	Eval     string
	WhiteWin float64
	// Judgement is "", "inaccuracy", "mistake" or "blunder".
	Judgement string
	// Best is the engine's better turn in friendly form (its parts
	// separated by spaces), "" when the turn is not judged.
	Best string
	// Before is the evaluation before the turn (its last ply only).
	Before string
	// Loss is how many points of winning percentage (0..100) the mover
	// lost with the turn (its last ply only; 0 when none).
	Loss float64
}

// GameAnalysis is the stored computer analysis of a finished game: one
// per game, deterministic for its Level and Seed.
type GameAnalysis struct {
	GameID  uint64
	Variant string
	Level   int
	Seed    uint64
	Plies   []AnalysedPly
	// WhiteAccuracy and BlackAccuracy are the players' accuracies
	// (0..100); WhiteOK and BlackOK are false for a player without an
	// unforced turn.
	WhiteAccuracy, BlackAccuracy float64
	WhiteOK, BlackOK             bool
	// RequestedBy is the user who asked for it; Created when it was
	// stored.
	RequestedBy string
	Created     time.Time
}

// AnalysisStore keeps one analysis per game, apart from the game record.
// Implementations are safe for concurrent use.
type AnalysisStore interface {
	// Analysis returns the analysis of game gameID; an error of code
	// ENOTFOUND when there is none.
	Analysis(ctx context.Context, gameID uint64) (*GameAnalysis, error)
	// PutAnalysis stores a, replacing the game's analysis if any; a
	// record without a game ID or plies is EINVALID and changes nothing.
	PutAnalysis(ctx context.Context, a *GameAnalysis) error
}
