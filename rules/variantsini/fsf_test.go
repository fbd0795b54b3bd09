package variantsini

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/rules"
)

// The perft counts in testdata/perft.txt were recorded from
// Fairy-Stockfish (the version is on the file's first line) with
//
//	go test ./rules/variantsini -run TestRecordPerft -fsf PATH -record -fsfsource "repo commit"
//
// TestPerftRecorded compares fairypost's counts to them in the default
// run; TestPerftFSF (-fsf PATH) asks Fairy-Stockfish again and shows the
// first differing move with both move lists.
var (
	fsfPath  = flag.String("fsf", "", "path of a Fairy-Stockfish binary (built with largeboards=yes) to compare perft with")
	record   = flag.Bool("record", false, "with -fsf: record Fairy-Stockfish's perft counts in testdata/perft.txt")
	deepFlag = flag.Bool("deep", false, "also compare the recorded counts marked deep (slow)")
)

// perftCase is one recorded count: a section of an ini file of testdata,
// a position, a depth and Fairy-Stockfish's count.
type perftCase struct {
	file, section, fen string
	depth              int
	nodes              uint64
	deep               bool
}

const perftData = "testdata/perft.txt"

func readPerftCases(t *testing.T) (version string, cases []perftCase) {
	t.Helper()
	f, err := os.Open(perftData)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(line, "# engine: ") {
			version = strings.TrimPrefix(line, "# engine: ")
		}
		if line == "" || line[0] == '#' {
			continue
		}
		parts := strings.Split(line, "|")
		if len(parts) != 5 && len(parts) != 6 {
			t.Fatalf("%s:%d: want file|section|fen|depth|nodes[|deep]", perftData, n)
		}
		depth, err1 := strconv.Atoi(parts[3])
		nodes, err2 := strconv.ParseUint(parts[4], 10, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s:%d: bad depth or count", perftData, n)
		}
		cases = append(cases, perftCase{parts[0], parts[1], parts[2], depth, nodes, len(parts) == 6 && parts[5] == "deep"})
	}
	if version == "" {
		t.Fatalf("%s names no engine version", perftData)
	}
	return version, cases
}

// loadTestdata compiles every ini file of testdata into one registry.
func loadTestdata(t *testing.T) *rules.Registry {
	t.Helper()
	reg, err := rules.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("testdata/*.ini")
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Compile(string(text), reg); err != nil {
			t.Fatalf("%s:\n%v", f, err)
		}
	}
	return reg
}

func position(t *testing.T, reg *rules.Registry, section, fen string) rules.Position {
	t.Helper()
	v, err := reg.Variant(section, "")
	if err != nil {
		t.Fatal(err)
	}
	if fen == "startpos" {
		return v.Start()
	}
	p, err := rules.ParseFEN(v, fen)
	if err != nil {
		t.Fatalf("%s: %s: %v", section, fen, err)
	}
	return p
}

func TestPerftRecorded(t *testing.T) {
	version, cases := readPerftCases(t)
	reg := loadTestdata(t)
	t.Logf("counts recorded from %s", version)
	for _, c := range cases {
		if (c.deep || c.nodes > defaultMaxNodes) && !*deepFlag {
			continue
		}
		p := position(t, reg, c.section, c.fen)
		if got := rules.Perft(&p, c.depth); got != c.nodes {
			t.Errorf("[%s] %s depth %d: fairypost %d, Fairy-Stockfish %d", c.section, c.fen, c.depth, got, c.nodes)
		}
	}
}

// fsfEngine talks UCI to a Fairy-Stockfish process.
type fsfEngine struct {
	cmd *exec.Cmd
	in  *bufio.Writer
	out *bufio.Scanner
}

func startFSF(t *testing.T, bin string) *fsfEngine {
	t.Helper()
	cmd := exec.Command(bin)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	e := &fsfEngine{cmd: cmd, in: bufio.NewWriter(stdin), out: bufio.NewScanner(stdout)}
	e.out.Buffer(make([]byte, 1<<20), 1<<20)
	t.Cleanup(func() {
		e.send("quit")
		stdin.Close()
		cmd.Wait()
	})
	return e
}

func (e *fsfEngine) send(format string, args ...any) {
	fmt.Fprintf(e.in, format+"\n", args...)
	e.in.Flush()
}

// until reads lines up to one starting with prefix and returns them all.
func (e *fsfEngine) until(prefix string) []string {
	var lines []string
	for e.out.Scan() {
		l := e.out.Text()
		lines = append(lines, l)
		if strings.HasPrefix(l, prefix) {
			break
		}
	}
	return lines
}

