package rules

import "fmt"

// EndValue says what an end of the game means for the player it happens
// to (the side whose pieces died out, the player who is checkmated).
type EndValue uint8

// End values. The zero value is a loss, as checkmate is in chess.
const (
	EndLoss EndValue = iota
	EndWin
	EndDraw
)

// resultFor returns the result in which the end value v happens to c.
func (v EndValue) resultFor(c Color) Result {
	switch v {
	case EndWin:
		return WinFor(c)
	case EndDraw:
		return Draw
	}
	return WinFor(c.Other())
}

// Extinction declares an end of the game by extinction: a side that has
// no more than Count pieces of one of the kinds Types (on the board and in
// hand together) has had them die out, and the game ends with Value for
// it. The position is then over: there are no legal moves. The opponent
// of the player to act is judged first.
type Extinction struct {
	// Types are the letters (uppercase) of the piece kinds counted one by
	// one; "*" counts all of a side's pieces together.
	Types string
	// Count is the number of pieces at or below which a kind has died out
	// (0: when the last one is gone).
	Count int
	// Value is what extinction means for its side.
	Value EndValue
}

// FlagRule declares an end of the game by reaching a region of the board
// ("capture the flag", the kings' race): a side wins when one of its flag
// pieces stands in its region.
type FlagRule struct {
	// Piece is, for White and Black, the letter (uppercase) of the piece
	// kind that must reach the region; 0 = any piece of the side.
	Piece [2]byte
	// Region is, for White and Black, the squares ("e8") of the region.
	Region [2][]string
	// Count is how many flag pieces of a side must stand in its region
	// together (0 and 1: one).
	Count int
	// ExtraMove gives the opponent of a side that reached its region one
	// more move: the side then wins when its opponent is to move again,
	// unless (with a royal flag piece) the opponent reached its own region
	// with that move too, when the game is drawn. Without ExtraMove the
	// game ends as soon as a side reaches its region. With a royal flag
	// piece, a player whose opponent reached the region may still draw by
	// reaching it at once, and keeps the move while such a move exists.
	ExtraMove bool
}

// cflag is a FlagRule compiled to types and squares.
type cflag struct {
	piece  [2]PieceType // NoPieceType = any
	region [2][mailboxSize]bool
}

// compileDataRules checks and compiles the rules declared by
// Promotion.Limits, Drops.NoDoubled, NoStranding, Extinction and Flag.
func (c *compiled) compileDataRules(v *Variant) error {
	for l, n := range v.Promotion.Limits {
		t := v.Type(l)
		if t == NoPieceType || n < 1 {
			return fmt.Errorf("promotion limit %c:%d: want a piece of the variant and a count of 1 or more", l, n)
		}
		c.promoLimit[t] = n
	}
	for side, names := range v.EnPassantRegion {
		if names == nil {
			continue
		}
		if c.epRegion == nil {
			c.epRegion = new([2][mailboxSize]bool)
			for i := range c.epRegion {
				for _, s := range c.squares {
					c.epRegion[i][s] = v.EnPassantRegion[i] == nil
				}
			}
		}
		for _, name := range names {
			s, err := ParseSquare(name)
			if err != nil || !v.OnBoard(s) {
				return fmt.Errorf("en-passant region: %q is not a square of the board", name)
			}
			c.epRegion[side][s] = true
		}
	}
	if l := v.Drops.NoDoubled; l != 0 {
		if c.noDoubled = v.Type(l); c.noDoubled == NoPieceType {
			return fmt.Errorf("Drops.NoDoubled %c is not a piece of the variant", l)
		}
	}
	if v.NoStranding {
		c.stranded = new([2][maxPieceTypes + 1][mailboxSize]bool)
		for side := 0; side < 2; side++ {
			for t := 1; t <= len(v.Pieces); t++ {
				for _, s := range c.squares {
					stuck := true
					for _, l := range c.legs[side][t] {
						if l.mode&ModeMove != 0 && !l.initial && !l.hop && v.OnBoard(Square(int(s)+int(l.off))) {
							stuck = false
							break
						}
					}
					c.stranded[side][t][s] = stuck
				}
			}
		}
	}
	if e := v.Extinction; e != nil {
		if e.Types == "" || e.Count < 0 {
			return fmt.Errorf("extinction needs piece kinds and a count of 0 or more")
		}
		for i := 0; i < len(e.Types); i++ {
			if e.Types[i] == '*' {
				c.extinctAll = true
				continue
			}
			t := v.Type(e.Types[i])
			if t == NoPieceType {
				return fmt.Errorf("extinction: %c is not a piece of the variant", e.Types[i])
			}
			c.extinctTypes = append(c.extinctTypes, t)
		}
	}
	if f := v.Flag; f != nil {
		if f.Count < 0 {
			return fmt.Errorf("flag piece count %d", f.Count)
		}
		c.flag = &cflag{}
		for side := 0; side < 2; side++ {
			if f.Piece[side] != 0 {
				if c.flag.piece[side] = v.Type(f.Piece[side]); c.flag.piece[side] == NoPieceType {
					return fmt.Errorf("flag piece %c is not a piece of the variant", f.Piece[side])
				}
			}
			for _, name := range f.Region[side] {
				s, err := ParseSquare(name)
				if err != nil || !v.OnBoard(s) {
					return fmt.Errorf("flag region: %q is not a square of the board", name)
				}
				c.flag.region[side][s] = true
			}
		}
	}
	return nil
}

