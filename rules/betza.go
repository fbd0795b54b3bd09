package rules

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Mode says whether a Leg may move to an empty square, capture, or both.
type Mode uint8

const (
	ModeMove    Mode = 1 << iota // may move to an empty square
	ModeCapture                  // may capture an enemy piece
	ModeBoth    = ModeMove | ModeCapture
)

// Leg is one concrete direction of movement of a piece, as seen from White
// (DY > 0 is forward). Black's legs are the same with DY negated.
type Leg struct {
	DX, DY int8 // one step
	Range  int8 // 1 = leaper, 0 = unlimited rider, n > 1 = at most n steps
	Mode   Mode
	Hop    bool // Betza p: must hop over exactly one piece (a screen) first, then continues as a rider
	// Grasshopper is Betza g: rides up to a piece (a screen), hops over it
	// and lands on the square just beyond, which must be empty or hold an
	// enemy piece. Range bounds the squares walked up to the screen.
	Grasshopper bool
	Lame        bool // Betza n: the leap is blocked when the intermediate square (DX/2, DY/2 with Go truncating division) is occupied
	Initial     bool // Betza i: only from the piece's initial rank (the variant defines which rank)
	EnPassant   bool // Betza e: this capture may also capture en passant
}

// betzaMaxRange is the largest range ParseBetza accepts after an atom
// (boards are at most 12x12).
const betzaMaxRange = 12

// BetzaError is the error ParseBetza returns for a description it rejects.
// Pos is the byte offset of the offending character in Input, or len(Input)
// when the description ends too early (or is empty).
type BetzaError struct {
	Input string // the whole description given to ParseBetza
	Pos   int    // byte offset of the offending character
	Msg   string // what is wrong
}

// Error formats the error as
//
//	betza "INPUT": byte POS ('C'): MESSAGE
//
// where 'C' is the offending character, or "end of input".
func (e *BetzaError) Error() string {
	var where string
	switch {
	case e.Pos < 0 || e.Pos > len(e.Input):
		where = "?"
	case e.Pos == len(e.Input):
		where = "end of input"
	default:
		r, size := utf8.DecodeRuneInString(e.Input[e.Pos:])
		if r == utf8.RuneError && size <= 1 {
			where = fmt.Sprintf("byte 0x%02x", e.Input[e.Pos])
		} else {
			where = strconv.QuoteRune(r)
		}
	}
	return fmt.Sprintf("betza %q: byte %d (%s): %s", e.Input, e.Pos, where, e.Msg)
}

