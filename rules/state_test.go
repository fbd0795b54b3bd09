package rules

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// eachVariant calls f with every registered variant: with its default
// options, and with each other value of each of its options.
func eachVariant(t *testing.T, f func(t *testing.T, v *Variant)) {
	r := testRegistry(t)
	for _, key := range r.Keys() {
		options := []string{""}
		for _, o := range r.Default(key).Options {
			for _, val := range o.Values[1:] {
				options = append(options, o.Key+"="+val)
			}
		}
		for _, opts := range options {
			t.Run(strings.TrimSpace(key+" "+opts), func(t *testing.T) {
				v, err := r.Variant(key, opts)
				if err != nil {
					t.Fatal(err)
				}
				f(t, v)
			})
		}
	}
}

// randomPositions plays games random moves deep from v's start and calls
// f with every position reached and each of its legal moves.
func randomPositions(v *Variant, games, plies int, f func(p *Position, m Move)) {
	rng := rand.New(rand.NewPCG(3, uint64(len(v.Key))))
	for g := 0; g < games; g++ {
		p := v.Start()
		for ply := 0; ply < plies; ply++ {
			moves := p.Legal(nil)
			if len(moves) == 0 {
				break
			}
			for _, m := range moves {
				f(&p, m)
			}
			p, _ = p.Play(moves[rng.IntN(len(moves))])
		}
	}
}

// loudState is a broken state type: its zero value writes a FEN field.
type loudState struct{}

func (loudState) pack() stateBytes { return stateBytes{} }
func (loudState) fen() string      { return "loud" }

// TestTurnIsNextTurns pins the split between the hooks: whose turn it is
// after a move is what NextTurn says (the other player's, by default),
// whatever AfterMove, which carries the rest of the move, does.
func TestTurnIsNextTurns(t *testing.T) {
	eachVariant(t, func(t *testing.T, v *Variant) {
		n := 0
		randomPositions(v, 4, 60, func(p *Position, m Move) {
			after, ok := p.After(m)
			if !ok {
				t.Fatalf("%s: After(%s) refused a legal move", p.FEN(), FormatMove(p, m))
			}
			want := Turn{ToAct: p.toAct.Other(), Mover: p.toAct.Other()}
			if v.Hooks.NextTurn != nil {
				want = v.Hooks.NextTurn(p, m)
			}
			if got := (Turn{ToAct: after.toAct, Mover: after.mover, Phase: after.phase}); got != want {
				t.Fatalf("%s: after %s the turn is %+v, NextTurn says %+v", p.FEN(), FormatMove(p, m), got, want)
			}
			n++
		})
		t.Logf("%d moves", n)
	})
}

// TestVariantStateRoundTrips pins the typed state's codec for every
// variant with state: a start position's state is zero and says nothing
// in FEN, and the state of every position reached in play is read back
// from its FEN unchanged, with the same hash.
func TestVariantStateRoundTrips(t *testing.T) {
	eachVariant(t, func(t *testing.T, v *Variant) {
		if v.State == nil {
			return
		}
		if st := v.Start().state; st != (stateBytes{}) {
			t.Fatalf("start state %v, want zero", st)
		}
		if s := v.State.fen(stateBytes{}); s != "" {
			t.Fatalf("the zero state writes %q in FEN, want nothing", s)
		}
		nonZero := 0
		randomPositions(v, 4, 80, func(p *Position, m Move) {
			after, _ := p.After(m)
			q, err := ParseFEN(v, after.FEN())
			if err != nil {
				t.Fatalf("%s: %v", after.FEN(), err)
			}
			if q.state != after.state || q.Hash() != after.Hash() {
				t.Fatalf("%s: state %v read back as %v (hash equal %v)", after.FEN(), after.state, q.state, q.Hash() == after.Hash())
			}
			if after.state != (stateBytes{}) {
				nonZero++
			}
		})
		t.Logf("%d positions with state", nonZero)
	})
}

// TestStateIdentityLeavesOutHowReached pins newStateKind's identity: two
// positions that differ only in a part of the state that records how they
// were reached (Crazyhouse Annihilation's pass count) hash the same, and
// FEN still tells them apart.
func TestStateIdentityLeavesOutHowReached(t *testing.T) {
	v := testRegistry(t).Default("annihilation")
	a := mustFEN(t, v, "4k3/8/8/8/8/8/8/4K3[] w - - 0 1")
	b := mustFEN(t, v, "4k3/8/8/8/8/8/8/4K3[] w - - 0 1 passes=1")
	if a.Hash() != b.Hash() {
		t.Errorf("the pass count changes the hash")
	}
	if a.FEN() == b.FEN() || annStateOf(&b).passes != 1 {
		t.Errorf("FEN %q and %q, pass count %d", a.FEN(), b.FEN(), annStateOf(&b).passes)
	}
}

// TestOptionSetBuild pins the one declaration of a variant's options:
// Variant.Options lists it as declared, the constructor receives each
// value typed (the default for a missing or empty one), and an unknown
// option or an undeclared value is refused before the variant is built.
func TestOptionSetBuild(t *testing.T) {
	type opts struct {
		size int
		on   bool
	}
	set := optionSet[opts]{
		choice("size", "the size", func(o *opts) *int { return &o.size }, []optionValue[int]{{"8", 8}, {"10", 10}}),
		choice("fast", "a switch", func(o *opts) *bool { return &o.on }, onOff()),
	}
	var got []opts
	build := func(o opts) *Variant {
		got = append(got, o)
		return &Variant{Key: "t"}
	}
	for _, c := range []struct {
		in   map[string]string
		want opts
	}{
		{nil, opts{size: 8}},
		{map[string]string{"size": "10"}, opts{size: 10}},
		{map[string]string{"size": "", "fast": "on"}, opts{size: 8, on: true}},
	} {
		got = nil
		v, err := set.build("t", c.in, build)
		if err != nil || len(got) != 1 || got[0] != c.want {
			t.Errorf("%v: built with %+v (%v), want %+v", c.in, got, err, c.want)
			continue
		}
		if len(v.Options) != 2 || v.Options[0].Key != "size" || strings.Join(v.Options[0].Values, ",") != "8,10" ||
			v.Options[1].Key != "fast" || strings.Join(v.Options[1].Values, ",") != "off,on" || v.Options[1].Doc != "a switch" {
			t.Errorf("Options %+v", v.Options)
		}
	}
	for _, bad := range []map[string]string{{"size": "12"}, {"fast": "yes"}, {"speed": "8"}} {
		got = nil
		if _, err := set.build("t", bad, build); !errors.Is(err, ErrInvalidVariant) || len(got) != 0 {
			t.Errorf("%v: %v, built %d times; want an invalid-variant error and no build", bad, err, len(got))
		}
	}
	for _, ctor := range []Constructor{newWinning, newEasymate, newColdFusion, newAnnihilation} {
		if _, err := ctor(map[string]string{"colour": "red"}); !errors.Is(err, ErrInvalidVariant) || !strings.Contains(err.Error(), `unknown option "colour"`) {
			t.Errorf("an unknown option: %v", err)
		}
	}
}
