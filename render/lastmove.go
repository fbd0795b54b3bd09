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
	markBlast              // a square a blast reached that held no piece
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
	// badges are the signs of moves that squares alone do not tell: a
	// blast, a fusion, a split, a pocketing.
	badges []badge
	// steps are the moves that show on the board, in order. When numbered
	// (a turn of two or more such moves) each is drawn as a numbered
	// arrow; otherwise only a swap is drawn, as a two-headed arrow.
	steps    []step
	numbered bool
}

// offBoard is a piece pushed off the board from the edge square from,
// in the direction (df, dr) of files and ranks.
type offBoard struct {
	from   rules.Square
	df, dr int
	piece  rules.Piece
}

// badge is the sign of the kind of a move on the square sq; hand is the
// side whose pocket a pocketed piece went to.
type badge struct {
	sq   rules.Square
	kind rules.EffectKind
	hand rules.Color
}

// step is one move of a turn drawn with its number: an arrow from from to
// to (a mark on to alone when from is NoSquare or to itself: a drop, a
// detonation); a swap's arrow has a head at both ends.
type step struct {
	n        int
	from, to rules.Square
	answer   bool // the opponent's answer inside the turn
	swap     bool // the pieces on from and to changed places
}

// lastMoveMarks works out what the move that led to cur changed. Without
// prev it marks only the squares of cur.LastMove. With prev it marks what
// the variant says the move did (rules.Position.Effect): the squares of
// the pieces the player moved, those that moved along (a castling rook,
// a pushed line), those removed (an en-passant victim, a blast; drawn
// faded, or small in the corner of a square occupied now), a piece
// pushed off the board, the area of a blast, and the sign of a swap,
// fusion, split or pocketing.
func lastMoveMarks(cur rules.Position, prev *rules.Position) *moveMarks {
	mm := &moveMarks{}
	v := cur.Variant()
	m := cur.LastMove()
	if prev == nil {
		for _, s := range []rules.Square{m.From, m.To} {
			if s != rules.NoSquare && v.OnBoard(s) {
				mm.kind[s] = markMove
			}
		}
		return mm
	}
	mm.add(cur, prev, m, false)
	return mm
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
	owner := before[0].ToAct()
	for i := range before {
		m := cur.LastMove()
		if i+1 < len(before) {
			m = before[i+1].LastMove()
		}
		mm.add(cur, &before[i], m, before[i].ToAct() != owner)
	}
	mm.numbered = len(mm.steps) >= 2
	return mm
}

// add marks the move m of prev, one move of the turn or the last move,
// on mm: end is the position at the end of what the image shows, which
// decides whether a removed piece is drawn faded (its square is empty
// there) or small in the corner (occupied). answer marks the opponent's
// answer inside a turn.
func (mm *moveMarks) add(end rules.Position, prev *rules.Position, m rules.Move, answer bool) {
	if m.Kind == rules.KindPass {
		return
	}
	v := end.Variant()
	eff := prev.Effect(m)
	if eff.Kind == rules.EffectNone {
		return
	}
	var one [256]squareMark
	set := func(s rules.Square, k squareMark) {
		if s != rules.NoSquare && v.OnBoard(s) && one[s] == markNone {
			one[s] = k
		}
	}
	moved := markMove
	if answer {
		moved = markAnswer
	}
	var capturer [256]rules.Square
	for _, mo := range eff.Motions {
		if mo.Main {
			set(mo.From, moved)
			set(mo.To, moved)
			if v.OnBoard(mo.To) {
				capturer[mo.To] = mo.From
			}
		}
	}
	for _, s := range eff.Placed {
		set(s, moved)
	}
	for _, mo := range eff.Motions {
		if !mo.Main {
			set(mo.To, markShift)
			set(mo.From, markShift)
		}
	}
	for _, r := range eff.Removed {
		if !v.OnBoard(r.Square) {
			continue
		}
		if r.Off() {
			mm.off = append(mm.off, offBoard{from: r.Square, df: r.OffFile, dr: r.OffRank, piece: r.Piece})
			continue
		}
		switch {
		case end.At(r.Square) == rules.NoPiece:
			set(r.Square, markRemoved)
			if mm.ghost[r.Square] == rules.NoPiece {
				mm.ghost[r.Square] = r.Piece
			}
		case mm.taken[r.Square] == rules.NoPiece:
			mm.taken[r.Square], mm.takenFrom[r.Square] = r.Piece, capturer[r.Square]
		}
	}
	for _, s := range eff.Area {
		set(s, markBlast)
	}
	for _, s := range v.Squares() {
		if one[s] != markNone {
			mm.kind[s] = one[s]
		}
	}
	switch eff.Kind {
	case rules.EffectBlast, rules.EffectPocket:
		mm.badges = append(mm.badges, badge{sq: m.From, kind: eff.Kind, hand: prev.Mover()})
	case rules.EffectFusion, rules.EffectSplit:
		mm.badges = append(mm.badges, badge{sq: m.To, kind: eff.Kind})
	}
	st := step{n: len(mm.steps) + 1, from: m.From, to: m.To, answer: answer, swap: eff.Kind == rules.EffectSwap}
	mm.steps = append(mm.steps, st)
}
