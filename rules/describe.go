package rules

import (
	"fmt"
	"strings"
)

// DescribeBetza says in plain English how a piece with the Betza
// description betza moves and captures, for a player who has never seen
// it: "moves like a Rook or a Knight", "moves like a Bishop; captures like
// a Knight", "moves one square forward, or two squares forward from its
// side's starting rank if the square between is empty; captures one
// square diagonally forward (also en passant)". It is what Describe
// writes before a piece's own Legend. An invalid description is an error
// (the one ParseBetza gives); the text never says "unknown".
func DescribeBetza(betza string) (string, error) {
	legs, err := ParseBetza(betza)
	if err != nil {
		return "", err
	}
	return describeLegs(legs, 0), nil
}

// Describe is the line that says how d moves: the words generated from
// its Betza description (see DescribeBetza; initial-only moves name d's
// InitialRank) followed, after "; ", by its hand-written Legend when it
// has one (what the Betza cannot say: a move a variant hook adds). A
// definition whose Betza does not parse (Register refuses those) is
// described by its Legend alone.
func Describe(d PieceDef) string {
	legs, err := ParseBetza(d.Betza)
	if err != nil {
		return strings.TrimSpace(d.Legend)
	}
	s := describeLegs(legs, d.InitialRank)
	if l := strings.TrimSpace(d.Legend); l != "" {
		s += "; " + l
	}
	return s
}

// describeLegs describes legs; initialRank (0: unknown) is the rank named
// for initial-only legs.
func describeLegs(legs []Leg, initialRank int) string {
	var move, capture []Leg
	for _, l := range legs {
		if l.Mode&ModeMove != 0 {
			m := l
			m.Mode = ModeMove
			m.EnPassant = false // en passant is a capture
			move = append(move, m)
		}
		if l.Mode&ModeCapture != 0 {
			c := l
			c.Mode = ModeCapture
			capture = append(capture, c)
		}
	}
	move, capture = dropCovered(dedupLegs(move)), dropCovered(dedupLegs(capture))
	mg, cg := groupLegs(move), groupLegs(capture)
	switch {
	case sameGroups(mg, cg):
		if len(mg) == 1 && !mg[0].hasFlags() {
			return "moves " + mg[0].object(initialRank)
		}
		return "moves " + joinObjects(mg, initialRank)
	case len(cg) == 0:
		return "moves " + joinObjects(mg, initialRank) + "; never captures"
	case len(mg) == 0:
		return "captures " + joinObjects(cg, initialRank) + "; never moves without capturing"
	}
	// The part both sets share, when it holds a named piece, is said
	// once: "moves and captures like a Rook; also captures ...".
	common, mOnly, cOnly := splitCommon(mg, cg)
	if anyNamed(common) {
		s := "moves and captures " + joinObjects(common, initialRank)
		if len(mOnly) > 0 {
			s += "; also moves, without capturing, " + joinObjects(mOnly, initialRank)
		}
		if len(cOnly) > 0 {
			s += "; also captures " + joinObjects(cOnly, initialRank)
		}
		return s
	}
	return "moves " + joinObjects(mg, initialRank) + "; captures " + joinObjects(cg, initialRank)
}

