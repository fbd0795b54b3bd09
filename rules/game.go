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

// Fork returns a game with the same start, moves and positions as g, in
// O(1): the two share storage that neither will write, so playing on one
// leaves the other as it was. g must not be played on while it is being
// forked; a game that nobody plays on (a cached replay) may be forked by
// any number of goroutines at once.
func (g *Game) Fork() *Game {
	n := len(g.positions)
	return &Game{positions: g.positions[:n:n], moves: g.moves[: n-1 : n-1], hashes: g.hashes[:n:n]}
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
// It generates the legal moves once: they decide both whether the game
// is over and whether m is legal.
func (g *Game) Play(m Move) error {
	var buf [256]Move
	p := g.Position()
	legal, err := g.movesToPlay(&p, buf[:0])
	if err != nil {
		return err
	}
	for _, lm := range legal {
		if lm == m {
			g.push(&p, m)
			return nil
		}
	}
	return fmt.Errorf("%w: %s", ErrIllegalMove, FormatMove(&p, m))
}

// movesToPlay returns the legal moves of p, the current position, or an
// error wrapping ErrIllegalMove when the game is over: an end of the
// position (no legal move, an end of the variant's rules, a draw by rule)
// or a repetition. The order of the checks is Outcome's.
func (g *Game) movesToPlay(p *Position, out []Move) ([]Move, error) {
	if o, over := p.terminal(); over {
		return nil, fmt.Errorf("%w: the game is over (%s)", ErrIllegalMove, o.Reason)
	}
	var scratch Position
	legal := p.legalMoves(out, &scratch)
	if len(legal) == 0 {
		return nil, fmt.Errorf("%w: the game is over (%s)", ErrIllegalMove, p.Outcome().Reason)
	}
	if o := p.drawByRule(); o.Over() {
		return nil, fmt.Errorf("%w: the game is over (%s)", ErrIllegalMove, o.Reason)
	}
	if o := g.repetitionOutcome(); o.Over() {
		return nil, fmt.Errorf("%w: the game is over (%s)", ErrIllegalMove, o.Reason)
	}
	return legal, nil
}

// push appends the legal move m of p, the current position.
func (g *Game) push(p *Position, m Move) {
	var next Position
	p.playInto(m, &next)
	g.positions = append(g.positions, next)
	g.moves = append(g.moves, m)
	g.hashes = append(g.hashes, next.Hash())
}

// Replay returns the game of the moves texts, in canonical form
// (FormatMove), played from start: what a stored game is. It generates
// the legal moves once per move (they decide whether the game is over,
// which move the text is, and that it is legal) and judges nothing else:
// the outcome is asked of the returned game when wanted. A text that is
// not the canonical form of a legal move is still read as ParseMove
// reads it (other spellings of coordinates). Errors name the move's
// number (1-based) and wrap ErrIllegalMove or ErrBadMove.
func Replay(start Position, texts []string) (*Game, error) {
	g := &Game{positions: make([]Position, 1, len(texts)+1), hashes: make([]uint64, 1, len(texts)+1),
		moves: make([]Move, 0, len(texts))}
	g.positions[0], g.hashes[0] = start, start.Hash()
	var buf [256]Move
	for i, text := range texts {
		p := &g.positions[len(g.positions)-1]
		legal, err := g.movesToPlay(p, buf[:0])
		if err != nil {
			return nil, fmt.Errorf("move %d %q: %w", i+1, text, err)
		}
		m, found := Move{}, false
		for _, lm := range legal {
			if FormatMove(p, lm) == text {
				m, found = lm, true
				break
			}
		}
		if !found {
			if m, err = ParseMove(p, text); err != nil {
				return nil, fmt.Errorf("move %d %q: %w", i+1, text, err)
			}
		}
		g.push(p, m)
	}
	return g, nil
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

// repetitionOutcome is the end when the current position has occurred
// Variant.RepetitionAuto times: a draw, or Variant.RepetitionValue for
// the player to act.
func (g *Game) repetitionOutcome() Outcome {
	v := g.Variant()
	if n := v.RepetitionAuto; n > 0 && g.Repetitions() >= n {
		if v.RepetitionValue != nil {
			p := g.Position()
			return Outcome{Result: v.RepetitionValue.resultFor(p.ToAct()), Reason: ReasonRepetition}
		}
		return Outcome{Result: Draw, Reason: ReasonRepetition}
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
func (g *Game) DrawClaim() (reason Reason, ok bool) {
	if g.Outcome().Over() {
		return "", false
	}
	v := g.Variant()
	if v.RepetitionClaim > 0 && g.Repetitions() >= v.RepetitionClaim {
		return ReasonRepetition, true
	}
	p := g.Position()
	if v.DrawClaimPlies > 0 && p.halfmove >= v.DrawClaimPlies {
		return ReasonMoveCount, true
	}
	return "", false
}