// ParseBetza parses a piece description in the supported subset of Betza
// notation into concrete legs. On success the result is never empty; on
// failure it returns nil and a *BetzaError naming the offending character
// and its byte position. ParseBetza never panics.
//
// # Grammar
//
// A description is one or more groups, with nothing between them:
//
//	description = group { group }
//	group       = { modifier } atom [ atom-again | range ]
//	modifier    = "m" | "c" | "p" | "g" | "n" | "i" | "e" | direction
//	direction   = "f" | "b" | "l" | "r" | "v" | "s"
//	atom        = "W" | "F" | "D" | "N" | "A" | "H" | "C" | "L" | "Z" | "J" | "G"
//	            | "K" | "R" | "B" | "Q"
//	range       = digit { digit }            value 0..12
//
// Letters are case-sensitive. Any other byte (another lowercase letter such
// as a, j, o, z, q, x, y, t, u, h; another uppercase letter; a digit where
// no range may stand; space, punctuation, non-ASCII) is an error. Each of
// m, c, p, g, n, i, e may appear at most once per group; direction letters may
// repeat. A group that ends the input without an atom is an error.
//
// # Atoms
//
// Basic atoms are leaps (long, short), taken in every one of their 8 (for
// orthogonal and diagonal atoms 4) symmetric directions:
//
//	orthogonal: W (1,0)  D (2,0)  H (3,0)
//	diagonal:   F (1,1)  A (2,2)  G (3,3)
//	oblique:    N (2,1)  C and L (3,1)  Z and J (3,2)
//
// Compound atoms: K = W and F leapers; R = W rider; B = F rider; Q = W and F
// riders. Their parts are called components (K: W then F; Q: R then B).
//
// # Range
//
// A basic atom letter immediately repeated (WW, NN, FF) makes an unlimited
// rider (Range 0); a range may not follow a doubled atom, and doubling K, R,
// B or Q is an error. Otherwise digits after the atom set Range: 0 is
// unlimited, 1 a leaper, n > 1 at most n steps (so R3 is a rook of at most 3
// steps and R1 is a W leaper). Leading zeros are allowed; a value above 12
// is an error. Without digits the Range is 1 for basic atoms and K, and 0
// for R, B and Q.
//
// # Modifiers
//
//   - m: move only; c: capture only; both or neither: both (ModeBoth).
//   - p: hopper (Hop). Only valid when the resulting Range is not 1.
//   - g: grasshopper (Grasshopper). Only valid when the resulting Range is
//     not 1, and not together with p.
//   - n: lame (Lame). Only valid on D, N or A with Range 1.
//   - i: initial move only (Initial).
//   - e: en passant (EnPassant). Error on a move-only group.
//
// # Directions
//
// Direction letters are f (forward, DY > 0), b (backward), l (left, DX < 0),
// r (right, DX > 0), v (vertical) and s (sideways). Without any direction
// letter a group takes all directions of its atom. Otherwise the group takes
// the union of the moves selected by its direction specs.
//
// Direction specs are read from runs of adjacent direction letters (letters
// separated by m, c, p, n, i or e belong to different runs, so "fmr" is f
// and r separately). A run is split from the left: if the next two letters
// form a two-letter spec they are taken together, otherwise one letter is
// taken. Two-letter specs are a vertical letter (f, b) with a horizontal one
// (l, r) in either order, a doubled letter (ff, bb, ll, rr, vv, ss), and, on
// oblique atoms only, one of f, b, l, r with one of v, s in either order.
// So "fsW" is f plus s, while "fsN" is one spec.
//
// Orthogonal atoms (W, D, H, and the R part of R and Q): f, b, l, r pick one
// direction; v = f+b; s = l+r. Pairs (fl, rb, ...) and doubled letters are
// errors.
//
// Diagonal atoms (F, A, G, and the B part of B and Q): f picks both forward
// diagonals, likewise b, l, r; a pair of f/b with l/r in either order (fl,
// lf, br, ...) picks that single diagonal. v, s and doubled letters are
// errors.
//
// Oblique atoms (N, C, L, Z, J):
//
//	f, b, l, r      the 4 moves with DY > 0, DY < 0, DX < 0, DX > 0
//	v, s            the 4 moves with |DY| > |DX|, resp. |DX| > |DY|
//	ff, bb          the 2 moves in that vertical direction with |DY| > |DX|
//	ll, rr          the 2 moves in that horizontal direction with |DX| > |DY|
//	fs, sf, bs, sb  the 2 moves in that vertical direction with |DX| > |DY|
//	pair XY         one move: both directions, X along the long axis;
//	                on N: fr = (1,2), rf = (2,1), lb = (-2,-1)
//
// On oblique atoms fv, vf, bv, vb (say ff, bb), lv, vl, rv, vr, ls, sl, rs,
// sr, vv and ss are errors.
//
// K and Q apply the rules above per component. A spec that is an error for
// one component just selects nothing from it (so flK is the single (-1,1)
// leaper and vK is (0,1) and (0,-1)); a spec that is an error for every
// component (ffK) is an error. A group that selects no move is an error.
//
// # Output order
//
// Legs are listed group by group in input order; within a group component by
// component (K: W then F; Q: R then B); within a component clockwise
// starting at straight forward or, if there is no such move, the first move
// right of it. For a leap (long, short) that is
//
//	(s,l) (l,s) (l,-s) (s,-l) (-s,-l) (-l,-s) (-l,s) (-s,l)
//
// with repeats dropped: N gives (1,2) (2,1) (2,-1) (1,-2) (-1,-2) (-2,-1)
// (-2,1) (-1,2); W gives (0,1) (1,0) (0,-1) (-1,0); F gives (1,1) (1,-1)
// (-1,-1) (-1,1). The order of direction letters does not affect the order
// of legs. A leg identical in every field to an earlier one is dropped.
func ParseBetza(s string) ([]Leg, error) {
	if s == "" {
		return nil, &BetzaError{Input: s, Pos: 0, Msg: "empty description"}
	}
	var out []Leg
	seen := make(map[Leg]bool)
	for pos := 0; pos < len(s); {
		legs, next, err := betzaParseGroup(s, pos)
		if err != nil {
			return nil, err
		}
		for _, l := range legs {
			if !seen[l] {
				seen[l] = true
				out = append(out, l)
			}
		}
		pos = next
	}
	return out, nil
}

// betzaClass is the geometric kind of a basic leap; it decides how
// direction letters apply.
type betzaClass uint8

