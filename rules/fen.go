package rules

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrBadFEN is wrapped by every FEN parsing error.
var ErrBadFEN = errors.New("bad FEN")

// maxCounter bounds the FEN move counters, so that corrupt input cannot
// produce absurd positions.
const maxCounter = 100000

// ParseFEN reads a position of v in FEN. The layout is Fairy-Stockfish's:
//
//	<board>[<pocket>] <side> <castling> <en passant> <halfmove> <fullmove>
//
// Ranks run from the top (Black's side) down, separated by '/'; empty runs
// are decimal numbers (10, 12 on wide boards); a '~' after a piece marks it
// as promoted. The pocket in brackets appears in variants with drops
// (uppercase White, lowercase Black). In variants with pocket slots
// (Drops.Slots) it is one comma-separated section per non-empty pocket,
// the pocket's letter and ':' before its pieces, a slot's mark after the
// piece letter: "[S:Qn,D:R*b]"; "[]" when the hands are empty. The side
// is "w" or "b", followed by the phase number when it is not 0. The last
// four fields may be omitted (no castling, no en passant, 0, 1). Variants
// with state of their own (Variant.State) write it as a seventh field,
// left out when the state has nothing to say.
// Rights and targets that the board contradicts (a castling right without
// its king and rook on their squares, an en-passant target nobody can
// capture on) are dropped, so FEN(ParseFEN(s)) is the canonical form of s.
func ParseFEN(v *Variant, fen string) (Position, error) {
	return parseFEN(v, fen)
}

func parseFEN(v *Variant, fen string) (Position, error) {
	bad := func(format string, args ...any) (Position, error) {
		return Position{}, fmt.Errorf("%w: %s", ErrBadFEN, fmt.Sprintf(format, args...))
	}
	fields := strings.Fields(fen)
	maxFields := 6
	if v.State != nil {
		maxFields = 7
	}
	if len(fields) < 2 || len(fields) > maxFields {
		return bad("%d fields; want 2 to %d (board, side, castling, en passant, halfmove, fullmove%s)", len(fields), maxFields, map[bool]string{true: ", variant state"}[maxFields == 7])
	}
	p := v.c.empty
	p.royal = [2]Square{NoSquare, NoSquare}
	if err := p.parseBoard(fields[0]); err != nil {
		return bad("board: %v", err)
	}
	side := fields[1]
	switch {
	case strings.HasPrefix(side, "w"):
		p.toAct = White
	case strings.HasPrefix(side, "b"):
		p.toAct = Black
	default:
		return bad("side %q: want w or b", side)
	}
	p.mover = p.toAct
	if len(side) > 1 {
		ph, err := strconv.Atoi(side[1:])
		if err != nil || ph < 1 || ph > 255 || side[1] == '0' || v.Hooks.MoverOf == nil {
			return bad("side %q: want w or b (with a phase number only in variants with multi-part turns)", side)
		}
		p.phase = uint8(ph)
	}
	if v.Hooks.MoverOf != nil {
		p.mover = v.Hooks.MoverOf(p.toAct, p.phase)
		if p.mover != White && p.mover != Black {
			return bad("side %q: %s has no phase %d", side, v.Name, p.phase)
		}
	}
	castling, ep, half, full := "-", "-", "0", "1"
	if len(fields) > 2 {
		castling = fields[2]
	}
	if len(fields) > 3 {
		ep = fields[3]
	}
	if len(fields) > 4 {
		half = fields[4]
	}
	if len(fields) > 5 {
		full = fields[5]
	}
	if err := p.parseCastling(castling); err != nil {
		return bad("castling %q: %v", castling, err)
	}
	if ep != "-" {
		s, err := ParseSquare(ep)
		if err != nil || !v.OnBoard(s) {
			return bad("en passant %q: not a square of the board", ep)
		}
		p.setEnPassantFromFEN(s)
	}
	var err error
	if p.halfmove, err = strconv.Atoi(half); err != nil || p.halfmove < 0 || p.halfmove > maxCounter {
		return bad("halfmove clock %q: want a number 0..%d", half, maxCounter)
	}
	if p.fullmove, err = strconv.Atoi(full); err != nil || p.fullmove < 1 || p.fullmove > maxCounter {
		return bad("move number %q: want a number 1..%d", full, maxCounter)
	}
	if len(fields) > 6 {
		st, err := v.State.parseFEN(&p, fields[6])
		if err != nil {
			return bad("variant state %q: %v", fields[6], err)
		}
		p.state = st
	}
	if v.CheckRule {
		them := p.toAct.Other()
		if k := p.royal[them.index()]; k != NoSquare && p.attacked(k, p.toAct) {
			return bad("%s is in check but it is %s's turn", them, p.toAct)
		}
	}
	return p, nil
}

