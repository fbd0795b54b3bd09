package notation

import (
	"errors"
	"fmt"
	"strings"

	"github.com/fairypost/fairypost/rules"
)

// ErrAmbiguousMove is wrapped by the errors of ParseSAN and ParseMove for
// well-formed text that names more than one legal move: "Nd2" when two
// knights can go to d2, "e8" when the pawn must choose what it becomes.
// The message lists the candidates in SAN.
var ErrAmbiguousMove = errors.New("ambiguous move")

// maxMoveLen bounds the text ParseSAN reads; no move is longer.
const maxMoveLen = 24

// Reasons for unreadable text that ParseMove words differently.
const (
	reasonEmpty = "no move given"
	reasonShape = "expected a move like Nf3, exd5, e8=Q, O-O or N@e4 (a destination square like e4 at the end)"
)

// moveError is the error of ParseSAN and ParseMove: one line saying what
// was read and what is wrong with it.
type moveError struct {
	kind   error  // rules.ErrBadMove, rules.ErrIllegalMove or ErrAmbiguousMove
	move   string // the text (quoted when unreadable) or the move as read
	reason string
	// read says that the text was read as another text (move), whose
	// reason this is: no suggestion is added to it.
	read bool
}

func (e *moveError) Error() string {
	if e.kind == rules.ErrBadMove {
		return fmt.Sprintf("%v: %q: %s", e.kind, e.move, e.reason)
	}
	return fmt.Sprintf("%v: %s: %s", e.kind, e.move, e.reason)
}

func (e *moveError) Unwrap() error { return e.kind }

// ParseSAN reads a friendly-form move and returns the legal move of p it
// names. It is tolerant (see the package documentation): check marks and
// annotations, 'x', '=' and more disambiguation than needed are optional.
// Text that is not a friendly-form move gives an error wrapping
// rules.ErrBadMove; a well-formed move that is not legal one wrapping
// rules.ErrIllegalMove, saying why; text that names several legal moves
// one wrapping ErrAmbiguousMove, listing them. ParseSAN reads back every
// string SAN writes, including the coordinate forms SAN falls back to.
func ParseSAN(p *rules.Position, s string) (rules.Move, error) {
	s = figurines(p.Variant(), s)
	var buf [256]rules.Move
	m, err := parseSAN(p, s, p.Legal(buf[:0]), true)
	if err != nil {
		return rules.Move{}, err
	}
	return m, nil
}

// ParseMove reads a move in either form, the canonical coordinate form
// (rules.ParseMove: "g1f3", "e7e8q", "P@e4") or the friendly form
// (ParseSAN: "Nf3", "e8=Q", "N@e4"), and returns the legal move of p it
// names. Text that is neither gives an error wrapping rules.ErrBadMove
// that says so; a well-formed move that is not legal gives one wrapping
// rules.ErrIllegalMove that says why (for text that is a well-formed
// coordinate move, the reason rules.ParseMove gives); text that names
// several moves gives one wrapping ErrAmbiguousMove.
func ParseMove(p *rules.Position, s string) (rules.Move, error) {
	s = figurines(p.Variant(), s)
	m, cerr := rules.ParseMove(p, s)
	if cerr == nil {
		return m, nil
	}
	var buf [256]rules.Move
	legal := p.Legal(buf[:0])
	m, serr := parseSAN(p, s, legal, true)
	switch {
	case serr == nil:
		return m, nil
	case errors.Is(cerr, rules.ErrIllegalMove) && len(legal) == 0:
		// rules.ParseMove explains a move after checkmate or stalemate as
		// if the game went on ("it would leave the king in check").
		return rules.Move{}, explain(p, legal, nil, strings.TrimSpace(s))
	case errors.Is(cerr, rules.ErrIllegalMove):
		// Text in both forms ("N@e4"): the friendly reading says the same
		// and may add a suggestion.
		_, reason, _ := strings.Cut(strings.TrimPrefix(cerr.Error(), rules.ErrIllegalMove.Error()+": "), ": ")
		if serr.kind == rules.ErrIllegalMove && reason != "" && strings.HasPrefix(serr.reason, reason) {
			return rules.Move{}, serr
		}
		return rules.Move{}, cerr
	case serr.kind == rules.ErrBadMove && serr.reason == reasonEmpty:
		return rules.Move{}, serr
	case serr.kind == rules.ErrBadMove && serr.reason == reasonShape:
		return rules.Move{}, &moveError{kind: rules.ErrBadMove, move: s,
			reason: "neither a coordinate move (e2e4, e7e8q, P@e4, pass) nor SAN (Nf3, exd5, e8=Q, O-O, N@e4)"}
	case serr.kind == rules.ErrBadMove:
		return rules.Move{}, &moveError{kind: rules.ErrBadMove, move: s,
			reason: "neither a coordinate move nor SAN: " + serr.reason}
	}
	return rules.Move{}, serr
}

