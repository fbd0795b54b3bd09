package rules

// LegalInto is Legal for callers that must not allocate (a search): it
// appends the legal moves to out using scratch, which it overwrites, as
// working space. The result is the same as Legal's.
func (p *Position) LegalInto(out []Move, scratch *Position) []Move {
	return p.legal(out, scratch)
}

// AfterInto is After writing the position after m into next instead of
// returning it, so that a caller reusing next allocates nothing. m must be
// one of the moves p.Legal returned; a malformed move leaves next as a copy
// of p and returns false. next must not be p.
func (p *Position) AfterInto(m Move, next *Position) bool {
	if !p.wellFormed(m) {
		*next = *p
		return false
	}
	p.playInto(m, next)
	return true
}

// OutcomeNoMoves is Outcome for a position in which Legal found no move
// (what a search knows at a leaf): it says how the game ended without
// generating the moves again, and allocates nothing. For a position with
// legal moves its answer is meaningless.
func (p *Position) OutcomeNoMoves() Outcome {
	if o, over := p.terminal(); over {
		return o
	}
	if p.InCheck() {
		return Outcome{Result: WinFor(p.toAct.Other()), Reason: ReasonCheckmate}
	}
	if p.v.Stalemate == StalemateLoses {
		return Outcome{Result: WinFor(p.toAct.Other()), Reason: ReasonStalemate}
	}
	return Outcome{Result: Draw, Reason: ReasonStalemate}
}
