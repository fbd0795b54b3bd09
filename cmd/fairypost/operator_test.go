package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/rules"
	"github.com/fairypost/fairypost/storage"
	"github.com/fairypost/fairypost/storage/hotcopy"
	bolt "go.etcd.io/bbolt"
)

// paddedDB writes a new database at path with size bytes of padding in a
// bucket of their own (which fairypost ignores), so that a copy of it
// does not fit in a socket's buffers, and returns the padding bucket's
// root page and the page size.
func paddedDB(t *testing.T, path string, size int) (root uint64, pageSize int) {
	t.Helper()
	db, err := storage.Open(path, storage.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	b, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	err = b.Update(func(tx *bolt.Tx) error {
		p, err := tx.CreateBucket([]byte("padding"))
		if err != nil {
			return err
		}
		for i := 0; i*4096 < size; i++ {
			if err := p.Put([]byte{byte(i >> 16), byte(i >> 8), byte(i)}, bytes.Repeat([]byte{byte(i)}, 4000)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	b.View(func(tx *bolt.Tx) error { root = uint64(tx.Bucket([]byte("padding")).Root()); return nil })
	return root, b.Info().PageSize
}

// damagedDB returns the path of a database with one page zeroed.
func damagedDB(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "damaged.db")
	root, pageSize := paddedDB(t, path, 64<<10)
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(make([]byte, pageSize), int64(root)*int64(pageSize)); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestDamagedDatabase: every command that opens a database refuses a
// damaged one with one line and exit status 2 before doing anything.
func TestDamagedDatabase(t *testing.T) {
	t.Parallel()
	db := damagedDB(t)
	for _, args := range [][]string{
		{"console", "-db", db, "-images", t.TempDir()},
		{"export", "-db", db, "-game", "1"},
		{"backup", "-db", db, "-o", filepath.Join(t.TempDir(), "copy.db")},
	} {
		r := runIn(t, "as alice /games\n", args...)
		checkBadInput(t, r, "the database "+db+" is damaged: ")
		if !strings.Contains(r.stderr, "; restore a backup") || r.stdout != "" {
			t.Errorf("%s: stdout %q, stderr %q", args[0], r.stdout, r.stderr)
		}
	}
}

// TestReadOnlyCommandsCreateNothing: export and backup of an empty file
// say so and leave it empty (they open read-only).
func TestReadOnlyCommandsCreateNothing(t *testing.T) {
	t.Parallel()
	empty := filepath.Join(t.TempDir(), "empty.db")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"export", "-db", empty, "-game", "1"},
		{"backup", "-db", empty, "-o", filepath.Join(t.TempDir(), "copy.db")},
	} {
		checkBadInput(t, runIn(t, "", args...), "is an empty file: no database was ever written there")
	}
	if st, err := os.Stat(empty); err != nil || st.Size() != 0 {
		t.Errorf("the empty file afterwards: %v, %v", st, err)
	}
}

// TestNewDatabaseNotice: the console says when it creates a new database
// (a missing or an empty file), and only then.
func TestNewDatabaseNotice(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.db")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, db := range []string{filepath.Join(dir, "new.db"), empty} {
		r := runIn(t, "quit\n", "console", "-db", db, "-images", dir)
		if r.code != 0 || r.stderr != newDBNotice(db) {
			t.Errorf("%s: exit %d, stderr %q", db, r.code, r.stderr)
		}
		if r := runIn(t, "quit\n", "console", "-db", db, "-images", dir); r.code != 0 || r.stderr != "" {
			t.Errorf("%s again: exit %d, stderr %q", db, r.code, r.stderr)
		}
	}
}

// TestConsoleBannerOnlyOnTerminal: the console greets and prompts only
// when its input is a terminal; /dev/null, a character device, is not one.
func TestConsoleBannerOnlyOnTerminal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tty := range []bool{true, false} {
		var stdout, stderr bytes.Buffer
		a := &app{stdin: strings.NewReader("quit\n"), stdout: &stdout, stderr: &stderr, registry: rules.NewRegistry,
			terminal: func(io.Reader) bool { return tty }, getenv: func(string) string { return "" }}
		code := a.run(context.Background(), []string{"console", "-db", filepath.Join(dir, "fp.db"), "-images", dir})
		banner := strings.Contains(stdout.String(), "fairypost console: type help")
		if code != 0 || banner != tty {
			t.Errorf("terminal %v: exit %d, stdout %q, stderr %q", tty, code, stdout.String(), stderr.String())
		}
	}
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if isTerminal(null) {
		t.Errorf("%s counts as a terminal", os.DevNull)
	}
}

// TestQuitEndsBackupCopies: "quit" while a backup client is taking a copy
// slowly ends the copy and returns, instead of waiting for the client
// (hotcopy.IdleTimeout, 30 s, without progress), and the log says that
// the copy was cut short.
func TestQuitEndsBackupCopies(t *testing.T) {
	t.Parallel()
	dir, err := os.MkdirTemp("", "fpq") // a short path, for the socket
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	db := filepath.Join(dir, "fp.db")
	paddedDB(t, db, 8<<20)
	c := startConsole(t, db)
	c.do(t, "as alice /games\n")
	conn, err := net.Dial("unix", hotcopy.SocketPath(db))
	if err != nil {
		t.Fatalf("no live backup socket: %v; stderr %s", err, c.stderr.String())
	}
	defer conn.Close()
	// A slow client: it takes a little of the copy, then waits.
	if _, err := io.CopyN(io.Discard, conn, 4096); err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(c.in, "quit\n"); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-c.code:
		if code != 0 {
			t.Errorf("exit %d, stderr %s", code, c.stderr.String())
		}
	case <-time.After(hotcopy.IdleTimeout / 2):
		t.Fatalf("quit still waits for the backup client; stderr %s", c.stderr.String())
	}
	if s := c.stderr.String(); !strings.Contains(s, "copy cut short: the database is closing") {
		t.Errorf("stderr does not say the copy was cut: %q", s)
	}
}