// parseSAN is ParseSAN with the legal moves of p given. hint asks for a
// suggestion when a lowercase piece letter was probably meant as a piece.
func parseSAN(p *rules.Position, text string, legal []rules.Move, hint bool) (rules.Move, *moveError) {
	if m, ok := special(p, text, legal); ok {
		return m, nil
	}
	if m, ok := specialOtherMark(p, text, legal); ok {
		// "D~K>" where the swap ends the turn: readable, not allowed so.
		err := &moveError{kind: rules.ErrIllegalMove, move: strings.TrimSpace(text),
			reason: "this move does not continue the turn here: write " + san(p, m, legal)}
		if m.Flags&rules.FlagContinue != 0 {
			err.reason = "this move continues the turn here: write " + san(p, m, legal)
		}
		if hint {
			improve(p, text, legal, nil, err)
		}
		return rules.Move{}, err
	}
	sp, shown, err := readSpec(p.Variant(), text)
	if err == nil {
		found := filter(p, legal, &sp, 0)
		switch len(found) {
		case 1:
			return found[0], nil
		case 0:
		default:
			return rules.Move{}, &moveError{kind: ErrAmbiguousMove, move: shown, reason: "it could be " + orList(p, legal, found)}
		}
	}
	if m, ok := coordinate(p, text, legal); ok {
		if _, named := friendly(p, m, legal); !named {
			return m, nil
		}
		if err == nil || err.kind == rules.ErrBadMove {
			return rules.Move{}, &moveError{kind: rules.ErrBadMove, move: text,
				reason: "that is the coordinate form; in SAN the move is " + san(p, m, legal)}
		}
	}
	var read *spec
	if err == nil {
		err, read = explain(p, legal, &sp, shown), &sp
	}
	if hint {
		caseHint(p, text, legal, err)
		improve(p, text, legal, read, err)
	}
	return rules.Move{}, err
}

// special returns the special move of legal whose text is exactly text:
// its friendly text (rules.Hooks.FriendlySpecial), which may be followed
// by check marks and annotations and must be followed by '>' when the move
// continues the turn, or its canonical form (Hooks.FormatSpecial). Both
// are the variant's own and may contain anything, so they are matched
// whole and case-sensitively before the text is taken apart.
func special(p *rules.Position, text string, legal []rules.Move) (rules.Move, bool) {
	exact := strings.TrimSpace(text)
	if exact == "" {
		return rules.Move{}, false
	}
	var cont bool
	body := stripMarks(exact, &cont)
	for _, m := range legal {
		if m.Kind != rules.KindSpecial {
			continue
		}
		if t := specialText(p, m); t != "" && t == body && cont == (m.Flags&rules.FlagContinue != 0) {
			return m, true
		}
	}
	for _, m := range legal {
		if m.Kind == rules.KindSpecial && rules.FormatMove(p, m) == exact {
			return m, true
		}
	}
	return rules.Move{}, false
}

// specialOtherMark returns the legal special move whose friendly text is
// text's (marks aside) but which takes the other '>' mark: text marks it
// as continuing the turn and it ends it, or the reverse.
func specialOtherMark(p *rules.Position, text string, legal []rules.Move) (rules.Move, bool) {
	var cont bool
	body := stripMarks(strings.TrimSpace(text), &cont)
	if body == "" {
		return rules.Move{}, false
	}
	for _, m := range legal {
		if m.Kind == rules.KindSpecial && cont != (m.Flags&rules.FlagContinue != 0) {
			if t := specialText(p, m); t != "" && t == body {
				return m, true
			}
		}
	}
	return rules.Move{}, false
}

