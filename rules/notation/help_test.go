package notation

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/rules"
)

// checkExample plays the setup of the help entry n of variant key with
// the real parser and reports why n.Example is not a legal move there
// written exactly as SAN writes it; nil when it is.
func checkExample(r *rules.Registry, key string, n rules.NotationHelp) error {
	v, err := r.Variant(key, n.Options)
	if err != nil {
		return err
	}
	p := v.Start()
	if n.FEN != "" {
		if p, err = rules.ParseFEN(v, n.FEN); err != nil {
			return fmt.Errorf("setup FEN: %v", err)
		}
	}
	for _, s := range strings.Fields(n.Moves) {
		m, err := ParseMove(&p, s)
		if err != nil {
			return fmt.Errorf("setup move %s: %v", s, err)
		}
		if p, err = p.Play(m); err != nil {
			return fmt.Errorf("setup move %s: %v", s, err)
		}
	}
	m, err := ParseSAN(&p, n.Example)
	if err != nil {
		return fmt.Errorf("in %s: %v", p.FEN(), err)
	}
	if got := SAN(&p, m); got != n.Example {
		return fmt.Errorf("in %s the move is written %s", p.FEN(), got)
	}
	return nil
}

// TestHelpExamples checks every notation example of every variant's help
// (rules.VariantHelp): each must be a legal move in its setup, written as
// the bot writes it, so an example fails here the day it rots.
func TestHelpExamples(t *testing.T) {
	r, err := rules.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range r.Keys() {
		for _, n := range r.Default(key).Help.Notation {
			if err := checkExample(r, key, n); err != nil {
				t.Errorf("%s, %s example %s: %v", key, n.Kind, n.Example, err)
			}
		}
	}
}

// TestHelpExampleRot pins that checkExample refuses what rots: an example
// that is not legal in its setup, one written otherwise than SAN writes
// it, a setup move that is not legal, and options the variant lacks.
func TestHelpExampleRot(t *testing.T) {
	r, err := rules.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		key  string
		n    rules.NotationHelp
		want string
	}{
		{"winning", rules.NotationHelp{Example: "Af4>"}, "Af4"},
		{"crazyhouse", rules.NotationHelp{Example: "P@e4"}, "P@e4"},
		{"chess", rules.NotationHelp{Example: "Ng1f3"}, "written Nf3"},
		{"tank", rules.NotationHelp{Example: "M*a1", Moves: "e2e4 e2e4"}, "setup move e2e4"},
		{"easymate", rules.NotationHelp{Example: "QO-O-O", Options: "queencastle=always"}, "queencastle"},
		{"coldfusion", rules.NotationHelp{Example: "e10=Q(S)", FEN: "10/k3P5/10 w - - 0 1"}, "setup FEN"},
	} {
		err := checkExample(r, c.key, c.n)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s: got %v, want an error mentioning %q", c.key, c.n.Example, err, c.want)
		}
	}
}

// moveForms returns the forms of writing a move that the friendly text s
// shows beyond a plain move or capture: castling, a pass, and each sign
// of '@', '>', '&', '/', '^', '*', '~', '=', '(' and a '-' between squares
// it contains. Check marks are left out.
func moveForms(s string) []string {
	s = strings.TrimRight(s, "+#")
	var out []string
	for _, c := range []string{"O-O-O", "O-O"} {
		if strings.Contains(s, c) {
			out = append(out, "castling")
			s = strings.ReplaceAll(s, c, "")
		}
	}
	if strings.TrimSuffix(s, ">") == "pass" {
		out = append(out, "pass")
	}
	for _, c := range "@>&/^*~=(-" {
		if strings.ContainsRune(s, c) {
			out = append(out, string(c))
		}
	}
	return out
}

// TestHelpCoversMoveForms plays seeded random games in every variant
// (with the default options and with each option its help's examples
// use) and checks that every form of move met there has an example in
// the variant's help, so that a variant given a new kind of special move
// fails here until its help says how to write it. Promotion ('=') counts
// as explained for variants whose data promotes, since /rules explains
// the mark from the data.
func TestHelpCoversMoveForms(t *testing.T) {
	r, err := rules.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	for vi, key := range r.Keys() {
		def := r.Default(key)
		covered := map[string]bool{}
		options := map[string]bool{"": true}
		for _, n := range def.Help.Notation {
			for _, f := range moveForms(n.Example) {
				covered[f] = true
			}
			options[n.Options] = true
		}
		for opts := range options {
			t.Run(key+"/"+opts, func(t *testing.T) {
				t.Parallel()
				v, err := r.Variant(key, opts)
				if err != nil {
					t.Fatal(err)
				}
				if v.Promotion.Zone > 0 {
					covered["="] = true
				}
				missing := map[string]string{}
				rng := rand.New(rand.NewPCG(20261126, uint64(vi)))
				var buf [512]rules.Move
				for g := 0; g < 12; g++ {
					p := v.Start()
					for ply := 0; ply < 100; ply++ {
						legal := p.Legal(buf[:0])
						if len(legal) == 0 {
							break
						}
						for _, m := range legal {
							if m.Kind == rules.KindNormal && m.Promotion == rules.NoPieceType && m.Flags == 0 && m.Extra == 0 {
								continue // a plain move or capture
							}
							s := SAN(&p, m)
							for _, f := range moveForms(s) {
								if !covered[f] {
									missing[f] = s
								}
							}
						}
						if p, err = p.Play(legal[rng.IntN(len(legal))]); err != nil {
							t.Fatal(err)
						}
					}
				}
				for f, s := range missing {
					t.Errorf("%s: moves written with %q (such as %s) have no example in the variant's help", key, f, s)
				}
			})
		}
	}
}
