package main

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/storage"
)

// runIn calls Main in-process with stdin and args.
func runIn(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), args, strings.NewReader(stdin), &stdout, &stderr)
	return result{stdout.String(), stderr.String(), code}
}

const foolsMate = `as alice /challenge @bob variant:chess color:white
as bob /accept
as alice /move f3
as bob /move e5
as alice /move g4
as bob /move Qh4#
`

// newDBNotice is the line on stderr saying that a new database was
// created at path.
func newDBNotice(path string) string {
	return "fairypost: there was no database at " + path + ": a new one was created there.\n"
}

// playedDB returns a database where alice (white) and bob played fool's
// mate as game 1, through "fairypost console".
func playedDB(t *testing.T) (db, images string) {
	t.Helper()
	dir := t.TempDir()
	db, images = filepath.Join(dir, "fp.db"), filepath.Join(dir, "boards")
	r := runIn(t, foolsMate, "console", "-db", db, "-images", images)
	if r.code != 0 || r.stderr != newDBNotice(db) {
		t.Fatalf("console: exit %d, stderr %q, stdout:\n%s", r.code, r.stderr, r.stdout)
	}
	return db, images
}

func TestConsoleScript(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db, images := filepath.Join(dir, "fp.db"), filepath.Join(dir, "boards")
	r := runIn(t, foolsMate+"as carol /move e4 game:1\n", "console", "-db", db, "-images", images)
	if r.code != 0 || r.stderr != newDBNotice(db) {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	for _, want := range []string{
		"> as bob /move Qh4#\n",
		"4  . . . . . . P q  4\n",
		"Game over: 0-1 (checkmate).\n",
		"→ @alice:",
		"(only @carol sees this) ",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "fairypost console: type help") {
		t.Errorf("a script got the interactive greeting:\n%s", r.stdout)
	}
	entries, err := os.ReadDir(images)
	if err != nil {
		t.Fatal(err)
	}
	pngs := 0
	for _, e := range entries {
		if filepath.Ext(e.Name()) != ".png" {
			continue
		}
		pngs++
		f, err := os.Open(filepath.Join(images, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := png.Decode(f); err != nil {
			t.Errorf("%s: %v", e.Name(), err)
		}
		f.Close()
	}
	if pngs < 5 {
		t.Errorf("%d PNGs in %s, want one per position at least", pngs, images)
	}
	// The game is in the database: a second console sees it.
	r = runIn(t, "/board game:1\n", "console", "-db", db, "-images", images, "-user", "dave")
	if r.code != 0 || !strings.Contains(r.stdout, "Game over: 0-1 (checkmate).") {
		t.Errorf("second console: exit %d, stderr %q, stdout:\n%s", r.code, r.stderr, r.stdout)
	}
}

func TestExportPGN(t *testing.T) {
	t.Parallel()
	db, _ := playedDB(t)
	r := runIn(t, "", "export", "-db", db, "-game", "1")
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	for _, want := range []string{`[White "alice"]`, `[Black "bob"]`, `[Result "0-1"]`, `[Variant "`, "1. f3 {f2f3} 1... e5", "Qh4# {d8h4} 0-1\n", `[Site "?"]`} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("PGN lacks %q:\n%s", want, r.stdout)
		}
	}
	if r2 := runIn(t, "", "export", "-db", db, "-game", "1", "-format", "pgn"); r2.stdout != r.stdout {
		t.Errorf("-format pgn differs from the default")
	}
}

func TestExportJSON(t *testing.T) {
	t.Parallel()
	db, _ := playedDB(t)
	r := runIn(t, "", "export", "-db", db, "-game", "1", "-format", "json")
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	if strings.Count(r.stdout, "\n") != 1 {
		t.Errorf("want one line of JSON, got %q", r.stdout)
	}
	var got gameJSON
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("%v: %s", err, r.stdout)
	}
	if _, err := time.Parse(time.RFC3339, got.Created); err != nil {
		t.Errorf("created %q: %v", got.Created, err)
	}
	if _, err := time.Parse(time.RFC3339, got.Updated); err != nil {
		t.Errorf("updated %q: %v", got.Updated, err)
	}
	got.Created, got.Updated = "", ""
	want := gameJSON{
		ID: 1, Variant: "chess", Options: "",
		StartFEN: startChess,
		FEN:      "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
		Moves:    []string{"f2f3", "e7e5", "g2g4", "d8h4"},
		SAN:      []string{"f3", "e5", "g4", "Qh4#"},
		White:    "alice", Black: "bob", ToAct: "",
		Status: "finished", Result: "0-1", Reason: "checkmate",
		DaysPerMove: 3, GuildID: "", ChannelID: "console",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("export\n got %+v\nwant %+v", got, want)
	}
	// Every field is there, even when empty (a stable shape).
	var raw map[string]any
	json.Unmarshal([]byte(r.stdout), &raw)
	for _, k := range []string{"id", "variant", "options", "start_fen", "fen", "moves", "san", "white", "black", "to_act", "status", "result", "reason", "days_per_move", "guild_id", "channel_id", "created", "updated"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("field %q missing in %s", k, r.stdout)
		}
	}
}

