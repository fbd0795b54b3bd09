package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/rules"
)

// result is what one in-process run of fairypost produced.
type result struct {
	stdout, stderr string
	code           int
}

// run calls Main in-process with args.
func run(t *testing.T, args ...string) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), args, strings.NewReader(""), &stdout, &stderr)
	return result{stdout.String(), stderr.String(), code}
}

// mustRun runs args and fails the test unless fairypost succeeded
// silently on stderr.
func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	r := run(t, args...)
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("fairypost %q: exit %d, stderr %q", args, r.code, r.stderr)
	}
	return r.stdout
}

// analyzeJSON runs "fairypost analyze" with args and decodes its output.
func analyzeJSON(t *testing.T, args ...string) analysis {
	t.Helper()
	out := mustRun(t, append([]string{"analyze"}, args...)...)
	var an analysis
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&an); err != nil {
		t.Fatalf("analyze %q: output %q does not decode: %v", args, out, err)
	}
	return an
}

const (
	startChess      = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	startCrazyhouse = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"
	startGrand      = "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1"
)

func TestVariantsText(t *testing.T) {
	t.Parallel()
	lines := strings.Split(strings.TrimSuffix(mustRun(t, "variants"), "\n"), "\n")
	want := map[string]string{"chess": "8x8", "crazyhouse": "8x8", "grand": "10x10"}
	sizeCol := -1
	for _, l := range lines {
		if strings.HasPrefix(l, " ") {
			continue // an option line
		}
		f := strings.Fields(l)
		size, ok := want[f[0]]
		if !ok {
			continue // a variant added after this test was written
		}
		if f[len(f)-1] != size {
			t.Errorf("line %q: want board size %s at the end", l, size)
		}
		// The size column is aligned.
		col := strings.LastIndex(l, " ") + 1
		if sizeCol >= 0 && col != sizeCol {
			t.Errorf("line %q: size starts at column %d, other lines at %d", l, col, sizeCol)
		}
		sizeCol = col
		delete(want, f[0])
	}
	if len(want) > 0 {
		t.Errorf("variants missing from the text listing: %v\n%s", want, strings.Join(lines, "\n"))
	}
}

// TestVariantsRulesPages checks that "fairypost variants" points every
// variant to its page in docs/variants, never to RULES.md, and that -json
// carries each variant's summary and page.
func TestVariantsRulesPages(t *testing.T) {
	t.Parallel()
	reg, err := rules.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	text := mustRun(t, "variants")
	if strings.Contains(text, "RULES.md") {
		t.Errorf("variants cites RULES.md:\n%s", text)
	}
	var list []variantInfo
	if err := json.Unmarshal([]byte(mustRun(t, "variants", "-json")), &list); err != nil {
		t.Fatal(err)
	}
	byKey := map[string]variantInfo{}
	for _, v := range list {
		byKey[v.Key] = v
	}
	for _, k := range reg.Keys() {
		page := "docs/variants/" + k + ".md"
		if !strings.Contains(text, "  rules: "+page+"\n") {
			t.Errorf("variants: no line \"rules: %s\"", page)
		}
		if v := byKey[k]; v.RulesPage != page || v.Summary != reg.Default(k).Help.Summary || v.Summary == "" {
			t.Errorf("variants -json %s: rules_page %q, summary %q", k, v.RulesPage, v.Summary)
		}
	}
}

func TestVariantsJSON(t *testing.T) {
	t.Parallel()
	out := mustRun(t, "variants", "-json")
	var list []struct {
		Key     *string `json:"key"`
		Name    *string `json:"name"`
		Files   *int    `json:"files"`
		Ranks   *int    `json:"ranks"`
		Options []struct {
			Key     *string  `json:"key"`
			Values  []string `json:"values"`
			Default *string  `json:"default"`
			Doc     *string  `json:"doc"`
		} `json:"options"`
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("output does not decode as a JSON array: %v\n%s", err, out)
	}
	if !strings.Contains(out, `"options":[]`) {
		t.Errorf("variants without options should list \"options\":[], not null: %s", out)
	}
	sizes := map[string][2]int{}
	for _, v := range list {
		if v.Key == nil || v.Name == nil || v.Files == nil || v.Ranks == nil || *v.Name == "" {
			t.Fatalf("variant object lacks a field: %s", out)
		}
		sizes[*v.Key] = [2]int{*v.Files, *v.Ranks}
		for _, o := range v.Options {
			if o.Key == nil || o.Default == nil || o.Doc == nil || !slices.Contains(o.Values, *o.Default) {
				t.Errorf("variant %s: bad option object in %s", *v.Key, out)
			}
		}
	}
	for key, size := range map[string][2]int{"chess": {8, 8}, "crazyhouse": {8, 8}, "grand": {10, 10}} {
		if got, ok := sizes[key]; !ok || got != size {
			t.Errorf("variant %s: got size %v (listed: %v), want %v", key, got, ok, size)
		}
	}
}

