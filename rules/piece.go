package rules

// Color is a side. The zero value is NoColor.
type Color uint8

// The two sides, and NoColor for "nobody" (an empty square, a drawn game).
const (
	NoColor Color = iota
	White
	Black
)

// Other returns the opposite side (NoColor stays NoColor).
func (c Color) Other() Color {
	switch c {
	case White:
		return Black
	case Black:
		return White
	}
	return NoColor
}

// String returns "white", "black" or "none".
func (c Color) String() string {
	switch c {
	case White:
		return "white"
	case Black:
		return "black"
	}
	return "none"
}

// Name returns "White" or "Black" ("none" for NoColor): the colour as a
// player reads it in a sentence.
func (c Color) Name() string {
	switch c {
	case White:
		return "White"
	case Black:
		return "Black"
	}
	return "none"
}

// index returns 0 for White and 1 for Black, for per-side arrays.
func (c Color) index() int { return int(c) - 1 }

// PieceType identifies a kind of piece within one variant: it is the
// position of the piece in Variant.Pieces plus one. NoPieceType is zero.
type PieceType uint8

// NoPieceType means "no piece type" (no promotion, not a drop).
const NoPieceType PieceType = 0

// maxPieceTypes bounds Variant.Pieces (the type is stored in 5 bits).
const maxPieceTypes = 31

// Piece is a piece on a square: a type, an owner and whether it was
// promoted (crazyhouse remembers that, to return it to hand as a pawn).
// The zero value is an empty square.
type Piece uint8

const (
	pieceTypeMask Piece = 0x1f
	pieceBlack    Piece = 0x20
	piecePromoted Piece = 0x40
	// wall marks mailbox squares outside the playable board.
	wall Piece = 0x80
)

// NoPiece is an empty square.
const NoPiece Piece = 0

// NewPiece returns a piece of type t owned by c.
func NewPiece(c Color, t PieceType) Piece {
	p := Piece(t) & pieceTypeMask
	if c == Black {
		p |= pieceBlack
	}
	return p
}

// Type returns the piece's type (NoPieceType for an empty square).
func (p Piece) Type() PieceType {
	if p&wall != 0 {
		return NoPieceType
	}
	return PieceType(p & pieceTypeMask)
}

// Color returns the piece's owner (NoColor for an empty square).
func (p Piece) Color() Color {
	if p == NoPiece || p&wall != 0 {
		return NoColor
	}
	if p&pieceBlack != 0 {
		return Black
	}
	return White
}

// Promoted reports whether the piece reached its type by promotion, in
// variants that remember it (Variant.Promotion.Remember).
func (p Piece) Promoted() bool { return p&piecePromoted != 0 && p&wall == 0 }

// withoutFlags strips the promoted mark, leaving type and colour.
func (p Piece) withoutFlags() Piece { return p &^ piecePromoted }