// parseBoard reads the piece placement and the optional pocket.
func (p *Position) parseBoard(s string) error {
	v := p.v
	pocket := ""
	if i := strings.IndexByte(s, '['); i >= 0 {
		if !strings.HasSuffix(s, "]") {
			return fmt.Errorf("pocket %q lacks its closing ']'", s[i:])
		}
		if !v.Drops.Enabled && len(v.Drops.Slots) == 0 {
			return fmt.Errorf("this variant has no pockets")
		}
		pocket = s[i+1 : len(s)-1]
		s = s[:i]
	}
	rows := strings.Split(s, "/")
	if len(rows) != v.Ranks {
		return fmt.Errorf("%d ranks, the board has %d", len(rows), v.Ranks)
	}
	for i, row := range rows {
		r := v.Ranks - 1 - i
		f := 0
		for j := 0; j < len(row); j++ {
			ch := row[j]
			switch {
			case ch >= '0' && ch <= '9':
				n := int(ch - '0')
				if j+1 < len(row) && row[j+1] >= '0' && row[j+1] <= '9' {
					j++
					n = n*10 + int(row[j]-'0')
				}
				if n == 0 {
					return fmt.Errorf("rank %d: empty run of 0", r+1)
				}
				f += n
			case ch == '~':
				return fmt.Errorf("rank %d: '~' must follow a piece", r+1)
			default:
				t := v.Type(ch)
				if t == NoPieceType {
					return fmt.Errorf("rank %d: %q is not a piece of %s", r+1, ch, v.Name)
				}
				if f >= v.Files {
					return fmt.Errorf("rank %d has more than %d files", r+1, v.Files)
				}
				c := White
				if ch >= 'a' {
					c = Black
				}
				pc := NewPiece(c, t)
				if j+1 < len(row) && row[j+1] == '~' {
					if !v.Promotion.Remember {
						return fmt.Errorf("rank %d: this variant does not mark promoted pieces", r+1)
					}
					pc |= piecePromoted
					j++
				}
				sq := NewSquare(f, r)
				if v.c.royalType[t] && p.royal[c.index()] != NoSquare {
					return fmt.Errorf("%s has more than one %s", c, v.Pieces[t-1].Name)
				}
				p.put(sq, pc)
				f++
			}
			if f > v.Files {
				return fmt.Errorf("rank %d has more than %d files", r+1, v.Files)
			}
		}
		if f != v.Files {
			return fmt.Errorf("rank %d has %d files, the board has %d", r+1, f, v.Files)
		}
	}
	if len(v.Drops.Slots) > 0 {
		return p.parseSlots(pocket)
	}
	for j := 0; j < len(pocket); j++ {
		ch := pocket[j]
		if ch == '-' && len(pocket) == 1 {
			break
		}
		t := v.Type(ch)
		if t == NoPieceType {
			return fmt.Errorf("pocket: %q is not a piece of %s", ch, v.Name)
		}
		if v.c.royalType[t] {
			return fmt.Errorf("pocket: a royal %s cannot be in hand", v.Pieces[t-1].Name)
		}
		c := White
		if ch >= 'a' {
			c = Black
		}
		if p.pocket[c.index()][t] == 255 {
			return fmt.Errorf("pocket: too many %c", ch)
		}
		p.pocket[c.index()][t]++
	}
	return nil
}

// parseSlots reads a hand of pocket slots (Drops.Slots): sections
// "S:letters" separated by commas, one per pocket, each letter (uppercase
// White's, lowercase Black's) followed by its slot's mark if it has one.
func (p *Position) parseSlots(s string) error {
	v := p.v
	if s == "" || s == "-" {
		return nil
	}
	for _, sec := range strings.Split(s, ",") {
		if len(sec) < 2 || sec[1] != ':' {
			return fmt.Errorf("pocket section %q: want a pocket letter, ':' and pieces (like S:Qn)", sec)
		}
		pocket := sec[0]
		known := false
		for _, sl := range v.Drops.Slots {
			known = known || sl.Pocket == pocket
		}
		if !known {
			return fmt.Errorf("pocket section %q: %s has no pocket %c", sec, v.Name, pocket)
		}
		for j := 2; j < len(sec); j++ {
			ch := sec[j]
			c, l := White, ch
			if ch >= 'a' && ch <= 'z' {
				c, l = Black, ch-('a'-'A')
			}
			var mark byte
			if j+1 < len(sec) && !(sec[j+1] >= 'A' && sec[j+1] <= 'Z' || sec[j+1] >= 'a' && sec[j+1] <= 'z') {
				mark = sec[j+1]
				j++
			}
			i := -1
			for k, sl := range v.Drops.Slots {
				if sl.Pocket == pocket && sl.Letter == l && sl.Mark == mark {
					i = k
				}
			}
			if i < 0 {
				if mark != 0 {
					return fmt.Errorf("pocket %c holds no %c%c", pocket, ch, mark)
				}
				return fmt.Errorf("pocket %c holds no %c", pocket, ch)
			}
			if p.pocket[c.index()][i+1] == 255 {
				return fmt.Errorf("pocket %c: too many %c", pocket, ch)
			}
			p.pocket[c.index()][i+1]++
		}
	}
	return nil
}

