package notation

import (
	"strconv"

	"github.com/fairypost/fairypost/rules"
)

// specKind says which shape a friendly-form move has.
type specKind uint8

const (
	specPiece  specKind = iota // a piece or pawn moves: Nf3, exd5, e8=Q
	specCastle                 // O-O, O-O-O
	specDrop                   // N@e4
	specPass                   // pass
)

// spec is a friendly-form move taken apart: what SAN writes and what
// ParseSAN reads. The same matching rule (spec.matches) decides which legal
// moves a spec names when writing and when reading, so that whatever SAN
// writes, ParseSAN reads back.
type spec struct {
	kind specKind
	// piece is, for specPiece, the type named by an uppercase letter, or
	// NoPieceType for a pawn move written without a letter (any type with
	// PieceDef.Pawn); for specDrop it is the dropped type; for specCastle
	// the castling piece named by a letter before "O-O" ("QO-O"), or
	// NoPieceType for the royal piece's castling written without one.
	piece rules.PieceType
	// fromFile and fromRank are the disambiguation, counted from 0; -1
	// when not written.
	fromFile, fromRank int
	capture            bool // an 'x' is written
	to                 rules.Square
	promo              rules.PieceType
	place              rules.Square // specPiece: where the move also puts a piece ("@d8"), or NoSquare
	long               bool         // specCastle: toward the a-side (O-O-O)
	cont               bool         // the move continues the turn ('>')
}

// relax lists the conditions spec.matches leaves out.
type relax uint8

const (
	// relaxCapture ignores the 'x' mark: it is optional when reading, so
	// it never tells two moves apart.
	relaxCapture relax = 1 << iota
	// relaxPawnRule ignores that a pawn move written without a file is
	// not a capture.
	relaxPawnRule
	relaxPromo
	relaxCont
	relaxPlace
)

// matches reports whether s names the legal move m of p, leaving out the
// conditions in r.
func (s *spec) matches(p *rules.Position, m rules.Move, r relax) bool {
	if r&relaxCont == 0 && (m.Flags&rules.FlagContinue != 0) != s.cont {
		return false
	}
	switch s.kind {
	case specPass:
		return m.Kind == rules.KindPass
	case specDrop:
		// A drop onto a piece ("N@xe5") is no drop of the data, which
		// go onto empty squares: a variant's special move, if anything.
		return m.Kind == rules.KindDrop && m.Drop == s.piece && m.To == s.to && !s.capture
	case specCastle:
		if m.Kind != rules.KindCastle {
			return false
		}
		r, ok := castleRule(p, m)
		return ok && ruleSide(r) == s.side() && castlePiece(p.Variant(), r, s.piece)
	}
	if m.To != s.to || (m.Kind != rules.KindNormal && m.Kind != rules.KindEnPassant) {
		return false
	}
	if (s.fromFile >= 0 && m.From.File() != s.fromFile) || (s.fromRank >= 0 && m.From.Rank() != s.fromRank) {
		return false
	}
	t := p.At(m.From).Type()
	if t == rules.NoPieceType {
		return false
	}
	if s.piece == rules.NoPieceType {
		if !letterless(p.Variant(), t) {
			return false
		}
	} else if t != s.piece {
		return false
	}
	if r&relaxPromo == 0 && m.Promotion != s.promo {
		return false
	}
	if r&relaxPlace == 0 && m.Place() != s.place {
		return false
	}
	if r&relaxCapture == 0 && s.capture && !p.IsCapture(m) {
		return false
	}
	if r&relaxPawnRule == 0 && s.pawnPush() && p.IsCapture(m) {
		return false
	}
	return true
}

// pawnPush reports whether s is a pawn move written without a file and
// without 'x', which names a move that captures nothing (so "d5" never
// means "exd5").
func (s *spec) pawnPush() bool {
	return s.kind == specPiece && s.piece == rules.NoPieceType && s.fromFile < 0 && !s.capture
}

// side is +1 for O-O (toward the h-side) and -1 for O-O-O.
func (s *spec) side() int {
	if s.long {
		return -1
	}
	return 1
}

// body writes s without check marks and without the '>' mark.
func (s *spec) body(v *rules.Variant) string {
	switch s.kind {
	case specPass:
		return "pass"
	case specCastle:
		prefix := ""
		if s.piece != rules.NoPieceType {
			prefix = string(v.Def(s.piece).Letter)
		}
		if s.long {
			return prefix + "O-O-O"
		}
		return prefix + "O-O"
	case specDrop:
		if s.capture {
			return string(v.Def(s.piece).Letter) + "@x" + s.to.String()
		}
		return string(v.Def(s.piece).Letter) + "@" + s.to.String()
	}
	b := make([]byte, 0, 12)
	if s.piece != rules.NoPieceType {
		b = append(b, v.Def(s.piece).Letter)
	}
	if s.fromFile >= 0 {
		b = append(b, byte('a'+s.fromFile))
	}
	if s.fromRank >= 0 {
		b = strconv.AppendInt(b, int64(s.fromRank+1), 10)
	}
	if s.capture {
		b = append(b, 'x')
	}
	b = append(b, s.to.String()...)
	if s.promo != rules.NoPieceType {
		b = append(b, '=', v.Def(s.promo).Letter)
	}
	if s.place != rules.NoSquare {
		b = append(b, '@')
		b = append(b, s.place.String()...)
	}
	return string(b)
}