const (
	betzaOrthogonal betzaClass = iota // (k, 0)
	betzaDiagonal                     // (k, k)
	betzaOblique                      // (a, b) with a > b > 0
)

// betzaLeap is one basic leap (long, short) with long >= short >= 0.
type betzaLeap struct {
	long, short int8
}

func (p betzaLeap) class() betzaClass {
	switch {
	case p.short == 0:
		return betzaOrthogonal
	case p.short == p.long:
		return betzaDiagonal
	default:
		return betzaOblique
	}
}

// vectors returns the distinct symmetric images of the leap in the
// documented clockwise order, starting at forward.
func (p betzaLeap) vectors() [][2]int8 {
	l, s := p.long, p.short
	all := [8][2]int8{{s, l}, {l, s}, {l, -s}, {s, -l}, {-s, -l}, {-l, -s}, {-l, s}, {-s, l}}
	out := make([][2]int8, 0, 8)
	for _, v := range all {
		dup := false
		for _, w := range out {
			if v == w {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, v)
		}
	}
	return out
}

// betzaAtom describes one atom letter.
type betzaAtom struct {
	leaps    []betzaLeap
	rng      int8 // Range when neither doubled nor followed by digits
	compound bool // K, R, B, Q: may not be doubled
}

var (
	betzaW = betzaLeap{1, 0}
	betzaF = betzaLeap{1, 1}
)

// betzaLookupAtom returns the atom for an uppercase letter.
func betzaLookupAtom(c byte) (betzaAtom, bool) {
	basic := func(long, short int8) (betzaAtom, bool) {
		return betzaAtom{leaps: []betzaLeap{{long, short}}, rng: 1}, true
	}
	switch c {
	case 'W':
		return basic(1, 0)
	case 'F':
		return basic(1, 1)
	case 'D':
		return basic(2, 0)
	case 'N':
		return basic(2, 1)
	case 'A':
		return basic(2, 2)
	case 'H':
		return basic(3, 0)
	case 'C', 'L':
		return basic(3, 1)
	case 'Z', 'J':
		return basic(3, 2)
	case 'G':
		return basic(3, 3)
	case 'K':
		return betzaAtom{leaps: []betzaLeap{betzaW, betzaF}, rng: 1, compound: true}, true
	case 'R':
		return betzaAtom{leaps: []betzaLeap{betzaW}, rng: 0, compound: true}, true
	case 'B':
		return betzaAtom{leaps: []betzaLeap{betzaF}, rng: 0, compound: true}, true
	case 'Q':
		return betzaAtom{leaps: []betzaLeap{betzaW, betzaF}, rng: 0, compound: true}, true
	}
	return betzaAtom{}, false
}

// betzaFlags are the non-direction modifier letters, in the order of the
// betzaMod* indexes.
const betzaFlags = "mcpnieg"

const (
	betzaModM = iota
	betzaModC
	betzaModP
	betzaModN
	betzaModI
	betzaModE
	betzaModG
)

// betzaDirLetter is one direction letter of a group and its byte offset.
type betzaDirLetter struct {
	ch  byte
	pos int
}

// betzaDirSpec is one direction spec: one or two adjacent letters.
type betzaDirSpec struct {
	text string
	pos  int
}

