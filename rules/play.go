package rules

import (
	"errors"
	"fmt"
)

// ErrIllegalMove is wrapped by Play's errors for moves that are not legal.
var ErrIllegalMove = errors.New("illegal move")

// Play returns the position after the legal move m. The receiver is not
// changed. A move that is not legal in p is refused with an error wrapping
// ErrIllegalMove.
func (p *Position) Play(m Move) (Position, error) {
	var buf [256]Move
	for _, lm := range p.Legal(buf[:0]) {
		if lm == m {
			var q Position
			p.playInto(m, &q)
			return q, nil
		}
	}
	if _, over := p.terminal(); over {
		return Position{}, fmt.Errorf("%w: the game is over", ErrIllegalMove)
	}
	return Position{}, fmt.Errorf("%w: %s", ErrIllegalMove, FormatMove(p, m))
}

// After returns the position after m without checking that m is legal:
// m must be one of the moves p.Legal returned (callers that list moves
// and then need each successor, like SAN's check marks, save a move
// generation per move). A malformed move never panics: After then returns
// p unchanged with ok false. Moves from outside go through Play.
func (p *Position) After(m Move) (next Position, ok bool) {
	if !p.wellFormed(m) {
		return *p, false
	}
	p.playInto(m, &next)
	return next, true
}

// wellFormed reports whether m refers only to squares, pieces and rules
// of p's variant, so that playInto cannot go wrong on it.
func (p *Position) wellFormed(m Move) bool {
	v := p.v
	types := PieceType(len(v.Pieces))
	if m.Promotion > types || m.Drop > types {
		return false
	}
	switch m.Kind {
	case KindNormal, KindEnPassant:
		return v.OnBoard(m.From) && v.OnBoard(m.To) && p.board[m.From] != NoPiece &&
			(m.Kind == KindNormal || p.ep == m.To && p.epVictim != NoSquare && p.board[p.epVictim] != NoPiece)
	case KindCastle:
		if int(m.rule) >= len(v.c.castling) {
			return false
		}
		r := &v.c.castling[m.rule]
		return p.board[r.pieceFrom] == NewPiece(r.side, r.piece) && p.board[r.rookFrom] == NewPiece(r.side, r.rook)
	case KindDrop:
		return m.Drop != NoPieceType && v.OnBoard(m.To) && p.board[m.To] == NoPiece
	case KindPass:
		return true
	case KindSpecial:
		return v.Hooks.Apply != nil
	}
	return false
}

// playInto writes into q the position after m, which must be pseudo-legal in p.
func (p *Position) playInto(m Move, q *Position) {
	*q = *p
	v := p.v
	c := &v.c
	us := p.mover
	q.ep, q.epVictim = NoSquare, NoSquare
	q.halfmove++
	q.lastMove = m
	q.passes = 0
	if m.Kind == KindPass && p.passes < 2 {
		q.passes = p.passes + 1
	}
	switch m.Kind {
	case KindNormal:
		quiet := q.board[m.To] == NoPiece
		if !quiet {
			q.capture(m.To, us)
		}
		pc := q.remove(m.From)
		if c.pawnType[pc.Type()] {
			q.halfmove = 0
			if d := m.To.Rank() - m.From.Rank(); (d == 2 || d == -2) && (int(m.To)-int(m.From))%2 == 0 {
				mid := Square((int(m.From) + int(m.To)) / 2)
				if c.epAllowed(mid, us.Other()) && q.epCapturable(mid, us.Other()) {
					q.ep, q.epVictim = mid, m.To
				}
			}
		} else if off := int(m.To) - int(m.From); c.doubleStep[pc.Color().index()][pc.Type()] != 0 && quiet &&
			c.isInitialLeap(pc.Color(), pc.Type(), off) && v.relRank(m.From, pc.Color()) == c.initialRank[pc.Type()] {
			// A piece that is not a pawn made one of its pawn part's
			// double steps (not a capture its rider leg makes over the
			// same squares).
			mid := Square(int(m.From) + off/2)
			if c.epAllowed(mid, pc.Color().Other()) && q.epCapturable(mid, pc.Color().Other()) {
				q.ep, q.epVictim = mid, m.To
			}
		}
		if m.Promotion != NoPieceType {
			pc = NewPiece(pc.Color(), m.Promotion)
			if v.Promotion.Remember {
				pc |= piecePromoted
			}
		}
		q.put(m.To, pc)
		q.castle &^= c.castleMask[m.From] | c.castleMask[m.To]
	case KindEnPassant:
		q.capture(p.epVictim, us)
		q.put(m.To, q.remove(m.From))
		q.halfmove = 0
	case KindCastle:
		r := &c.castling[m.rule]
		pc, rook := q.remove(r.pieceFrom), q.remove(r.rookFrom)
		q.put(r.pieceTo, pc)
		q.put(r.rookTo, rook)
		q.castle &^= c.castleMask[r.pieceFrom] | c.castleMask[r.rookFrom]
	case KindDrop:
		q.pocket[us.index()][m.Drop]--
		q.put(m.To, NewPiece(us, m.Drop))
		if c.pawnType[m.Drop] {
			q.halfmove = 0
		}
	case KindPass:
	case KindSpecial:
		if v.Hooks.Apply != nil {
			v.Hooks.Apply(q, m)
		}
	}
	t := Turn{ToAct: p.toAct.Other(), Mover: p.toAct.Other()}
	if v.Hooks.NextTurn != nil {
		t = v.Hooks.NextTurn(p, m)
	}
	if p.toAct == Black && t.ToAct == White {
		q.fullmove++
	}
	q.toAct, q.mover, q.phase = t.ToAct, t.Mover, t.Phase
	if v.Hooks.AfterMove != nil {
		v.Hooks.AfterMove(p, q, m)
	}
}

// capture removes the piece on s, taken by a piece of captor's, and fills the captor's pocket where captures go to hand.
func (q *Position) capture(s Square, captor Color) {
	pc := q.remove(s)
	q.halfmove = 0
	v := q.v
	if v.Drops.CapturesToHand {
		t := pc.Type()
		if pc.Promoted() {
			t = v.c.demoteTo
		}
		q.pocket[captor.index()][t]++
	}
}

// epCapturable reports whether a piece of by could capture en passant on s.
func (p *Position) epCapturable(s Square, by Color) bool {
	if !p.v.c.epCapturers {
		return false
	}
	bi := by.index()
	for t := 1; t <= len(p.v.Pieces); t++ {
		if p.count[bi][t] == 0 {
			continue
		}
		for _, l := range p.v.c.legs[bi][t] {
			if !l.ep {
				continue
			}
			if p.board[int(s)-int(l.off)] == NewPiece(by, PieceType(t)) {
				return true
			}
		}
	}
	return false
}
