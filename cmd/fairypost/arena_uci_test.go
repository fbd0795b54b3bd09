package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/rules"
)

// fakeUCIEnv makes the test binary act as a UCI engine (see TestMain).
const fakeUCIEnv = "FAIRYPOST_TEST_FAKE_UCI"

// TestMain runs the tests, or, when the environment asks for it, a fake
// UCI engine that plays the first legal move of chess: the arena's
// external engine in TestArenaUCI.
func TestMain(m *testing.M) {
	if os.Getenv(fakeUCIEnv) == "1" {
		os.Exit(fakeUCI())
	}
	code := m.Run()
	os.RemoveAll(binaryDir)
	os.Exit(code)
}

// fakeUCI speaks enough UCI for the arena, on stdin and stdout.
func fakeUCI() int {
	reg, err := rules.NewRegistry()
	if err != nil {
		return 1
	}
	v := reg.Default("chess")
	var pos rules.Position
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		f := strings.Fields(in.Text())
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "uci":
			fmt.Println("id name fake\noption name Hash type spin default 16 min 1 max 64\nuciok")
		case "isready":
			fmt.Println("readyok")
		case "position":
			// position fen F1 .. F6 [moves M...]
			if len(f) < 8 || f[1] != "fen" {
				return 1
			}
			if pos, err = rules.ParseFEN(v, strings.Join(f[2:8], " ")); err != nil {
				return 1
			}
			for _, text := range f[min(len(f), 9):] {
				m, err := rules.ParseMove(&pos, text)
				if err != nil {
					return 1
				}
				pos, _ = pos.Play(m)
			}
		case "go":
			legal := pos.Legal(nil)
			if len(legal) == 0 {
				fmt.Println("bestmove (none)")
				continue
			}
			fmt.Println("bestmove " + rules.FormatMove(&pos, legal[0]))
		case "quit":
			return 0
		}
	}
	return 0
}

// TestArenaUCI plays a match against an external UCI engine (this test
// binary as a fake engine): positions and moves go through UCI, options
// are accepted, and every game is played to its end.
func TestArenaUCI(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Skip("no path to the test binary:", err)
	}
	t.Setenv(fakeUCIEnv, "1")
	out := mustRun(t, "arena", "-variant", "chess", "-a", "level:2", "-b", "uci:"+self+":Hash=8,movetime=10", "-games", "2")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if m := arenaResultLine.FindStringSubmatch(lines[len(lines)-1]); m == nil || atoi(t, m[1]) < 1 {
		t.Errorf("level 2 did not beat a first-legal-move engine over UCI:\n%s", out)
	}
}
