package rules

// Result is the result of a game.
type Result uint8

// Results. Persisted code stores String(), never the number.
const (
	Ongoing Result = iota
	WhiteWins
	BlackWins
	Draw
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

// WinFor returns the result in which c wins.
func WinFor(c Color) Result {
	if c == White {
		return WhiteWins
	}
	return BlackWins
}

// Outcome is a result with its reason (ReasonCheckmate, ...). The zero
// Outcome is an ongoing game.
type Outcome struct {
	Result Result
	Reason Reason
}

// Over reports whether the game has ended.
func (o Outcome) Over() bool { return o.Result != Ongoing }

// Outcome reports whether the game ends in p and how. It does not know the
// history: repetition is judged by Game. The order is: ends of the
// variant's own rules (a captured King, Hooks.Outcome), checkmate and
// stalemate, then draws by rule (the automatic move-count draw and
// insufficient material), so a mate on the move that reaches the
// move-count limit stands.
func (p *Position) Outcome() Outcome {
	if o, over := p.terminal(); over {
		return o
	}
	var buf [256]Move
	var scratch Position
	if len(p.legalMoves(buf[:0], &scratch)) > 0 {
		return p.drawByRule()
	}
	if p.InCheck() {
		return Outcome{Result: p.v.Checkmate.resultFor(p.toAct), Reason: ReasonCheckmate}
	}
	switch p.v.Stalemate {
	case StalemateLoses:
		return Outcome{Result: WinFor(p.toAct.Other()), Reason: ReasonStalemate}
	case StalemateWins:
		return Outcome{Result: WinFor(p.toAct), Reason: ReasonStalemate}
	}
	return Outcome{Result: Draw, Reason: ReasonStalemate}
}

// terminal reports the ends built into the variant's rules of play: a
// captured royal piece and the variant's own ends. After them there are
// no legal moves.
func (p *Position) terminal() (Outcome, bool) {
	v := p.v
	if v.RoyalCaptureLoses {
		wLost := p.royal[0] == NoSquare && v.c.startRoyal[0]
		bLost := p.royal[1] == NoSquare && v.c.startRoyal[1]
		switch {
		case wLost && bLost:
			return Outcome{Result: Draw, Reason: ReasonBothKingsCaptured}, true
		case wLost:
			return Outcome{Result: BlackWins, Reason: ReasonKingCaptured}, true
		case bLost:
			return Outcome{Result: WhiteWins, Reason: ReasonKingCaptured}, true
		}
	}
	if v.Hooks.Outcome != nil {
		if o, over := v.Hooks.Outcome(p); over {
			return o, true
		}
	}
	if v.Extinction != nil || v.Flag != nil {
		if o, over := p.endByRules(); over {
			return o, true
		}
	}
	if v.DoublePassDraws && p.passes >= 2 {
		return Outcome{Result: Draw, Reason: ReasonBothPassed}, true
	}
	return Outcome{}, false
}

// drawByRule reports the draws that end a game by rule while moves
// remain: the automatic move-count draw and insufficient material.
// Position.Legal and Perft ignore them (as Fairy-Stockfish and the
// published perft suites do); Outcome and Game apply them.
func (p *Position) drawByRule() Outcome {
	v := p.v
	if v.DrawAutoPlies > 0 && p.halfmove >= v.DrawAutoPlies {
		return Outcome{Result: Draw, Reason: ReasonMoveCount}
	}
	if v.InsufficientMaterial != nil && v.InsufficientMaterial(p) {
		return Outcome{Result: Draw, Reason: ReasonInsufficientMaterial}
	}
	return Outcome{}
}