// version returns the engine's "id name" line.
func (e *fsfEngine) version() string {
	e.send("uci")
	name := ""
	for _, l := range e.until("uciok") {
		if strings.HasPrefix(l, "id name ") {
			name = strings.TrimPrefix(l, "id name ")
		}
	}
	return name
}

// divide runs perft in FSF and returns the count per root move and the total.
func (e *fsfEngine) divide(ini, section, fen string, depth int) (map[string]uint64, uint64) {
	return e.divideAfter(ini, section, fen, nil, depth)
}

// divideAfter is divide from the position after moves (in FSF's form).
func (e *fsfEngine) divideAfter(ini, section, fen string, moves []string, depth int) (map[string]uint64, uint64) {
	abs, _ := filepath.Abs(ini)
	e.send("setoption name VariantPath value %s", abs)
	e.send("setoption name UCI_Variant value %s", section)
	pos := "position startpos"
	if fen != "startpos" {
		pos = "position fen " + fen
	}
	if len(moves) > 0 {
		pos += " moves " + strings.Join(moves, " ")
	}
	e.send("%s", pos)
	e.send("go perft %d", depth)
	counts := map[string]uint64{}
	var total uint64
	lines := e.until("Nodes searched")
	if len(lines) == 0 || !strings.HasPrefix(lines[len(lines)-1], "Nodes searched") {
		panic(fmt.Sprintf("%s [%s] %s moves %v: Fairy-Stockfish stopped without a count (crashed?)", ini, section, fen, moves))
	}
	for _, l := range lines {
		if strings.Contains(l, "already exists") || strings.Contains(l, "does not exist") {
			// A section named like a built-in variant of Fairy-Stockfish
			// is not loaded: the counts would be the built-in's.
			panic(fmt.Sprintf("%s [%s]: Fairy-Stockfish says: %s", ini, section, l))
		}
		if strings.HasPrefix(l, "Nodes searched: ") {
			total, _ = strconv.ParseUint(strings.TrimPrefix(l, "Nodes searched: "), 10, 64)
			continue
		}
		if m, n, ok := strings.Cut(l, ": "); ok && !strings.Contains(m, " ") {
			if x, err := strconv.ParseUint(n, 10, 64); err == nil {
				counts[m] = x
			}
		}
	}
	return counts, total
}

// fsfMoveText writes m of p as Fairy-Stockfish does.
func fsfMoveText(p *rules.Position, m rules.Move) string {
	text := rules.FormatMove(p, m)
	if m.Kind == rules.KindPass {
		// Fairy-Stockfish writes a pass as the king's move to its own square.
		for _, sq := range p.Variant().Squares() {
			if pc := p.At(sq); pc != rules.NoPiece && pc.Color() == p.ToAct() && p.Variant().Def(pc.Type()).Royal {
				text = sq.String() + sq.String()
			}
		}
	}
	return text
}

// descend follows the first differing move down to depth 1 and returns
// the moves to that position with both lists of legal moves there.
func descend(e *fsfEngine, c perftCase, p rules.Position) string {
	var path []string
	for depth := c.depth; ; depth-- {
		theirs, _ := e.divideAfter(c.file, c.section, c.fen, path, depth)
		ours := ourDivide(&p, depth)
		if depth == 1 {
			return fmt.Sprintf("after %q:\n%s", strings.Join(path, " "), explainDiff(ours, theirs))
		}
		next := ""
		for _, m := range p.Legal(nil) {
			text := fsfMoveText(&p, m)
			if ours[text] != theirs[text] {
				if theirs[text] == 0 && ours[text] > 0 {
					return fmt.Sprintf("after %q: %s is legal in fairypost only\n%s", strings.Join(path, " "), text, explainDiff(ours, theirs))
				}
				next = text
				p, _ = p.Play(m)
				break
			}
		}
		if next == "" {
			return fmt.Sprintf("after %q:\n%s", strings.Join(path, " "), explainDiff(ours, theirs))
		}
		path = append(path, next)
	}
}

// ourDivide is fairypost's divide in the coordinate form.
func ourDivide(p *rules.Position, depth int) map[string]uint64 {
	out := map[string]uint64{}
	for _, d := range rules.Divide(p, depth) {
		text := fsfMoveText(p, d.Move)
		out[text] = d.Nodes
	}
	return out
}