// optionRegistry is a registry with one extra variant that has options,
// since no built-in variant has one yet.
func optionRegistry() (*rules.Registry, error) {
	reg, err := rules.NewRegistry()
	if err != nil {
		return nil, err
	}
	err = reg.Register("kings", func(opts map[string]string) (*rules.Variant, error) {
		v := &rules.Variant{
			Key: "kings", Name: "Kings Only", Files: 4, Ranks: 4,
			Help:     rules.VariantHelp{Summary: "Only Kings, on a 4x4 board."},
			Pieces:   []rules.PieceDef{{Letter: 'K', Name: "King", Betza: "K", Art: "king", Legend: "a test piece", Royal: true}},
			StartFEN: "3k/4/4/K3 w - - 0 1",
			Options: []rules.OptionDef{
				{Key: "corner", Values: []string{"a1", "d1"}, Doc: "where the white king starts"},
				{Key: "quiet", Values: []string{"no", "yes"}},
			},
		}
		if opts["corner"] == "d1" {
			v.StartFEN = "k3/4/4/3K w - - 0 1"
		}
		return v, nil
	})
	return reg, err
}

// runWith runs args against a custom registry constructor.
func runWith(registry func() (*rules.Registry, error), args ...string) result {
	var stdout, stderr bytes.Buffer
	a := &app{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, registry: registry}
	code := a.run(context.Background(), args)
	return result{stdout.String(), stderr.String(), code}
}

