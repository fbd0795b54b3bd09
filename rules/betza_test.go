package rules

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"
)

// Hand-written direction sets, independent of the parser's own tables.
var (
	betzaOrthoVecs  = [][2]int8{{0, 1}, {1, 0}, {0, -1}, {-1, 0}}
	betzaDiagVecs   = [][2]int8{{1, 1}, {1, -1}, {-1, -1}, {-1, 1}}
	betzaKnightVecs = [][2]int8{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}
)

// betzaLegs builds plain legs with the given range and mode.
func betzaLegs(rng int8, mode Mode, vecs ...[2]int8) []Leg {
	out := make([]Leg, len(vecs))
	for i, v := range vecs {
		out[i] = Leg{DX: v[0], DY: v[1], Range: rng, Mode: mode}
	}
	return out
}

// betzaWith returns a copy of legs with f applied to each.
func betzaWith(legs []Leg, f func(*Leg)) []Leg {
	out := slices.Clone(legs)
	for i := range out {
		f(&out[i])
	}
	return out
}

func betzaScale(vecs [][2]int8, k int8) [][2]int8 {
	out := make([][2]int8, len(vecs))
	for i, v := range vecs {
		out[i] = [2]int8{v[0] * k, v[1] * k}
	}
	return out
}

func betzaCat(parts ...[]Leg) []Leg {
	var out []Leg
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func betzaLegKey(l Leg) string { return fmt.Sprintf("%+v", l) }

// betzaSortedKeys returns the legs as sorted strings, for set comparison.
func betzaSortedKeys(legs []Leg) []string {
	keys := make([]string, len(legs))
	for i, l := range legs {
		keys[i] = betzaLegKey(l)
	}
	sort.Strings(keys)
	return keys
}

// betzaCheckInvariants checks the properties every successful parse must have.
func betzaCheckInvariants(t *testing.T, input string, legs []Leg) {
	t.Helper()
	if len(legs) == 0 {
		t.Errorf("ParseBetza(%q): success with no legs", input)
	}
	seen := make(map[Leg]bool)
	for _, l := range legs {
		if seen[l] {
			t.Errorf("ParseBetza(%q): duplicate leg %+v", input, l)
		}
		seen[l] = true
		ax, ay := max(l.DX, -l.DX), max(l.DY, -l.DY)
		switch {
		case l.DX == 0 && l.DY == 0:
			t.Errorf("ParseBetza(%q): null leg %+v", input, l)
		case ax > 3 || ay > 3:
			t.Errorf("ParseBetza(%q): step too long %+v", input, l)
		case l.Range < 0 || l.Range > 12:
			t.Errorf("ParseBetza(%q): range out of 0..12 %+v", input, l)
		case l.Mode == 0 || l.Mode&^ModeBoth != 0:
			t.Errorf("ParseBetza(%q): bad mode %+v", input, l)
		case l.Hop && l.Range == 1:
			t.Errorf("ParseBetza(%q): hop on a leaper %+v", input, l)
		case l.Lame && max(ax, ay) != 2:
			t.Errorf("ParseBetza(%q): lame leg not of length 2 %+v", input, l)
		case l.Lame && l.Range != 1:
			t.Errorf("ParseBetza(%q): lame leg is not a leaper %+v", input, l)
		case l.EnPassant && l.Mode&ModeCapture == 0:
			t.Errorf("ParseBetza(%q): en passant on a move-only leg %+v", input, l)
		}
	}
}

// betzaCheckError checks that err is a well-formed *BetzaError for input.
func betzaCheckError(t *testing.T, input string, err error) *BetzaError {
	t.Helper()
	var be *BetzaError
	if !errors.As(err, &be) {
		t.Fatalf("ParseBetza(%q): error %v (%T) is not a *BetzaError", input, err, err)
	}
	if be.Input != input {
		t.Errorf("ParseBetza(%q): error Input = %q", input, be.Input)
	}
	if be.Pos < 0 || be.Pos > len(input) {
		t.Errorf("ParseBetza(%q): error Pos %d out of range", input, be.Pos)
	}
	if be.Msg == "" || !strings.Contains(err.Error(), be.Msg) {
		t.Errorf("ParseBetza(%q): bad message %q", input, err.Error())
	}
	return be
}

func TestParseBetza(t *testing.T) {
	var (
		ortho  = betzaOrthoVecs
		diag   = betzaDiagVecs
		knight = betzaKnightVecs
		ep     = func(l *Leg) { l.EnPassant = true }
		hop    = func(l *Leg) { l.Hop = true }
		initMv = func(l *Leg) { l.Initial, l.Lame = true, true }
	)
	tests := []struct {
		name, in string
		want     []Leg
	}{
		{"king", "K", betzaLegs(1, ModeBoth, append(slices.Clone(ortho), diag...)...)},
		{"knight", "N", betzaLegs(1, ModeBoth, knight...)},
		{"rook", "R", betzaLegs(0, ModeBoth, ortho...)},
		{"bishop", "B", betzaLegs(0, ModeBoth, diag...)},
		{"queen", "Q", betzaLegs(0, ModeBoth, append(slices.Clone(ortho), diag...)...)},
		{"pawn", "fmWfceFifmnD", betzaCat(
			betzaLegs(1, ModeMove, [2]int8{0, 1}),
			betzaWith(betzaLegs(1, ModeCapture, [2]int8{1, 1}, [2]int8{-1, 1}), ep),
			betzaWith(betzaLegs(1, ModeMove, [2]int8{0, 2}), initMv),
		)},
		{"berolina pawn", "mfFcfeWifmnA", betzaCat(
			betzaLegs(1, ModeMove, [2]int8{1, 1}, [2]int8{-1, 1}),
			betzaWith(betzaLegs(1, ModeCapture, [2]int8{0, 1}), ep),
			betzaWith(betzaLegs(1, ModeMove, [2]int8{2, 2}, [2]int8{-2, 2}), initMv),
		)},
		{"xiangqi cannon", "mRcpR", betzaCat(
			betzaLegs(0, ModeMove, ortho...),
			betzaWith(betzaLegs(0, ModeCapture, ortho...), hop),
		)},
		{"tiger", "mBcN", betzaCat(
			betzaLegs(0, ModeMove, diag...),
			betzaLegs(1, ModeCapture, knight...),
		)},
		{"forward knight moves", "mffNmfsNcN", betzaCat(
			betzaLegs(1, ModeMove, [2]int8{1, 2}, [2]int8{-1, 2}),
			betzaLegs(1, ModeMove, [2]int8{2, 1}, [2]int8{-2, 1}),
			betzaLegs(1, ModeCapture, knight...),
		)},
		{"forward king moves", "mfKcK", betzaCat(
			betzaLegs(1, ModeMove, [2]int8{0, 1}, [2]int8{1, 1}, [2]int8{-1, 1}),
			betzaLegs(1, ModeCapture, append(slices.Clone(ortho), diag...)...),
		)},
		{"forward queen moves", "mfQcQ", betzaCat(
			betzaLegs(0, ModeMove, [2]int8{0, 1}, [2]int8{1, 1}, [2]int8{-1, 1}),
			betzaLegs(0, ModeCapture, append(slices.Clone(ortho), diag...)...),
		)},
		{"forward rook moves", "mfRcR", betzaCat(
			betzaLegs(0, ModeMove, [2]int8{0, 1}),
			betzaLegs(0, ModeCapture, ortho...),
		)},
		{"forward bishop moves", "mfBcB", betzaCat(
			betzaLegs(0, ModeMove, [2]int8{1, 1}, [2]int8{-1, 1}),
			betzaLegs(0, ModeCapture, diag...),
		)},
		{"chancellor", "RN", betzaCat(betzaLegs(0, ModeBoth, ortho...), betzaLegs(1, ModeBoth, knight...))},
		{"archbishop", "BN", betzaCat(betzaLegs(0, ModeBoth, diag...), betzaLegs(1, ModeBoth, knight...))},
		{"nightrider", "NN", betzaLegs(0, ModeBoth, knight...)},
		{"short rook W4", "W4", betzaLegs(4, ModeBoth, ortho...)},
		{"forward rook", "fR", betzaLegs(0, ModeBoth, [2]int8{0, 1})},
		{"soldier", "fsW", betzaLegs(1, ModeBoth, [2]int8{0, 1}, [2]int8{1, 0}, [2]int8{-1, 0})},
		{"narrow forward knight", "ffN", betzaLegs(1, ModeBoth, [2]int8{1, 2}, [2]int8{-1, 2})},

		// Ranges and riders.
		{"rook range 3", "R3", betzaLegs(3, ModeBoth, ortho...)},
		{"rook R0", "R0", betzaLegs(0, ModeBoth, ortho...)},
		{"R1 is a wazir", "R1", betzaLegs(1, ModeBoth, ortho...)},
		{"W0 is a rook", "W0", betzaLegs(0, ModeBoth, ortho...)},
		{"WW is a rook", "WW", betzaLegs(0, ModeBoth, ortho...)},
		{"W1 is a wazir", "W1", betzaLegs(1, ModeBoth, ortho...)},
		{"N2", "N2", betzaLegs(2, ModeBoth, knight...)},
		{"range 12", "F12", betzaLegs(12, ModeBoth, diag...)},
		{"leading zero", "F012", betzaLegs(12, ModeBoth, diag...)},
		{"K2", "K2", betzaLegs(2, ModeBoth, append(slices.Clone(ortho), diag...)...)},
		{"dabbaba rider", "DD", betzaLegs(0, ModeBoth, betzaScale(ortho, 2)...)},
		{"alfil", "A", betzaLegs(1, ModeBoth, betzaScale(diag, 2)...)},
		{"threeleaper", "H", betzaLegs(1, ModeBoth, betzaScale(ortho, 3)...)},
		{"tripper", "G", betzaLegs(1, ModeBoth, betzaScale(diag, 3)...)},
		{"camel C", "C", betzaLegs(1, ModeBoth, [2]int8{1, 3}, [2]int8{3, 1}, [2]int8{3, -1}, [2]int8{1, -3}, [2]int8{-1, -3}, [2]int8{-3, -1}, [2]int8{-3, 1}, [2]int8{-1, 3})},
		{"zebra J", "J", betzaLegs(1, ModeBoth, [2]int8{2, 3}, [2]int8{3, 2}, [2]int8{3, -2}, [2]int8{2, -3}, [2]int8{-2, -3}, [2]int8{-3, -2}, [2]int8{-3, 2}, [2]int8{-2, 3})},
		{"NNN is nightrider plus knight", "NNN", betzaCat(betzaLegs(0, ModeBoth, knight...), betzaLegs(1, ModeBoth, knight...))},

		// Modes and flags.
		{"mc is both", "mcN", betzaLegs(1, ModeBoth, knight...)},
		{"cm is both", "cmN", betzaLegs(1, ModeBoth, knight...)},
		{"hopping queen", "pQ", betzaWith(betzaLegs(0, ModeBoth, append(slices.Clone(ortho), diag...)...), hop)},
		{"hop on range 2", "pW2", betzaWith(betzaLegs(2, ModeBoth, ortho...), hop)},
		{"hop on doubled", "pNN", betzaWith(betzaLegs(0, ModeBoth, knight...), hop)},
		{"lame knight", "nN", betzaWith(betzaLegs(1, ModeBoth, knight...), func(l *Leg) { l.Lame = true })},
		{"lame D1", "nD1", betzaWith(betzaLegs(1, ModeBoth, betzaScale(ortho, 2)...), func(l *Leg) { l.Lame = true })},
		{"initial", "iW", betzaWith(betzaLegs(1, ModeBoth, ortho...), func(l *Leg) { l.Initial = true })},
		{"ep on both", "efW", betzaWith(betzaLegs(1, ModeBoth, [2]int8{0, 1}), ep)},

		// Directions on orthogonal atoms.
		{"bW", "bW", betzaLegs(1, ModeBoth, [2]int8{0, -1})},
		{"lW", "lW", betzaLegs(1, ModeBoth, [2]int8{-1, 0})},
		{"rR", "rR", betzaLegs(0, ModeBoth, [2]int8{1, 0})},
		{"vR", "vR", betzaLegs(0, ModeBoth, [2]int8{0, 1}, [2]int8{0, -1})},
		{"sR", "sR", betzaLegs(0, ModeBoth, [2]int8{1, 0}, [2]int8{-1, 0})},
		{"vsD all", "vsD", betzaLegs(1, ModeBoth, betzaScale(ortho, 2)...)},
		{"fbW", "fbW", betzaLegs(1, ModeBoth, [2]int8{0, 1}, [2]int8{0, -1})},
		{"separated fmr", "fmrW", betzaLegs(1, ModeMove, [2]int8{0, 1}, [2]int8{1, 0})},

		// Directions on diagonal atoms.
		{"fF", "fF", betzaLegs(1, ModeBoth, [2]int8{1, 1}, [2]int8{-1, 1})},
		{"bB", "bB", betzaLegs(0, ModeBoth, [2]int8{1, -1}, [2]int8{-1, -1})},
		{"lF", "lF", betzaLegs(1, ModeBoth, [2]int8{-1, -1}, [2]int8{-1, 1})},
		{"rA", "rA", betzaLegs(1, ModeBoth, [2]int8{2, 2}, [2]int8{2, -2})},
		{"flF", "flF", betzaLegs(1, ModeBoth, [2]int8{-1, 1})},
		{"lfF", "lfF", betzaLegs(1, ModeBoth, [2]int8{-1, 1})},
		{"brB", "brB", betzaLegs(0, ModeBoth, [2]int8{1, -1})},
		{"frblB", "frblB", betzaLegs(0, ModeBoth, [2]int8{1, 1}, [2]int8{-1, -1})},

		// Directions on oblique atoms.
		{"fN", "fN", betzaLegs(1, ModeBoth, [2]int8{1, 2}, [2]int8{2, 1}, [2]int8{-2, 1}, [2]int8{-1, 2})},
		{"bN", "bN", betzaLegs(1, ModeBoth, [2]int8{2, -1}, [2]int8{1, -2}, [2]int8{-1, -2}, [2]int8{-2, -1})},
		{"lN", "lN", betzaLegs(1, ModeBoth, [2]int8{-1, -2}, [2]int8{-2, -1}, [2]int8{-2, 1}, [2]int8{-1, 2})},
		{"rN", "rN", betzaLegs(1, ModeBoth, [2]int8{1, 2}, [2]int8{2, 1}, [2]int8{2, -1}, [2]int8{1, -2})},
		{"vN", "vN", betzaLegs(1, ModeBoth, [2]int8{1, 2}, [2]int8{1, -2}, [2]int8{-1, -2}, [2]int8{-1, 2})},
		{"sN", "sN", betzaLegs(1, ModeBoth, [2]int8{2, 1}, [2]int8{2, -1}, [2]int8{-2, -1}, [2]int8{-2, 1})},
		{"bbN", "bbN", betzaLegs(1, ModeBoth, [2]int8{1, -2}, [2]int8{-1, -2})},
		{"llN", "llN", betzaLegs(1, ModeBoth, [2]int8{-2, -1}, [2]int8{-2, 1})},
		{"rrN", "rrN", betzaLegs(1, ModeBoth, [2]int8{2, 1}, [2]int8{2, -1})},
		{"sfN", "sfN", betzaLegs(1, ModeBoth, [2]int8{2, 1}, [2]int8{-2, 1})},
		{"bsN", "bsN", betzaLegs(1, ModeBoth, [2]int8{2, -1}, [2]int8{-2, -1})},
		{"sbN", "sbN", betzaLegs(1, ModeBoth, [2]int8{2, -1}, [2]int8{-2, -1})},
		{"frN", "frN", betzaLegs(1, ModeBoth, [2]int8{1, 2})},
		{"rfN", "rfN", betzaLegs(1, ModeBoth, [2]int8{2, 1})},
		{"lbN", "lbN", betzaLegs(1, ModeBoth, [2]int8{-2, -1})},
		{"blN", "blN", betzaLegs(1, ModeBoth, [2]int8{-1, -2})},
		{"frC", "frC", betzaLegs(1, ModeBoth, [2]int8{1, 3})},
		{"lfZ", "lfZ", betzaLegs(1, ModeBoth, [2]int8{-3, 2})},
		{"ffZ", "ffZ", betzaLegs(1, ModeBoth, [2]int8{2, 3}, [2]int8{-2, 3})},
		{"greedy ffs", "ffsN", betzaLegs(1, ModeBoth, [2]int8{1, 2}, [2]int8{2, 1}, [2]int8{2, -1}, [2]int8{-2, -1}, [2]int8{-2, 1}, [2]int8{-1, 2})},
		{"frrN pair then r", "frrN", betzaLegs(1, ModeBoth, [2]int8{1, 2}, [2]int8{2, 1}, [2]int8{2, -1}, [2]int8{1, -2})},
		{"fbN all", "fbN", betzaLegs(1, ModeBoth, knight...)},

		// Directions on K and Q.
		{"flK", "flK", betzaLegs(1, ModeBoth, [2]int8{-1, 1})},
		{"vK", "vK", betzaLegs(1, ModeBoth, [2]int8{0, 1}, [2]int8{0, -1})},
		{"sQ", "sQ", betzaLegs(0, ModeBoth, [2]int8{1, 0}, [2]int8{-1, 0})},
		{"fsK", "fsK", betzaLegs(1, ModeBoth, [2]int8{0, 1}, [2]int8{1, 0}, [2]int8{-1, 0}, [2]int8{1, 1}, [2]int8{-1, 1})},
		{"bQ", "bQ", betzaLegs(0, ModeBoth, [2]int8{0, -1}, [2]int8{1, -1}, [2]int8{-1, -1})},
		{"frfK", "frfK", betzaLegs(1, ModeBoth, [2]int8{0, 1}, [2]int8{1, 1}, [2]int8{-1, 1})},

		// Duplicates.
		{"duplicate groups", "mRmR", betzaLegs(0, ModeMove, ortho...)},
		{"WW equals R", "WWR", betzaLegs(0, ModeBoth, ortho...)},
		{"C and L are the same", "CL", betzaLegs(1, ModeBoth, [2]int8{1, 3}, [2]int8{3, 1}, [2]int8{3, -1}, [2]int8{1, -3}, [2]int8{-1, -3}, [2]int8{-3, -1}, [2]int8{-3, 1}, [2]int8{-1, 3})},
		{"K contains F", "KF", betzaLegs(1, ModeBoth, append(slices.Clone(ortho), diag...)...)},
		{"different modes kept", "RmR", betzaCat(betzaLegs(0, ModeBoth, ortho...), betzaLegs(0, ModeMove, ortho...))},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseBetza(tc.in)
			if err != nil {
				t.Fatalf("ParseBetza(%q): unexpected error: %v", tc.in, err)
			}
			betzaCheckInvariants(t, tc.in, got)
			if g, w := betzaSortedKeys(got), betzaSortedKeys(tc.want); !slices.Equal(g, w) {
				t.Errorf("ParseBetza(%q):\n got  %v\n want %v", tc.in, g, w)
			}
		})
	}
}

