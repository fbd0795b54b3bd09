package rules

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateMoveOrder = flag.Bool("update", false, "rewrite the move-order snapshots in testdata/moveorder")

// TestRegisterValidatesVariants pins that a variant definition is checked
// once, when it is registered: broken piece descriptions, start positions
// and rules are refused with an error that names the problem.
func TestRegisterValidatesVariants(t *testing.T) {
	base := func() *Variant {
		v, _ := newChess(nil)
		return v
	}
	for _, c := range []struct {
		name   string
		mutate func(v *Variant)
		want   string
	}{
		{"unknown Betza letter", func(v *Variant) { v.Pieces[1].Betza = "aQ" }, "Knight"},
		{"letter used twice", func(v *Variant) { v.Pieces[1].Letter = 'B' }, "letter B used twice"},
		{"letter not A-Z", func(v *Variant) { v.Pieces[1].Letter = '1' }, "is not A-Z"},
		{"board too large", func(v *Variant) { v.Files = 13 }, "board 13x8"},
		{"broken start position", func(v *Variant) { v.StartFEN = "8/8 w" }, "start position"},
		{"promotion to an unknown piece", func(v *Variant) { v.Promotion.Choices = "QZ" }, "promotion choice Z"},
		{"promotion zone without choices", func(v *Variant) { v.Promotion.Choices = "" }, "without choices"},
		{"two kings", func(v *Variant) { v.StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w - - 0 1" }, "more than one King"},
		{"castling square off the board", func(v *Variant) { v.Castling[0].RookFrom = "i1" }, "off the board"},
		{"castling piece unknown", func(v *Variant) { v.Castling[0].Rook = 'Z' }, "unknown piece letters"},
		{"initial-only move without an initial rank", func(v *Variant) { v.Pieces[0].InitialRank = 0 }, "InitialRank"},
		{"no-drop rank off the board", func(v *Variant) { v.Pieces[0].NoDropRanks = []int{9} }, "no-drop rank 9"},
		{"captures to hand without drops", func(v *Variant) { v.Drops.CapturesToHand = true }, "without drops"},
		{"key with spaces", func(v *Variant) { v.Key = "my chess" }, "key must be"},
		{"help without a summary", func(v *Variant) { v.Help.Summary = " " }, "no summary"},
		{"notation help without an example", func(v *Variant) { v.Help.Notation = []NotationHelp{{Kind: "Drop", How: "P@e4"}} }, "needs a kind"},
		{"notation example with an unknown option", func(v *Variant) {
			v.Help.Notation = []NotationHelp{{Kind: "Drop", How: "P@e4", Example: "P@e4", Options: "drops=on"}}
		}, `unknown option "drops"`},
		{"mark help without a meaning", func(v *Variant) { v.Help.Marks = []MarkHelp{{Mark: ">"}} }, "needs a mark"},
		{"state whose zero value writes FEN", func(v *Variant) {
			v.State = newStateKind(func(stateBytes) loudState { return loudState{} },
				func(*Position, string) (loudState, error) { return loudState{}, nil }, nil)
		}, `the zero state writes "loud"`},
		{"piece without art", func(v *Variant) { v.Pieces[1].Art = "" }, "piece Knight: art"},
		{"art with spaces", func(v *Variant) { v.Pieces[1].Art = "Knight rider" }, `art "Knight rider"`},
		{"art with an empty part", func(v *Variant) { v.Pieces[1].Art = "rook+" }, `art "rook+"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := base()
			c.mutate(v)
			r := &Registry{ctors: map[string]Constructor{}, defaults: map[string]*Variant{}, cache: map[string]*Variant{}}
			err := r.Register(v.Key, func(map[string]string) (*Variant, error) { return v, nil })
			if err == nil || !errors.Is(err, ErrInvalidVariant) && !strings.Contains(err.Error(), "betza") {
				t.Fatalf("got %v, want an invalid-variant error", err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not mention %q", err, c.want)
			}
		})
	}
}

// TestRegistryOptions pins the registry's lookups: unknown keys and
// options are errors that name them; the same key and options give the
// same compiled variant.
func TestRegistryOptions(t *testing.T) {
	r := testRegistry(t)
	if _, err := r.Variant("chezz", ""); err == nil || !strings.Contains(err.Error(), `unknown variant "chezz"`) {
		t.Errorf("unknown key: %v", err)
	}
	if _, err := r.Variant("chess", "speed=fast"); err == nil || !strings.Contains(err.Error(), `unknown option "speed"`) {
		t.Errorf("unknown option: %v", err)
	}
	a, err := r.Variant("grand", "")
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := r.Variant("grand", " "); a != b {
		t.Errorf("the same variant was compiled twice")
	}
	defs := []OptionDef{{Key: "mode", Values: []string{"off", "on"}}, {Key: "size", Values: []string{"8", "10"}}}
	got, err := parseOptions(defs, "size=10")
	if err != nil || got["mode"] != "off" || got["size"] != "10" {
		t.Errorf("ParseOptions: %v %v", got, err)
	}
	for _, bad := range []string{"size", "size=12", "size=10,size=8", "colour=red", "=8"} {
		if _, err := parseOptions(defs, bad); err == nil {
			t.Errorf("parseOptions(%q) accepted", bad)
		}
	}
	if s := formatOptions(defs, got); s != "size=10" {
		t.Errorf("FormatOptions = %q, want size=10 (defaults left out)", s)
	}
}

// TestMoveOrderSnapshots pins the order of the legal moves of each start
// position (the order players see in lists and autocomplete), which perft
// cannot catch. Regenerate with go test ./rules -run MoveOrder -update.
func TestMoveOrderSnapshots(t *testing.T) {
	r := testRegistry(t)
	for _, key := range r.Keys() {
		v := r.Default(key)
		p := v.Start()
		var b strings.Builder
		for _, m := range p.Legal(nil) {
			b.WriteString(FormatMove(&p, m))
			b.WriteByte('\n')
		}
		path := filepath.Join("testdata", "moveorder", key+".txt")
		if *updateMoveOrder {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run with -update to create it)", err)
		}
		if string(want) != b.String() {
			t.Errorf("%s: move order changed:\n%s\nwant:\n%s", key, b.String(), want)
		}
	}
}
