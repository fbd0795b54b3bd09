package variantsini

import (
	"fmt"
	"sort"
	"strings"
)

// The format's Betza dialect differs from fairypost's (package rules'
// ParseBetza) in a few ways, so a custom piece's description is
// translated to the set of moves it means and written again in
// fairypost's grammar:
//
//   - A single direction letter stands for itself doubled: f is ff, so fN
//     is the two narrow forward knight leaps, not all four forward ones.
//   - Two direction letters are one direction when they are the same
//     letter, or one of f, b, v, h with one of l, r, s, h; on a single
//     orthogonal atom such a pair is split (fsW is forward and sideways).
//   - p makes a hopper over exactly one piece to any square beyond it
//     along the line, on any atom; g a grasshopper, which lands on the
//     square just beyond the piece it jumps.
//   - A digit after an atom makes a rider of at most that many steps; the
//     atom repeated, an unlimited rider.
//   - n makes a leaper lame: it may not jump over an occupied square.
//   - i moves are made only from the double-step region; initial
//     captures do not exist.
//   - Moves that two groups both give are one move.
//   - An e anywhere lets the piece capture en passant with each of its
//     captures to a square it cannot move to quietly.

// fsfMove is one move of a piece in the format's sense: a direction, with
// a kind (leap, ride, hop), a range, its modality and flags.
type fsfMove struct {
	dx, dy  int
	kind    moveKind
	dist    int // rides and hops: 0 = unlimited; leaps: 1
	capture bool
	initial bool
	lame    bool
}

type moveKind uint8

const (
	kindLeap moveKind = iota
	kindRide
	kindHop
	kindGrasshop
)

var fsfLeaps = map[byte][][2]int{
	'W': {{1, 0}}, 'F': {{1, 1}}, 'D': {{2, 0}}, 'N': {{2, 1}}, 'A': {{2, 2}},
	'H': {{3, 0}}, 'C': {{3, 1}}, 'L': {{3, 1}}, 'J': {{3, 2}}, 'Z': {{3, 2}},
	'G': {{3, 3}}, 'K': {{1, 0}, {1, 1}},
}

var fsfRiders = map[byte][][2]int{'R': {{1, 0}}, 'B': {{1, 1}}, 'Q': {{1, 0}, {1, 1}}}

// fsfDirections lists, for each of the eight images of an atom (a, b),
// the direction specs that select it: image i is (dy, dx) below.
var fsfImages = []struct {
	dy, dx func(a, b int) int
	specs  string // space-separated specs
}{
	{func(a, b int) int { return a }, func(a, b int) int { return b }, "ff vv rf rv fh rh hr"},
	{func(a, b int) int { return -a }, func(a, b int) int { return -b }, "bb vv lb lv bh lh hr"},
	{func(a, b int) int { return -b }, func(a, b int) int { return a }, "rr ss br bs bh rh hr"},
	{func(a, b int) int { return b }, func(a, b int) int { return -a }, "ll ss fl fs fh lh hr"},
	{func(a, b int) int { return b }, func(a, b int) int { return a }, "rr ss fr fs fh rh hl"},
	{func(a, b int) int { return -b }, func(a, b int) int { return -a }, "ll ss bl bs bh lh hl"},
	{func(a, b int) int { return -a }, func(a, b int) int { return b }, "bb vv rb rv bh rh hl"},
	{func(a, b int) int { return a }, func(a, b int) int { return -b }, "ff vv lf lv fh lh hl"},
}

