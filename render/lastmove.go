package render

import "github.com/fairypost/fairypost/rules"

// squareMark says how the last move touched a square.
type squareMark uint8

const (
	markNone    squareMark = iota
	markMove               // the move's from or to square (a drop's square)
	markShift              // a piece moved along with the move (castling rook, pushed line)
	markRemoved            // the move removed the piece that stood here
)

// moveMarks are the marks of the last move, indexed by square.
type moveMarks struct {
	kind  [256]squareMark
	ghost [256]rules.Piece // a removed piece, drawn faded on its empty square
}

// samePiece reports whether a and b are the same kind of piece of the same
// side (a promotion mark does not count).
func samePiece(a, b rules.Piece) bool { return a.Type() == b.Type() && a.Color() == b.Color() }

// lastMoveMarks works out what the move that led to cur changed. Without
// prev it marks only the squares of cur.LastMove. With prev it compares
// the boards, so it needs to know nothing about the variant: pieces that
// appear elsewhere than on the to square moved with the move (matched by
// kind with pieces that vanished: a castling rook, a pushed line), and
// pieces that vanished without reappearing were removed (an en-passant
// victim, everything a bomb blew up; the bomb too, as its square is left
// empty).
func lastMoveMarks(cur rules.Position, prev *rules.Position) *moveMarks {
	mm := &moveMarks{}
	v := cur.Variant()
	m := cur.LastMove()
	for _, s := range []rules.Square{m.From, m.To} {
		if s != rules.NoSquare && v.OnBoard(s) {
			mm.kind[s] = markMove
		}
	}
	if prev == nil {
		return mm
	}
	if to := m.To; to != rules.NoSquare && v.OnBoard(to) && cur.At(to) == rules.NoPiece && prev.At(to) != rules.NoPiece {
		// The piece that made the move is gone: it blew up.
		mm.kind[to] = markRemoved
		mm.ghost[to] = prev.At(to)
	}
	appeared := map[rules.Piece]int{}
	for _, s := range v.Squares() {
		a, b := prev.At(s), cur.At(s)
		if samePiece(a, b) || mm.kind[s] != markNone || b == rules.NoPiece {
			continue
		}
		mm.kind[s] = markShift
		appeared[rules.NewPiece(b.Color(), b.Type())]++
	}
	for _, s := range v.Squares() {
		a, b := prev.At(s), cur.At(s)
		if samePiece(a, b) || mm.kind[s] != markNone {
			continue
		}
		// a vanished from s.
		if k := rules.NewPiece(a.Color(), a.Type()); appeared[k] > 0 {
			appeared[k]--
			mm.kind[s] = markShift
			continue
		}
		mm.kind[s] = markRemoved
		mm.ghost[s] = a
	}
	return mm
}
