package rules

// maxPocketSlots bounds the counters of one side's hand (Position.pocket,
// indexed by piece type, or by Drops.Slots index + 1).
const maxPocketSlots = 63

// Position is the complete state of a game at one moment: the board, the
// pockets, who acts and in which phase, castling rights, the en-passant
// target, the move counters and the variant's own state (Variant.State).
// It does not include the history (see Game). Position is a value: Play
// returns a new Position and never changes the receiver, so positions
// may be shared between goroutines.
// The zero Position is not usable; get one from Variant.Start or ParseFEN.
type Position struct {
	v        *Variant
	board    [mailboxSize]Piece
	occ      [2][3]uint64 // occupancy by side, bit = rank*12+file
	count    [2][maxPieceTypes + 1]uint8
	pocket   [2][maxPocketSlots + 1]uint8
	royal    [2]Square // the royal piece of each side, NoSquare if none
	toAct    Color
	mover    Color
	phase    uint8
	castle   uint16
	ep       Square // en-passant target square, or NoSquare
	epVictim Square // the piece an en-passant capture on ep removes
	halfmove int
	fullmove int
	lastMove Move
	passes   uint8      // passes in a row up to this position (Variant.DoublePassDraws), at most 2
	state    stateBytes // the variant's own state (Variant.State), read and written only through its typed form
}

// Variant returns the variant the position belongs to.
func (p *Position) Variant() *Variant { return p.v }

// At returns the piece on s (NoPiece for an empty or off-board square).
func (p *Position) At(s Square) Piece {
	if !p.v.OnBoard(s) {
		return NoPiece
	}
	return p.board[s]
}

// ToAct returns the player who must act now.
func (p *Position) ToAct() Color { return p.toAct }

// Mover returns whose pieces the player to act moves now (the opponent's in
// some phases of multi-part turns).
func (p *Position) Mover() Color { return p.mover }

// Phase returns the phase of a multi-part turn (0 in single-move variants).
func (p *Position) Phase() uint8 { return p.phase }

// PhaseName describes the phase for people.
func (p *Position) PhaseName() string {
	if p.v.Hooks.PhaseName != nil {
		return p.v.Hooks.PhaseName(p)
	}
	return "move"
}

// EnPassant returns the en-passant target square, or NoSquare.
func (p *Position) EnPassant() Square { return p.ep }

// HalfmoveClock returns the number of plies since the last capture or pawn move.
func (p *Position) HalfmoveClock() int { return p.halfmove }

// Fullmove returns the move number (starting at 1, incremented after Black acts).
func (p *Position) Fullmove() int { return p.fullmove }

// Pocket returns how many pieces of type t side c holds in hand (in all
// of its pockets, in variants with Drops.Slots).
func (p *Position) Pocket(c Color, t PieceType) int {
	if len(p.v.Drops.Slots) == 0 {
		return int(p.pocket[c.index()][t])
	}
	n := 0
	for i := 1; i <= p.v.c.pocketSlots; i++ {
		if p.v.c.slotType[i] == t {
			n += int(p.pocket[c.index()][i])
		}
	}
	return n
}

// Slot returns how many pieces side c holds in pocket slot i, an index
// into Variant.Drops.Slots (0 for an index out of range).
func (p *Position) Slot(c Color, i int) int {
	if i < 0 || i >= len(p.v.Drops.Slots) || (c != White && c != Black) {
		return 0
	}
	return int(p.pocket[c.index()][i+1])
}

// Count returns how many pieces of type t side c has on the board.
func (p *Position) Count(c Color, t PieceType) int { return int(p.count[c.index()][t]) }

// LastMove returns the move that led to this position (the zero Move for a
// position read from FEN).
func (p *Position) LastMove() Move { return p.lastMove }

// CastlingRights returns the FEN letters of the castling rights still held.
func (p *Position) CastlingRights() string {
	var b []byte
	for i, r := range p.v.c.castling {
		if p.castle&(1<<i) != 0 {
			b = append(b, r.letter)
		}
	}
	return string(b)
}

// put places pc (not NoPiece) on the empty square s.
func (p *Position) put(s Square, pc Piece) {
	p.board[s] = pc
	c := pc.Color().index()
	i := s.bitIndex()
	p.occ[c][i>>6] |= 1 << (i & 63)
	p.count[c][pc.Type()]++
	if p.v.c.royalType[pc.Type()] {
		p.royal[c] = s
	}
}

// remove empties the occupied square s and returns what stood there.
func (p *Position) remove(s Square) Piece {
	pc := p.board[s]
	p.board[s] = NoPiece
	c := pc.Color().index()
	i := s.bitIndex()
	p.occ[c][i>>6] &^= 1 << (i & 63)
	p.count[c][pc.Type()]--
	if p.royal[c] == s {
		p.royal[c] = NoSquare
	}
	return pc
}

// Start returns the variant's initial position.
func (v *Variant) Start() Position { return v.c.start }
