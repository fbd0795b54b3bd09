package rules

import (
	"errors"
	"fmt"
	"strings"
)

// ErrBadMove is wrapped by errors for move text that is not a move at all.
var ErrBadMove = errors.New("unreadable move")

// FormatMove returns the canonical coordinate form of m in p: "e2e4",
// "e7e8q" (promotion letter lowercase), "P@e4" (drop, letter uppercase),
// "e1g1" (castling: the castling piece's squares), "pass", each with a
// trailing '>' when the move continues the player's turn. A move that also
// puts a piece on a square (Move.Place) adds '@' and the square: "c4d5@d8",
// "e7d8q@a8". The form is unique among the legal moves of p and ParseMove
// reads it back.
func FormatMove(p *Position, m Move) string {
	var s string
	switch m.Kind {
	case KindPass:
		s = "pass"
	case KindSpecial:
		if p.v.Hooks.FormatSpecial != nil {
			s = p.v.Hooks.FormatSpecial(p, m)
			break
		}
		s = m.From.String() + m.To.String() + fmt.Sprintf("#%d", m.Extra)
	case KindDrop:
		if m.Drop == NoPieceType || int(m.Drop) > len(p.v.Pieces) {
			return "?"
		}
		s = string(p.v.Pieces[m.Drop-1].Letter) + "@" + m.To.String()
	default:
		s = m.From.String() + m.To.String()
		if m.Promotion != NoPieceType && int(m.Promotion) <= len(p.v.Pieces) {
			s += string(p.v.Pieces[m.Promotion-1].Letter + ('a' - 'A'))
		}
		if pl := m.Place(); pl != NoSquare {
			s += "@" + pl.String()
		}
	}
	if m.Flags&FlagContinue != 0 {
		s += ">"
	}
	return s
}

// ParseMove reads a move in canonical coordinate form (see FormatMove) and
// returns the legal move of p it names. Text that is not a coordinate move
// gives an error wrapping ErrBadMove; a well-formed move that is not legal
// gives an error wrapping ErrIllegalMove that says why.
func ParseMove(p *Position, text string) (Move, error) {
	s := strings.TrimSpace(text)
	if s == "0000" {
		s = "pass"
	}
	var buf [256]Move
	legal := p.Legal(buf[:0])
	for _, m := range legal {
		if FormatMove(p, m) == s {
			return m, nil // exact text, including variant-defined special forms
		}
	}
	norm := normalizeCoord(s)
	if err := checkCoordSyntax(norm); err != nil {
		return Move{}, fmt.Errorf("%w: %q: %v", ErrBadMove, text, err)
	}
	for _, m := range legal {
		if FormatMove(p, m) == norm {
			return m, nil
		}
	}
	return Move{}, fmt.Errorf("%w: %s: %s", ErrIllegalMove, norm, p.whyIllegal(norm))
}

// checkCoordSyntax accepts "pass", "X@sq" and "sqsq[x][@sq]" with an
// optional trailing '>' or "#n" (a variant's tag, which the drop form may
// carry too: "Q@e4#d").
func checkCoordSyntax(s string) error {
	s = strings.TrimSuffix(s, ">")
	if s == "pass" {
		return nil
	}
	if len(s) >= 4 && s[1] == '@' {
		if l := s[0] | 0x20; l < 'a' || l > 'z' {
			return fmt.Errorf("%q is not a piece letter", s[0])
		}
		sq := s[2:]
		if i := strings.IndexByte(sq, '#'); i >= 0 {
			sq = sq[:i] // a variant's tag ("Q@e4#d")
		}
		if _, err := ParseSquare(sq); err != nil {
			return err
		}
		return nil
	}
	from, n := scanSquare(s)
	if n == 0 || from == NoSquare {
		return fmt.Errorf("expected a square like e2 at the start, a drop like N@e4, or pass")
	}
	_, k := scanSquare(s[n:])
	if k == 0 {
		return fmt.Errorf("expected a destination square after %s", s[:n])
	}
	rest := s[n+k:]
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.IndexByte(rest, '@'); i >= 0 {
		if _, err := ParseSquare(rest[i+1:]); err != nil {
			return fmt.Errorf("expected a square after '@' (where the move puts a piece, like c4d5@d8)")
		}
		rest = rest[:i]
	}
	if len(rest) > 1 || (len(rest) == 1 && (rest[0]|0x20 < 'a' || rest[0]|0x20 > 'z')) {
		return fmt.Errorf("unexpected %q after the squares (a promotion is one letter, like e7e8q)", rest)
	}
	return nil
}

// normalizeCoord puts the letter case of a syntactically valid coordinate
// move into canonical form.
func normalizeCoord(s string) string {
	if len(s) >= 2 && s[1] == '@' {
		return strings.ToUpper(s[:1]) + strings.ToLower(s[1:])
	}
	return strings.ToLower(s)
}

