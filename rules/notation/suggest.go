package notation

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fairypost/fairypost/rules"
)

// improve makes err, the error of text that names no legal move of p,
// tell the player more, asking only the variant's data and hooks: the
// variant's own reason (rules.Hooks.ExplainText) replaces a generic one,
// an unreadable move gets examples written as moves are written here, and
// a reason without a suggestion gets the legal moves whose friendly form
// is close to text ("did you mean ...?", see nearMoves). sp is the text
// taken apart, or nil when it could not be.
func improve(p *rules.Position, text string, legal []rules.Move, sp *spec, err *moveError) {
	if err.kind == ErrAmbiguousMove || len(legal) == 0 {
		return
	}
	trimmed := strings.TrimSpace(text)
	if f := p.Variant().Hooks.ExplainText; f != nil {
		if r := f(p, trimmed); r != "" {
			if err.kind == rules.ErrBadMove {
				err.move = trimmed
			}
			err.kind, err.reason = rules.ErrIllegalMove, r
		}
	}
	if err.kind == rules.ErrBadMove && err.reason == reasonShape {
		err.reason = "expected a move like " + examples(p, legal)
	}
	if err.read || strings.Contains(err.reason, "did you mean") || strings.Contains(err.reason, "write ") {
		return
	}
	if near := nearMoves(p, text, legal, sp); len(near) > 0 {
		err.reason += fmt.Sprintf(" (did you mean %s?)", orList(p, legal, near))
	}
}

// nearMoves returns the legal moves of p that text, which names none of
// them, probably meant, closest first: those whose friendly form is text
// with a promotion or placement added at the end ("Th6-h7" for
// "Th6-h7=T") or a piece letter before it ("O-O-O" for "QO-O-O"), and
// those written with the same piece letter and the same destination
// square: for text read as a move of the generic shapes (sp), only the
// variant's special moves, which those shapes cannot name ("P@g6" for
// "P*=P@g6"); for unreadable text, any move. A letter that is no piece of
// the variant but the initial of exactly one of its pieces' names stands
// for that piece ("Mg4" for the Marshal's "Cg4"). Moves that sp, with any
// origin, names when its details are relaxed are left out: explain has
// already said why those do not fit.
func nearMoves(p *rules.Position, text string, legal []rules.Move, sp *spec) []rules.Move {
	var cont bool
	body := stripMarks(strings.Join(strings.Fields(text), ""), &cont)
	if body == "" || len(body) > maxMoveLen {
		return nil
	}
	v := p.Variant()
	letter, dest := moveKey(v, body)
	var loose spec
	if sp != nil {
		loose = *sp
		loose.fromFile, loose.fromRank = -1, -1
	}
	type cand struct {
		m    rules.Move
		dist int
	}
	var found []cand
	for _, m := range legal {
		f := stripMarks(san(p, m, legal), &cont)
		if f == body {
			continue
		}
		near := extends(f, body)
		if !near && dest != rules.NoSquare {
			l, d := moveKey(v, f)
			near = l == letter && d == dest && (sp == nil || m.Kind == rules.KindSpecial && !loose.matches(p, m, relaxCapture|relaxPawnRule|relaxPromo|relaxCont|relaxPlace))
		}
		if near {
			found = append(found, cand{m, editDistance(body, f)})
		}
	}
	slices.SortStableFunc(found, func(a, b cand) int { return a.dist - b.dist })
	out := make([]rules.Move, len(found))
	for i, c := range found {
		out[i] = c.m
	}
	return out
}

// extends reports whether f is body with a promotion or placement added at
// the end (f goes on with '=', '(', '/' or '@') or with one piece letter
// before it.
func extends(f, body string) bool {
	if rest, ok := strings.CutPrefix(f, body); ok && rest != "" && strings.ContainsRune("=(/@", rune(rest[0])) {
		return true
	}
	if head, ok := strings.CutSuffix(f, body); ok && len(head) == 1 && head[0] >= 'A' && head[0] <= 'Z' {
		return true
	}
	return false
}

