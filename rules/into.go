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