// text writes s as SAN writes it, without check marks.
func (s *spec) text(v *rules.Variant) string {
	if s.cont {
		return s.body(v) + ">"
	}
	return s.body(v)
}

// SAN returns the friendly form of the legal move m in p (see the package
// documentation): "Nf3", "exd5", "e8=Q+", "O-O", "N@e4", "pass", with
// check marks in variants with the check rule and a trailing '>' for a
// move that continues the turn. Moves of kind rules.KindSpecial are
// written as the variant's rules.Hooks.FriendlySpecial says; those it
// leaves to the canonical form, and moves the friendly form cannot name
// uniquely, are written in the canonical coordinate form
// (rules.FormatMove, special moves without check marks). A move that is not legal in p is
// written in the coordinate form too. SAN generates the legal moves of p
// once and plays m to find check marks; for many moves of one position use
// SANs.
func SAN(p *rules.Position, m rules.Move) string {
	return SANs(p, []rules.Move{m})[0]
}

// SANs returns SAN(p, m) for every m in moves, generating the legal moves
// of p only once (moves are still played one by one for the check marks).
func SANs(p *rules.Position, moves []rules.Move) []string {
	out := make([]string, len(moves))
	if len(moves) == 0 {
		return out
	}
	var buf [256]rules.Move
	legal := p.Legal(buf[:0])
	for i, m := range moves {
		out[i] = san(p, m, legal)
	}
	return out
}

// Line returns the friendly form of each of moves, a line played in
// order from p (each written in the position before it); it stops at the
// first move that cannot be played.
func Line(p rules.Position, moves []rules.Move) []string {
	out := make([]string, 0, len(moves))
	for _, m := range moves {
		out = append(out, SAN(&p, m))
		next, ok := p.After(m)
		if !ok {
			break
		}
		p = next
	}
	return out
}

// san is SAN with the legal moves of p given.
func san(p *rules.Position, m rules.Move, legal []rules.Move) string {
	if !contains(legal, m) {
		return rules.FormatMove(p, m)
	}
	if m.Kind == rules.KindSpecial {
		text := specialText(p, m)
		if text == "" {
			return rules.FormatMove(p, m)
		}
		if !hasContinuingTwin(m, legal) {
			text += checkMark(p, m)
		}
		if m.Flags&rules.FlagContinue != 0 {
			text += ">"
		}
		return text
	}
	s, ok := friendly(p, m, legal)
	if !ok {
		return rules.FormatMove(p, m)
	}
	text := s.body(p.Variant())
	if !hasContinuingTwin(m, legal) {
		text += checkMark(p, m)
	}
	if s.cont {
		text += ">"
	}
	return text
}

// friendly returns the spec SAN writes for the legal move m, or false when
// m is written in the coordinate form.
func friendly(p *rules.Position, m rules.Move, legal []rules.Move) (spec, bool) {
	s := spec{fromFile: -1, fromRank: -1, cont: m.Flags&rules.FlagContinue != 0}
	switch m.Kind {
	case rules.KindPass:
		s.kind = specPass
		return s, true
	case rules.KindDrop:
		s.kind, s.piece, s.to = specDrop, m.Drop, m.To
		return s, true
	case rules.KindCastle:
		side, piece, unique := castleName(p, m)
		if side == 0 || !unique {
			return s, false
		}
		s.kind, s.long, s.piece = specCastle, side < 0, piece
		return s, true
	case rules.KindNormal, rules.KindEnPassant:
	default:
		return s, false
	}
	v := p.Variant()
	t := p.At(m.From).Type()
	if t == rules.NoPieceType {
		return s, false
	}
	s.kind, s.to, s.promo, s.capture, s.place = specPiece, m.To, m.Promotion, p.IsCapture(m), m.Place()
	// Disambiguation levels, fewest characters first: none, file, rank,
	// both. A pawn's capture always names its file.
	levels := [][2]bool{{false, false}, {true, false}, {false, true}, {true, true}}
	if letterless(v, t) {
		levels = [][2]bool{{false, false}, {true, false}, {true, true}}
		if s.capture {
			levels = levels[1:]
		}
	} else {
		s.piece = t
	}
	for _, l := range levels {
		s.fromFile, s.fromRank = -1, -1
		if l[0] {
			s.fromFile = m.From.File()
		}
		if l[1] {
			s.fromRank = m.From.Rank()
		}
		if namesOnly(p, &s, m, legal) {
			return s, true
		}
	}
	return s, false
}

// namesOnly reports whether s, read as ParseSAN reads it ('x' optional),
// names m and no other legal move.
func namesOnly(p *rules.Position, s *spec, m rules.Move, legal []rules.Move) bool {
	if !s.matches(p, m, relaxCapture) {
		return false
	}
	for _, o := range legal {
		if o != m && o.To == m.To && s.matches(p, o, relaxCapture) {
			return false
		}
	}
	return true
}