// parseFSFBetza reads a description in the format's dialect into moves.
func parseFSFBetza(s string) ([]fsfMove, error) {
	const verticals, horizontals = "fbvh", "rlsh"
	var out []fsfMove
	var modalities []bool // capture?
	var dirs []string
	hop, grass, lame, initial := false, false, false, false
	atoms := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == 'm' || c == 'c':
			modalities = append(modalities, c == 'c')
		case c == 'p':
			hop = true
		case c == 'g':
			grass = true
		case c == 'n':
			lame = true
		case c == 'i':
			initial = true
		case c == 'e':
			// Marks the whole piece (translateBetza).
		case strings.IndexByte(verticals, c) >= 0 || strings.IndexByte(horizontals, c) >= 0:
			if i+1 < len(s) {
				c2 := s[i+1]
				if c2 == c || strings.IndexByte(verticals, c) >= 0 && strings.IndexByte(horizontals, c2) >= 0 ||
					strings.IndexByte(horizontals, c) >= 0 && strings.IndexByte(verticals, c2) >= 0 {
					dirs = append(dirs, string([]byte{c, c2}))
					i++
					continue
				}
			}
			dirs = append(dirs, string([]byte{c, c}))
		case fsfLeaps[c] != nil || fsfRiders[c] != nil:
			atoms++
			leaps, rider := fsfLeaps[c], false
			if r := fsfRiders[c]; r != nil {
				leaps, rider = r, true
			}
			dist := 0
			if grass {
				dist = 1
			}
			if i+1 < len(s) && (s[i+1] >= '0' && s[i+1] <= '9' || s[i+1] == c) {
				rider = true
				if s[i+1] != c {
					dist = int(s[i+1] - '0')
					if i+2 < len(s) && s[i+2] >= '0' && s[i+2] <= '9' {
						return nil, fmt.Errorf("betza %q: a range has one digit", s)
					}
				}
				i++
			}
			kind := kindLeap
			switch {
			case grass:
				kind = kindGrasshop
			case hop:
				kind = kindHop
			case rider:
				kind = kindRide
			}
			if kind == kindLeap {
				dist = 1
			}
			if lame && kind != kindLeap {
				return nil, fmt.Errorf("betza %q: a lame (n) rider is not supported", s)
			}
			if lame && leaps[0][0] != 2 {
				return nil, fmt.Errorf("betza %q: lame (n) leaps are supported on D, N and A only", s)
			}
			if (kind == kindHop || kind == kindGrasshop) && dist > 1 {
				return nil, fmt.Errorf("betza %q: a hopper with a range is not supported", s)
			}
			mods := modalities
			if len(mods) == 0 {
				mods = []bool{false, true}
			}
			for _, leap := range leaps {
				ds := dirs
				if len(leaps) == 1 && leap[1] == 0 {
					// A pair on a single orthogonal atom is split.
					ds = nil
					for _, d := range dirs {
						if d[0] != d[1] {
							ds = append(ds, string([]byte{d[0], d[0]}), string([]byte{d[1], d[1]}))
						} else {
							ds = append(ds, d)
						}
					}
				}
				for _, capture := range mods {
					if initial && capture {
						continue // the format has no initial captures
					}
					for _, img := range fsfImages {
						if !selects(ds, img.specs) {
							continue
						}
						out = append(out, fsfMove{
							dx: img.dx(leap[0], leap[1]), dy: img.dy(leap[0], leap[1]),
							kind: kind, dist: dist, capture: capture, initial: initial, lame: lame,
						})
					}
				}
			}
			modalities, dirs = nil, nil
			hop, grass, lame, initial = false, false, false, false
		default:
			return nil, fmt.Errorf("betza %q: %q is not part of the supported Betza notation", s, string(c))
		}
	}
	if atoms == 0 {
		return nil, fmt.Errorf("betza %q: no move (a description needs an atom such as W, F, N, R, B, Q or K)", s)
	}
	if len(modalities) > 0 || len(dirs) > 0 || hop || grass || lame || initial {
		return nil, fmt.Errorf("betza %q: modifiers at the end without an atom", s)
	}
	return out, nil
}

func selects(dirs []string, specs string) bool {
	if len(dirs) == 0 {
		return true
	}
	for _, d := range dirs {
		for _, sp := range strings.Fields(specs) {
			if d == sp {
				return true
			}
		}
	}
	return false
}

// moveKey identifies a move of the format's tables: later groups that
// give the same key replace the earlier one's range.
type moveKey struct {
	dx, dy  int
	kind    moveKind
	capture bool
	initial bool
}

// normalize merges moves as the format's tables do: one entry per
// direction, kind, modality and initial flag (the last range given wins);
// a leap a ride along the same direction also makes, and an initial
// move the same non-initial move makes, are dropped (they reach no square
// the other does not).
func normalize(moves []fsfMove) []fsfMove {
	byKey := map[moveKey]int{}
	var out []fsfMove
	for _, m := range moves {
		k := moveKey{m.dx, m.dy, m.kind, m.capture, m.initial}
		if i, ok := byKey[k]; ok {
			out[i] = m
			continue
		}
		byKey[k] = len(out)
		out = append(out, m)
	}
	keep := out[:0]
	for _, m := range out {
		_, ride := byKey[moveKey{m.dx, m.dy, kindRide, m.capture, m.initial}]
		_, rideAlways := byKey[moveKey{m.dx, m.dy, kindRide, m.capture, false}]
		_, leapAlways := byKey[moveKey{m.dx, m.dy, kindLeap, m.capture, false}]
		switch {
		case m.kind == kindLeap && ride:
			continue
		case m.initial && (rideAlways || m.kind == kindLeap && leapAlways && !m.lame):
			continue
		}
		keep = append(keep, m)
	}
	return keep
}