func TestBackup(t *testing.T) {
	t.Parallel()
	db, _ := playedDB(t)
	copyPath := filepath.Join(t.TempDir(), "copy.db")
	r := runIn(t, "", "backup", "-db", db, "-o", copyPath)
	if r.code != 0 || r.stderr != "" || !strings.HasPrefix(r.stdout, copyPath+": ") {
		t.Fatalf("exit %d, stderr %q, stdout %q", r.code, r.stderr, r.stdout)
	}
	c, err := storage.Open(copyPath, storage.Options{Timeout: time.Second})
	if err != nil {
		t.Fatalf("the copy does not open: %v", err)
	}
	g, err := c.Game(context.Background(), 1)
	c.Close()
	if err != nil || !reflect.DeepEqual(g.Moves, []string{"f2f3", "e7e5", "g2g4", "d8h4"}) {
		t.Fatalf("game 1 in the copy: %+v, %v", g, err)
	}
	// No temporary file is left beside the copy.
	entries, _ := os.ReadDir(filepath.Dir(copyPath))
	if len(entries) != 1 {
		t.Errorf("files beside the copy: %v", entries)
	}
	// The copy can be exported like the original, and replaced.
	if r := runIn(t, "", "export", "-db", copyPath, "-game", "1", "-format", "json"); r.code != 0 || !strings.Contains(r.stdout, `"d8h4"`) {
		t.Errorf("export from the copy: exit %d, %q %q", r.code, r.stdout, r.stderr)
	}
	if r := runIn(t, "", "backup", "-db", db, "-o", copyPath); r.code != 0 {
		t.Errorf("replacing the copy: exit %d, %q", r.code, r.stderr)
	}
}

// TestLockedDatabase: while another opener holds the database (as a
// running bot does), console, export and backup give up after
// lockTimeout with one line and exit status 2.
func TestLockedDatabase(t *testing.T) {
	t.Parallel()
	db, _ := playedDB(t)
	held, err := storage.Open(db, storage.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { held.Close() }) // after the parallel subtests
	for _, args := range [][]string{
		{"export", "-db", db, "-game", "1"},
		{"backup", "-db", db, "-o", filepath.Join(t.TempDir(), "copy.db")},
		{"console", "-db", db, "-images", t.TempDir()},
	} {
		t.Run(args[0], func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			r := runIn(t, "/games\n", args...)
			checkBadInput(t, r, "is in use by another process (a running bot?)")
			// bbolt gives up a little early: it stops polling the lock
			// when the next poll (every 50 ms) would pass the timeout.
			if d := time.Since(start); d < lockTimeout*9/10 {
				t.Errorf("gave up after %v, before the lock timeout", d)
			}
		})
	}
}

// TestLockedBackupLeavesNothing: a backup refused for the lock writes
// no file.
func TestLockedBackupLeavesNothing(t *testing.T) {
	t.Parallel()
	db, _ := playedDB(t)
	held, err := storage.Open(db, storage.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	out := filepath.Join(t.TempDir(), "copy.db")
	checkBadInput(t, runIn(t, "", "backup", "-db", db, "-o", out), "in use")
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a failed backup left %s: %v", out, err)
	}
}

func TestDatabaseCommandsBadInput(t *testing.T) {
	t.Parallel()
	db, _ := playedDB(t)
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.db")
	junk := filepath.Join(dir, "junk.db")
	if err := os.WriteFile(junk, bytes.Repeat([]byte("not a database "), 1000), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"console", "-frob"}, "fairypost console: flag provided but not defined: -frob"},
		{[]string{"console", "-db"}, "flag needs an argument: -db"},
		{[]string{"console", "-db", db, "extra"}, `fairypost console: unexpected argument "extra"`},
		{[]string{"console", "-db", db, "-user", "b@d"}, `fairypost console: -user "b@d"`},
		{[]string{"console", "-db", dir}, "is a folder, not a database file"},
		{[]string{"console", "-db", junk, "-images", dir}, "is not a fairypost database"},
		{[]string{"export", "-db", db, "-game", "7"}, "fairypost export: There is no game 7."},
		{[]string{"export", "-db", db}, "fairypost export: -game ID is required"},
		{[]string{"export", "-db", db, "-game", "x"}, `invalid value "x" for flag -game`},
		{[]string{"export", "-db", db, "-game", "-3"}, `invalid value "-3" for flag -game`},
		{[]string{"export", "-db", db, "-game", "1", "-format", "xml"}, `fairypost export: -format "xml": want pgn or json`},
		{[]string{"export", "-game", "1"}, "fairypost export: -db FILE is required"},
		{[]string{"export", "-db", missing, "-game", "1"}, "missing.db: no such database file"},
		{[]string{"export", "-db", junk, "-game", "1"}, "is not a fairypost database"},
		{[]string{"backup", "-db", db}, "fairypost backup: -o COPY is required"},
		{[]string{"backup", "-o", filepath.Join(dir, "c.db")}, "fairypost backup: -db FILE is required"},
		{[]string{"backup", "-db", db, "-o", db}, "is the database itself"},
		{[]string{"backup", "-db", db, "-o", filepath.Join(filepath.Dir(db), ".", filepath.Base(db))}, "is the database itself"},
		{[]string{"backup", "-db", db, "-o", dir}, "is a folder"},
		{[]string{"backup", "-db", missing, "-o", filepath.Join(dir, "c.db")}, "no such database file"},
		{[]string{"backup", "-db", db, "-o", filepath.Join(dir, "no", "such", "c.db")}, "fairypost backup: -o "},
	} {
		checkBadInput(t, runIn(t, "", c.args...), c.want)
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("export or backup created %s", missing)
	}
}
