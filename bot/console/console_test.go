package console_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/gif"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/command"
	"github.com/fairypost/fairypost/bot/console"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/bot/prefs"
	"github.com/fairypost/fairypost/bot/ratings"
	"github.com/fairypost/fairypost/bot/tournaments"
	"github.com/fairypost/fairypost/internal/testkit"
	"github.com/fairypost/fairypost/storage"
)

// env is a console over a real bbolt file (checked when the test ends)
// and the real renderer; its clock is moved by the console's "wait".
type env struct {
	db      *storage.DB
	svc     *gameplay.Service
	prefs   *prefs.Service
	tours   *tournaments.Service
	rates   *ratings.Service
	handler *command.Handler
	clock   *testkit.Clock
	images  string
}

func newEnv(t *testing.T) *env {
	t.Helper()
	dir := t.TempDir()
	db := testkit.OpenDBAt(t, filepath.Join(dir, "fairypost.db"))
	clk := testkit.NewClock(testkit.T0)
	svc := testkit.Service(t, db, clk)
	settings := prefs.New(svc, db)
	tours, rates := tournaments.New(svc, db, db), ratings.New(svc, db)
	h := command.New(svc, settings, command.Options{BoardSize: 320, Tournaments: tours, Ratings: rates})
	return &env{db: db, svc: svc, prefs: settings, tours: tours, rates: rates, handler: h, clock: clk, images: filepath.Join(dir, "boards")}
}

// run runs script through a new script-mode console and returns its
// output.
func (e *env) run(t *testing.T, script string) string {
	t.Helper()
	var out bytes.Buffer
	c, err := console.New(console.Config{Service: e.svc, Prefs: e.prefs, Handler: e.handler, Outbox: e.db,
		Out: &out, ImagesDir: e.images, Advance: e.clock.Advance})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(context.Background(), strings.NewReader(script)); err != nil {
		t.Fatalf("Run: %v\noutput:\n%s", err, out.String())
	}
	if testing.Verbose() {
		t.Logf("console output:\n%s", out.String())
	}
	return out.String()
}

// game returns game id from the store.
func (e *env) game(t *testing.T, id uint64) *bot.Game {
	t.Helper()
	g, err := e.db.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// section returns the output printed for the input line in (echoed as
// "> in") up to the next echoed line.
func section(t *testing.T, out, in string) string {
	t.Helper()
	marker := "> " + in + "\n"
	i := strings.Index(out, marker)
	if i < 0 {
		t.Fatalf("line %q not echoed in output:\n%s", in, out)
	}
	rest := out[i+len(marker):]
	if j := strings.Index(rest, "\n> "); j >= 0 {
		rest = rest[:j+1]
	}
	return rest
}

// wantIn fails unless every want is in s.
func wantIn(t *testing.T, what, s string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(s, w) {
			t.Errorf("%s: missing %q in:\n%s", what, w, s)
		}
	}
}

// files returns the attachment paths printed in out, checking that each
// exists and that PNGs and GIFs decode.
func files(t *testing.T, out string) []string {
	t.Helper()
	var paths []string
	for _, l := range strings.Split(out, "\n") {
		path, ok := strings.CutPrefix(strings.TrimSpace(l), "file: ")
		if !ok {
			continue
		}
		paths = append(paths, path)
		f, err := os.Open(path)
		if err != nil {
			t.Errorf("printed file: %v", err)
			continue
		}
		switch filepath.Ext(path) {
		case ".png":
			if _, err := png.Decode(f); err != nil {
				t.Errorf("%s: %v", path, err)
			}
		case ".gif":
			if _, err := gif.DecodeAll(f); err != nil {
				t.Errorf("%s: %v", path, err)
			}
		}
		f.Close()
	}
	return paths
}