func TestVariantOptions(t *testing.T) {
	t.Parallel()
	r := runWith(optionRegistry, "variants")
	for _, want := range []string{
		`(?m)^kings +Kings Only +4x4$`,
		`(?m)^ +option corner=a1\|d1 \(default a1\): where the white king starts$`,
		`(?m)^ +option quiet=no\|yes \(default no\)$`,
		`(?m)^ +option quiet=no\|yes \(default no\)\n +rules: docs/variants/kings\.md$`,
	} {
		if r.code != 0 || !regexp.MustCompile(want).MatchString(r.stdout) {
			t.Errorf("variants: exit %d, want a line matching %s in\n%s", r.code, want, r.stdout)
		}
	}

	r = runWith(optionRegistry, "variants", "-json")
	var list []variantInfo
	if err := json.Unmarshal([]byte(r.stdout), &list); err != nil {
		t.Fatal(err)
	}
	got := list[len(list)-1]
	want := variantInfo{Key: "kings", Name: "Kings Only", Files: 4, Ranks: 4,
		Summary: "Only Kings, on a 4x4 board.", RulesPage: "docs/variants/kings.md", Options: []optionInfo{
			{Key: "corner", Values: []string{"a1", "d1"}, Default: "a1", Doc: "where the white king starts"},
			{Key: "quiet", Values: []string{"no", "yes"}, Default: "no", Doc: ""},
		}}
	if g, w := mustJSON(t, got), mustJSON(t, want); g != w {
		t.Errorf("variants -json: got %s, want %s", g, w)
	}

	for _, c := range []struct{ options, fen string }{
		{"", "3k/4/4/K3 w - - 0 1"},
		{"corner=d1", "k3/4/4/3K w - - 0 1"},
		{"quiet=yes, corner=d1", "k3/4/4/3K w - - 0 1"},
	} {
		r := runWith(optionRegistry, "analyze", "-variant", "kings", "-options", c.options)
		var an analysis
		if err := json.Unmarshal([]byte(r.stdout), &an); err != nil || r.code != 0 {
			t.Fatalf("analyze -options %q: exit %d, %v, stderr %s", c.options, r.code, err, r.stderr)
		}
		if an.FEN != c.fen {
			t.Errorf("analyze -options %q: fen %q, want %q", c.options, an.FEN, c.fen)
		}
	}
	for _, bad := range []string{"corner=e1", "side=white", "corner", "corner=a1,corner=d1"} {
		r := runWith(optionRegistry, "analyze", "-variant", "kings", "-options", bad)
		checkBadInput(t, r, "option")
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestAnalyzeStart(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		variant, fen string
		legal        int
		coord, san   string
	}{
		{"chess", startChess, 20, "e2e4", "Nf3"},
		{"crazyhouse", startCrazyhouse, 20, "g1f3", "Nf3"},
		{"grand", startGrand, 65, "e3e5", "Nc4"},
	} {
		t.Run(c.variant, func(t *testing.T) {
			t.Parallel()
			an := analyzeJSON(t, "-variant", c.variant)
			want := analysis{Variant: c.variant, FEN: c.fen, ToAct: "white", Phase: "move", Result: "*"}
			got := an
			got.Legal, got.LegalCoord = nil, nil
			if mustJSON(t, got) != mustJSON(t, want) {
				t.Errorf("got %+v, want %+v", got, want)
			}
			if len(an.Legal) != c.legal || len(an.LegalCoord) != c.legal {
				t.Errorf("%d legal, %d legal_coord moves; want %d", len(an.Legal), len(an.LegalCoord), c.legal)
			}
			if !slices.Contains(an.LegalCoord, c.coord) || !slices.Contains(an.Legal, c.san) {
				t.Errorf("want %s in legal_coord %v and %s in legal %v", c.coord, an.LegalCoord, c.san, an.Legal)
			}
			// Same order: the friendly form of a move sits at the index of its canonical form.
			if i, j := slices.Index(an.LegalCoord, "g1f3"), slices.Index(an.Legal, "Nf3"); c.variant != "grand" && i != j {
				t.Errorf("g1f3 at %d in legal_coord but Nf3 at %d in legal", i, j)
			}
		})
	}
}

// TestAnalyzeFields pins the exact field names of DESIGN.md §3.
func TestAnalyzeFields(t *testing.T) {
	t.Parallel()
	out := mustRun(t, "analyze", "-variant", "chess")
	if strings.Count(out, "\n") != 1 || !strings.HasSuffix(out, "}\n") {
		t.Errorf("want one JSON object on one line, got %q", out)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	want := []string{"check", "fen", "legal", "legal_coord", "phase", "reason", "result", "to_act", "variant"}
	if !slices.Equal(keys, want) {
		t.Errorf("fields %v, want %v", keys, want)
	}
}

func TestAnalyzeMoves(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name    string
		args    []string
		want    analysis // Legal and LegalCoord are compared by length only
		legal   int
		hasMove string // a canonical move that must be legal
	}{
		{
			name:  "check",
			args:  []string{"-variant", "chess", "-moves", "e4 f5 Qh5+"},
			want:  analysis{Variant: "chess", FEN: "rnbqkbnr/ppppp1pp/8/5p1Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2", ToAct: "black", Phase: "move", Check: true, Result: "*"},
			legal: 1, hasMove: "g7g6",
		},
		{
			name: "fool's mate",
			args: []string{"-variant", "chess", "-moves", "f3 e5 g4 Qh4#"},
			want: analysis{Variant: "chess", FEN: "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", ToAct: "white", Phase: "move",
				Check: true, Result: "0-1", Reason: "checkmate"},
		},
		{
			name: "fool's mate, canonical moves with commas and move numbers",
			args: []string{"-variant", "chess", "-moves", "1. f2f3, e7e5 2. g2g4,d8h4"},
			want: analysis{Variant: "chess", FEN: "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", ToAct: "white", Phase: "move",
				Check: true, Result: "0-1", Reason: "checkmate"},
		},
		{
			name: "stalemate",
			args: []string{"-variant", "chess", "-fen", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"},
			want: analysis{Variant: "chess", FEN: "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", ToAct: "black", Phase: "move", Result: "1/2-1/2", Reason: "stalemate"},
		},
		{
			name: "insufficient material",
			args: []string{"-variant", "chess", "-fen", "8/8/4k3/8/8/3NK3/8/8 w - - 0 1"},
			want: analysis{Variant: "chess", FEN: "8/8/4k3/8/8/3NK3/8/8 w - - 0 1", ToAct: "white", Phase: "move", Result: "1/2-1/2", Reason: "insufficient material"},
		},
		{
			name: "threefold repetition may be claimed",
			args: []string{"-variant", "chess", "-moves", "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8"},
			want: analysis{Variant: "chess", FEN: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 8 5", ToAct: "white", Phase: "move",
				Result: "*", DrawClaim: "repetition"},
			legal: 20, hasMove: "e2e4",
		},
		{
			name: "fivefold repetition ends the game",
			args: []string{"-variant", "chess", "-moves", strings.Repeat("Nf3 Nf6 Ng1 Ng8 ", 4)},
			want: analysis{Variant: "chess", FEN: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 16 9", ToAct: "white", Phase: "move",
				Result: "1/2-1/2", Reason: "repetition"},
		},
		{
			name: "crazyhouse drops",
			args: []string{"-variant", "crazyhouse", "-moves", "e4 d5 exd5 Qxd5"},
			want: analysis{Variant: "crazyhouse", FEN: "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3", ToAct: "white", Phase: "move", Result: "*"},
			// 30 board moves, P@ on the 32 empty squares of ranks 2-7 less none: see the check below
			legal: -1, hasMove: "P@e4",
		},
		{
			name:  "grand, from a FEN",
			args:  []string{"-variant", "grand", "-fen", "10/4k5/6P3/10/10/10/10/10/1p2K5/10 w - - 0 1"},
			want:  analysis{Variant: "grand", FEN: "10/4k5/6P3/10/10/10/10/10/1p2K5/10 w - - 0 1", ToAct: "white", Phase: "move", Result: "*"},
			legal: 15, hasMove: "e2d1",
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			an := analyzeJSON(t, c.args...)
			got := an
			got.Legal, got.LegalCoord = nil, nil
			if g, w := mustJSON(t, got), mustJSON(t, c.want); g != w {
				t.Errorf("got  %s\nwant %s", g, w)
			}
			if len(an.Legal) != len(an.LegalCoord) {
				t.Errorf("%d legal but %d legal_coord", len(an.Legal), len(an.LegalCoord))
			}
			if c.legal >= 0 && len(an.LegalCoord) != c.legal {
				t.Errorf("%d legal moves %v, want %d", len(an.LegalCoord), an.LegalCoord, c.legal)
			}
			if c.hasMove != "" && !slices.Contains(an.LegalCoord, c.hasMove) {
				t.Errorf("%s is not in legal_coord %v", c.hasMove, an.LegalCoord)
			}
			if c.want.Result != "*" && (an.Legal == nil || len(an.Legal) > 0 || an.LegalCoord == nil || len(an.LegalCoord) > 0) {
				t.Errorf("game over: want empty legal lists, got %#v and %#v", an.Legal, an.LegalCoord)
			}
		})
	}
}

// TestAnalyzeEmptyLists checks that finished games print [] rather than null.
func TestAnalyzeEmptyLists(t *testing.T) {
	t.Parallel()
	out := mustRun(t, "analyze", "-variant", "chess", "-moves", "f3 e5 g4 Qh4#")
	if !strings.Contains(out, `"legal":[],"legal_coord":[]`) {
		t.Errorf("want empty lists, got %s", out)
	}
}

// TestAnalyzeReplay checks that the fen analyze prints is the position: the
// same analysis comes out of -fen as out of -moves.
func TestAnalyzeReplay(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ variant, moves string }{
		{"chess", "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6"},
		{"crazyhouse", "e4 d5 exd5 Qxd5 Nc3 Qa5 P@b4 Qxb4"},
		{"grand", "e5 e6 Nc4"},
	} {
		viaMoves := analyzeJSON(t, "-variant", c.variant, "-moves", c.moves)
		viaFEN := analyzeJSON(t, "-variant", c.variant, "-fen", viaMoves.FEN)
		if g, w := mustJSON(t, viaFEN), mustJSON(t, viaMoves); g != w {
			t.Errorf("%s %q:\nvia -fen   %s\nvia -moves %s", c.variant, c.moves, g, w)
		}
	}
}