// explainDiff names the first root move whose counts differ, with both
// move lists.
func explainDiff(ours, theirs map[string]uint64) string {
	var keys []string
	seen := map[string]bool{}
	for k := range ours {
		keys, seen[k] = append(keys, k), true
	}
	for k := range theirs {
		if !seen[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	first := ""
	for _, k := range keys {
		if ours[k] != theirs[k] {
			first = fmt.Sprintf("first difference at %s: fairypost %d, Fairy-Stockfish %d", k, ours[k], theirs[k])
			break
		}
	}
	list := func(m map[string]uint64) string {
		var ks []string
		for k := range m {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		return strings.Join(ks, " ")
	}
	return fmt.Sprintf("%s\n  fairypost:       %s\n  Fairy-Stockfish: %s", first, list(ours), list(theirs))
}

func iniOf(t *testing.T, section string) string {
	t.Helper()
	files, _ := filepath.Glob("testdata/*.ini")
	for _, f := range files {
		text, _ := os.ReadFile(f)
		secs, err := Parse(string(text))
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range secs {
			if s.Name == section {
				return f
			}
		}
	}
	t.Fatalf("no ini file of testdata defines [%s]", section)
	return ""
}

func TestPerftFSF(t *testing.T) {
	if *fsfPath == "" || *record {
		t.Skip("run with -fsf PATH to compare with Fairy-Stockfish")
	}
	_, cases := readPerftCases(t)
	reg := loadTestdata(t)
	e := startFSF(t, *fsfPath)
	t.Logf("engine: %s", e.version())
	for _, c := range cases {
		theirs, total := e.divide(c.file, c.section, c.fen, c.depth)
		if total != c.nodes {
			t.Errorf("[%s] %s depth %d: Fairy-Stockfish now counts %d, recorded %d", c.section, c.fen, c.depth, total, c.nodes)
		}
		p := position(t, reg, c.section, c.fen)
		if ours := ourDivide(&p, c.depth); sum(ours) != total {
			t.Errorf("[%s] %s depth %d: fairypost %d, Fairy-Stockfish %d\n%s", c.section, c.fen, c.depth, sum(ours), total, descend(e, c, p))
		}
		_ = theirs
	}
}

func sum(m map[string]uint64) uint64 {
	var n uint64
	for _, x := range m {
		n += x
	}
	return n
}

// recordDepths are the depths recorded from the start and from each
// position of random play; counts above deepNodes are marked deep and
// left out of the default run.
var recordDepths = []int{2, 3, 4}

const deepNodes = 3_000_000

// defaultMaxNodes bounds the counts the default run compares (-deep
// compares them all).
const defaultMaxNodes = 400_000

// TestRecordPerft writes testdata/perft.txt from Fairy-Stockfish: for
// each section of each ini file, the start position and three positions
// reached by seeded random play, at depths 2 to 4.
func TestRecordPerft(t *testing.T) {
	if *fsfPath == "" || !*record {
		t.Skip("run with -fsf PATH -record to record Fairy-Stockfish's counts")
	}
	reg := loadTestdata(t)
	e := startFSF(t, *fsfPath)
	var b strings.Builder
	fmt.Fprintf(&b, "# Perft counts recorded from Fairy-Stockfish for the sections of testdata/*.ini\n")
	fmt.Fprintf(&b, "# (built from source with largeboards=yes all=yes nnue=no); see fsf_test.go.\n")
	fmt.Fprintf(&b, "# engine: %s\n", e.version())
	if *fsfSource != "" {
		fmt.Fprintf(&b, "# source: %s\n", *fsfSource)
	}
	fmt.Fprintf(&b, "# file|section|fen|depth|nodes[|deep]\n")
	files, _ := filepath.Glob("testdata/*.ini")
	for _, f := range files {
		text, _ := os.ReadFile(f)
		secs, _ := Parse(string(text))
		for _, s := range secs {
			v, err := reg.Variant(s.Name, "")
			if err != nil {
				t.Fatal(err)
			}
			fens := []string{"startpos"}
			rng := rand.New(rand.NewSource(int64(len(s.Name))*7919 + 1))
			for i := 0; i < 3; i++ {
				p := v.Start()
				plies := 6 + rng.Intn(14)
				for j := 0; j < plies; j++ {
					moves := p.Legal(nil)
					if len(moves) == 0 {
						break
					}
					p, _ = p.Play(moves[rng.Intn(len(moves))])
				}
				if len(p.Legal(nil)) > 0 {
					fens = append(fens, p.FEN())
				}
			}
			for _, fen := range fens {
				for _, d := range recordDepths {
					_, total := e.divide(f, s.Name, fen, d)
					deep := ""
					if total > deepNodes {
						deep = "|deep"
					}
					fmt.Fprintf(&b, "%s|%s|%s|%d|%d%s\n", f, s.Name, fen, d, total, deep)
					if total > deepNodes {
						break
					}
				}
			}
		}
	}
	if err := os.WriteFile(perftData, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

var fsfSource = flag.String("fsfsource", "", "with -record: where the Fairy-Stockfish binary was built from, noted in testdata/perft.txt")

var fsfINI = flag.String("fsfini", "", "with -fsf: a variants.ini file (Fairy-Stockfish's own) to measure: how many sections load and agree")

// TestMeasureFSFINI loads every section of the file -fsfini names and
// compares perft at depth 3 with Fairy-Stockfish from the start and from
// five positions of seeded random play. It reports the counts; every
// disagreement is an error.
func TestMeasureFSFINI(t *testing.T) {
	if *fsfPath == "" || *fsfINI == "" {
		t.Skip("run with -fsf PATH -fsfini FILE to measure a variants.ini file")
	}
	text, err := os.ReadFile(*fsfINI)
	if err != nil {
		t.Fatal(err)
	}
	sections, err := Parse(string(text))
	if err != nil {
		t.Fatalf("the file does not parse: %v", err)
	}
	reg := newRegistry(t)
	defs, err := CheckEach(string(text), reg)
	refused := map[string]int{}
	if list, ok := err.(ErrorList); ok {
		for _, e := range list {
			msg := e.Msg
			if i := strings.Index(msg, "`"); i >= 0 {
				if j := strings.Index(msg[i+1:], "`"); j >= 0 {
					msg = msg[i : i+j+2]
				}
			} else if len(msg) > 60 {
				msg = msg[:60]
			}
			refused[msg]++
		}
	}
	e := startFSF(t, *fsfPath)
	t.Logf("engine: %s", e.version())
	agree, positions := 0, 0
	for _, d := range defs {
		reg := newRegistry(t) // each section with its ancestors, alone
		if _, err := Compile(defsText(string(text), sections, d.Name), reg); err != nil {
			t.Errorf("[%s] checked but does not compile alone: %v", d.Name, err)
			continue
		}
		v, _ := reg.Variant(d.Name, "")
		fens := []string{"startpos"}
		rng := rand.New(rand.NewSource(int64(len(d.Name))*104729 + 7))
		for len(fens) < 6 {
			p := v.Start()
			for j, n := 0, 4+rng.Intn(20); j < n; j++ {
				moves := p.Legal(nil)
				if len(moves) == 0 {
					break
				}
				p, _ = p.Play(moves[rng.Intn(len(moves))])
			}
			fens = append(fens, p.FEN())
		}
		ok := true
		for _, fen := range fens {
			positions++
			c := perftCase{file: *fsfINI, section: d.Name, fen: fen, depth: 3}
			_, total := e.divide(c.file, c.section, c.fen, c.depth)
			p := position(t, reg, d.Name, fen)
			if ours := rules.Perft(&p, 3); ours != total {
				ok = false
				t.Errorf("[%s] %s depth 3: fairypost %d, Fairy-Stockfish %d\n%s", d.Name, fen, ours, total, descend(e, c, p))
				break
			}
		}
		if ok {
			agree++
		}
	}
	t.Logf("%d sections; %d load (%.0f%%); %d of them agree with Fairy-Stockfish at depth 3 from the start and 5 random positions each (%d positions)",
		len(sections), len(defs), 100*float64(len(defs))/float64(len(sections)), agree, positions)
	var reasons []string
	for r, n := range refused {
		reasons = append(reasons, fmt.Sprintf("%3d %s", n, r))
	}
	sort.Sort(sort.Reverse(sort.StringSlice(reasons)))
	t.Logf("refusals:\n%s", strings.Join(reasons, "\n"))
}

// defsText returns the text of the named section and its ancestors in the file.
func defsText(text string, sections []Section, name string) string {
	lines := strings.Split(text, "\n")
	byName := map[string]Section{}
	order := map[string]int{}
	for i, s := range sections {
		byName[s.Name], order[s.Name] = s, i
	}
	var chain []Section
	for n := name; n != ""; {
		s, ok := byName[n]
		if !ok {
			break
		}
		chain = append([]Section{s}, chain...)
		n = s.Parent
	}
	var b strings.Builder
	for _, s := range chain {
		i := order[s.Name]
		end := len(lines)
		if i+1 < len(sections) {
			end = sections[i+1].Line - 1
		}
		b.WriteString(strings.Join(lines[s.Line-1:end], "\n") + "\n")
	}
	return b.String()
}