// TestParseBetzaOrder pins the documented leg order.
func TestParseBetzaOrder(t *testing.T) {
	tests := []struct {
		in   string
		want [][2]int8
	}{
		{"N", betzaKnightVecs},
		{"W", betzaOrthoVecs},
		{"F", betzaDiagVecs},
		{"K", append(slices.Clone(betzaOrthoVecs), betzaDiagVecs...)},
		{"Q", append(slices.Clone(betzaOrthoVecs), betzaDiagVecs...)},
		{"Z", [][2]int8{{2, 3}, {3, 2}, {3, -2}, {2, -3}, {-2, -3}, {-3, -2}, {-3, 2}, {-2, 3}}},
		// Direction letter order does not matter; group order does.
		{"lffrN", [][2]int8{{1, 2}, {-2, 1}}},
		{"frlfN", [][2]int8{{1, 2}, {-2, 1}}},
		{"lfrfN", [][2]int8{{2, 1}, {-2, 1}}},
		{"mfKcK", [][2]int8{{0, 1}, {1, 1}, {-1, 1}, {0, 1}, {1, 0}, {0, -1}, {-1, 0}, {1, 1}, {1, -1}, {-1, -1}, {-1, 1}}},
		{"cFmW", [][2]int8{{1, 1}, {1, -1}, {-1, -1}, {-1, 1}, {0, 1}, {1, 0}, {0, -1}, {-1, 0}}},
		// A later duplicate is dropped, the first kept in place.
		{"WfWmF", [][2]int8{{0, 1}, {1, 0}, {0, -1}, {-1, 0}, {1, 1}, {1, -1}, {-1, -1}, {-1, 1}}},
		// fWW is a forward rook, then fW a leaper.
		{"fWWfW", [][2]int8{{0, 1}, {0, 1}}},
	}
	for _, tc := range tests {
		got, err := ParseBetza(tc.in)
		if err != nil {
			t.Errorf("ParseBetza(%q): unexpected error: %v", tc.in, err)
			continue
		}
		vecs := make([][2]int8, len(got))
		for i, l := range got {
			vecs[i] = [2]int8{l.DX, l.DY}
		}
		if !slices.Equal(vecs, tc.want) {
			t.Errorf("ParseBetza(%q) order = %v, want %v", tc.in, vecs, tc.want)
		}
	}
}