// whyIllegal explains, for people, why the canonical text norm is not a
// legal move in p.
func (p *Position) whyIllegal(norm string) string {
	if o := p.Outcome(); o.Over() {
		return "the game is over (" + string(o.Reason) + ")"
	}
	if f := p.v.Hooks.ExplainText; f != nil {
		if r := f(p, norm); r != "" {
			return r
		}
	}
	if i := strings.IndexByte(norm, '@'); i > 1 {
		// A move that also puts a piece somewhere ("c4d5@d8").
		base, where := norm[:i], norm[i+1:]
		if w, ok := strings.CutSuffix(where, ">"); ok {
			base, where = base+">", w
		}
		var buf [256]Move
		var places, plain bool
		for _, m := range p.Legal(buf[:0]) {
			b := m
			b.Extra = 0
			if m.Kind != KindSpecial && FormatMove(p, b) == base {
				places = places || m.Place() != NoSquare
				plain = true
			}
		}
		switch {
		case places:
			return "this move cannot put a piece on " + where
		case plain:
			return "this move puts no piece anywhere (write " + base + ")"
		}
		norm = base
	}
	if len(norm) > 1 && norm[1] == '@' {
		if !p.v.Drops.Enabled && len(p.v.Drops.Slots) == 0 {
			return "this variant has no drops"
		}
		t := p.v.Type(norm[0])
		if t == NoPieceType {
			return fmt.Sprintf("%c is not a piece of %s", norm[0], p.v.Name)
		}
		if p.Pocket(p.mover, t) == 0 {
			return fmt.Sprintf("%s has no %s in hand", p.mover.Name(), p.v.Pieces[t-1].Name)
		}
		return p.whyNoDrop(norm, t)
	}
	if strings.HasPrefix(norm, "pass") {
		return "passing is not allowed here"
	}
	from, _ := scanSquare(norm)
	if !p.v.OnBoard(from) {
		return from.String() + " is not on the board"
	}
	pc := p.board[from]
	switch {
	case pc == NoPiece:
		return "there is no piece on " + from.String()
	case pc.Color() != p.mover:
		return fmt.Sprintf("the %s on %s is not %s's", p.v.Pieces[pc.Type()-1].Name, from, p.mover.Name())
	}
	var buf [256]Move
	for _, m := range p.pseudoLegal(buf[:0]) {
		if FormatMove(p, m) == norm {
			return p.whyRefused(m)
		}
	}
	to, n := scanSquare(norm)
	if n > 0 {
		to, _ = scanSquare(norm[n:])
	}
	name := p.v.Pieces[pc.Type()-1].Name
	if p.v.c.pawnType[pc.Type()] && p.v.Promotion.Zone > 0 && p.v.relRank(to, p.mover) >= p.v.Ranks-p.v.Promotion.Zone {
		return fmt.Sprintf("the %s on %s cannot go to %s that way (check the promotion letter)", name, from, to)
	}
	if held := p.board[to]; p.v.OnBoard(to) && held != NoPiece && held.Color() == pc.Color() {
		return fmt.Sprintf("the %s on %s cannot move to %s, which holds a %s %s", name, from, to, held.Color().Name(), p.v.Pieces[held.Type()-1].Name)
	}
	return fmt.Sprintf("the %s on %s cannot move to %s", name, from, to)
}

// whyRefused explains why the pseudo-legal move m of p is not legal: the
// variant's Refusal hook, else the check rule.
func (p *Position) whyRefused(m Move) string {
	if f := p.v.Hooks.Refusal; f != nil {
		if r := f(p, m); r != "" {
			return r
		}
	}
	if p.v.CheckRule {
		return "it would leave the king in check"
	}
	return "the variant's rules forbid it here"
}

// whyNoDrop explains why the drop norm ("N@e4") of a piece of type t,
// which the player to act holds, is not legal in p: the square is taken,
// the piece may not land on that rank, no piece of the dropper attacks
// the square (Drops.OnlyAttacked), or the drop leaves the king in check.
func (p *Position) whyNoDrop(norm string, t PieceType) string {
	name := p.v.Pieces[t-1].Name
	to, err := ParseSquare(strings.TrimSuffix(norm[2:], ">"))
	if err != nil || !p.v.OnBoard(to) {
		return "a " + name + " may not be dropped there"
	}
	if pc := p.board[to]; pc != NoPiece {
		return fmt.Sprintf("%s is taken by a %s %s: a piece is dropped only on an empty square",
			to, pc.Color().Name(), p.v.Pieces[pc.Type()-1].Name)
	}
	if p.v.c.noDrop[p.mover.index()][t][p.v.relRank(to, p.mover)] {
		return fmt.Sprintf("a %s may not be dropped on rank %d", name, to.Rank()+1)
	}
	if p.v.Drops.OnlyAttacked && !p.attacked(to, p.mover) {
		return fmt.Sprintf("a piece is dropped only on a square one of your pieces attacks, and no %s piece attacks %s", p.mover.Name(), to)
	}
	var buf [256]Move
	for _, m := range p.pseudoLegal(buf[:0]) {
		if m.Kind == KindDrop && m.Drop == t && m.To == to {
			return p.whyRefused(m)
		}
	}
	return "a " + name + " may not be dropped there"
}

// PieceRefusal says for people why the piece on from may not move at all
// now, wherever it would go: the variant's Immobile hook says so, or the
// data's rules give the piece moves (piece moves and castlings; drops and
// special moves aside) and the variant's Legal hook refuses every one of
// them for the one reason its Refusal hook gives ("only a Defender may
// answer the Attacker now"). It returns "" otherwise: a move of the piece
// passes the Legal hook (the check rule aside), the data gives it no move,
// or its moves are refused for different reasons. Only error messages use
// it.
func (p *Position) PieceRefusal(from Square) string {
	if f := p.v.Hooks.Immobile; f != nil && p.v.OnBoard(from) {
		if r := f(p, from); r != "" {
			return r
		}
	}
	legal, refusal := p.v.Hooks.Legal, p.v.Hooks.Refusal
	if legal == nil || refusal == nil || !p.v.OnBoard(from) || p.board[from] == NoPiece {
		return ""
	}
	var buf [256]Move
	var after Position
	reason := ""
	for _, m := range p.pseudoLegal(buf[:0]) {
		if m.From != from || (m.Kind != KindNormal && m.Kind != KindEnPassant && m.Kind != KindCastle) {
			continue // a variant's special move is not what a piece move names
		}
		p.playInto(m, &after)
		if legal(p, &after, m) {
			return ""
		}
		r := refusal(p, m)
		if r == "" || (reason != "" && r != reason) {
			return ""
		}
		reason = r
	}
	return reason
}
