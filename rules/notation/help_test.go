package notation

import (
	"fmt"
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