// TestErrorLinesBounded: a huge input is quoted by a bounded prefix: the
// error stays one short line.
func TestErrorLinesBounded(t *testing.T) {
	t.Parallel()
	huge := strings.Repeat("r", 130_000)
	for _, args := range [][]string{
		{"analyze", "-variant", "chess", "-fen", huge},
		{"analyze", "-variant", "chess", "-moves", strings.Repeat("e4", 65_000)},
		{"analyze", "-variant", "chess", "-moves", "e4 " + huge},
		{"analyze", "-variant", huge},
		{"render", "-variant", "chess", "-o", huge},
		{huge},
	} {
		r := run(t, args...)
		if r.code != exitBadInput || strings.Count(r.stderr, "\n") != 1 || len(r.stderr) > maxErrorLine+100 {
			t.Errorf("%s %s...: exit %d, %d bytes of stderr: %.300s", args[0], args[len(args)-1][:10], r.code, len(r.stderr), r.stderr)
		}
	}
	if r := run(t, "analyze", "-variant", "chess", "-fen", huge); !strings.Contains(r.stderr, `-fen "rrrr`) || !strings.Contains(r.stderr, "(130000 bytes)") {
		t.Errorf("the -fen error does not quote its start and length: %.300s", r.stderr)
	}
}

// TestBackupCutShort: a live copy that the process holding the database
// cuts (it is stopping) is reported as such, with exit status 1 but not
// as an internal error.
func TestBackupCutShort(t *testing.T) {
	t.Parallel()
	cut := fmt.Errorf("hotcopy: fp.db.backup.sock: the copy stopped after 4096 bytes: %w", io.ErrUnexpectedEOF)
	var stderr bytes.Buffer
	a := &app{stderr: &stderr}
	code := a.report("backup", fetchError("fp.db", inUseError{path: "fp.db", flag: "-db", waited: lockTimeout}, cut))
	if code != exitInternal || strings.Contains(stderr.String(), "internal error") ||
		!strings.Contains(stderr.String(), "the process holding fp.db cut the copy short (it is stopping?)") {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
}