// epAllowed reports whether by may capture en passant on s
// (Variant.EnPassantRegion).
func (c *compiled) epAllowed(s Square, by Color) bool {
	return c.epRegion == nil || c.epRegion[by.index()][s]
}

// countWithHand returns how many pieces of type t side c has on the board
// and in hand.
func (p *Position) countWithHand(c Color, t PieceType) int {
	return p.Count(c, t) + p.Pocket(c, t)
}

// extinct reports whether side c's pieces of one of the extinction kinds
// have died out.
func (p *Position) extinct(c Color) bool {
	v := p.v
	e := v.Extinction
	if v.c.extinctAll {
		n := 0
		for t := PieceType(1); int(t) <= len(v.Pieces); t++ {
			n += p.countWithHand(c, t)
		}
		if n <= e.Count {
			return true
		}
	}
	for _, t := range v.c.extinctTypes {
		if p.countWithHand(c, t) <= e.Count {
			return true
		}
	}
	return false
}

// flagReached reports whether enough flag pieces of c (FlagRule.Count)
// stand in c's region.
func (p *Position) flagReached(c Color) bool {
	f := p.v.c.flag
	ci := c.index()
	n := 0
	for _, s := range p.v.c.squares {
		pc := p.board[s]
		if pc != NoPiece && pc.Color() == c && f.region[ci][s] && (f.piece[ci] == NoPieceType || pc.Type() == f.piece[ci]) {
			if n++; n >= max(p.v.Flag.Count, 1) {
				return true
			}
		}
	}
	return false
}

// flagRoyal reports whether c's flag piece is its royal piece.
func (p *Position) flagRoyal(c Color) bool {
	t := p.v.c.flag.piece[c.index()]
	return t != NoPieceType && p.v.c.royalType[t]
}

// endByRules reports the ends of Extinction and Flag.
func (p *Position) endByRules() (Outcome, bool) {
	v := p.v
	us, them := p.toAct, p.toAct.Other()
	if v.Extinction != nil {
		for _, c := range []Color{them, us} {
			if p.extinct(c) {
				return Outcome{Result: v.Extinction.Value.resultFor(c), Reason: ReasonExtinction}, true
			}
		}
	}
	if v.c.flag == nil {
		return Outcome{}, false
	}
	extra := v.Flag.ExtraMove
	if extra && p.flagReached(us) {
		if us == White && p.flagRoyal(them) && p.flagReached(them) {
			return Outcome{Result: Draw, Reason: ReasonBothReachedGoal}, true
		}
		return Outcome{Result: WinFor(us), Reason: ReasonGoalReached}, true
	}
	if (!extra || p.flagRoyal(us)) && p.flagReached(them) {
		if extra && us == Black && p.royal[us.index()] != NoSquare && !p.InCheck() && p.canReachFlag(us) {
			return Outcome{}, false
		}
		return Outcome{Result: WinFor(them), Reason: ReasonGoalReached}, true
	}
	return Outcome{}, false
}

// canReachFlag reports whether c, to act, has a legal move of its royal
// piece into its flag region.
func (p *Position) canReachFlag(c Color) bool {
	var buf [256]Move
	var scratch Position
	k := p.royal[c.index()]
	for _, m := range p.legalMoves(buf[:0], &scratch) {
		if m.Kind == KindNormal && m.From == k && p.v.c.flag.region[c.index()][m.To] {
			return true
		}
	}
	return false
}