func TestPerft(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		args []string
		want uint64
	}{
		{"chess depth 0", []string{"-variant", "chess", "-depth", "0"}, 1},
		{"chess depth 1", []string{"-variant", "chess", "-depth", "1"}, 20},
		{"chess depth 3", []string{"-variant", "chess", "-depth", "3"}, 8902},
		// Kiwipete, chessprogramming.org.
		{"chess kiwipete", []string{"-variant", "chess", "-depth", "2", "-fen", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"}, 2039},
		{"grand depth 2", []string{"-variant", "grand", "-depth", "2"}, 4225},
		// zh-drops of rules/testdata/perft/crazyhouse.perft (python-chess, shakmaty, FSF).
		{"crazyhouse drops", []string{"-variant", "crazyhouse", "-depth", "2", "-fen", "2k5/8/8/8/8/8/8/4K3[Qn] w - - 0 1"}, 3083},
		// A position from moves, with a pawn in each pocket; the count is
		// pinned from this engine and checked against -fen below.
		{"crazyhouse after moves", []string{"-variant", "crazyhouse", "-depth", "2", "-moves", "e4 d5 exd5 Qxd5"}, crazyhouseAfterMovesDepth2},
		{"game over", []string{"-variant", "chess", "-depth", "3", "-moves", "f3 e5 g4 Qh4#"}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			out := mustRun(t, append([]string{"perft"}, c.args...)...)
			if want := "nodes " + strconv.FormatUint(c.want, 10) + "\n"; out != want {
				t.Errorf("got %q, want %q", out, want)
			}
		})
	}
}

