package rules

import "hash/fnv"

// zobrist holds a variant's random keys for position hashing. The keys are
// derived from the variant key, so hashes are stable across runs.
type zobrist struct {
	piece  [128][MaxFiles * MaxRanks]uint64
	pocket [2][maxPocketSlots + 1]uint64
	castle [16]uint64
	ep     [MaxFiles * MaxRanks]uint64
	side   uint64
	phase  uint64
}

// splitmix64 is a small, well-mixed deterministic generator.
func splitmix64(x *uint64) uint64 {
	*x += 0x9e3779b97f4a7c15
	z := *x
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func newZobrist(key string) *zobrist {
	h := fnv.New64a()
	h.Write([]byte(key))
	seed := h.Sum64()
	z := &zobrist{}
	for i := range z.piece {
		for j := range z.piece[i] {
			z.piece[i][j] = splitmix64(&seed)
		}
	}
	for c := range z.pocket {
		for t := range z.pocket[c][:maxPieceTypes+1] {
			z.pocket[c][t] = splitmix64(&seed)
		}
	}
	for i := range z.castle {
		z.castle[i] = splitmix64(&seed)
	}
	for i := range z.ep {
		z.ep[i] = splitmix64(&seed)
	}
	z.side = splitmix64(&seed)
	z.phase = splitmix64(&seed)
	// The keys of pocket slots beyond the piece types come last, so that
	// the other keys (and every hash without such slots) stay as they were.
	for c := range z.pocket {
		for t := maxPieceTypes + 1; t < len(z.pocket[c]); t++ {
			z.pocket[c][t] = splitmix64(&seed)
		}
	}
	return z
}

// Hash returns a 64-bit hash of everything that makes two positions the
// same for repetition: board, pockets, who acts and in which phase,
// castling rights, the en-passant target and the variant's own state (the
// counters, and the part of the state that only records how the position
// was reached, are left out: see newStateKind).
func (p *Position) Hash() uint64 {
	z := p.v.c.zobrist
	var h uint64
	for _, s := range p.v.c.squares {
		if pc := p.board[s]; pc != NoPiece {
			h ^= z.piece[pc][s.bitIndex()]
		}
	}
	for c := 0; c < 2; c++ {
		for t := 1; t <= p.v.c.pocketSlots; t++ {
			if n := p.pocket[c][t]; n > 0 {
				x := z.pocket[c][t] + uint64(n)
				h ^= splitmix64(&x)
			}
		}
	}
	for i := 0; i < 16; i++ {
		if p.castle&(1<<i) != 0 {
			h ^= z.castle[i]
		}
	}
	if p.ep != NoSquare {
		h ^= z.ep[p.ep.bitIndex()]
	}
	if p.toAct == Black {
		h ^= z.side
	}
	for i, b := range p.identityBytes() {
		if b != 0 {
			x := z.side + uint64(i)<<8 + uint64(b)
			h ^= splitmix64(&x)
		}
	}
	h ^= z.phase * uint64(p.phase)
	if p.mover != p.toAct {
		h ^= z.phase >> 1
	}
	return h
}