func TestParseBetzaErrors(t *testing.T) {
	tests := []struct {
		name, in string
		pos      int
		msg      string // substring of the message
	}{
		{"empty", "", 0, "empty"},
		{"unknown atom", "X", 0, "unknown atom"},
		{"hop on leaper", "pN", 0, "hopper"},
		{"lame wazir", "nW", 0, "lame"},
		{"grasshopper on leaper", "gN", 0, "grasshopper"},
		{"grasshopper and hopper", "pgR", 1, "not both"},
		{"a", "aQ", 0, "unsupported"},
		{"doubled king", "KK", 1, "doubled K"},
		{"range too big", "W13", 1, "range 13"},
		{"ep on move-only", "emR", 0, "en passant"},
		{"pair on orthogonal", "flW", 0, "orthogonal"},
		{"v on diagonal", "vF", 0, "diagonal"},
		{"modifier only", "m", 1, "missing atom"},
		{"direction only", "f", 1, "missing atom"},
		{"trailing unsupported", "Q2x", 2, "unsupported"},

		{"doubled rook", "RR", 1, "doubled R"},
		{"doubled bishop", "BB", 1, "doubled B"},
		{"doubled queen", "mQQ", 2, "doubled Q"},
		{"range after doubled", "NN2", 2, "doubled"},
		{"huge range", "R99999999999999999999", 1, "range 99999999999999999999"},
		{"hop on R1", "pR1", 0, "hopper"},
		{"hop on king", "pK", 0, "hopper"},
		{"lame rider", "nNN", 0, "lame"},
		{"lame N2", "nN2", 0, "lame"},
		{"lame king", "nK", 0, "lame"},
		{"lame H", "nH", 0, "lame"},
		{"multi-leg a", "aW", 0, "unsupported"},
		{"j", "jR", 0, "unsupported"},
		{"o", "oR", 0, "unsupported"},
		{"z", "zB", 0, "unsupported"},
		{"q", "qN", 0, "unsupported"},
		{"x", "xN", 0, "unsupported"},
		{"y", "yN", 0, "unsupported"},
		{"t", "tN", 0, "unsupported"},
		{"u", "uN", 0, "unsupported"},
		{"h", "hN", 0, "unsupported"},
		{"k", "kN", 0, "unsupported"},
		{"unsupported in second group", "NaB", 1, "unsupported"},
		{"unknown second atom", "NE", 1, "unknown atom"},
		{"leading digit", "2N", 0, "range without an atom"},
		{"space", "N B", 1, "unexpected character"},
		{"non-ASCII", "Nü", 1, "unexpected character"},
		{"invalid UTF-8", "N\xff", 1, "unexpected character"},
		{"paren", "(N)", 0, "unexpected character"},
		{"repeated m", "mmN", 1, "repeated modifier"},
		{"repeated p in group", "pcpR", 2, "repeated modifier"},
		{"trailing modifiers", "NRfm", 4, "missing atom"},
		{"ep on move-only late", "mfeW", 2, "en passant"},
		{"pair rf on W", "rfR", 0, "orthogonal"},
		{"doubled on W", "ffW", 0, "oblique"},
		{"doubled on F", "bbF", 0, "oblique"},
		{"doubled on K", "ffK", 0, "oblique"},
		{"vv on N", "vvN", 0, "not supported"},
		{"s on bishop", "sB", 0, "diagonal"},
		{"fs on F", "fsF", 1, "diagonal"},
		{"fv on N", "fvN", 0, "ff"},
		{"vb on N", "vbN", 0, "bb"},
		{"lv on N", "lvN", 0, "not supported"},
		{"sr on N", "srN", 0, "not supported"},
		{"leftmost semantic error", "epmN", 0, "en passant"},
		{"direction error before flag error", "flpW", 0, "orthogonal"},
		{"separated directions are separate specs", "fnrpW", 1, "lame"},
		{"lowercase atom", "mn", 2, "missing atom"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			legs, err := ParseBetza(tc.in)
			if err == nil {
				t.Fatalf("ParseBetza(%q) = %+v, want error", tc.in, legs)
			}
			if legs != nil {
				t.Errorf("ParseBetza(%q) returned legs %+v with error", tc.in, legs)
			}
			be := betzaCheckError(t, tc.in, err)
			if be.Pos != tc.pos {
				t.Errorf("ParseBetza(%q): error at byte %d, want %d (%v)", tc.in, be.Pos, tc.pos, err)
			}
			if !strings.Contains(be.Msg, tc.msg) {
				t.Errorf("ParseBetza(%q): message %q does not contain %q", tc.in, be.Msg, tc.msg)
			}
		})
	}
}

