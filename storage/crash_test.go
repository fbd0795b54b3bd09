package storage_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/storage"
)

// crashChildEnv names the environment variable that makes
// TestCrashChild act as the child of TestCrashSafety: its value is the
// database path.
const crashChildEnv = "FAIRYPOST_STORAGE_CRASH_CHILD"

// Sizes of the crash test: the child plays in crashGames games and is
// killed once it has reported crashCommits commits.
const (
	crashGames   = 24
	crashCommits = 500
)

// crashUsers returns the players of the crash test's games: game i is
// between user i and user i+1 (mod 8), so each user plays in several.
func crashUser(i int) string { return fmt.Sprintf("user%d", i%8) }

// TestCrashSafety starts this test binary again as a child that commits
// chess moves in many games through the store, one UpdateGame at a time,
// and reports each commit on its standard output. It kills the child
// with SIGKILL in the middle of its work, reopens the file and checks
// that every move the child reported is there, that at most one commit
// the child had not yet reported is there too, and that every game
// replays with the rules to its cached position.
func TestCrashSafety(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" || runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skipf("crash test: killing a child process with SIGKILL needs a unix system, not %s", runtime.GOOS)
	}
	path := filepath.Join(t.TempDir(), "fairypost.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashChildEnv+"="+path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	killed := false
	defer func() {
		if !killed {
			cmd.Process.Kill()
			cmd.Wait()
		}
	}()

	committed := map[uint64]int{} // game ID -> plies the child reported committed
	commits := 0
	r := bufio.NewReader(out)
	read := func() (string, bool) {
		line, err := r.ReadString('\n')
		if err != nil { // EOF, or a line the kill cut short: not reported
			if err != io.EOF {
				t.Errorf("reading the child: %v", err)
			}
			return "", false
		}
		return line, true
	}
	record := func(line string) {
		f := strings.Fields(line)
		if len(f) != 3 || f[0] != "committed" {
			return // the test framework's own output
		}
		id, err1 := strconv.ParseUint(f[1], 10, 64)
		ply, err2 := strconv.Atoi(f[2])
		if err1 != nil || err2 != nil {
			t.Fatalf("bad line from the child: %q", line)
		}
		if ply <= committed[id] {
			t.Fatalf("child reported ply %d of game %d after %d", ply, id, committed[id])
		}
		committed[id] = ply
		commits++
	}
	for commits < crashCommits {
		line, ok := read()
		if !ok {
			t.Fatalf("the child stopped after %d commits: %s", commits, stderr.String())
		}
		record(line)
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL: no deferred code, no Close
		t.Fatal(err)
	}
	// Lines already in the pipe were written after their commit returned.
	for {
		line, ok := read()
		if !ok {
			break
		}
		record(line)
	}
	werr := cmd.Wait()
	killed = true
	if werr == nil {
		t.Fatalf("the child exited by itself before the kill: %s", stderr.String())
	}
	t.Logf("child killed after %d reported commits in %d games (%v)", commits, len(committed), werr)

	db, err := storage.Open(path, storage.Options{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatalf("reopening after the kill: %v", err)
	}
	defer db.Close()
	v := chess(t)
	games := map[uint64]*bot.Game{}
	for i := range 8 {
		gs, err := db.GamesByUser(ctx, crashUser(i))
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range gs {
			games[g.ID] = g
		}
	}
	unreported := 0
	for id, ply := range committed {
		g, ok := games[id]
		if !ok {
			t.Errorf("game %d, with %d moves reported committed, is not listed", id, ply)
			continue
		}
		if len(g.Moves) < ply {
			t.Errorf("game %d has %d moves, the child reported %d committed", id, len(g.Moves), ply)
		}
	}
	for id, g := range games {
		if err := replay(v, g); err != nil {
			t.Error(err)
		}
		finished := 0
		if g.Status == bot.GameFinished {
			finished = 1
		}
		if want := uint64(1 + len(g.Moves) + finished); g.Version != want {
			t.Errorf("game %d: version %d with %d moves, want %d (a write applied twice or lost)", id, g.Version, len(g.Moves), want)
		}
		unreported += len(g.Moves) - committed[id]
	}
	if unreported > 1 {
		t.Errorf("%d moves committed that the child had not reported; at most one commit can be in flight", unreported)
	}
}

// TestCrashChild is the child process of TestCrashSafety; it does
// nothing unless crashChildEnv is set. It plays random legal moves in
// crashGames games in turn and writes "committed <game> <ply>" after each
// UpdateGame has returned (bbolt has synced the file by then), until it
// is killed.
func TestCrashChild(t *testing.T) {
	path := os.Getenv(crashChildEnv)
	if path == "" {
		t.Skip("run by TestCrashSafety as its child process")
	}
	db, err := storage.Open(path, storage.Options{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	p := newPlayer(db, chess(t), 7)
	version := map[uint64]uint64{}
	var ids []uint64
	for i := range crashGames {
		g, err := p.start(crashUser(i), crashUser(i+1), "c"+strconv.Itoa(i%3))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, g.ID)
		version[g.ID] = g.Version
	}
	// The parent kills the child long before this; the limit only keeps a
	// child whose parent died from running forever.
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		live := 0
		for _, id := range ids {
			g, err := p.move(id, version[id])
			if err != nil {
				t.Fatal(err)
			}
			if g == nil {
				continue
			}
			live++
			version[id] = g.Version
			// One write per line: the pipe delivers it whole.
			if _, err := fmt.Fprintf(os.Stdout, "committed %d %d\n", id, len(g.Moves)); err != nil {
				t.Fatal(err)
			}
		}
		if live == 0 {
			break
		}
	}
	t.Fatal("the parent did not kill the child")
}
