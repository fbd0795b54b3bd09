package rules

import "fmt"

// MaxFiles and MaxRanks bound every board the engine supports (12x12).
const (
	MaxFiles = 12
	MaxRanks = 12
)

// The board is stored as a mailbox 16 squares wide and 20 high: the
// largest playable area (12x12) with a wall two squares wide on the left
// and right and four squares high below and above. Any leap of up to three
// squares in each direction from a playable square therefore lands inside
// the array on a wall or board square: sideways, a leap past the left or
// right wall wraps onto the wall of the next row, and the fourth wall row
// catches the wrap of a leap from a corner. Riders stop at the wall without
// bounds checks. The largest playable square index is 15*16+13 = 253, so
// a Square fits in a byte.
const (
	mailboxWidth  = 16
	mailboxBorder = 2 // wall columns on each side
	mailboxFloor  = 4 // wall rows below and above
	mailboxHeight = MaxRanks + 2*mailboxFloor
	mailboxSize   = mailboxWidth * mailboxHeight
)

// Square is a square of the board in the engine's internal mailbox
// numbering. Use NewSquare and the File, Rank and String methods; the numeric
// value is an implementation detail. NoSquare is the zero value.
type Square uint8

// NoSquare stands for "no square" (no en-passant target, a pass, a drop's origin).
const NoSquare Square = 0

// NewSquare returns the square on file f and rank r, both counted from 0
// (a1 is NewSquare(0, 0)). It returns NoSquare when f or r is outside 0..11.
func NewSquare(f, r int) Square {
	if f < 0 || f >= MaxFiles || r < 0 || r >= MaxRanks {
		return NoSquare
	}
	return Square((r+mailboxFloor)*mailboxWidth + f + mailboxBorder)
}

// File returns the file of s counted from 0 (a = 0).
func (s Square) File() int { return int(s)%mailboxWidth - mailboxBorder }

// Rank returns the rank of s counted from 0 (rank 1 = 0).
func (s Square) Rank() int { return int(s)/mailboxWidth - mailboxFloor }

// String returns the algebraic name of s ("a1" .. "l12"), or "-" for NoSquare.
func (s Square) String() string {
	if s == NoSquare {
		return "-"
	}
	return fmt.Sprintf("%c%d", 'a'+s.File(), s.Rank()+1)
}

// ParseSquare parses an algebraic square name such as "e4" or "j10". It
// checks only the 12x12 limit; whether the square is on a given board is
// the caller's question (Variant.OnBoard).
func ParseSquare(s string) (Square, error) {
	sq, n := scanSquare(s)
	if n == 0 || n != len(s) {
		return NoSquare, fmt.Errorf("%q is not a square (expected a file a-l and a rank 1-12, like e4)", s)
	}
	return sq, nil
}

// scanSquare reads a square name at the start of s and returns it with the
// number of bytes read (0 when s does not start with a square).
func scanSquare(s string) (Square, int) {
	if len(s) < 2 || s[0] < 'a' || s[0] > 'l' || s[1] < '1' || s[1] > '9' {
		return NoSquare, 0
	}
	f := int(s[0] - 'a')
	r := int(s[1] - '0')
	n := 2
	if len(s) > 2 && s[2] >= '0' && s[2] <= '9' {
		r = r*10 + int(s[2]-'0')
		n = 3
	}
	if r < 1 || r > MaxRanks {
		return NoSquare, 0
	}
	return NewSquare(f, r-1), n
}

// bitIndex maps a playable square to 0..143 (rank*12 + file), the index used
// by the occupancy bitsets.
func (s Square) bitIndex() int { return s.Rank()*MaxFiles + s.File() }

// squareOfBit is the inverse of bitIndex.
func squareOfBit(i int) Square { return NewSquare(i%MaxFiles, i/MaxFiles) }