// crazyhouseAfterMovesDepth2 is perft 2 after 1. e4 d5 2. exd5 Qxd5 in
// crazyhouse, computed by this engine (no published figure was found);
// TestPerftMovesMatchFEN checks it against the same position read from FEN.
const crazyhouseAfterMovesDepth2 = 4715

// TestPerftMovesMatchFEN checks -moves against -fen for the same position.
func TestPerftMovesMatchFEN(t *testing.T) {
	t.Parallel()
	const moves = "e4 d5 exd5 Qxd5"
	fen := analyzeJSON(t, "-variant", "crazyhouse", "-moves", moves).FEN
	viaMoves := mustRun(t, "perft", "-variant", "crazyhouse", "-depth", "2", "-moves", moves)
	viaFEN := mustRun(t, "perft", "-variant", "crazyhouse", "-depth", "2", "-fen", fen)
	if viaMoves != viaFEN {
		t.Errorf("-moves %q gives %q, -fen %q gives %q", moves, viaMoves, fen, viaFEN)
	}
}

var divideLine = regexp.MustCompile(`^(\S+) (\d+)$`)

func TestPerftDivide(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args        []string
		moves       int
		nodes       uint64
		first, drop string // a line that must appear
	}{
		{[]string{"-variant", "chess", "-depth", "2"}, 20, 400, "e2e4 20", ""},
		{[]string{"-variant", "grand", "-depth", "1"}, 65, 65, "e3e5 1", ""},
		{[]string{"-variant", "crazyhouse", "-depth", "2", "-fen", "2k5/8/8/8/8/8/8/4K3[Qn] w - - 0 1"}, 67, 3083, "", "Q@"},
	} {
		out := mustRun(t, append([]string{"perft", "-divide"}, c.args...)...)
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		last := lines[len(lines)-1]
		if want := "nodes " + strconv.FormatUint(c.nodes, 10); last != want {
			t.Errorf("%q: last line %q, want %q", c.args, last, want)
		}
		var sum uint64
		seen := map[string]bool{}
		for _, l := range lines[:len(lines)-1] {
			m := divideLine.FindStringSubmatch(l)
			if m == nil {
				t.Errorf("%q: line %q is not MOVE COUNT", c.args, l)
				continue
			}
			n, _ := strconv.ParseUint(m[2], 10, 64)
			sum += n
			if seen[m[1]] {
				t.Errorf("%q: move %s listed twice", c.args, m[1])
			}
			seen[m[1]] = true
		}
		if sum != c.nodes || len(lines)-1 != c.moves {
			t.Errorf("%q: %d moves adding up to %d; want %d moves, %d nodes", c.args, len(lines)-1, sum, c.moves, c.nodes)
		}
		if c.first != "" && !slices.Contains(lines, c.first) {
			t.Errorf("%q: no line %q in\n%s", c.args, c.first, out)
		}
		if c.drop != "" && !strings.Contains(out, "\n"+c.drop) {
			t.Errorf("%q: no drop %s... in\n%s", c.args, c.drop, out)
		}
	}
	// Depth 0 has no moves to divide.
	if out := mustRun(t, "perft", "-variant", "chess", "-depth", "0", "-divide"); out != "nodes 1\n" {
		t.Errorf("depth 0 -divide: got %q", out)
	}
}

// checkBadInput checks the contract for bad input: exit status 2, exactly
// one line on stderr that contains want, nothing on stdout.
func checkBadInput(t *testing.T, r result, want string) {
	t.Helper()
	if r.code != exitBadInput {
		t.Errorf("exit status %d, want %d (stderr %q)", r.code, exitBadInput, r.stderr)
	}
	if r.stdout != "" {
		t.Errorf("stdout %q, want nothing", r.stdout)
	}
	if strings.Count(r.stderr, "\n") != 1 || !strings.HasSuffix(r.stderr, "\n") {
		t.Errorf("stderr %q, want exactly one line", r.stderr)
	}
	if !strings.HasPrefix(r.stderr, "fairypost") || !strings.Contains(r.stderr, want) {
		t.Errorf("stderr %q, want a line starting with fairypost that mentions %q", r.stderr, want)
	}
	if strings.Contains(r.stderr, "goroutine") || strings.Contains(r.stderr, "panic") {
		t.Errorf("stderr looks like a crash: %q", r.stderr)
	}
}

