package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// TestCheckCommand: "fairypost check" passes a database the console
// wrote (exit 0), lists an index entry that does not match its record
// and a damaged page (exit 1, the problems on stdout, one line on
// stderr), refuses a missing file as bad input (exit 2) and changes
// nothing in the file it checks.
func TestCheckCommand(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "games.db")
	if r := runIn(t, foolsMate+"as carol /challenge @dave variant:chess\nas dave /accept\n", "console", "-db", path, "-images", t.TempDir()); r.code != 0 {
		t.Fatalf("console: exit %d, stderr %q", r.code, r.stderr)
	}
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if r := run(t, "check", "-db", path); r.code != 0 || r.stdout != path+": no problems found\n" || r.stderr != "" {
		t.Fatalf("check of a sound database: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if after, err := os.ReadFile(path); err != nil || !bytes.Equal(before, after) {
		t.Errorf("check changed the file (%v)", err)
	}

	// Game 2 (carol and dave's, being played) leaves the index of dave's
	// ongoing games.
	b, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = b.Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte("active_games_by_user")).Delete(append([]byte("dave\x00"), 0, 0, 0, 0, 0, 0, 0, 2))
	})
	b.Close()
	if err != nil {
		t.Fatal(err)
	}
	r := run(t, "check", "-db", path)
	if r.code != exitInternal || r.stdout != "active_games_by_user: entry \"dave\" → 2 of game 2 is missing\n" {
		t.Errorf("check of a broken index: exit %d, stdout %q", r.code, r.stdout)
	}
	if want := "fairypost check: the database " + path + " has a problem (above)\n"; r.stderr != want {
		t.Errorf("stderr %q, want %q", r.stderr, want)
	}

	damaged := damagedDB(t)
	r = run(t, "check", "-db", damaged)
	if r.code != exitInternal || !strings.HasPrefix(r.stdout, "file: ") || strings.Count(r.stdout, "\n") != 1 {
		t.Errorf("check of a damaged file: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	checkBadInput(t, run(t, "check", "-db", filepath.Join(t.TempDir(), "missing.db")), "no such database file")
	checkBadInput(t, run(t, "check"), "-db FILE is required")
}
