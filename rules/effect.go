package rules

// EffectKind names what a move did, as a picture of the board shows it.
// Shared code (the renderer) draws each kind its own way without knowing
// which variant made the move.
type EffectKind uint8

// Effect kinds.
const (
	EffectNone        EffectKind = iota // a malformed move: nothing happened
	EffectMove                          // a piece moved, and may have captured or promoted
	EffectCastle                        // castling: the King (Main) and its Rook moved
	EffectEnPassant                     // an en-passant capture: the victim stood beside the to square
	EffectDrop                          // a piece from a hand was put on an empty square
	EffectPass                          // nothing moved
	EffectSwap                          // two pieces of one side changed places (two Main motions)
	EffectPush                          // a piece stepped into a line of pieces and pushed it one square on
	EffectBlast                         // a piece blew up, removing itself and what stood in Area
	EffectFusion                        // a piece moved onto a friendly piece and the two became one
	EffectSplit                         // a part of a piece moved away, the rest stayed
	EffectPocket                        // a piece went from the board into its owner's hand
	EffectDropCapture                   // a piece from a hand was put on an enemy piece, capturing it
)

// String returns the kind's name in words ("swap", "drop capture").
func (k EffectKind) String() string {
	switch k {
	case EffectMove:
		return "move"
	case EffectCastle:
		return "castling"
	case EffectEnPassant:
		return "en passant"
	case EffectDrop:
		return "drop"
	case EffectPass:
		return "pass"
	case EffectSwap:
		return "swap"
	case EffectPush:
		return "push"
	case EffectBlast:
		return "blast"
	case EffectFusion:
		return "fusion"
	case EffectSplit:
		return "split"
	case EffectPocket:
		return "pocketing"
	case EffectDropCapture:
		return "drop capture"
	}
	return "none"
}

// MoveEffect is what a move did to the board: which pieces moved where,
// which left the board and how, which appeared. It is what the variant
// says the move did (Hooks.Effect for its special moves), not a guess
// from comparing two boards, so a picture can draw a swap as a swap and
// a push as a push.
type MoveEffect struct {
	Kind EffectKind
	// Motions are the pieces that moved from one square to another, the
	// moved pieces (Main) first.
	Motions []Motion
	// Removed are the pieces the move took off the board: captured,
	// blown up, pushed off, pocketed.
	Removed []Removal
	// Placed are the squares on which a piece appeared without moving
	// there on the board: a drop, a captured piece put back elsewhere.
	Placed []Square
	// Area are the squares a blast reached (EffectBlast), its centre
	// included, whether or not a piece stood there.
	Area []Square
}

// Motion is a piece that moved on the board from From to To. It leaves
// From empty, but for a split (EffectSplit), where the rest of the piece
// stays on From.
type Motion struct {
	From, To Square
	// Piece is the piece as it stood on From.
	Piece Piece
	// Main marks a piece the player moved; the others moved along with
	// it (a castling Rook, the pieces of a pushed line).
	Main bool
}

// Removal is a piece the move took off the board from Square.
type Removal struct {
	Square Square
	Piece  Piece
	// Hand is the side into whose hand the piece went, NoColor when it
	// left the game.
	Hand Color
	// OffFile and OffRank are, for a piece pushed off the board, the
	// direction it left in (files and ranks, each -1, 0 or 1); both 0
	// otherwise.
	OffFile, OffRank int
}

// Off reports whether r is a piece pushed off the board.
func (r Removal) Off() bool { return r.OffFile != 0 || r.OffRank != 0 }