func TestBadInput(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want string
	}{
		// Commands.
		{[]string{"frobnicate"}, `fairypost: unknown command "frobnicate"`},
		{[]string{"Analyze"}, `unknown command "Analyze"`},
		{[]string{"run", "-config", "no-such.toml"}, "fairypost run: config: open no-such.toml: no such file"},
		{[]string{"-config", "no-such.toml"}, "fairypost run: config: open no-such.toml"},
		{[]string{"render", "-variant", "chess"}, "fairypost render: -o FILE.png is required"},
		{[]string{"help", "frobnicate"}, `fairypost help: unknown command "frobnicate"`},
		{[]string{"help", "analyze", "perft"}, "fairypost help: want at most one command"},

		// Flags.
		{[]string{"variants", "-frob"}, "fairypost variants: flag provided but not defined: -frob"},
		{[]string{"variants", "-json=maybe"}, `invalid boolean value "maybe" for -json`},
		{[]string{"variants", "chess"}, `fairypost variants: unexpected argument "chess"`},
		{[]string{"analyze", "-frob"}, "fairypost analyze: flag provided but not defined: -frob"},
		{[]string{"analyze", "-variant"}, "flag needs an argument: -variant"},
		{[]string{"analyze", "chess"}, `fairypost analyze: unexpected argument "chess"`},
		{[]string{"analyze", "-variant", "chess", "e2e4"}, `unexpected argument "e2e4"`},

		// Variant, options, FEN.
		{[]string{"analyze"}, "fairypost analyze: -variant is required (one of: chess, "},
		{[]string{"analyze", "-variant", "shogi"}, `fairypost analyze: unknown variant "shogi" (known: chess, `},
		{[]string{"analyze", "-variant", "Chess"}, `unknown variant "Chess"`},
		{[]string{"analyze", "-variant", "chess", "-options", "castling=no"}, `fairypost analyze: variant chess: unknown option "castling"`},
		{[]string{"analyze", "-variant", "chess", "-options", "junk"}, `option "junk": want key=value`},
		{[]string{"analyze", "-variant", "chess", "-fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1"}, "fairypost analyze: -fen \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1\": bad FEN"},
		{[]string{"analyze", "-variant", "chess", "-fen", "hello"}, "bad FEN"},
		{[]string{"analyze", "-variant", "grand", "-fen", startChess}, "bad FEN"},

		// Moves.
		{[]string{"analyze", "-variant", "chess", "-moves", "d4 d5 e2e5"}, `fairypost analyze: move 3 "e2e5": illegal move`},
		{[]string{"analyze", "-variant", "chess", "-moves", "d4 d5 e2e5"}, `move 3 "e2e5": illegal move: the Pawn on e2 cannot move to e5`},
		{[]string{"analyze", "-variant", "chess", "-moves", "e4 d5 c4 e5 Nc3 Nc6 Ne2"}, `move 7 "Ne2": ambiguous move: it could be`},
		{[]string{"analyze", "-variant", "chess", "-moves", "e2e5"}, `move 1 "e2e5"`},
		{[]string{"analyze", "-variant", "chess", "-moves", "Nf6"}, `move 1 "Nf6"`},
		{[]string{"analyze", "-variant", "chess", "-moves", "e4 zz99"}, `move 2 "zz99"`},
		{[]string{"analyze", "-variant", "chess", "-moves", "e4 e5 Ke2 Ke7 O-O"}, `move 5 "O-O"`},
		{[]string{"analyze", "-variant", "chess", "-moves", "P@e4"}, `move 1 "P@e4"`},
		{[]string{"analyze", "-variant", "crazyhouse", "-moves", "P@e4"}, `move 1 "P@e4"`},
		{[]string{"analyze", "-variant", "chess", "-moves", "f3 e5 g4 Qh4# a3"}, `move 5 "a3": the game is already over (0-1, checkmate)`},
		{[]string{"analyze", "-variant", "chess", "-moves", strings.Repeat("Nf3 Nf6 Ng1 Ng8 ", 4) + "e4"}, `move 17 "e4": the game is already over (1/2-1/2, repetition)`},
		{[]string{"analyze", "-variant", "chess", "-fen", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "-moves", "Kh7"}, `move 1 "Kh7"`},

		// Perft.
		{[]string{"perft", "-variant", "chess"}, "fairypost perft: -depth is required"},
		{[]string{"perft", "-variant", "chess", "-depth", "-1"}, "fairypost perft: -depth -1 is out of range 0..20"},
		{[]string{"perft", "-variant", "chess", "-depth", "21"}, "-depth 21 is out of range"},
		{[]string{"perft", "-variant", "chess", "-depth", "three"}, `invalid value "three" for flag -depth`},
		{[]string{"perft", "-depth", "1"}, "fairypost perft: -variant is required"},
		{[]string{"perft", "-variant", "grand", "-depth", "1", "-moves", "e6"}, `fairypost perft: move 1 "e6"`},
		{[]string{"perft", "-variant", "chess", "-depth", "1", "-fen", "8/8/8/8/8/8/8/8 w - - 0 1 extra"}, "bad FEN"},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			t.Parallel()
			checkBadInput(t, run(t, c.args...), c.want)
		})
	}
}