// betzaParseGroup parses the group starting at s[start] and returns its legs
// and the offset just past it.
func betzaParseGroup(s string, start int) ([]Leg, int, error) {
	fail := func(pos int, format string, args ...any) ([]Leg, int, error) {
		return nil, 0, &BetzaError{Input: s, Pos: pos, Msg: fmt.Sprintf(format, args...)}
	}

	// Modifiers.
	var flagPos [len(betzaFlags)]int
	for k := range flagPos {
		flagPos[k] = -1
	}
	var dirs []betzaDirLetter
	i := start
	for ; i < len(s) && s[i] >= 'a' && s[i] <= 'z'; i++ {
		c := s[i]
		if strings.IndexByte("fblrvs", c) >= 0 {
			dirs = append(dirs, betzaDirLetter{c, i})
			continue
		}
		k := strings.IndexByte(betzaFlags, c)
		if k < 0 {
			return fail(i, "unsupported modifier")
		}
		if flagPos[k] >= 0 {
			return fail(i, "repeated modifier %q in one group", string(c))
		}
		flagPos[k] = i
	}

	// Atom.
	if i == len(s) {
		return fail(i, "missing atom after modifiers")
	}
	atomPos := i
	atom, ok := betzaLookupAtom(s[i])
	if !ok {
		switch c := s[i]; {
		case c >= 'A' && c <= 'Z':
			return fail(i, "unknown atom")
		case c >= '0' && c <= '9':
			return fail(i, "range without an atom")
		default:
			return fail(i, "unexpected character")
		}
	}
	i++

	// Doubling or range.
	rng := atom.rng
	switch {
	case i < len(s) && s[i] == s[atomPos]:
		if atom.compound {
			return fail(i, "doubled %c is not allowed (ambiguous)", s[atomPos])
		}
		rng = 0
		i++
		if i < len(s) && s[i] >= '0' && s[i] <= '9' {
			return fail(i, "range after a doubled atom")
		}
	case i < len(s) && s[i] >= '0' && s[i] <= '9':
		digStart := i
		v := 0
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			if v <= betzaMaxRange {
				v = v*10 + int(s[i]-'0')
			}
		}
		if v > betzaMaxRange {
			return fail(digStart, "range %s exceeds the maximum of %d", s[digStart:i], betzaMaxRange)
		}
		rng = int8(v)
	}

	// Semantic checks; report the leftmost problem.
	var firstErr *BetzaError
	report := func(pos int, format string, args ...any) {
		if firstErr == nil || pos < firstErr.Pos {
			firstErr = &BetzaError{Input: s, Pos: pos, Msg: fmt.Sprintf(format, args...)}
		}
	}

	mode := ModeBoth
	switch {
	case flagPos[betzaModM] >= 0 && flagPos[betzaModC] < 0:
		mode = ModeMove
	case flagPos[betzaModC] >= 0 && flagPos[betzaModM] < 0:
		mode = ModeCapture
	}
	if p := flagPos[betzaModP]; p >= 0 && rng == 1 {
		report(p, "hopper modifier p needs a rider (R, B, Q, a doubled atom, or a range other than 1)")
	}
	if p := flagPos[betzaModG]; p >= 0 && rng == 1 {
		report(p, "grasshopper modifier g needs a rider (R, B, Q, a doubled atom, or a range other than 1)")
	}
	if p := flagPos[betzaModG]; p >= 0 && flagPos[betzaModP] >= 0 {
		report(p, "a group is a hopper (p) or a grasshopper (g), not both")
	}
	if p := flagPos[betzaModN]; p >= 0 {
		lameOK := rng == 1
		for _, lp := range atom.leaps {
			if lp.long != 2 {
				lameOK = false
			}
		}
		if !lameOK {
			report(p, "lame modifier n needs a D, N or A leaper")
		}
	}
	if p := flagPos[betzaModE]; p >= 0 && mode == ModeMove {
		report(p, "en passant modifier e needs capture, but the group is move-only")
	}

	// Directions.
	oblique := atom.leaps[0].class() == betzaOblique
	specs := betzaSplitDirs(dirs, oblique)
	// preds[k] are the selectors for leap k; nil slice with no specs means all.
	preds := make([][]func(dx, dy int8) bool, len(atom.leaps))
	for _, sp := range specs {
		var firstMsg string
		valid := false
		for k, lp := range atom.leaps {
			pred, msg := betzaDirPred(sp.text, lp.class())
			if msg != "" {
				if firstMsg == "" {
					firstMsg = msg
				}
				continue
			}
			valid = true
			preds[k] = append(preds[k], pred)
		}
		if !valid {
			report(sp.pos, "%s", firstMsg)
		}
	}
	if firstErr != nil {
		return nil, 0, firstErr
	}

	// Legs.
	var legs []Leg
	for k, lp := range atom.leaps {
		for _, v := range lp.vectors() {
			selected := len(specs) == 0
			for _, pred := range preds[k] {
				if pred(v[0], v[1]) {
					selected = true
					break
				}
			}
			if !selected {
				continue
			}
			legs = append(legs, Leg{
				DX:          v[0],
				DY:          v[1],
				Range:       rng,
				Mode:        mode,
				Hop:         flagPos[betzaModP] >= 0,
				Grasshopper: flagPos[betzaModG] >= 0,
				Lame:        flagPos[betzaModN] >= 0,
				Initial:     flagPos[betzaModI] >= 0,
				EnPassant:   flagPos[betzaModE] >= 0,
			})
		}
	}
	if len(legs) == 0 {
		// Every accepted spec selects at least one move, so this is a
		// safeguard only.
		return fail(start, "group selects no move")
	}
	return legs, i, nil
}