// moveKey returns the piece letter a written move starts with (0 for
// none; a letter of no piece of v that is the initial of exactly one
// piece's name stands for that piece's letter) and the last square it
// names (NoSquare for none).
func moveKey(v *rules.Variant, s string) (byte, rules.Square) {
	dest := rules.NoSquare
	first := -1
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'l' || i+1 >= len(s) || !isDigit(s[i+1]) {
			continue
		}
		j := i + 1
		for j < len(s) && j < i+3 && isDigit(s[j]) {
			j++
		}
		if r, ok := rankOf(s[i+1 : j]); ok {
			dest = rules.NewSquare(int(s[i]-'a'), r)
			if first < 0 {
				first = i
			}
		}
	}
	var letter byte
	for i := 0; i < len(s) && (first < 0 || i < first); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			letter = c
			if v.Type(c) == rules.NoPieceType {
				if d, ok := namedBy(v, c); ok {
					letter = d.Letter
				}
			}
			break
		}
	}
	return letter, dest
}

// namedBy returns the one piece of v whose name starts with the letter c
// (either case), for a letter that is no piece's letter in v: players
// write a Marshal "M" where the variant writes it "C".
func namedBy(v *rules.Variant, c byte) (rules.PieceDef, bool) {
	var found rules.PieceDef
	n := 0
	for _, d := range v.Pieces {
		if d.Name != "" && upper(d.Name[0]) == upper(c) && d.Letter != upper(c) {
			found, n = d, n+1
		}
	}
	return found, n == 1
}

// examples returns a few legal moves of p in the friendly form: first
// one of each kind (a pawn move, a piece move, castling, a drop, a pass,
// each shape of special move), then one of each further shape (each
// piece's move, a capture), in the engine's order, with the coordinate
// form of the first: "Nc3 or a3 (in coordinates, Nc3 is b1c3)".
func examples(p *rules.Position, legal []rules.Move) string {
	const most = 6
	texts := make([]string, len(legal))
	for i, m := range legal {
		texts[i] = san(p, m, legal)
	}
	kindOf := func(i int) string {
		m := legal[i]
		switch {
		case m.Kind == rules.KindSpecial:
			return "special " + strings.Map(func(r rune) rune {
				if r < 128 && (isLetter(byte(r)) || isDigit(byte(r)) || r == '+' || r == '#') {
					return -1
				}
				return r
			}, texts[i])
		case m.Kind == rules.KindNormal || m.Kind == rules.KindEnPassant:
			if letterless(p.Variant(), p.At(m.From).Type()) {
				return "pawn"
			}
			return "piece"
		}
		return fmt.Sprint(m.Kind)
	}
	var picked []int
	taken := map[int]bool{}
	for _, key := range []func(int) string{kindOf, func(i int) string { return shape(texts[i]) }} {
		seen := map[string]bool{}
		for _, i := range picked {
			seen[key(i)] = true
		}
		for i := range legal {
			if k := key(i); !seen[k] && !taken[i] && len(picked) < most {
				seen[k], taken[i] = true, true
				picked = append(picked, i)
			}
		}
	}
	if len(picked) == 0 {
		return "Nf3, e4 or O-O"
	}
	slices.Sort(picked)
	names := make([]string, len(picked))
	for i, j := range picked {
		names[i] = texts[j]
	}
	s := names[0]
	if n := len(names); n > 1 {
		s = strings.Join(names[:n-1], ", ") + " or " + names[n-1]
	}
	if c := rules.FormatMove(p, legal[picked[0]]); c != names[0] {
		s += fmt.Sprintf(" (in coordinates, %s is %s)", names[0], c)
	}
	return s
}

// shape is what tells kinds of written moves apart: the piece letter
// that starts it, and every character that is not part of a square.
func shape(f string) string {
	var b strings.Builder
	for i := 0; i < len(f); i++ {
		c := f[i]
		switch {
		case isDigit(c), c >= 'a' && c <= 'l' && i+1 < len(f) && isDigit(f[i+1]):
		case c >= 'a' && c <= 'l':
			// a pawn's file before 'x'
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
