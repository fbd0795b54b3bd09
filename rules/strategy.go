package rules

// Strategy is what a computer player (package ai) needs to know about a
// variant's goal beyond its rules: how much material, mobility and the
// pieces' room to move count in judging a position that is not over.
// It changes no rule. A variant states it in its own file; the zero
// Strategy means "like chess" (see the field comments for the defaults).
type Strategy struct {
	// Material is the weight of material on the board in percent
	// (0 = the default, 100). A game won by other means than taking
	// pieces gives material less weight.
	Material int
	// Pocket is what a piece in hand is worth, in percent of its value on
	// the board (0 = the default: 60 in variants with pockets).
	Pocket int
	// Mobility is the value, in hundredths of a pawn, of each square a
	// side's pieces can move or capture to (0 = the default, 3).
	Mobility int
	// LastPieces, when not 0, values the number of pieces a side has on
	// the board rather than their kind: the k-th piece from the last is
	// worth LastPieces/k hundredths of a pawn (a game won by removing
	// every enemy piece, where the last ones weigh most).
	LastPieces int
	// TwoStepThreat is the value, in hundredths of a pawn, of a piece of
	// the player to act that can take the enemy King in two moves, for
	// variants whose turns let a player move their own pieces twice in a
	// row before the opponent answers. 0 = not counted.
	TwoStepThreat int
	// Term, when not nil, is the variant's own part of the judgement of p,
	// in hundredths of a pawn, positive when it favours White: bombs by
	// what they threaten, a frozen King, threats only the variant has.
	// value gives the worth of a piece type in hundredths of a pawn, as
	// the computer player counts it. Term is called for every position
	// judged, so it must be fast, allocate nothing and never panic.
	Term func(p *Position, value func(PieceType) int) int
	// NullMove tells the search that having to move is (almost) never a
	// disadvantage in the variant: no zugzwang decides its games, and a
	// pass (Pass) played by AfterInto at a turn boundary gives the same
	// position with the other side to act. The search may then prune a
	// position where even a free pass leaves the player to act ahead. It
	// must stay false where stalemate wins, passes are real moves, or the
	// turn has several parts (false = no such pruning).
	NullMove bool
	// WinScale is the scale k of the curve 2/(1+exp(-k*cp))-1 that turns
	// the computer player's evaluation (cp, hundredths of a pawn) into
	// winning chances for the post-game analysis (package ai/analysis):
	// fitted on the variant's self-play games by "fairypost fitcurve",
	// which prints the value to record here. 0 = not fitted: the analysis
	// uses lichess's chess curve.
	WinScale float64
}