// filter returns the moves of legal that sp names, leaving out the
// conditions in r.
func filter(p *rules.Position, legal []rules.Move, sp *spec, r relax) []rules.Move {
	var out []rules.Move
	for _, m := range legal {
		if sp.matches(p, m, r) {
			out = append(out, m)
		}
	}
	return out
}

// coordinate reads text, without check marks, as the coordinate form of
// a legal move. ParseSAN accepts it for moves that SAN writes in that form
// (special moves, a castling the friendly form cannot name), so that it
// reads back everything SAN writes.
func coordinate(p *rules.Position, text string, legal []rules.Move) (rules.Move, bool) {
	var cont bool
	s := stripMarks(strings.Join(strings.Fields(text), ""), &cont)
	if s == "" || len(s) > maxMoveLen {
		return rules.Move{}, false
	}
	if cont {
		s += ">"
	}
	m, err := rules.ParseMove(p, s)
	return m, err == nil
}

// caseHint adds a suggestion to err when text starts with the lowercase
// letter of a piece (read as a file, as SAN does) and the same text with
// that letter in uppercase is a legal move.
func caseHint(p *rules.Position, text string, legal []rules.Move, err *moveError) {
	s := strings.TrimSpace(text)
	if s == "" || s[0] < 'a' || s[0] > 'z' || (len(s) > 1 && s[1] == '@') {
		return
	}
	v := p.Variant()
	if t := v.Type(s[0]); t == rules.NoPieceType || letterless(v, t) {
		return
	}
	m, e := parseSAN(p, string(s[0]-('a'-'A'))+s[1:], legal, false)
	if e != nil {
		if e.kind == rules.ErrIllegalMove && err.kind == rules.ErrBadMove && strings.Contains(err.reason, "uppercase") {
			// "kf7" cannot be anything but "Kf7", which is not legal:
			// say why.
			err.kind, err.move, err.read = rules.ErrIllegalMove, e.move, true
			err.reason = fmt.Sprintf("%s (piece letters are uppercase: %s is read as %s)", e.reason, s, e.move)
		}
		return
	}
	if strings.Contains(err.reason, "uppercase") {
		err.reason += fmt.Sprintf(" (did you mean %s?)", san(p, m, legal))
		return
	}
	err.reason += fmt.Sprintf(" (piece letters are uppercase: did you mean %s?)", san(p, m, legal))
}