// betzaSplitDirs splits the direction letters of one group into specs, as
// documented on ParseBetza.
func betzaSplitDirs(dirs []betzaDirLetter, oblique bool) []betzaDirSpec {
	var specs []betzaDirSpec
	for j := 0; j < len(dirs); {
		if j+1 < len(dirs) && dirs[j+1].pos == dirs[j].pos+1 && betzaTwoLetter(dirs[j].ch, dirs[j+1].ch, oblique) {
			specs = append(specs, betzaDirSpec{string([]byte{dirs[j].ch, dirs[j+1].ch}), dirs[j].pos})
			j += 2
			continue
		}
		specs = append(specs, betzaDirSpec{string(dirs[j].ch), dirs[j].pos})
		j++
	}
	return specs
}

func betzaIsVert(c byte) bool  { return c == 'f' || c == 'b' }
func betzaIsHoriz(c byte) bool { return c == 'l' || c == 'r' }
func betzaIsVS(c byte) bool    { return c == 'v' || c == 's' }

// betzaTwoLetter reports whether adjacent direction letters a, b form one
// two-letter spec.
func betzaTwoLetter(a, b byte, oblique bool) bool {
	switch {
	case a == b:
		return true
	case betzaIsVert(a) && betzaIsHoriz(b), betzaIsHoriz(a) && betzaIsVert(b):
		return true
	case oblique && (betzaIsVS(a) && !betzaIsVS(b) || !betzaIsVS(a) && betzaIsVS(b)):
		return true
	}
	return false
}

func betzaAbs(x int8) int8 {
	if x < 0 {
		return -x
	}
	return x
}

// betzaSide reports whether (dx, dy) lies in the direction of letter c.
func betzaSide(c byte, dx, dy int8) bool {
	switch c {
	case 'f':
		return dy > 0
	case 'b':
		return dy < 0
	case 'l':
		return dx < 0
	case 'r':
		return dx > 0
	case 'v':
		return betzaAbs(dy) > betzaAbs(dx)
	case 's':
		return betzaAbs(dx) > betzaAbs(dy)
	}
	return false
}

// betzaLongAxis reports whether the axis of letter c (vertical for f, b, v;
// horizontal for l, r, s) is the long one of (dx, dy).
func betzaLongAxis(c byte, dx, dy int8) bool {
	if betzaIsHoriz(c) || c == 's' {
		return betzaAbs(dx) > betzaAbs(dy)
	}
	return betzaAbs(dy) > betzaAbs(dx)
}

// betzaDirPred returns the selector of direction spec d for a leap of class
// cl, or a non-empty message if d is not valid for that class.
func betzaDirPred(d string, cl betzaClass) (func(dx, dy int8) bool, string) {
	if len(d) == 1 {
		c := d[0]
		if betzaIsVS(c) && cl == betzaDiagonal {
			return nil, fmt.Sprintf("direction %q is not valid on a diagonal atom", d)
		}
		return func(dx, dy int8) bool { return betzaSide(c, dx, dy) }, ""
	}
	a, b := d[0], d[1]
	switch {
	case a == b:
		if betzaIsVS(a) {
			return nil, fmt.Sprintf("doubled direction %q is not supported", d)
		}
		if cl != betzaOblique {
			return nil, fmt.Sprintf("doubled direction %q is only valid on oblique atoms", d)
		}
		return func(dx, dy int8) bool { return betzaSide(a, dx, dy) && betzaLongAxis(a, dx, dy) }, ""
	case betzaIsVert(a) && betzaIsHoriz(b), betzaIsHoriz(a) && betzaIsVert(b):
		switch cl {
		case betzaOrthogonal:
			return nil, fmt.Sprintf("direction pair %q is not valid on an orthogonal atom", d)
		case betzaDiagonal:
			return func(dx, dy int8) bool { return betzaSide(a, dx, dy) && betzaSide(b, dx, dy) }, ""
		default:
			return func(dx, dy int8) bool {
				return betzaSide(a, dx, dy) && betzaSide(b, dx, dy) && betzaLongAxis(a, dx, dy)
			}, ""
		}
	}
	// One of f, b, l, r with one of v, s; only split this way on oblique atoms.
	lr, vs := a, b
	if betzaIsVS(a) {
		lr, vs = b, a
	}
	if cl != betzaOblique {
		return nil, fmt.Sprintf("direction %q is only valid on oblique atoms", d)
	}
	if betzaIsVert(lr) && vs == 's' {
		return func(dx, dy int8) bool { return betzaSide(lr, dx, dy) && betzaSide('s', dx, dy) }, ""
	}
	if betzaIsVert(lr) {
		return nil, fmt.Sprintf("direction %q is not supported (use %c%c)", d, lr, lr)
	}
	return nil, fmt.Sprintf("direction %q is not supported", d)
}
