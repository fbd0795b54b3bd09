package render

import "github.com/fairypost/fairypost/rules"

// squareMark says how the last move (or turn) touched a square.
type squareMark uint8

const (
	markNone    squareMark = iota
	markMove               // the move's from or to square (a drop's square)
	markShift              // a piece moved along with the move (castling rook, pushed line)
	markRemoved            // the move removed the piece that stood here
	markAnswer             // from or to square of the opponent's answer inside a turn
)

// moveMarks are the marks of the last move or turn, indexed by square.
type moveMarks struct {
	kind  [256]squareMark
	ghost [256]rules.Piece // a removed piece, drawn faded on its empty square
	// taken is a piece removed from a square that is occupied at the end
	// (a capture, or a square filled again later in the turn): drawn small
	// in the square's corner, the one away from takenFrom (the square the
	// capturer came from, NoSquare when not known).
	taken     [256]rules.Piece
	takenFrom [256]rules.Square
	// off are the pieces pushed off the board.
	off []offBoard
	// steps are the numbered moves of a turn of several moves that show
	// on the board, in order; nil for a single move.
	steps []step
}

// offBoard is a piece pushed off the board from the edge square from,
// in the direction (df, dr) of files and ranks.
type offBoard struct {
	from   rules.Square
	df, dr int
	piece  rules.Piece
}

// step is one move of a turn drawn with its number: an arrow from from to
// to (a mark on to alone when from is NoSquare or to itself: a drop, a
// detonation).
type step struct {
	n        int
	from, to rules.Square
	answer   bool // the opponent's answer inside the turn
}

// samePiece reports whether a and b are the same kind of piece of the same
// side (a promotion mark does not count).
func samePiece(a, b rules.Piece) bool { return a.Type() == b.Type() && a.Color() == b.Color() }

// lastMoveMarks works out what the move that led to cur changed. Without
// prev it marks only the squares of cur.LastMove. With prev it compares
// the boards, so it needs to know nothing about the variant: a move of one
// step onto an occupied square that captures nothing and after which the
// line of pieces beyond stands one step further is a push (that line is
// marked as moved with it, and a piece that left the board is recorded in
// off); other pieces that appear elsewhere than on the to square moved
// with the move (matched by kind with pieces that vanished: a castling
// rook), and pieces that vanished without reappearing were removed (an
// en-passant victim, everything a bomb blew up; the bomb too, as its
// square is left empty).
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
	markPush(mm, cur, prev)
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

// markPush marks the line a push moved (see lastMoveMarks), when the move
// from prev to cur is one: the squares the pushed pieces stand on now,
// and the piece pushed off the board, if any.
func markPush(mm *moveMarks, cur rules.Position, prev *rules.Position) {
	v := cur.Variant()
	m := cur.LastMove()
	if m.From == m.To || !v.OnBoard(m.From) || !v.OnBoard(m.To) || prev.At(m.To) == rules.NoPiece || prev.IsCapture(m) {
		return
	}
	df, dr := m.To.File()-m.From.File(), m.To.Rank()-m.From.Rank()
	if df < -1 || df > 1 || dr < -1 || dr > 1 || !samePiece(cur.At(m.To), prev.At(m.From)) {
		return
	}
	next := func(s rules.Square) rules.Square { return rules.NewSquare(s.File()+df, s.Rank()+dr) }
	var run []rules.Square
	for s := m.To; v.OnBoard(s) && prev.At(s) != rules.NoPiece; s = next(s) {
		run = append(run, s)
	}
	for _, s := range run {
		// A pushed pawn may promote: its side must match, its kind may not.
		if t := next(s); v.OnBoard(t) && cur.At(t).Color() != prev.At(s).Color() {
			return
		}
	}
	for _, s := range run {
		if t := next(s); v.OnBoard(t) {
			mm.kind[t] = markShift
		} else {
			mm.off = append(mm.off, offBoard{from: s, df: df, dr: dr, piece: prev.At(s)})
		}
	}
}

// turnMarks works out what a turn of several moves changed: before[i] is
// the position before the turn's move i, cur the position after the last.
// Every move is marked as lastMoveMarks marks it (a later move's mark of
// a square replaces an earlier one's); the moves of the player who does
// not own the turn (the opponent's answer) are marked as answers; every
// piece removed during the turn stays visible: faded on its square when
// that square is empty at the end, small in its corner when a piece
// stands there (a capture), at the edge when pushed off the board. When
// two or more moves show on the board (passes do not), each gets a
// numbered step.
func turnMarks(cur rules.Position, before []rules.Position) *moveMarks {
	mm := &moveMarks{}
	v := cur.Variant()
	owner := before[0].ToAct()
	removed := func(s rules.Square, pc rules.Piece, from rules.Square) {
		switch {
		case cur.At(s) == rules.NoPiece && mm.ghost[s] == rules.NoPiece:
			mm.ghost[s] = pc
		case cur.At(s) != rules.NoPiece && mm.taken[s] == rules.NoPiece:
			mm.taken[s], mm.takenFrom[s] = pc, from
		}
	}
	for i := range before {
		prev := &before[i]
		after := cur
		if i+1 < len(before) {
			after = before[i+1]
		}
		m := after.LastMove()
		if m.Kind == rules.KindPass {
			continue
		}
		one := lastMoveMarks(after, prev)
		answer := prev.ToAct() != owner
		for _, s := range v.Squares() {
			k := one.kind[s]
			if k == markNone {
				continue
			}
			if k == markMove && answer {
				k = markAnswer
			}
			mm.kind[s] = k
			if g := one.ghost[s]; g != rules.NoPiece {
				removed(s, g, rules.NoSquare)
			}
		}
		if mover := prev.At(m.From); v.OnBoard(m.To) && prev.IsCapture(m) && m.Kind == rules.KindNormal &&
			prev.At(m.To).Color() != mover.Color() {
			removed(m.To, prev.At(m.To), m.From)
		}
		mm.off = append(mm.off, one.off...)
		mm.steps = append(mm.steps, step{n: len(mm.steps) + 1, from: m.From, to: m.To, answer: answer})
	}
	if len(mm.steps) < 2 {
		mm.steps = nil
	}
	return mm
}
