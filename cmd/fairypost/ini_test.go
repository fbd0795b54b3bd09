package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// leapingKing is a small definition file for the command-line tests.
const leapingKing = `# a king that also leaps like a knight
[leapingking:chess]
king = k:KN

[rookless]
pawn = p
king = k
rook = -
knight = n
startFen = 4k3/pppppppp/8/8/8/8/PPPPPPPP/1N2K1N1 w - - 0 1
promotionPieceTypes = n
`

func writeINI(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "my.ini")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestVariantsINI(t *testing.T) {
	t.Parallel()
	ini := writeINI(t, leapingKing)
	out := mustRun(t, "variants", "-ini", ini)
	for _, want := range []string{
		"leapingking  leapingking  8x8\n",
		"  parent: chess\n",
		"  piece K King: KN (royal)\n",
		"rookless     rookless     8x8\n",
		"  parent: (none: the empty template)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "crazyhouse") {
		t.Errorf("-ini lists fairypost's own variants too:\n%s", out)
	}
	var list []variantInfo
	if err := json.Unmarshal([]byte(mustRun(t, "variants", "-ini", ini, "-json")), &list); err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].Parent != "chess" || len(list[1].Pieces) != 3 {
		t.Errorf("JSON: %+v", list)
	}
	// Without -ini the JSON of fairypost's own variants has no parents or pieces.
	if own := mustRun(t, "variants", "-json"); strings.Contains(own, `"parent"`) || strings.Contains(own, `"pieces"`) {
		t.Error("variants -json gained parent or pieces fields")
	}
}

func TestVariantsINIRefusesWithLines(t *testing.T) {
	t.Parallel()
	ini := writeINI(t, "[a:chess]\nwallingRule = duck\ncastling = maybe\n")
	r := run(t, "variants", "-ini", ini)
	checkBadInput(t, r, "line 2: `wallingRule` is not supported; line 3: `castling`: \"maybe\" is not true or false")
	checkBadInput(t, run(t, "variants", "-ini", filepath.Join(t.TempDir(), "missing.ini")), "-ini")
}

func TestPerftINI(t *testing.T) {
	t.Parallel()
	ini := writeINI(t, leapingKing)
	// From e1 the king's knight leaps d3 and f3 add to chess's 20 moves:
	// the start of chess has 400 positions after two plies, this 484.
	if out := mustRun(t, "perft", "-ini", ini, "-variant", "leapingking", "-depth", "2"); out != "nodes 484\n" {
		t.Errorf("perft: %q", out)
	}
	if out := mustRun(t, "perft", "-ini", ini, "-variant", "chess", "-depth", "2"); out != "nodes 400\n" {
		t.Errorf("perft of chess with -ini: %q", out)
	}
	checkBadInput(t, run(t, "perft", "-variant", "leapingking", "-depth", "1"), "unknown variant")
}

func TestAnalyzeAndRenderINI(t *testing.T) {
	t.Parallel()
	ini := writeINI(t, leapingKing)
	a := analyzeJSON(t, "-ini", ini, "-variant", "rookless", "-moves", "Nc3")
	if a.Variant != "rookless" {
		t.Errorf("analyze: variant %q", a.Variant)
	}
	png := filepath.Join(t.TempDir(), "b.png")
	mustRun(t, "render", "-ini", ini, "-variant", "leapingking", "-moves", "e4 e5 Kf3", "-o", png)
	if b := decodePNG(t, png).Bounds(); b.Dx() != 800 {
		t.Errorf("render: %v", b)
	}
}

func TestArenaINI(t *testing.T) {
	t.Parallel()
	ini := writeINI(t, leapingKing)
	out := mustRun(t, "arena", "-ini", ini, "-variant", "leapingking", "-a", "random", "-b", "random", "-games", "2", "-seed", "5")
	if !arenaResultLine.MatchString(strings.TrimSpace(out[strings.LastIndex(strings.TrimSuffix(out, "\n"), "\n")+1:])) {
		t.Errorf("arena output:\n%s", out)
	}
}

func TestConsoleINI(t *testing.T) {
	t.Parallel()
	ini := writeINI(t, leapingKing)
	dir := t.TempDir()
	db := filepath.Join(dir, "fp.db")
	script := "as alice /challenge @bob variant:leapingking color:white\nas bob /accept\nas alice /move e4\nas bob /move e5\nas alice /move Kf3\n"
	r := runIn(t, script, "console", "-ini", ini, "-db", db, "-images", filepath.Join(dir, "img"))
	if r.code != 0 {
		t.Fatalf("console: exit %d, stderr %q\n%s", r.code, r.stderr, r.stdout)
	}
	if !strings.Contains(r.stdout, "> as alice /move Kf3\n") || strings.Contains(r.stdout, "not legal") || strings.Contains(r.stdout, "unknown variant") {
		t.Errorf("console output:\n%s", r.stdout)
	}
}