// TestNoArguments: flags without a command are run's. ("fairypost" alone
// is "fairypost run", which without a token starts the console on
// ./fairypost.db: TestBinary and TestRunWithoutToken check that in a
// directory of their own.)
func TestNoArguments(t *testing.T) {
	t.Parallel()
	r := run(t, "-config", filepath.Join(t.TempDir(), "none.toml"))
	if r.code != exitBadInput || !strings.HasPrefix(r.stderr, "fairypost run: config: ") {
		t.Errorf("exit %d, stderr %q; want run's config error", r.code, r.stderr)
	}
}

func TestHelp(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"help"}, []string{"Usage: fairypost <command>", "variants", "analyze", "perft", "render", "console", "backup"}},
		{[]string{"-h"}, []string{"Usage: fairypost <command>"}},
		{[]string{"help", "analyze"}, []string{"Usage: fairypost analyze -variant KEY", "-moves", "-fen", "-options", "legal_coord"}},
		{[]string{"analyze", "-h"}, []string{"Usage: fairypost analyze", "-variant"}},
		{[]string{"perft", "-help"}, []string{"Usage: fairypost perft", "-depth", "-divide"}},
		{[]string{"help", "variants"}, []string{"-json"}},
		{[]string{"help", "render"}, []string{"Usage: fairypost render", "-flip", "-size"}},
		{[]string{"help", "help"}, []string{"Usage: fairypost help"}},
	} {
		r := run(t, c.args...)
		if r.code != 0 || r.stderr != "" {
			t.Errorf("%q: exit %d, stderr %q", c.args, r.code, r.stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(r.stdout, w) {
				t.Errorf("%q: output lacks %q:\n%s", c.args, w, r.stdout)
			}
		}
	}
}