// readSpec takes text apart as a friendly-form move of v. It returns the
// move as read, for messages (without check marks and spaces), and an
// error for text that is not a friendly-form move (rules.ErrBadMove) or
// names a piece or square v does not have (rules.ErrIllegalMove).
func readSpec(v *rules.Variant, text string) (sp spec, shown string, err *moveError) {
	sp = spec{fromFile: -1, fromRank: -1}
	bad := func(format string, args ...any) (spec, string, *moveError) {
		return sp, "", &moveError{kind: rules.ErrBadMove, move: text, reason: fmt.Sprintf(format, args...)}
	}
	s := strings.Join(strings.Fields(text), "")
	if s == "" {
		return bad(reasonEmpty)
	}
	if len(s) > maxMoveLen {
		return bad("too long for a move")
	}
	s = strings.ReplaceAll(s, "×", "x")
	s = stripMarks(s, &sp.cont)
	if t, ok := strings.CutSuffix(s, "e.p."); ok {
		s = stripMarks(t, &sp.cont)
	}
	if s == "" {
		return bad("no move before the marks")
	}
	shown = s
	if sp.cont {
		shown += ">"
	}
	illegal := func(format string, args ...any) (spec, string, *moveError) {
		return sp, shown, &moveError{kind: rules.ErrIllegalMove, move: shown, reason: fmt.Sprintf(format, args...)}
	}
	switch strings.ToLower(s) {
	case "pass", "--", "0000":
		sp.kind = specPass
		return sp, shown, nil
	}
	if side := castleText(s); side != 0 {
		sp.kind, sp.long = specCastle, side < 0
		return sp, shown, nil
	}
	if side := castleText(s[1:]); side != 0 && isLetter(s[0]) {
		// A castling named by its piece: "QO-O".
		sp.kind, sp.long = specCastle, side < 0
		if sp.piece = v.Type(s[0]); sp.piece == rules.NoPieceType {
			return illegal("%s", notAPiece(v, s[0]))
		}
		return sp, shown, nil
	}
	if len(s) > 1 && s[1] == '@' {
		sp.kind = specDrop
		if !isLetter(s[0]) {
			return bad("%q is not a piece letter", s[:1])
		}
		sq := s[2:]
		if len(sq) > 2 && (sq[0] == 'x' || sq[0] == ':') {
			// A drop onto a piece, capturing it ("N@xe5"): read, so that
			// the error says why it is not legal here.
			sp.capture, sq = true, sq[1:]
		}
		to, e := rules.ParseSquare(sq)
		if e != nil {
			return bad("%q is not a square (%s)", sq, squareForm(v))
		}
		if sp.piece, sp.to = v.Type(s[0]), to; sp.piece == rules.NoPieceType {
			return illegal("%s", notAPiece(v, s[0]))
		}
		if !v.OnBoard(to) {
			return illegal("%s", offBoard(v, to.String()))
		}
		return sp, shown, nil
	}

	// A piece or pawn move: [letter][file][rank][x]square[[=]promotion][@square].
	sp.kind = specPiece
	if i := strings.LastIndexByte(s, '@'); i > 1 {
		place, e := rules.ParseSquare(s[i+1:])
		if e != nil {
			return bad("%q is not a square (after '@' comes the square where the move puts a piece, like Bxd5@d8)", s[i+1:])
		}
		if !v.OnBoard(place) {
			return illegal("%s", offBoard(v, place.String()))
		}
		sp.place, s = place, s[:i]
	}
	var promo byte
	if n := len(s); n >= 3 && isLetter(s[n-1]) {
		body := s[:n-1]
		if c := body[len(body)-1]; c == '=' || c == '/' {
			body = body[:len(body)-1]
		}
		if body != "" && isDigit(body[len(body)-1]) {
			promo, s = s[n-1], body
		}
	} else if n >= 4 && s[n-1] == ')' && s[n-3] == '(' && isLetter(s[n-2]) && isDigit(s[n-4]) {
		promo, s = s[n-2], s[:n-3]
	}
	i := len(s)
	for i > 0 && isDigit(s[i-1]) {
		i--
	}
	if i == len(s) || i == 0 || !isLetter(s[i-1]) {
		return bad(reasonShape)
	}
	if s[i-1] < 'a' || s[i-1] > 'l' {
		if s[i-1] >= 'a' && s[i-1] <= 'z' {
			return bad("%s", offBoard(v, s[i-1:]))
		}
		return bad(reasonShape)
	}
	r, ok := rankOf(s[i:])
	if !ok {
		return bad("%s", offBoard(v, s[i-1:]))
	}
	sp.to = rules.NewSquare(int(s[i-1]-'a'), r)
	prefix := s[:i-1]
	if n := len(prefix); n > 0 {
		switch prefix[n-1] {
		case 'x', ':':
			sp.capture = true
			prefix = prefix[:n-1]
		case '-':
			prefix = prefix[:n-1]
		}
	}
	var letter byte
	if prefix != "" && prefix[0] >= 'A' && prefix[0] <= 'Z' {
		letter, prefix = prefix[0], prefix[1:]
	}
	if prefix != "" && prefix[0] >= 'a' && int(prefix[0]-'a') < v.Files {
		sp.fromFile, prefix = int(prefix[0]-'a'), prefix[1:]
	}
	if prefix != "" {
		if sp.fromRank, ok = rankOf(prefix); !ok {
			if c := prefix[0]; letter == 0 && c >= 'a' && c <= 'z' && v.Type(c) != rules.NoPieceType {
				return bad("piece letters are uppercase: %c, not %c", upper(c), c)
			}
			return bad("unexpected %q before the destination square", prefix)
		}
	}
	if letter != 0 {
		if sp.piece = v.Type(letter); sp.piece == rules.NoPieceType {
			return illegal("%s", notAPiece(v, letter))
		}
	}
	if promo != 0 {
		if sp.promo = v.Type(promo); sp.promo == rules.NoPieceType {
			return illegal("%s", notAPiece(v, promo))
		}
	}
	if !v.OnBoard(sp.to) {
		return illegal("%s", offBoard(v, sp.to.String()))
	}
	return sp, shown, nil
}