// TestFoolsMate plays a whole chess game through the console, then
// tries moves that must be refused.
func TestFoolsMate(t *testing.T) {
	e := newEnv(t)
	out := e.run(t, `
# alice plays white against bob
as alice /challenge @bob variant:chess days:3 color:white
as bob /accept
as alice /move f3
as bob /move e5
as alice /move g4
as bob /move Qh4#
as alice /move e4 game:1
/board game:1
`)
	files := files(t, out)
	if len(files) < 5 {
		t.Errorf("%d files written, want a board per move and the final GIF:\n%s", len(files), out)
	}
	// The same image (a move's board, shown again in the turn
	// notification) is written once: no two files in the folder are equal.
	entries, err := os.ReadDir(e.images)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{}
	for _, en := range entries {
		b, err := os.ReadFile(filepath.Join(e.images, en.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if other, dup := seen[string(b)]; dup {
			t.Errorf("%s and %s are the same image, written twice", other, en.Name())
		}
		seen[string(b)] = en.Name()
	}
	gifs := 0
	for _, f := range files {
		if filepath.Dir(f) != e.images {
			t.Errorf("file %s outside the images folder %s", f, e.images)
		}
		if filepath.Ext(f) == ".gif" {
			gifs++
		}
	}
	if gifs == 0 {
		t.Errorf("no GIF of the finished game in:\n%s", out)
	}
	wantIn(t, "challenge", section(t, out, "as alice /challenge @bob variant:chess days:3 color:white"), "→ @bob:")
	wantIn(t, "accept", section(t, out, "as bob /accept"),
		"Game 1, Chess: @alice White, @bob Black\n",
		"1  R N B Q K B N R  1\n",
		"@alice (White) to move.\n",
		"→ @alice:")
	wantIn(t, "f3", section(t, out, "as alice /move f3"),
		"3  . . . . . P . .  3\n", "@bob (Black) to move.\n", "→ @bob:")
	mate := section(t, out, "as bob /move Qh4#")
	wantIn(t, "mate", mate,
		"4  . . . . . . P q  4\n",
		"Game over: 0-1 (checkmate).\n",
		"→ @alice:", "→ @bob:")
	if strings.Contains(mate, "! ") {
		t.Errorf("a problem reported for the mate:\n%s", mate)
	}
	wantIn(t, "move after the end", section(t, out, "as alice /move e4 game:1"), "(only @alice sees this) ")
	wantIn(t, "board", section(t, out, "/board game:1"), "Game over: 0-1 (checkmate).\n", "file: ")

	g := e.game(t, 1)
	if g.Status != bot.GameFinished || g.Result != bot.BlackWins || g.Reason != "checkmate" {
		t.Errorf("game %+v", g)
	}
	if want := []string{"f2f3", "e7e5", "g2g4", "d8h4"}; !reflect.DeepEqual(g.Moves, want) {
		t.Errorf("moves %q, want %q", g.Moves, want)
	}
	if ns, err := e.db.PendingNotifications(context.Background(), e.clock.Now(), 0); err != nil || len(ns) != 0 {
		t.Errorf("undelivered notifications %v, %v", ns, err)
	}
}

// TestTrainWreckTurn: a Train Wreck turn has two parts by the same
// player; the reply says so in between, and the opponent cannot move;
// the turn's end and the opponent's notification name both parts.
func TestTrainWreckTurn(t *testing.T) {
	e := newEnv(t)
	out := e.run(t, `
as alice /challenge @bob variant:trainwreck color:white
as bob /accept
as alice /move g1f3
as bob /move b8c6
as alice /move g8f6
as bob /move b8c6
as bob /move b1c3
`)
	first := section(t, out, "as alice /move g1f3")
	wantIn(t, "first part", first, "@alice, your turn continues: White moves a Black piece.\n", "@alice (White) to move.\n")
	if strings.Contains(first, "→ @bob") {
		t.Errorf("bob was told in the middle of alice's turn:\n%s", first)
	}
	wantIn(t, "bob too early", section(t, out, "as bob /move b8c6"), "(only @bob sees this) ")
	wantIn(t, "second part", section(t, out, "as alice /move g8f6"), "@bob, your move: Black moves a Black piece.\n", "@bob (Black) to move.\n",
		"@alice played Nf3, Nf6 in game #1.\n", "→ @bob: @alice played Nf3, Nf6.\n")
	g := e.game(t, 1)
	if want := []string{"g1f3", "g8f6", "b8c6", "b1c3"}; !reflect.DeepEqual(g.Moves, want) {
		t.Errorf("moves %q, want %q\n%s", g.Moves, want, out)
	}
	files(t, out)
}

// TestTank: a Tank Chess game with its own pieces on the text board.
func TestTank(t *testing.T) {
	e := newEnv(t)
	out := e.run(t, `
as alice /challenge @bob variant:tank color:black
as bob /accept
/move e4
as alice /move e5
`)
	wantIn(t, "accept", section(t, out, "as bob /accept"),
		"Game 1, Tank Chess: @bob White, @alice Black\n",
		"8  m n b a k b n t  8\n",
		"1  M N B A K B N T  1\n")
	wantIn(t, "e4 by bob", section(t, out, "/move e4"), "4  . . . . P . . .  4\n", "→ @alice:")
	if g := e.game(t, 1); !reflect.DeepEqual(g.Moves, []string{"e2e4", "e7e5"}) {
		t.Errorf("moves %q\n%s", g.Moves, out)
	}
	files(t, out)
}

// TestTimeout: wait moves the clock; the sweep after the line ends the
// game on time and the players are told.
func TestTimeout(t *testing.T) {
	e := newEnv(t)
	out := e.run(t, `
as alice /challenge @carol variant:chess days:1 color:white
as carol /accept
as alice /move e4
as carol /move e5
wait 2d
`)
	wantIn(t, "wait", section(t, out, "wait 2d"), "The clock moved forward 2d.", "→ @alice:", "→ @carol:")
	g := e.game(t, 1)
	if g.Status != bot.GameFinished || g.Result != bot.BlackWins {
		t.Errorf("after the deadline: %+v\n%s", g, out)
	}
}

// TestBadInput: every bad line gets a message, changes nothing and does
// not stop the script.
func TestBadInput(t *testing.T) {
	e := newEnv(t)
	out := e.run(t, `
/games
as alice /challenge @bob variant:chess color:white
as bob /accept
as b@d /games
as
as alice /frobnicate
move e4
/move e4 colour:white
/move
/move e4 game:one
/challenge variant:chess days:4
/challenge variant:checkers
/challenge variant:chess options:"oops
/move e4`+"\x00"+`
as carol /move e4 game:1
as bob /move e5 game:1
/press fp1:nonsense
as alice /move e4 game:1
`)
	for _, tc := range []struct{ line, want string }{
		{"/games", "! Who is typing?"},
		{"as b@d /games", `! as: "b@d" is not a user name`},
		{"as", "! Say who is typing"},
		{"as alice /frobnicate", "! Unknown command /frobnicate. Commands: /challenge, /accept"},
		{"move e4", "! Commands start with a slash: /move."},
		{"/move e4 colour:white", `! /move has no option "colour". Usage: /move move:MOVE [game:N]`},
		{"/move", "! /move needs the option move. Usage: /move move:MOVE [game:N]"},
		{"/move e4 game:one", `! Option game: "one" is not a whole number.`},
		{"/challenge variant:chess days:4", `! Option days: "4" is not one of 1, 2, 3, 5, 7, 14, 0.`},
		{"/challenge variant:checkers", `Unknown variant "checkers": /variants lists`},
		{`/challenge variant:chess options:"oops`, "! A quote is not closed"},
		{`/move e4\x00`, "! The line contains a NUL byte"},
		{"as carol /move e4 game:1", "(only @carol sees this) "},
		{"as bob /move e5 game:1", "(only @bob sees this) "},
		{"/press fp1:nonsense", "(only @bob sees this) "},
	} {
		wantIn(t, tc.line, section(t, out, tc.line), tc.want)
	}
	// The last line still ran: the script went on after every bad line.
	wantIn(t, "last line", section(t, out, "as alice /move e4 game:1"), "4  . . . . P . . .  4\n")
	if g := e.game(t, 1); !reflect.DeepEqual(g.Moves, []string{"e2e4"}) || g.Version != 2 {
		t.Errorf("game after the bad lines: moves %q version %d\n%s", g.Moves, g.Version, out)
	}
}

// TestButtons: a button printed under a reply is clicked with /press.
func TestButtons(t *testing.T) {
	e := newEnv(t)
	out := e.run(t, "as alice /challenge @bob variant:chess color:white\n")
	var press string
	for _, l := range strings.Split(out, "\n") {
		if i := strings.Index(l, "] /press "); i >= 0 && strings.Contains(strings.ToLower(l), "accept") {
			press = strings.TrimSpace(l[i+2:])
		}
	}
	if press == "" {
		t.Fatalf("no Accept button under the challenge:\n%s", out)
	}
	out = e.run(t, "as bob "+press+"\n")
	if g := e.game(t, 1); g.White != "alice" || g.Black != "bob" {
		t.Errorf("after %s: game %+v\n%s", press, g, out)
	}
}

// TestImagesNotOverwritten: a second console in the same folder numbers
// its files after the first's.
func TestImagesNotOverwritten(t *testing.T) {
	e := newEnv(t)
	out1 := e.run(t, "as alice /challenge @bob variant:chess color:white\nas bob /accept\n")
	out2 := e.run(t, "as alice /board game:1\n")
	f1, f2 := files(t, out1), files(t, out2)
	if len(f1) == 0 || len(f2) == 0 {
		t.Fatalf("files %q %q", f1, f2)
	}
	for _, a := range f1 {
		for _, b := range f2 {
			if a == b {
				t.Errorf("file %s written twice", a)
			}
		}
	}
}

// TestHelpAndQuit: help lists the console syntax and every command;
// nothing after quit runs.
func TestHelpAndQuit(t *testing.T) {
	e := newEnv(t)
	out := e.run(t, "help\nquit\nas alice /challenge @bob variant:chess\n")
	for _, s := range e.handler.Specs() {
		wantIn(t, "help", out, fmt.Sprintf("/%-10s %s", s.Name, s.Description))
	}
	wantIn(t, "help", out, "as NAME", "/press ID", "wait DURATION")
	if strings.Contains(out, "/challenge @bob") {
		t.Errorf("a line after quit ran:\n%s", out)
	}
}

// TestInteractive: an interactive console greets, prompts with the
// current user, runs its background scheduler and delivery, and stops
// them at the end of input.
func TestInteractive(t *testing.T) {
	e := newEnv(t)
	var out bytes.Buffer
	c, err := console.New(console.Config{Service: e.svc, Prefs: e.prefs, Handler: e.handler, Outbox: e.db,
		Out: &out, ImagesDir: e.images, Interactive: true})
	if err != nil {
		t.Fatal(err)
	}
	script := "as alice\n/challenge @bob variant:chess color:white\nas bob /accept\n"
	if err := c.Run(context.Background(), strings.NewReader(script)); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	wantIn(t, "interactive", got, "type help for the syntax", "Start with \"as NAME\"", "\n> alice> ", "\nalice> @bob accepted", "\nbob> \n", "@alice (White) to move.\n", "→ @alice:")
	if strings.Contains(got, "> as bob") {
		t.Errorf("an interactive console echoed its input:\n%s", got)
	}
	if g := e.game(t, 1); g.White != "alice" {
		t.Errorf("game %+v", g)
	}
}

// TestCancel: Run returns when its context ends, even while reading.
func TestCancel(t *testing.T) {
	e := newEnv(t)
	c, err := console.New(console.Config{Service: e.svc, Prefs: e.prefs, Handler: e.handler, Outbox: e.db,
		Out: io.Discard, ImagesDir: e.images, Interactive: true, User: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	// The input never ends (a terminal nobody types in): Run returns
	// when the context ends all the same.
	pr, pw := io.Pipe()
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		pw.Write([]byte("/games\n"))
		cancel()
	}()
	if err := c.Run(ctx, pr); !errors.Is(err, context.Canceled) {
		t.Errorf("Run after cancel: %v, want context.Canceled", err)
	}
}

// TestNewErrors: a console needs its parts and a usable folder.
func TestNewErrors(t *testing.T) {
	e := newEnv(t)
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o600)
	for name, cfg := range map[string]console.Config{
		"no service":  {Prefs: e.prefs, Handler: e.handler, Outbox: e.db, Out: io.Discard, ImagesDir: e.images},
		"no settings": {Service: e.svc, Handler: e.handler, Outbox: e.db, Out: io.Discard, ImagesDir: e.images},
		"no folder":   {Service: e.svc, Prefs: e.prefs, Handler: e.handler, Outbox: e.db, Out: io.Discard},
		"bad folder":  {Service: e.svc, Prefs: e.prefs, Handler: e.handler, Outbox: e.db, Out: io.Discard, ImagesDir: filepath.Join(file, "x")},
		"bad user":    {Service: e.svc, Prefs: e.prefs, Handler: e.handler, Outbox: e.db, Out: io.Discard, ImagesDir: e.images, User: "a b"},
	} {
		if _, err := console.New(cfg); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestLongLine: a line longer than MaxLineLength is refused and the
// next line runs.
func TestLongLine(t *testing.T) {
	e := newEnv(t)
	out := e.run(t, "as alice /move "+strings.Repeat("e", console.MaxLineLength+10)+"\nas alice /games\n")
	wantIn(t, "long line", out, "! The line is too long", "> as alice /games\n")
	if strings.Count(out, "! ") != 1 {
		t.Errorf("want one problem:\n%s", out)
	}
}

// TestAttachmentsAndChannel: a PGN export is written to the images
// folder (without a text board: the reply is private and shows no
// board); an open challenge is announced to the console's channel.
func TestAttachmentsAndChannel(t *testing.T) {
	e := newEnv(t)
	out := e.run(t, `
as alice /challenge @bob variant:chess color:white
as bob /accept
as alice /move e4
/export game:1
as bob /challenge variant:crazyhouse
`)
	exp := section(t, out, "/export game:1")
	if strings.Contains(exp, "a b c d e f g h") {
		t.Errorf("a text board under the export:\n%s", exp)
	}
	var pgn string
	for _, f := range files(t, exp) {
		if filepath.Ext(f) == ".pgn" {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			pgn = string(b)
		}
	}
	if !strings.Contains(pgn, "1. e4 {e2e4}") {
		t.Errorf("exported PGN %q\n%s", pgn, exp)
	}
	wantIn(t, "open challenge", section(t, out, "as bob /challenge variant:crazyhouse"), "→ #console: @bob")
}