// ourAtom returns fairypost's atom letter for a leap (long, short).
func ourAtom(long, short int) byte {
	switch [2]int{long, short} {
	case [2]int{1, 0}:
		return 'W'
	case [2]int{1, 1}:
		return 'F'
	case [2]int{2, 0}:
		return 'D'
	case [2]int{2, 1}:
		return 'N'
	case [2]int{2, 2}:
		return 'A'
	case [2]int{3, 0}:
		return 'H'
	case [2]int{3, 1}:
		return 'C'
	case [2]int{3, 2}:
		return 'Z'
	case [2]int{3, 3}:
		return 'G'
	}
	return 0
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// ourDirection writes the one direction (dx, dy) in fairypost's grammar.
func ourDirection(dx, dy int) string {
	v, h := "", ""
	switch {
	case dy > 0:
		v = "f"
	case dy < 0:
		v = "b"
	}
	switch {
	case dx > 0:
		h = "r"
	case dx < 0:
		h = "l"
	}
	if abs(dx) > abs(dy) && v != "" {
		return h + v
	}
	return v + h
}

// groupKey is everything of a move but its direction.
type groupKey struct {
	long, short int
	kind        moveKind
	dist        int
	mode        string
	initial     bool
	lame        bool
}

// translateBetza returns the description s of the format's dialect in
// fairypost's grammar, with the same moves.
func translateBetza(s string) (string, error) {
	moves, err := parseFSFBetza(s)
	if err != nil {
		return "", err
	}
	moves = normalize(moves)
	// With e, the piece captures en passant on the squares it attacks but
	// cannot move to quietly (its leaps; riders' squares are not known
	// here, so e with a capturing rider is refused).
	enPassant := strings.IndexByte(s, 'e') >= 0
	quiet := map[[2]int]bool{}
	for _, m := range moves {
		if !m.capture {
			quiet[[2]int{m.dx, m.dy}] = true
		}
		if enPassant && m.capture && m.kind != kindLeap {
			return "", fmt.Errorf("betza %q: en passant (e) on a piece that captures as a rider or hopper is not supported", s)
		}
	}
	// Merge move-only and capture-only halves of the same move.
	type half struct{ move, capture bool }
	halves := map[moveKey]*half{}
	var order []fsfMove
	for _, m := range moves {
		k := moveKey{m.dx, m.dy, m.kind, false, m.initial}
		h, ok := halves[k]
		if !ok {
			h = &half{}
			halves[k] = h
			order = append(order, m)
		}
		if m.capture {
			h.capture = true
		} else {
			h.move = true
		}
	}
	groups := map[groupKey][][2]int{}
	var keys []groupKey
	for _, m := range order {
		h := halves[moveKey{m.dx, m.dy, m.kind, false, m.initial}]
		mode := ""
		switch {
		case h.move && !h.capture:
			mode = "m"
		case h.capture && !h.move:
			mode = "c"
			if enPassant && m.kind == kindLeap && !m.initial && !quiet[[2]int{m.dx, m.dy}] {
				mode = "ce"
			}
		}
		long, short := abs(m.dx), abs(m.dy)
		if short > long {
			long, short = short, long
		}
		dist := m.dist
		if m.kind == kindLeap {
			dist = 1
		}
		g := groupKey{long, short, m.kind, dist, mode, m.initial, m.lame}
		if _, ok := groups[g]; !ok {
			keys = append(keys, g)
		}
		groups[g] = append(groups[g], [2]int{m.dx, m.dy})
	}
	var tokens []betzaToken
	for _, g := range keys {
		atom := ourAtom(g.long, g.short)
		if atom == 0 {
			return "", fmt.Errorf("betza %q: leap (%d,%d) is not supported", s, g.long, g.short)
		}
		suffix := ""
		switch {
		case g.kind == kindLeap:
		case g.kind == kindGrasshop:
			suffix = string(atom)
		case g.dist == 0:
			suffix = string(atom)
		default:
			suffix = fmt.Sprint(g.dist)
		}
		prefix := g.mode
		if g.initial {
			prefix += "i"
		}
		if g.lame {
			prefix += "n"
		}
		switch g.kind {
		case kindHop:
			prefix += "p"
		case kindGrasshop:
			prefix += "g"
		}
		dirs := groups[g]
		images := 8
		if g.short == 0 || g.short == g.long {
			images = 4
		}
		if len(dirs) == images {
			tokens = append(tokens, betzaToken{prefix, string(atom) + suffix})
			continue
		}
		sort.Slice(dirs, func(i, j int) bool {
			if dirs[i][1] != dirs[j][1] {
				return dirs[i][1] > dirs[j][1]
			}
			return dirs[i][0] > dirs[j][0]
		})
		for _, d := range dirs {
			tokens = append(tokens, betzaToken{prefix + ourDirection(d[0], d[1]), string(atom) + suffix})
		}
	}
	return joinTokens(tokens), nil
}

// betzaToken is one group of a description: its modifiers and directions,
// and its atom with the range.
type betzaToken struct{ prefix, body string }

// joinTokens writes the groups, naming the usual compounds: W and F
// leaps with the same modifiers are K, their unlimited rides R, B and Q.
func joinTokens(tokens []betzaToken) string {
	merged := make([]bool, len(tokens))
	for i := range tokens {
		for j := i + 1; j < len(tokens); j++ {
			if merged[i] || merged[j] || tokens[i].prefix != tokens[j].prefix {
				continue
			}
			pair := tokens[i].body + "+" + tokens[j].body
			switch pair {
			case "W+F", "F+W":
				tokens[i].body, merged[j] = "K", true
			case "WW+FF", "FF+WW":
				tokens[i].body, merged[j] = "Q", true
			}
		}
	}
	var b strings.Builder
	for i, t := range tokens {
		if merged[i] {
			continue
		}
		switch t.body {
		case "WW":
			t.body = "R"
		case "FF":
			t.body = "B"
		}
		b.WriteString(t.prefix + t.body)
	}
	return b.String()
}