// dedupLegs drops legs equal to an earlier one.
func dedupLegs(legs []Leg) []Leg {
	seen := map[Leg]bool{}
	out := legs[:0:0]
	for _, l := range legs {
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	return out
}

// dropCovered drops the legs (all of one mode) that another leg already
// makes: a step or a lame two-square leap along the line of a slider that
// reaches as far (the pawn's double step inside a Guard's Rook move).
func dropCovered(legs []Leg) []Leg {
	var out []Leg
	for i, l := range legs {
		covered := false
		for j, m := range legs {
			if i != j && covers(m, l) {
				covered = true
				break
			}
		}
		if !covered {
			out = append(out, l)
		}
	}
	return out
}

// covers reports whether every move of leg l is also a move of leg m.
func covers(m, l Leg) bool {
	if m.Hop || l.Hop || m.Lame || l.Range != 1 || (l.EnPassant && !m.EnPassant) || (m.Initial && !l.Initial) {
		return false
	}
	if max(abs8(m.DX), abs8(m.DY)) != 1 { // m must step square by square
		return false
	}
	for k := int8(1); k <= 2; k++ {
		if l.DX == k*m.DX && l.DY == k*m.DY {
			reach := m.Range == 0 || m.Range >= k
			return reach && (k == 1 || l.Lame)
		}
	}
	return false
}

func abs8(x int8) int8 {
	if x < 0 {
		return -x
	}
	return x
}

// legGroup is the legs of one atom with one range and the same flags,
// in the directions dirs (vectors as seen from White).
type legGroup struct {
	long, short int8 // the atom's leap, long >= short >= 0
	rng         int8
	hop, lame   bool
	initial, ep bool
	dirs        [][2]int8
	// merged is the diagonal group folded into this orthogonal one when
	// both step the same way (King, Queen, "forward, straight or
	// diagonally").
	merged *legGroup
}

func (g *legGroup) hasFlags() bool { return g.hop || g.lame || g.initial || g.ep }

// sameKind reports whether l belongs to g.
func (g *legGroup) sameKind(l Leg) bool {
	lo, sh := leapOf(l)
	return lo == g.long && sh == g.short && l.Range == g.rng && l.Hop == g.hop &&
		l.Lame == g.lame && l.Initial == g.initial && l.EnPassant == g.ep
}

func leapOf(l Leg) (long, short int8) {
	a, b := abs8(l.DX), abs8(l.DY)
	if a < b {
		a, b = b, a
	}
	return a, b
}

// groupLegs groups legs by atom, range and flags, in order of first
// appearance, then folds each diagonal group into the orthogonal group of
// the same step, range and flags when their directions match.
func groupLegs(legs []Leg) []*legGroup {
	var gs []*legGroup
next:
	for _, l := range legs {
		for _, g := range gs {
			if g.sameKind(l) {
				g.dirs = append(g.dirs, [2]int8{l.DX, l.DY})
				continue next
			}
		}
		lo, sh := leapOf(l)
		gs = append(gs, &legGroup{long: lo, short: sh, rng: l.Range, hop: l.Hop, lame: l.Lame,
			initial: l.Initial, ep: l.EnPassant, dirs: [][2]int8{{l.DX, l.DY}}})
	}
	var out []*legGroup
	for _, g := range gs {
		if g.short == g.long && g.long == 1 {
			if o := findOrthoPartner(gs, g); o != nil {
				o.merged = g
				continue
			}
		}
		out = append(out, g)
	}
	return out
}

// findOrthoPartner returns the W group that diagonal group d folds into:
// same range and flags, and directions that read as one ("in any
// direction", "forward, straight or diagonally").
func findOrthoPartner(gs []*legGroup, d *legGroup) *legGroup {
	for _, o := range gs {
		if o.long != 1 || o.short != 0 || o.rng != d.rng || o.hop != d.hop || o.lame != d.lame ||
			o.initial != d.initial || o.ep != d.ep || o.merged != nil {
			continue
		}
		if len(o.dirs) == 4 && len(d.dirs) == 4 {
			return o
		}
		for _, side := range []int8{1, -1} {
			if dirsEqual(o.dirs, [][2]int8{{0, side}}) && dirsEqual(d.dirs, [][2]int8{{1, side}, {-1, side}}) {
				return o
			}
		}
	}
	return nil
}

// dirsEqual reports whether a and b hold the same vectors.
func dirsEqual(a, b [][2]int8) bool {
	if len(a) != len(b) {
		return false
	}
	for _, v := range a {
		found := false
		for _, w := range b {
			if v == w {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// equal reports whether g and h are the same moves.
func (g *legGroup) equal(h *legGroup) bool {
	if g.long != h.long || g.short != h.short || g.rng != h.rng || g.hop != h.hop || g.lame != h.lame ||
		g.initial != h.initial || g.ep != h.ep || !dirsEqual(g.dirs, h.dirs) || (g.merged == nil) != (h.merged == nil) {
		return false
	}
	return g.merged == nil || g.merged.equal(h.merged)
}

func sameGroups(a, b []*legGroup) bool {
	if len(a) != len(b) {
		return false
	}
	for _, g := range a {
		if !containsGroup(b, g) {
			return false
		}
	}
	return true
}

func containsGroup(gs []*legGroup, g *legGroup) bool {
	for _, h := range gs {
		if h.equal(g) {
			return true
		}
	}
	return false
}

// splitCommon splits the move groups m and capture groups c into the
// groups both have and those of each alone.
func splitCommon(m, c []*legGroup) (common, mOnly, cOnly []*legGroup) {
	for _, g := range m {
		if containsGroup(c, g) {
			common = append(common, g)
		} else {
			mOnly = append(mOnly, g)
		}
	}
	for _, g := range c {
		if !containsGroup(m, g) {
			cOnly = append(cOnly, g)
		}
	}
	return common, mOnly, cOnly
}

func anyNamed(gs []*legGroup) bool {
	for _, g := range gs {
		if g.name() != "" {
			return true
		}
	}
	return false
}

// name returns the chess piece that moves exactly as g ("Rook"), or "".
func (g *legGroup) name() string {
	if g.hasFlags() {
		return ""
	}
	full := len(g.dirs) == len(betzaLeap{g.long, g.short}.vectors())
	if !full {
		return ""
	}
	if g.merged != nil {
		if len(g.merged.dirs) != 4 || g.long != 1 {
			return ""
		}
		switch g.rng {
		case 0:
			return "Queen"
		case 1:
			return "King"
		}
		return ""
	}
	switch {
	case g.long == 1 && g.short == 0 && g.rng == 0:
		return "Rook"
	case g.long == 1 && g.short == 1 && g.rng == 0:
		return "Bishop"
	case g.long == 2 && g.short == 1 && g.rng == 1:
		return "Knight"
	}
	return ""
}

// joinObjects writes groups as what follows "moves" or "captures": the
// named pieces first as "like a Rook or a Knight", then each other group,
// joined by ", or ".
func joinObjects(gs []*legGroup, initialRank int) string {
	var named, other []string
	for _, g := range gs {
		if n := g.name(); n != "" {
			named = append(named, "a "+n)
		} else {
			other = append(other, g.object(initialRank))
		}
	}
	var parts []string
	if len(named) > 0 {
		parts = append(parts, "like "+strings.Join(named, " or "))
	}
	parts = append(parts, other...)
	return strings.Join(parts, ", or ")
}

// numberWords are the counts written as words.
var numberWords = []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"}

func count(n int8) string {
	if n >= 0 && int(n) < len(numberWords) {
		return numberWords[n]
	}
	return fmt.Sprint(n)
}

func squares(n int8) string {
	if n == 1 {
		return "one square"
	}
	return count(n) + " squares"
}

func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("%d%s", n, suffix)
}

// object describes g alone, as what follows "moves" or "captures".
func (g *legGroup) object(initialRank int) string {
	var s string
	switch {
	case g.short == 0 || g.short == g.long:
		s = g.lineObject()
	default:
		s = g.obliqueObject()
	}
	if g.initial {
		if initialRank > 0 {
			s += " from its side's " + ordinal(initialRank) + " rank"
		} else {
			s += " from its side's starting rank"
		}
	}
	if g.lame {
		if g.short == 0 || g.short == g.long {
			s += " if the square between is empty"
		} else {
			s += ", blocked by a piece on the square next to it in the longer direction"
		}
	}
	if g.hop {
		s += ", over exactly one piece (of either side) on the way"
	}
	if g.ep {
		s += " (also en passant)"
	}
	return s
}

// lineObject describes an orthogonal or diagonal group.
func (g *legGroup) lineObject() string {
	where := g.lineDirs()
	k := g.long
	switch {
	case k == 1 && g.rng == 0:
		return "any distance " + where
	case k == 1 && g.rng == 1:
		return "one square " + where
	case k == 1:
		return "up to " + squares(g.rng) + " " + where
	case g.rng == 1 && g.lame:
		return squares(k) + " " + where
	case g.rng == 1:
		return "exactly " + squares(k) + " " + where + ", jumping over any piece between"
	case g.rng == 0:
		return "by jumps of " + squares(k) + " " + where + ", repeated any number of times in one line over empty landing squares"
	}
	return "by jumps of " + squares(k) + " " + where + ", repeated up to " + count(g.rng) + " times in one line over empty landing squares"
}

// lineDirs names the directions of an orthogonal or diagonal group, with
// its folded diagonal group.
func (g *legGroup) lineDirs() string {
	if g.merged != nil {
		if len(g.dirs) == 4 {
			return "in any direction"
		}
		if g.dirs[0][1] > 0 {
			return "forward, straight or diagonally"
		}
		return "backward, straight or diagonally"
	}
	if g.short == 0 {
		return orthoDirs(g.dirs, g.rng != 1)
	}
	return diagDirs(g.dirs)
}

// orthoDirs names a set of orthogonal directions; slider says "along its
// rank or file" for all four.
func orthoDirs(dirs [][2]int8, slider bool) string {
	var f, b, l, r bool
	for _, v := range dirs {
		switch {
		case v[1] > 0:
			f = true
		case v[1] < 0:
			b = true
		case v[0] < 0:
			l = true
		default:
			r = true
		}
	}
	switch {
	case f && b && l && r:
		if slider {
			return "along its rank or file"
		}
		return "straight in any of the four directions"
	case f && b && !l && !r:
		return "forward or backward along its file"
	case !f && !b && l && r:
		return "sideways along its rank"
	case f && !b && l && r:
		return "forward or sideways"
	case !f && b && l && r:
		return "backward or sideways"
	}
	var parts []string
	if f {
		parts = append(parts, "forward")
	}
	if b {
		parts = append(parts, "backward")
	}
	if l {
		parts = append(parts, "sideways toward the a-file")
	}
	if r {
		parts = append(parts, "sideways away from the a-file")
	}
	return strings.Join(parts, " or ")
}

// diagDirs names a set of diagonal directions.
func diagDirs(dirs [][2]int8) string {
	has := map[[2]int8]bool{}
	for _, v := range dirs {
		has[[2]int8{sign8(v[0]), sign8(v[1])}] = true
	}
	fr, fl, br, bl := has[[2]int8{1, 1}], has[[2]int8{-1, 1}], has[[2]int8{1, -1}], has[[2]int8{-1, -1}]
	switch {
	case fr && fl && br && bl:
		return "diagonally"
	case fr && fl && !br && !bl:
		return "diagonally forward"
	case br && bl && !fr && !fl:
		return "diagonally backward"
	case fl && bl && !fr && !br:
		return "diagonally toward the a-file"
	case fr && br && !fl && !bl:
		return "diagonally away from the a-file"
	}
	var parts []string
	for _, d := range []struct {
		on   bool
		text string
	}{{fl, "forward toward the a-file"}, {fr, "forward away from the a-file"},
		{bl, "backward toward the a-file"}, {br, "backward away from the a-file"}} {
		if d.on {
			parts = append(parts, d.text)
		}
	}
	return "diagonally " + strings.Join(parts, " or ")
}

func sign8(x int8) int8 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// obliqueShape names an oblique leap: "in an L: two squares one way and
// one to the side" for the Knight's.
func obliqueShape(long, short int8) string {
	s := count(long) + " squares one way and " + count(short) + " to the side"
	if long == 2 && short == 1 {
		return "in an L (" + s + ")"
	}
	return s
}

// obliqueObject describes a group of an oblique atom (Knight, Camel,
// Zebra jumps), leaper or rider.
func (g *legGroup) obliqueObject() string {
	shape := obliqueShape(g.long, g.short)
	dirs := obliqueDirs(g.long, g.short, g.dirs)
	if dirs != "" {
		dirs = ", " + dirs
	}
	switch g.rng {
	case 1:
		return shape + dirs + ", jumping over any piece"
	case 0:
		return "by repeating one jump " + shape + dirs + " any number of times in a straight line, every square it lands on before the last empty"
	}
	return "by repeating one jump " + shape + dirs + " up to " + count(g.rng) + " times in a straight line, every square it lands on before the last empty"
}

// obliqueDirs qualifies the jumps of an oblique atom in dirs: "" for all
// eight, "only forward" for the four that go forward, else each jump.
func obliqueDirs(long, short int8, dirs [][2]int8) string {
	all := betzaLeap{long, short}.vectors()
	if len(dirs) == len(all) {
		return ""
	}
	pick := func(pred func(v [2]int8) bool) [][2]int8 {
		var out [][2]int8
		for _, v := range all {
			if pred(v) {
				out = append(out, v)
			}
		}
		return out
	}
	for _, c := range []struct {
		pred func(v [2]int8) bool
		text string
	}{
		{func(v [2]int8) bool { return v[1] > 0 }, "only forward"},
		{func(v [2]int8) bool { return v[1] < 0 }, "only backward"},
		{func(v [2]int8) bool { return abs8(v[1]) > abs8(v[0]) }, "only the long way forward or backward"},
		{func(v [2]int8) bool { return abs8(v[0]) > abs8(v[1]) }, "only the long way sideways"},
		{func(v [2]int8) bool { return v[1] > 0 && abs8(v[1]) > abs8(v[0]) }, "only the long way forward"},
		{func(v [2]int8) bool { return v[1] < 0 && abs8(v[1]) > abs8(v[0]) }, "only the long way backward"},
	} {
		if dirsEqual(dirs, pick(c.pred)) {
			return c.text
		}
	}
	var parts []string
	for _, v := range dirs {
		parts = append(parts, jumpWords(v))
	}
	return "only " + strings.Join(parts, " or ")
}

// jumpWords names one jump: "two forward and one toward the a-file".
func jumpWords(v [2]int8) string {
	vert := count(abs8(v[1])) + " forward"
	if v[1] < 0 {
		vert = count(abs8(v[1])) + " backward"
	}
	horiz := count(abs8(v[0])) + " away from the a-file"
	if v[0] < 0 {
		horiz = count(abs8(v[0])) + " toward the a-file"
	}
	if abs8(v[0]) > abs8(v[1]) {
		return horiz + " and " + vert
	}
	return vert + " and " + horiz
}