func TestBetzaErrorString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"aQ", `betza "aQ": byte 0 ('a'): unsupported modifier`},
		{"m", `betza "m": byte 1 (end of input): missing atom after modifiers`},
		{"", `betza "": byte 0 (end of input): empty description`},
		{"N\xff", `betza "N\xff": byte 1 (byte 0xff): unexpected character`},
		{"Nü", `betza "Nü": byte 1 ('ü'): unexpected character`},
	}
	for _, tc := range tests {
		_, err := ParseBetza(tc.in)
		if err == nil || err.Error() != tc.want {
			t.Errorf("ParseBetza(%q) error = %v, want %s", tc.in, err, tc.want)
		}
	}
}

// TestParseBetzaObliqueCounts checks the direction specs on every oblique
// atom by count and by the geometric property each is documented to select.
func TestParseBetzaObliqueCounts(t *testing.T) {
	abs := func(x int8) int8 { return max(x, -x) }
	props := map[string]func(dx, dy int8) bool{
		"f":  func(dx, dy int8) bool { return dy > 0 },
		"b":  func(dx, dy int8) bool { return dy < 0 },
		"l":  func(dx, dy int8) bool { return dx < 0 },
		"r":  func(dx, dy int8) bool { return dx > 0 },
		"v":  func(dx, dy int8) bool { return abs(dy) > abs(dx) },
		"s":  func(dx, dy int8) bool { return abs(dx) > abs(dy) },
		"ff": func(dx, dy int8) bool { return dy > 0 && abs(dy) > abs(dx) },
		"bb": func(dx, dy int8) bool { return dy < 0 && abs(dy) > abs(dx) },
		"ll": func(dx, dy int8) bool { return dx < 0 && abs(dx) > abs(dy) },
		"rr": func(dx, dy int8) bool { return dx > 0 && abs(dx) > abs(dy) },
		"fs": func(dx, dy int8) bool { return dy > 0 && abs(dx) > abs(dy) },
		"sf": func(dx, dy int8) bool { return dy > 0 && abs(dx) > abs(dy) },
		"bs": func(dx, dy int8) bool { return dy < 0 && abs(dx) > abs(dy) },
		"sb": func(dx, dy int8) bool { return dy < 0 && abs(dx) > abs(dy) },
		"fr": func(dx, dy int8) bool { return dx > 0 && dy > abs(dx) },
		"fl": func(dx, dy int8) bool { return dx < 0 && dy > abs(dx) },
		"br": func(dx, dy int8) bool { return dx > 0 && -dy > abs(dx) },
		"bl": func(dx, dy int8) bool { return dx < 0 && -dy > abs(dx) },
		"rf": func(dx, dy int8) bool { return dy > 0 && dx > abs(dy) },
		"rb": func(dx, dy int8) bool { return dy < 0 && dx > abs(dy) },
		"lf": func(dx, dy int8) bool { return dy > 0 && -dx > abs(dy) },
		"lb": func(dx, dy int8) bool { return dy < 0 && -dx > abs(dy) },
	}
	for _, atom := range "NCLZJ" {
		all, err := ParseBetza(string(atom))
		if err != nil || len(all) != 8 {
			t.Fatalf("ParseBetza(%q) = %v, %v", string(atom), all, err)
		}
		for spec, prop := range props {
			in := spec + string(atom)
			got, err := ParseBetza(in)
			if err != nil {
				t.Errorf("ParseBetza(%q): %v", in, err)
				continue
			}
			var want []Leg
			for _, l := range all {
				if prop(l.DX, l.DY) {
					want = append(want, l)
				}
			}
			wantLen := map[int]int{1: 4, 2: 2}[len(spec)]
			if len(spec) == 2 && spec[0] != spec[1] && !strings.ContainsAny(spec, "s") {
				wantLen = 1
			}
			if len(want) != wantLen || !slices.Equal(betzaSortedKeys(got), betzaSortedKeys(want)) {
				t.Errorf("ParseBetza(%q) = %+v, want %d legs %+v", in, got, wantLen, want)
			}
		}
	}
}