// squareForm says how a square of v is written: "a file a-h and a rank
// 1-8, like e4".
func squareForm(v *rules.Variant) string {
	return fmt.Sprintf("a file a-%c and a rank 1-%d, like e4", 'a'+v.Files-1, v.Ranks)
}

// offBoard says that the square written sq is not on v's board.
func offBoard(v *rules.Variant, sq string) string {
	return fmt.Sprintf("%s is not a square of the %dx%d board (%s)", sq, v.Files, v.Ranks, squareForm(v))
}

// notAPiece says that the letter c is no piece's letter in v, and which
// piece it probably stands for: "M is not a piece of Grand Chess: its
// Marshal is written C".
func notAPiece(v *rules.Variant, c byte) string {
	s := fmt.Sprintf("%c is not a piece of %s", upper(c), v.Name)
	if d, ok := namedBy(v, c); ok {
		s += fmt.Sprintf(": its %s is written %c", d.Name, d.Letter)
	}
	return s
}

// stripMarks removes check marks, annotations and the '>' mark from the
// end of s, and sets *cont when a '>' was among them.
func stripMarks(s string, cont *bool) string {
	for s != "" {
		switch s[len(s)-1] {
		case '>':
			*cont = true
		case '+', '#', '!', '?':
		default:
			return s
		}
		s = s[:len(s)-1]
	}
	return s
}

// castleText returns +1 for "O-O", -1 for "O-O-O" (either written with
// the letter O in either case or with zeros) and 0 for anything else.
func castleText(s string) int {
	var b [5]byte
	if len(s) != 3 && len(s) != 5 {
		return 0
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case i%2 == 1 && c == '-':
			b[i] = '-'
		case i%2 == 0 && (c == 'O' || c == 'o' || c == '0'):
			b[i] = 'O'
		default:
			return 0
		}
	}
	if len(s) == 5 {
		return -1
	}
	return 1
}

// rankOf reads a rank number 1..12 without leading zeros and returns it
// counted from 0.
func rankOf(s string) (int, bool) {
	if s == "" || len(s) > 2 || s[0] == '0' {
		return 0, false
	}
	r := 0
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return 0, false
		}
		r = r*10 + int(s[i]-'0')
	}
	if r > rules.MaxRanks {
		return 0, false
	}
	return r - 1, true
}

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// orList writes moves in SAN as "A", "A or B", "A, B or C" (at most ten,
// then how many more).
func orList(p *rules.Position, legal []rules.Move, moves []rules.Move) string {
	const most = 10
	var names []string
	for i, m := range moves {
		if i == most {
			names[len(names)-1] += fmt.Sprintf(" (and %d more)", len(moves)-most)
			break
		}
		names = append(names, san(p, m, legal))
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// figurineNames are the pieces the chess figurines stand for, White's and
// Black's alike.
var figurineNames = map[rune]string{
	'♔': "King", '♕': "Queen", '♖': "Rook", '♗': "Bishop", '♘': "Knight", '♙': "Pawn",
	'♚': "King", '♛': "Queen", '♜': "Rook", '♝': "Bishop", '♞': "Knight", '♟': "Pawn",
}

// figurines returns text with every chess figurine (♘, ♞...) replaced by
// the letter of v's piece of that name ("♞c6" is "Nc6"), or by the
// English letter when v has no piece of that name, so that the message
// names the piece. A pawn's figurine before its destination is dropped
// (pawn moves have no letter); before '@' it is the pawn's letter.
func figurines(v *rules.Variant, text string) string {
	if !strings.ContainsFunc(text, func(r rune) bool { _, ok := figurineNames[r]; return ok }) {
		return text
	}
	var b strings.Builder
	rs := []rune(text)
	for i, r := range rs {
		name, ok := figurineNames[r]
		if !ok {
			b.WriteRune(r)
			continue
		}
		letter := name[0]
		if name == "Knight" {
			letter = 'N'
		}
		for _, d := range v.Pieces {
			if d.Name == name {
				letter = d.Letter
				break
			}
		}
		if name == "Pawn" && (i+1 >= len(rs) || rs[i+1] != '@') {
			if t := v.Type(letter); t == rules.NoPieceType || letterless(v, t) {
				continue
			}
		}
		b.WriteByte(letter)
	}
	return b.String()
}