// Effect returns what the move m, one of p's legal moves, does to the
// board. Castling, en passant, drops and ordinary moves are described
// here; a special move (KindSpecial) by the variant's Hooks.Effect (a
// move of From to To without it). Whatever else the move changed on the
// board (a piece a variant's AfterMove put back or removed) is added as
// placed or removed, so the effect always accounts for every square
// whose piece changed. A malformed move has EffectNone and nothing else.
func (p *Position) Effect(m Move) MoveEffect {
	after, ok := p.After(m)
	if !ok {
		return MoveEffect{}
	}
	v := p.v
	var e MoveEffect
	switch m.Kind {
	case KindNormal:
		e.Kind = EffectMove
		e.Motions = []Motion{{From: m.From, To: m.To, Piece: p.board[m.From], Main: true}}
		if victim := p.board[m.To]; victim != NoPiece {
			e.Removed = []Removal{{Square: m.To, Piece: victim, Hand: p.captureHand()}}
		}
	case KindEnPassant:
		e.Kind = EffectEnPassant
		e.Motions = []Motion{{From: m.From, To: m.To, Piece: p.board[m.From], Main: true}}
		e.Removed = []Removal{{Square: p.epVictim, Piece: p.board[p.epVictim], Hand: p.captureHand()}}
	case KindCastle:
		r := &v.c.castling[m.rule]
		e.Kind = EffectCastle
		e.Motions = []Motion{
			{From: r.pieceFrom, To: r.pieceTo, Piece: p.board[r.pieceFrom], Main: true},
			{From: r.rookFrom, To: r.rookTo, Piece: p.board[r.rookFrom]},
		}
	case KindDrop:
		e.Kind = EffectDrop
		e.Placed = []Square{m.To}
	case KindPass:
		e.Kind = EffectPass
	case KindSpecial:
		e = p.specialEffect(&after, m)
	}
	e.account(p, &after)
	return e
}

// specialEffect returns the effect of the special move m of p that the
// variant's Effect hook describes, or the default one, before account.
func (p *Position) specialEffect(after *Position, m Move) MoveEffect {
	v := p.v
	switch {
	case v.Hooks.Effect != nil:
		return v.Hooks.Effect(p, after, m)
	case m.From != m.To && v.OnBoard(m.From) && v.OnBoard(m.To):
		return MoveEffect{Kind: EffectMove, Motions: []Motion{{From: m.From, To: m.To, Piece: p.board[m.From], Main: true}}}
	}
	return MoveEffect{Kind: EffectDrop, Placed: []Square{m.To}}
}

// captureHand returns the hand a piece captured by the player to move
// goes to: theirs when the variant puts captures in hand, else none.
func (p *Position) captureHand() Color {
	if p.v.Drops.CapturesToHand {
		return p.mover
	}
	return NoColor
}

// account adds to e, the effect of the move from before to after, every
// change of the board that e does not tell: a square the effect leaves
// empty that holds a piece after the move is placed, a square it leaves
// occupied that is empty after it is removed (see occupied).
func (e *MoveEffect) account(before, after *Position) {
	occ := e.occupied(before)
	for _, s := range before.v.c.squares {
		switch has := after.board[s] != NoPiece; {
		case has && !occ[s]:
			e.Placed = append(e.Placed, s)
		case !has && occ[s] && before.board[s] != NoPiece:
			e.Removed = append(e.Removed, Removal{Square: s, Piece: before.board[s]})
		}
	}
}

// occupied returns, indexed by square, which squares of before's board
// e says are occupied after the move: those occupied before, less the
// squares of removed pieces and those the moving pieces left (a split
// leaves the rest of its piece on From), plus the squares they reached
// and those placed.
func (e *MoveEffect) occupied(before *Position) [256]bool {
	var occ [256]bool
	for _, s := range before.v.c.squares {
		occ[s] = before.board[s] != NoPiece
	}
	for _, r := range e.Removed {
		occ[r.Square] = false
	}
	for _, mo := range e.Motions {
		if e.Kind != EffectSplit {
			occ[mo.From] = false
		}
	}
	for _, mo := range e.Motions {
		occ[mo.To] = true
	}
	for _, s := range e.Placed {
		occ[s] = true
	}
	return occ
}