// betzaAlphabet is what random descriptions are made of: every meaningful
// letter plus a few invalid ones.
const betzaAlphabet = "mcpnie" + "fblrvs" + "WFDNAHCLZJGKRBQ" + "0123456789" + "gaxX "

// TestParseBetzaProperties checks the invariants on every successful parse
// of an exhaustive set of single groups and of many random descriptions.
func TestParseBetzaProperties(t *testing.T) {
	var inputs []string
	// Every single group: flag subset x direction run of up to 2 letters x
	// atom x suffix.
	dirRuns := []string{""}
	for _, a := range "fblrvs" {
		dirRuns = append(dirRuns, string(a))
		for _, b := range "fblrvs" {
			dirRuns = append(dirRuns, string(a)+string(b))
		}
	}
	suffixes := []string{"", "0", "1", "2", "12", "13"}
	for mask := range 1 << 6 {
		var flags []byte
		for k := range 6 {
			if mask&(1<<k) != 0 {
				flags = append(flags, "mcpnie"[k])
			}
		}
		for _, dir := range dirRuns {
			for _, atom := range "WFDNAHCLZJGKRBQ" {
				a := string(atom)
				for _, suf := range append(slices.Clone(suffixes), a) {
					inputs = append(inputs, dir+string(flags)+a+suf)
				}
			}
		}
	}
	// Random descriptions.
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := make([]byte, 1+rng.IntN(12))
		for i := range b {
			b[i] = betzaAlphabet[rng.IntN(len(betzaAlphabet))]
		}
		inputs = append(inputs, string(b))
	}

	ok := 0
	for _, in := range inputs {
		legs, err := ParseBetza(in)
		if err != nil {
			if legs != nil {
				t.Errorf("ParseBetza(%q): legs with error", in)
			}
			betzaCheckError(t, in, err)
			continue
		}
		ok++
		betzaCheckInvariants(t, in, legs)
		if t.Failed() {
			t.FailNow()
		}
	}
	// Guard against a vacuous test.
	if ok < len(inputs)/20 {
		t.Errorf("only %d of %d inputs parsed", ok, len(inputs))
	}
	t.Logf("%d of %d inputs parsed", ok, len(inputs))
}

func FuzzParseBetza(f *testing.F) {
	for _, s := range []string{"K", "fmWfceFifmnD", "mRcpR", "mffNmfsNcN", "flK", "W13", "pN", "Q2x", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		legs, err := ParseBetza(s)
		legs2, err2 := ParseBetza(s)
		if (err == nil) != (err2 == nil) || !slices.Equal(legs, legs2) {
			t.Fatalf("ParseBetza(%q) not deterministic: %v, %v vs %v, %v", s, legs, err, legs2, err2)
		}
		if err != nil {
			if err.Error() != err2.Error() {
				t.Fatalf("ParseBetza(%q) errors differ: %v vs %v", s, err, err2)
			}
			if legs != nil {
				t.Fatalf("ParseBetza(%q): legs with error", s)
			}
			betzaCheckError(t, s, err)
			return
		}
		betzaCheckInvariants(t, s, legs)
	})
}
