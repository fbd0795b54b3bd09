package main

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/rules"
)

// arenaResultLine is the contract of the arena's last line.
var arenaResultLine = regexp.MustCompile(`^result a=(\d+)-(\d+)-(\d+) score=\d+\.\d% elo=[+-]\d+±\d+$`)

// TestArenaOutput plays a short match and checks the output's form, the
// PGN file and that the match is reproducible from its seed.
func TestArenaOutput(t *testing.T) {
	dir := t.TempDir()
	pgn := filepath.Join(dir, "games.pgn")
	args := []string{"arena", "-variant", "trainwreck", "-a", "level:1", "-b", "random", "-games", "4", "-seed", "3", "-pgn", pgn}
	out := mustRun(t, args...)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	last := lines[len(lines)-1]
	m := arenaResultLine.FindStringSubmatch(last)
	if m == nil {
		t.Fatalf("last line %q does not match %v; output:\n%s", last, arenaResultLine, out)
	}
	if m[1]+m[2]+m[3] == "" || atoi(t, m[1])+atoi(t, m[2])+atoi(t, m[3]) != 4 {
		t.Errorf("result %q does not add up to 4 games", last)
	}
	if !strings.Contains(out, "stopped at the cap") {
		t.Errorf("output does not report the capped games apart:\n%s", out)
	}
	data, err := os.ReadFile(pgn)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if n := strings.Count(text, "[Event "); n != 4 {
		t.Errorf("PGN holds %d games, want 4", n)
	}
	for _, tag := range []string{`[White "level:1"]`, `[Black "level:1"]`, `[Variant "trainwreck"]`, `[FEN "`} {
		if !strings.Contains(text, tag) {
			t.Errorf("PGN lacks %s", tag)
		}
	}
	if again := mustRun(t, args...); again != out {
		t.Errorf("the same match twice gave\n%s\nand\n%s", out, again)
	}
}

// TestArenaErrors checks that bad command lines are refused with one line
// on stderr, exit status 2 and nothing on stdout.
func TestArenaErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-a", "random", "-b", "random", "-games", "2"}, "-variant is required"},
		{[]string{"-variant", "nochess", "-a", "random", "-b", "random", "-games", "2"}, "nochess"},
		{[]string{"-variant", "chess", "-b", "random", "-games", "2"}, "-a and -b are required"},
		{[]string{"-variant", "chess", "-a", "level:0", "-b", "random", "-games", "2"}, "level wants a number 1..9"},
		{[]string{"-variant", "chess", "-a", "random", "-b", "level:x", "-games", "2"}, "level wants a number"},
		{[]string{"-variant", "chess", "-a", "best", "-b", "random", "-games", "2"}, `"best" is not a player`},
		{[]string{"-variant", "chess", "-a", "random:3", "-b", "random", "-games", "2"}, "random takes no argument"},
		{[]string{"-variant", "chess", "-a", "uci:", "-b", "random", "-games", "2"}, "uci wants the engine's path"},
		{[]string{"-variant", "chess", "-a", "uci:/bin/x:Hash", "-b", "random", "-games", "2"}, "is not NAME=VALUE"},
		{[]string{"-variant", "chess", "-a", "random", "-b", "random", "-games", "0"}, "-games must be at least 1"},
		{[]string{"-variant", "chess", "-a", "random", "-b", "random"}, "-games must be at least 1"},
		{[]string{"-variant", "chess", "-a", "uci:/nonexistent/engine", "-b", "random", "-games", "1"}, "/nonexistent/engine"},
	} {
		r := run(t, append([]string{"arena"}, c.args...)...)
		if r.code != exitBadInput || r.stdout != "" || !strings.Contains(r.stderr, c.want) || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("arena %q: exit %d, stdout %q, stderr %q; want exit 2, one line containing %q", c.args, r.code, r.stdout, r.stderr, c.want)
		}
	}
}

// TestArenaElo checks the Elo difference and its interval against values
// worked out by hand.
func TestArenaElo(t *testing.T) {
	games := func(w, d, l int) []arenaGame {
		var gs []arenaGame
		for i := 0; i < w+d+l; i++ {
			g := arenaGame{aWhite: true, result: rules.WhiteWins}
			switch {
			case i >= w+d:
				g.result = rules.BlackWins
			case i >= w:
				g.result = rules.Draw
			}
			gs = append(gs, g)
		}
		return gs
	}
	for _, c := range []struct {
		w, d, l    int
		elo, width float64
	}{
		{10, 0, 10, 0, 147.8},     // 50%: score 0.299..0.701
		{30, 0, 10, 190.8, 121.8}, // 75%: -400 log10(1/3); score 0.598..0.858
		{0, 20, 0, 0, 56.5},       // all draws: no variance, score 0.419..0.581
		{20, 0, 0, 636.4, 174.9},  // 100% counts as 19.5 of 20; score 0.839..1
	} {
		elo, half := arenaElo(games(c.w, c.d, c.l))
		if math.Abs(elo-c.elo) > 0.1 || math.Abs(half-c.width) > 0.1 {
			t.Errorf("%d-%d-%d: elo %.1f±%.1f, want %.0f±%.0f", c.w, c.d, c.l, elo, half, c.elo, c.width)
		}
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n := 0
	for _, r := range s {
		n = n*10 + int(r-'0')
	}
	return n
}