// hasContinuingTwin reports whether m ends the turn and the same move
// continuing it (marked '>', rules.FlagContinue) is legal too: Winning
// Chess's Attacker step. Such a move is written without its check mark,
// so that "Af3+" never stands for one of two moves (players mark checks
// out of habit; the bot asks which of Af3 and Af3> a typed "Af3+" means).
func hasContinuingTwin(m rules.Move, legal []rules.Move) bool {
	if m.Flags&rules.FlagContinue != 0 {
		return false
	}
	twin := m
	twin.Flags |= rules.FlagContinue
	return contains(legal, twin)
}

// checkMark returns "+" when m gives check, "#" when it checkmates and ""
// otherwise, in variants with the check rule or a Check hook. Only a move
// that hands the turn to the opponent gives check: after a move that
// continues the turn (or the first part of a multi-part turn) the same
// player acts again. A pass never gives check: it moves nothing, so a
// check standing after it was given, and marked, by an earlier move
// (Winning Chess's Attacker step "Ad6+>" followed by the pass of the
// second step).
func checkMark(p *rules.Position, m rules.Move) string {
	if v := p.Variant(); m.Kind == rules.KindPass || !v.CheckRule && v.Hooks.Check == nil {
		return ""
	}
	after, ok := p.After(m) // m is one of p's legal moves (SAN's contract)
	if !ok || after.ToAct() == p.ToAct() || !after.InCheck() {
		return ""
	}
	if o := after.Outcome(); o.Over() && o.Reason == "checkmate" {
		return "#"
	}
	return "+"
}

// specialText returns the variant's friendly text of the special move m
// (rules.Hooks.FriendlySpecial), without marks, or "" when m is written in
// the canonical form.
func specialText(p *rules.Position, m rules.Move) string {
	if f := p.Variant().Hooks.FriendlySpecial; f != nil && m.Kind == rules.KindSpecial {
		return f(p, m)
	}
	return ""
}

// castleRule returns the castling rule of the variant that describes the
// castling move m of p.
func castleRule(p *rules.Position, m rules.Move) (rules.CastlingRule, bool) {
	from, to := m.From.String(), m.To.String()
	for _, r := range p.Variant().Castling {
		if r.Color == p.Mover() && r.PieceFrom == from && r.PieceTo == to {
			return r, true
		}
	}
	return rules.CastlingRule{}, false
}

// castlePiece reports whether the castling piece of rule r is the one a
// castling spec names with piece: the royal piece for NoPieceType (no
// letter before "O-O"), else the piece of that type.
func castlePiece(v *rules.Variant, r rules.CastlingRule, piece rules.PieceType) bool {
	t := v.Type(r.Piece)
	if piece == rules.NoPieceType {
		return t != rules.NoPieceType && v.Def(t).Royal
	}
	return t == piece
}

// castleName returns how the friendly form names the castling move m:
// side is its direction, +1 when the castling piece moves toward the
// h-side (higher files), -1 toward the a-side, 0 when no castling rule of
// the variant describes m (a castling piece that stays put goes by the
// rook's side); piece is the castling piece written before "O-O", or
// NoPieceType for the royal piece, which is written without a letter.
// unique reports whether m's rule is the only one of its side, direction
// and castling piece, which the friendly form needs.
func castleName(p *rules.Position, m rules.Move) (side int, piece rules.PieceType, unique bool) {
	r, ok := castleRule(p, m)
	if !ok {
		return 0, rules.NoPieceType, false
	}
	v := p.Variant()
	side = ruleSide(r)
	if t := v.Type(r.Piece); t != rules.NoPieceType && !v.Def(t).Royal {
		piece = t
	}
	n := 0
	for _, o := range v.Castling {
		if o.Color == r.Color && o.Piece == r.Piece && ruleSide(o) == side {
			n++
		}
	}
	return side, piece, n == 1
}

// ruleSide is the direction of castling rule r (see castleName).
func ruleSide(r rules.CastlingRule) int {
	pf, err1 := rules.ParseSquare(r.PieceFrom)
	pt, err2 := rules.ParseSquare(r.PieceTo)
	rf, err3 := rules.ParseSquare(r.RookFrom)
	if err1 != nil || err2 != nil || err3 != nil {
		return 0
	}
	d := pt.File() - pf.File()
	if d == 0 {
		d = rf.File() - pf.File()
	}
	switch {
	case d > 0:
		return 1
	case d < 0:
		return -1
	}
	return 0
}

func contains(moves []rules.Move, m rules.Move) bool {
	for _, o := range moves {
		if o == m {
			return true
		}
	}
	return false
}

// letterless reports whether pieces of type t are written without a
// letter: pawns, except the further kinds of pawn marked LetterInSAN.
func letterless(v *rules.Variant, t rules.PieceType) bool {
	d := v.Def(t)
	return d.Pawn && !d.LetterInSAN
}