// writeSlots writes the hand of pocket slots in the form parseSlots
// reads: the non-empty pockets in the order the slots declare them, in
// each White's pieces then Black's, in slot order.
func (p *Position) writeSlots(b *strings.Builder) {
	slots := p.v.Drops.Slots
	first := true
	for i, sl := range slots {
		seen := false
		for _, o := range slots[:i] {
			seen = seen || o.Pocket == sl.Pocket
		}
		if seen {
			continue
		}
		var sec []byte
		for _, c := range []Color{White, Black} {
			for k, o := range slots {
				if o.Pocket != sl.Pocket {
					continue
				}
				l := o.Letter
				if c == Black {
					l += 'a' - 'A'
				}
				for n := 0; n < int(p.pocket[c.index()][k+1]); n++ {
					sec = append(sec, l)
					if o.Mark != 0 {
						sec = append(sec, o.Mark)
					}
				}
			}
		}
		if len(sec) == 0 {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.WriteByte(sl.Pocket)
		b.WriteByte(':')
		b.Write(sec)
	}
}

// parseCastling reads the castling field, keeping the rights whose pieces
// stand on their squares.
func (p *Position) parseCastling(s string) error {
	if s == "-" {
		return nil
	}
	for j := 0; j < len(s); j++ {
		found := false
		for i, r := range p.v.c.castling {
			if r.letter == s[j] {
				if p.castle&(1<<i) != 0 {
					return fmt.Errorf("%c appears twice", s[j])
				}
				found = true
				if p.board[r.pieceFrom] == NewPiece(r.side, r.piece) && p.board[r.rookFrom] == NewPiece(r.side, r.rook) {
					p.castle |= 1 << i
				}
			}
		}
		if !found {
			return fmt.Errorf("%q is not a castling right of %s", s[j], p.v.Name)
		}
	}
	return nil
}

// setEnPassantFromFEN records s as the en-passant target when the side
// that just moved has a pawn right behind it that could have jumped over
// s and the side to act can capture there. The square the pawn came from
// is empty, or holds a man of the side that moved (a Cold Fusion pawn
// split off a compound leaves the rest of it there).
func (p *Position) setEnPassantFromFEN(s Square) {
	them := p.toAct.Other()
	fwd := mailboxWidth
	if them == Black {
		fwd = -fwd
	}
	victim := Square(int(s) + fwd)
	from := Square(int(s) - fwd)
	pc := p.board[victim]
	if pc.Color() != them || p.board[s] != NoPiece || p.board[from] != NoPiece && p.board[from].Color() != them {
		return
	}
	if t := pc.Type(); !p.v.c.pawnType[t] &&
		(int(p.v.c.doubleStep[them.index()][t]) != 2*fwd || p.v.relRank(from, them) != p.v.c.initialRank[t]) {
		return
	}
	if p.epCapturable(s, p.toAct) {
		p.ep, p.epVictim = s, victim
	}
}

// FEN returns the position in the FEN form that ParseFEN reads.
func (p *Position) FEN() string {
	v := p.v
	var b strings.Builder
	for r := v.Ranks - 1; r >= 0; r-- {
		empty := 0
		for f := 0; f < v.Files; f++ {
			pc := p.board[NewSquare(f, r)]
			if pc == NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteString(strconv.Itoa(empty))
				empty = 0
			}
			b.WriteByte(p.letter(pc))
			if pc.Promoted() {
				b.WriteByte('~')
			}
		}
		if empty > 0 {
			b.WriteString(strconv.Itoa(empty))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	if len(v.Drops.Slots) > 0 {
		b.WriteByte('[')
		p.writeSlots(&b)
		b.WriteByte(']')
	} else if v.Drops.Enabled {
		b.WriteByte('[')
		for _, c := range []Color{White, Black} {
			for t := len(v.Pieces); t >= 1; t-- {
				for n := 0; n < int(p.pocket[c.index()][t]); n++ {
					b.WriteByte(p.letter(NewPiece(c, PieceType(t))))
				}
			}
		}
		b.WriteByte(']')
	}
	b.WriteByte(' ')
	if p.toAct == White {
		b.WriteByte('w')
	} else {
		b.WriteByte('b')
	}
	if p.phase != 0 {
		b.WriteString(strconv.Itoa(int(p.phase)))
	}
	b.WriteByte(' ')
	if rights := p.CastlingRights(); rights != "" {
		b.WriteString(rights)
	} else {
		b.WriteByte('-')
	}
	b.WriteByte(' ')
	b.WriteString(p.ep.String())
	fmt.Fprintf(&b, " %d %d", p.halfmove, p.fullmove)
	if v.State != nil {
		if st := v.State.fen(p.state); st != "" {
			b.WriteByte(' ')
			b.WriteString(st)
		}
	}
	return b.String()
}

// letter returns the FEN letter of pc.
func (p *Position) letter(pc Piece) byte {
	l := p.v.Pieces[pc.Type()-1].Letter
	if pc.Color() == Black {
		l += 'a' - 'A'
	}
	return l
}

// String returns the FEN.
func (p Position) String() string { return p.FEN() }
