package rules

import "fmt"

// Game is a start position and the moves played from it, with every
// position they led to. It adds what a single Position cannot know:
// repetition. A Game is not safe for concurrent use; its positions are.
type Game struct {
	positions []Position // positions[0] is the start; positions[i+1] follows moves[i]
	moves     []Move
	hashes    []uint64
}

// NewGame starts a game from start.
func NewGame(start Position) *Game {
	return &Game{positions: []Position{start}, hashes: []uint64{start.Hash()}}
}

// Variant returns the game's variant.
func (g *Game) Variant() *Variant { return g.positions[0].v }

// Start returns the start position.
func (g *Game) Start() Position { return g.positions[0] }

// Position returns the current position.
func (g *Game) Position() Position { return g.positions[len(g.positions)-1] }

// PositionAt returns the position after the first ply moves (0 = start).
func (g *Game) PositionAt(ply int) Position { return g.positions[ply] }

// Moves returns the moves played. The caller must not modify the slice.
func (g *Game) Moves() []Move { return g.moves }

// Legal returns the legal moves now: none once the game is over,
// repetition included.
func (g *Game) Legal() []Move {
	if g.Outcome().Over() {
		return nil
	}
	p := g.Position()
	return p.Legal(nil)
}

// Play plays m, which must be legal now, and appends it to the game.
func (g *Game) Play(m Move) error {
	if o := g.Outcome(); o.Over() {
		return fmt.Errorf("%w: the game is over (%s)", ErrIllegalMove, o.Reason)
	}
	p := g.Position()
	next, err := p.Play(m)
	if err != nil {
		return err
	}
	g.positions = append(g.positions, next)
	g.moves = append(g.moves, m)
	g.hashes = append(g.hashes, next.Hash())
	return nil
}

// Outcome reports how the game ended, or the zero Outcome while it goes
// on: the position's own ends, and an automatic draw by repetition.
func (g *Game) Outcome() Outcome {
	p := g.Position()
	if o := p.Outcome(); o.Over() {
		return o
	}
	return g.repetitionOutcome()
}

// repetitionOutcome is a draw when the current position has occurred
// Variant.RepetitionAuto times.
func (g *Game) repetitionOutcome() Outcome {
	if n := g.Variant().RepetitionAuto; n > 0 && g.Repetitions() >= n {
		return Outcome{Result: Draw, Reason: "repetition"}
	}
	return Outcome{}
}

// Repetitions returns how many times the current position has occurred
// (1 = for the first time). Positions are the same when Position.Hash is.
func (g *Game) Repetitions() int {
	last := g.hashes[len(g.hashes)-1]
	n := 0
	for _, h := range g.hashes {
		if h == last {
			n++
		}
	}
	return n
}

// DrawClaim reports whether the player to act may claim a draw now, and
// why: the position occurred Variant.RepetitionClaim times, or
// Variant.DrawClaimPlies plies passed without capture or pawn move.
func (g *Game) DrawClaim() (reason string, ok bool) {
	if g.Outcome().Over() {
		return "", false
	}
	v := g.Variant()
	if v.RepetitionClaim > 0 && g.Repetitions() >= v.RepetitionClaim {
		return "repetition", true
	}
	p := g.Position()
	if v.DrawClaimPlies > 0 && p.halfmove >= v.DrawClaimPlies {
		return "move-count rule", true
	}
	return "", false
}