// TestInternalError checks that a failure that is not the user's doing
// exits with status 1, still as one line.
func TestInternalError(t *testing.T) {
	t.Parallel()
	broken := func() (*rules.Registry, error) { return nil, errors.New("disk on fire") }
	for _, args := range [][]string{{"variants"}, {"analyze", "-variant", "chess"}, {"perft", "-variant", "chess", "-depth", "1"}} {
		r := runWith(broken, args...)
		if r.code != exitInternal || r.stdout != "" || strings.Count(r.stderr, "\n") != 1 ||
			!strings.Contains(r.stderr, "internal error") || !strings.Contains(r.stderr, "disk on fire") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, r.code, r.stdout, r.stderr)
		}
	}
	// A failing stdout is an internal error too.
	var stderr bytes.Buffer
	a := &app{stdout: failWriter{}, stderr: &stderr, registry: rules.NewRegistry}
	if code := a.run(context.Background(), []string{"variants"}); code != exitInternal || !strings.Contains(stderr.String(), "internal error") {
		t.Errorf("failing stdout: exit %d, stderr %q", code, stderr.String())
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

func TestSplitMoves(t *testing.T) {
	t.Parallel()
	for in, want := range map[string][]string{
		"":                             nil,
		"e4":                           {"e4"},
		"  e4   e5\tNf3\n":             {"e4", "e5", "Nf3"},
		"e4,e5, Nf3 ,Nc6":              {"e4", "e5", "Nf3", "Nc6"},
		"1. e4 e5 2. Nf3 2... Nc6 10.": {"e4", "e5", "Nf3", "Nc6"},
		"1.e4 ... 1-0 P@e4 e1f3> .5":   {"1.e4", "...", "1-0", "P@e4", "e1f3>", ".5"},
		",,,":                          nil,
	} {
		if got := splitMoves(in); !slices.Equal(got, want) {
			t.Errorf("splitMoves(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestBinary builds the real binary and checks exit statuses and streams
// through the operating system.
func TestBinary(t *testing.T) {
	bin := buildBinary(t)
	t.Parallel()
	for _, c := range []struct {
		args           []string
		code           int
		stdout, stderr string // substrings
	}{
		{[]string{"variants"}, 0, "grand", ""},
		{[]string{"perft", "-variant", "chess", "-depth", "2"}, 0, "nodes 400\n", ""},
		{[]string{"analyze", "-variant", "chess", "-moves", "d4 d5 e2e5"}, 2, "", `fairypost analyze: move 3 "e2e5": illegal move`},
		{[]string{"analyze", "-variant", "nope"}, 2, "", `unknown variant "nope"`},
		{[]string{}, 0, "", "no Discord token configured"},
		{[]string{}, 0, "", "starting the local console"},
		{[]string{"run"}, 2, "", "fairypost run: no Discord token: set the DISCORD_TOKEN environment variable"},
	} {
		cmd := exec.Command(bin, c.args...)
		// fairypost alone without a token starts the console: in a
		// directory of its own, reading "quit".
		cmd.Dir, cmd.Stdin = t.TempDir(), strings.NewReader("quit\n")
		cmd.Env = append(os.Environ(), "DISCORD_TOKEN=")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			code = exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != c.code || !strings.Contains(stdout.String(), c.stdout) || !strings.Contains(stderr.String(), c.stderr) {
			t.Errorf("fairypost %q: exit %d, stdout %q, stderr %q; want exit %d, stdout with %q, stderr with %q",
				c.args, code, stdout.String(), stderr.String(), c.code, c.stdout, c.stderr)
		}
	}
}

// TestPanicIsOneLine checks that a bug surfaces as exit status 1 and one line.
func TestPanicIsOneLine(t *testing.T) {
	t.Parallel()
	panicky := func() (*rules.Registry, error) { panic("boom") }
	r := runWith(panicky, "variants")
	if r.code != exitInternal || r.stdout != "" || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, "fairypost variants: internal error: panic: boom") {
		t.Errorf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

// FuzzAnalyze feeds arbitrary FENs and move lists to analyze and perft:
// the answer is always a result (exit 0, JSON) or bad input (exit 2, one
// line), never an internal error.
func FuzzAnalyze(f *testing.F) {
	f.Add("chess", "", "e4 e5 Nf3")
	f.Add("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "Kg8")
	f.Add("crazyhouse", "2k5/8/8/8/8/8/8/4K3[Qn] w - - 0 1", "Q@c7 n@d3")
	f.Add("crazyhouse", "", "e4 d5 exd5 Qxd5 P@e4 P@e5")
	f.Add("grand", "10/4k5/6P3/10/10/10/10/10/1p2K5/10 w - - 0 1", "g9=C+ Kxd7")
	f.Add("grand", "", "1. e5, e6 2. Nc4")
	f.Add("chess", "8/8/8/8/8/8/8/8 w - - 0 1", "pass")
	f.Fuzz(func(t *testing.T, variant, fen, moves string) {
		for _, args := range [][]string{
			{"analyze", "-variant", variant, "-fen", fen, "-moves", moves},
			{"perft", "-variant", variant, "-fen", fen, "-moves", moves, "-depth", "1", "-divide"},
		} {
			r := run(t, args...)
			switch r.code {
			case 0:
				if r.stderr != "" || r.stdout == "" {
					t.Fatalf("%q: exit 0, stdout %q, stderr %q", args, r.stdout, r.stderr)
				}
			case exitBadInput:
				if r.stdout != "" || strings.Count(r.stderr, "\n") != 1 {
					t.Fatalf("%q: exit 2, stdout %q, stderr %q", args, r.stdout, r.stderr)
				}
			default:
				t.Fatalf("%q: exit %d, stderr %q", args, r.code, r.stderr)
			}
		}
	})
}

// TestEveryVariant runs analyze and perft on the start position of every
// variant "fairypost variants" lists, including ones added after this test
// was written: perft 1 counts the moves analyze lists, and analyze gives
// the same answer from the FEN it printed.
func TestEveryVariant(t *testing.T) {
	t.Parallel()
	var list []variantInfo
	if err := json.Unmarshal([]byte(mustRun(t, "variants", "-json")), &list); err != nil {
		t.Fatal(err)
	}
	for _, v := range list {
		t.Run(v.Key, func(t *testing.T) {
			t.Parallel()
			an := analyzeJSON(t, "-variant", v.Key)
			if an.Variant != v.Key || an.Result != "*" || len(an.Legal) == 0 || len(an.Legal) != len(an.LegalCoord) {
				t.Errorf("start position: %+v", an)
			}
			want := "nodes " + strconv.Itoa(len(an.LegalCoord)) + "\n"
			if got := mustRun(t, "perft", "-variant", v.Key, "-depth", "1"); got != want {
				t.Errorf("perft 1: got %q, want %q", got, want)
			}
			again := analyzeJSON(t, "-variant", v.Key, "-fen", an.FEN, "-moves", an.LegalCoord[0])
			first := analyzeJSON(t, "-variant", v.Key, "-moves", an.Legal[0])
			if g, w := mustJSON(t, again), mustJSON(t, first); g != w {
				t.Errorf("after %s from -fen: %s\nafter %s from the start: %s", an.LegalCoord[0], g, an.Legal[0], w)
			}
		})
	}
}
