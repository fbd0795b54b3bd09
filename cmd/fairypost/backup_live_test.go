package main

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/internal/testkit"
	"github.com/fairypost/fairypost/storage"
	"github.com/fairypost/fairypost/storage/hotcopy"
)

// liveConsole is "fairypost console" running in the background on a
// database, fed through a pipe.
type liveConsole struct {
	in             *io.PipeWriter
	stdout, stderr testkit.Buffer
	code           chan int
}

func startConsole(t *testing.T, db string) *liveConsole {
	t.Helper()
	r, w := io.Pipe()
	c := &liveConsole{in: w, code: make(chan int, 1)}
	go func() {
		c.code <- Main(context.Background(), []string{"console", "-db", db, "-images", filepath.Join(filepath.Dir(db), "boards")}, r, &c.stdout, &c.stderr)
	}()
	t.Cleanup(func() { w.Close() })
	return c
}

// do writes lines to the console and waits until it has run them: a
// line is done when the next one is echoed, so a last "help" is sent.
func (c *liveConsole) do(t *testing.T, lines string) {
	t.Helper()
	before := strings.Count(c.stdout.String(), "> help\n")
	if _, err := io.WriteString(c.in, lines+"help\n"); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(20 * time.Second); strings.Count(c.stdout.String(), "> help\n") == before; {
		if time.Now().After(deadline) {
			t.Fatalf("the console did not run %q; stdout:\n%s\nstderr: %s", lines, c.stdout.String(), c.stderr.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// end closes the console's input and returns its exit status.
func (c *liveConsole) end(t *testing.T) int {
	t.Helper()
	c.in.Close()
	select {
	case code := <-c.code:
		return code
	case <-time.After(20 * time.Second):
		t.Fatal("the console did not stop at the end of its input")
		return -1
	}
}

// gameMoves returns game 1's moves in the database at path.
func gameMoves(t *testing.T, path string) []string {
	t.Helper()
	db, err := storage.Open(path, storage.Options{Timeout: time.Second})
	if err != nil {
		t.Fatalf("%s does not open: %v", path, err)
	}
	defer db.Close()
	g, err := db.Game(context.Background(), 1)
	if err != nil {
		t.Fatalf("game 1 in %s: %v", path, err)
	}
	return g.Moves
}

// TestBackupLiveConsole: backup copies the database of a running console
// through its socket; the console goes on, and removes the socket when it
// stops.
func TestBackupLiveConsole(t *testing.T) {
	t.Parallel()
	// A short folder: the socket's path must fit a unix socket address.
	dir, err := os.MkdirTemp("", "fpb")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	db := filepath.Join(dir, "fp.db")

	c := startConsole(t, db)
	c.do(t, "as alice /challenge @bob variant:chess color:white\nas bob /accept\nas alice /move e4\n")
	if _, err := os.Lstat(hotcopy.SocketPath(db)); err != nil {
		t.Fatalf("the console serves no socket: %v; stderr: %s", err, c.stderr.String())
	}

	copyPath := filepath.Join(t.TempDir(), "copy.db")
	r := runIn(t, "", "backup", "-db", db, "-o", copyPath)
	if r.code != 0 || r.stderr != "" || !strings.HasPrefix(r.stdout, copyPath+": ") {
		t.Fatalf("backup of the live console: exit %d, stderr %q, stdout %q", r.code, r.stderr, r.stdout)
	}
	if got, want := gameMoves(t, copyPath), []string{"e2e4"}; !reflect.DeepEqual(got, want) {
		t.Errorf("game 1 in the copy: moves %q, want %q", got, want)
	}
	if entries, _ := os.ReadDir(filepath.Dir(copyPath)); len(entries) != 1 {
		t.Errorf("files beside the copy: %v", entries)
	}

	// The console goes on after the copy.
	c.do(t, "as bob /move e5\n")
	if code := c.end(t); code != 0 || c.stderr.String() != newDBNotice(db) {
		t.Fatalf("console: exit %d, stderr %q, stdout:\n%s", code, c.stderr.String(), c.stdout.String())
	}
	if got, want := gameMoves(t, db), []string{"e2e4", "e7e5"}; !reflect.DeepEqual(got, want) {
		t.Errorf("game 1 after the console: moves %q, want %q", got, want)
	}
	if _, err := os.Lstat(hotcopy.SocketPath(db)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the socket after the console stopped: %v", err)
	}
	if got := gameMoves(t, copyPath); !reflect.DeepEqual(got, []string{"e2e4"}) {
		t.Errorf("the copy changed with the database: %q", got)
	}
}

// TestLiveBackupPathTooLong: a console on a database whose socket path
// does not fit still runs, with one warning, and backup then says the
// database is in use and offers no live copy.
func TestLiveBackupPathTooLong(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), strings.Repeat("d", hotcopy.MaxSocketPath))
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "fp.db")
	c := startConsole(t, db)
	c.do(t, "as alice /challenge @bob variant:chess\n")
	r := runIn(t, "", "backup", "-db", db, "-o", filepath.Join(t.TempDir(), "copy.db"))
	checkBadInput(t, r, "offers no live copy: the path of its socket")
	if code := c.end(t); code != 0 {
		t.Fatalf("console: exit %d, stderr %q", code, c.stderr.String())
	}
	if s, ok := strings.CutPrefix(c.stderr.String(), newDBNotice(db)); !ok || strings.Count(s, "\n") != 1 || !strings.Contains(s, "live backups are not possible") {
		t.Errorf("console's stderr: %q, want the new database and one warning", c.stderr.String())
	}
}
