package ai

import "github.com/fairypost/fairypost/rules"

// ttSize is the number of transposition table entries (a power of two):
// about 12 MB, within the 32 MB a search may use.
const ttSize = 1 << 19

// Kinds of bound a table score is.
const (
	boundExact uint8 = iota
	boundLower       // the score is at least this
	boundUpper       // the score is at most this
)

// ttEntry is one transposition table entry. The key is the whole state's
// hash (Position.Hash covers the phase of the turn, pockets and the
// variant's own state), so positions inside a multi-part turn never mix
// with boundary positions.
type ttEntry struct {
	key   uint64
	move  rules.Move
	score int16
	depth int8
	bound uint8
}

// probe returns the entry for hash, or nil.
func (e *Engine) probe(hash uint64) *ttEntry {
	ent := &e.tt[hash&(ttSize-1)]
	if ent.key != hash {
		return nil
	}
	return ent
}

// store records a search result, keeping a deeper result of the same
// position.
func (e *Engine) store(hash uint64, depth, score int, bound uint8, m rules.Move, ply int) {
	ent := &e.tt[hash&(ttSize-1)]
	if ent.key == hash && int(ent.depth) > depth && bound != boundExact {
		return
	}
	if depth < -100 {
		depth = -100
	}
	*ent = ttEntry{key: hash, move: m, score: int16(scoreToTT(score, ply)), depth: int8(min(depth, 127)), bound: bound}
}

// scoreToTT makes a mate score relative to the node (distance from it),
// so it stays true wherever the position recurs.
func scoreToTT(s, ply int) int {
	switch {
	case s > mateBound:
		return s + ply
	case s < -mateBound:
		return s - ply
	}
	return s
}

// scoreFromTT undoes scoreToTT at ply.
func scoreFromTT(s, ply int) int {
	switch {
	case s > mateBound:
		return s - ply
	case s < -mateBound:
		return s + ply
	}
	return s
}
