package command

import (
	"bytes"
	"context"
	"fmt"
	"image/gif"
	"image/png"
	"log/slog"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/bot/prefs"
	"github.com/fairypost/fairypost/bot/ratings"
	"github.com/fairypost/fairypost/bot/tournaments"
	"github.com/fairypost/fairypost/internal/testkit"
	"github.com/fairypost/fairypost/storage"
)

// t0 is when the tests' clock starts.
var t0 = testkit.T0

// env is a Handler over a real bbolt file, the real registry and
// renderer, and a test clock. The coin gives the challenger white.
type env struct {
	t     *testing.T
	ctx   context.Context
	db    *storage.DB
	svc   *gameplay.Service
	tours *tournaments.Service
	rates *ratings.Service
	h     *Handler
	clk   *testkit.Clock
	log   *testkit.Buffer
}

// registry returns the rules registry shared by the tests.
var registry = testkit.SharedRegistry

// newEnv returns a Handler over a fresh database (checked when the test
// ends, indexes included).
func newEnv(t *testing.T) *env {
	t.Helper()
	db := testkit.OpenDB(t)
	clk := testkit.NewClock(t0)
	svc := testkit.Service(t, db, clk)
	tours, rates := tournaments.New(svc, db, db), ratings.New(svc, db)
	logs := &testkit.Buffer{}
	h := New(svc, prefs.New(svc, db), Options{BoardSize: 240, GIFSize: 160, Logger: slog.New(slog.NewTextHandler(logs, nil)), Tournaments: tours, Ratings: rates})
	return &env{t: t, ctx: context.Background(), db: db, svc: svc, tours: tours, rates: rates, h: h, clk: clk, log: logs}
}

// parse reads "name opt:value opt:value" (values without spaces).
func parse(user, channel, line string) Request {
	f := strings.Fields(line)
	req := Request{UserID: user, GuildID: "g1", ChannelID: channel, Name: strings.TrimPrefix(f[0], "/"), Options: map[string]string{}}
	for _, kv := range f[1:] {
		k, v, _ := strings.Cut(kv, ":")
		req.Options[k] = v
	}
	return req
}

// clickIn is a button click by user in channel c1 of guild g1, where the
// tests' commands are typed.
func clickIn(user string) Request { return Request{UserID: user, GuildID: "g1", ChannelID: "c1"} }

// run executes line as user in channel c1.
func (e *env) run(user, line string) Reply {
	e.t.Helper()
	return e.h.Execute(e.ctx, parse(user, "c1", line))
}

// ok executes line and fails on an ephemeral (error) reply.
func (e *env) ok(user, line string) Reply {
	e.t.Helper()
	r := e.run(user, line)
	if r.Ephemeral && r.Files == nil && strings.HasPrefix(line, "/move") {
		e.t.Fatalf("%s %s: %q", user, line, r.Text)
	}
	if r.Text == "" {
		e.t.Fatalf("%s %s: empty reply", user, line)
	}
	return r
}

// refused executes line and checks it is refused with a message
// containing want.
func (e *env) refused(user, line, want string) Reply {
	e.t.Helper()
	r := e.run(user, line)
	if !r.Ephemeral || len(r.Files) > 0 || len(r.Buttons) > 0 || !strings.Contains(r.Text, want) {
		e.t.Fatalf("%s %s: got %s, want an ephemeral refusal containing %q", user, line, show(r), want)
	}
	return r
}

// game returns the stored game id.
func (e *env) game(id uint64) *bot.Game {
	e.t.Helper()
	g, err := e.svc.Views().Game(e.ctx, id)
	if err != nil {
		e.t.Fatal(err)
	}
	return g
}

// start makes alice (white) and bob start a game of variant in c1 and
// returns its ID.
func (e *env) start(variant string) uint64 {
	e.t.Helper()
	r := e.ok("alice", "/challenge opponent:bob variant:"+variant+" color:white")
	id := challengeID(e.t, r)
	a := e.ok("bob", "/accept challenge:"+itoa(id))
	if a.GameID != id {
		e.t.Fatalf("accept: GameID %d, want %d: %q", a.GameID, id, a.Text)
	}
	return id
}

func itoa(n uint64) string { return strconv.FormatUint(n, 10) }

// challengeID reads the challenge ID from a /challenge reply's Accept button.
func challengeID(t *testing.T, r Reply) uint64 {
	t.Helper()
	for _, b := range r.Buttons {
		if a, id, _, err := parseCustomID(b.CustomID); err == nil && a == actAccept {
			return id
		}
	}
	t.Fatalf("no accept button in %s", show(r))
	return 0
}

// button returns the custom ID of the button labelled label.
func button(t *testing.T, r Reply, label string) string {
	t.Helper()
	for _, b := range r.Buttons {
		if b.Label == label {
			return b.CustomID
		}
	}
	t.Fatalf("no %q button in %+v", label, r.Buttons)
	return ""
}

// checkPNG checks that r carries exactly one file, a decodable PNG.
func checkPNG(t *testing.T, r Reply) {
	t.Helper()
	if len(r.Files) != 1 || !strings.HasSuffix(r.Files[0].Name, ".png") {
		t.Fatalf("want one PNG file, got %d files: %q", len(r.Files), r.Text)
	}
	img, err := png.Decode(bytes.NewReader(r.Files[0].Data))
	if err != nil {
		t.Fatalf("%s: %v", r.Files[0].Name, err)
	}
	if w := img.Bounds().Dx(); w < 200 || w > 300 {
		t.Errorf("board width %d, want about 240", w)
	}
}

// show summarises a reply for failure messages (never the file bytes).
func show(r Reply) string {
	var files []string
	for _, f := range r.Files {
		files = append(files, fmt.Sprintf("%s(%d B)", f.Name, len(f.Data)))
	}
	var buttons []string
	for _, b := range r.Buttons {
		buttons = append(buttons, b.Label+"="+b.CustomID)
	}
	return fmt.Sprintf("{text %q ephemeral %v files %v buttons %v game %d mention %v}", r.Text, r.Ephemeral, files, buttons, r.GameID, r.Mention)
}

func mentions(r Reply, users ...string) bool {
	if len(r.Mention) != len(users) {
		return false
	}
	for i, u := range users {
		if r.Mention[i] != u {
			return false
		}
	}
	return true
}

func TestFoolsMate(t *testing.T) {
	e := newEnv(t)
	c := e.ok("alice", "/challenge opponent:bob variant:chess days:3 color:white")
	if !mentions(c, "bob") || !strings.Contains(c.Text, "<@bob>") || c.Ephemeral {
		t.Fatalf("challenge reply: %s", show(c))
	}
	button(t, c, "Accept")
	button(t, c, "Decline")
	id := challengeID(t, c)

	a := e.ok("bob", "/accept") // the only challenge to bob here
	checkPNG(t, a)
	if !mentions(a, "alice") || a.GameID != id || !strings.Contains(a.Text, "<@alice>, your move") {
		t.Fatalf("accept reply: %s", show(a))
	}
	button(t, a, "Resign")
	button(t, a, "Offer draw")

	steps := []struct{ user, move, next string }{
		{"alice", "f3", "bob"}, {"bob", "e7e5", "alice"}, {"alice", "g4", "bob"},
	}
	for _, s := range steps {
		r := e.ok(s.user, "/move move:"+s.move)
		checkPNG(t, r)
		if !mentions(r, s.next) || !strings.Contains(r.Text, "<@"+s.next+">, your move") || r.GameID != id {
			t.Fatalf("after %s: %s", s.move, show(r))
		}
	}
	r := e.ok("bob", "/move move:Qh4#")
	checkPNG(t, r)
	if !mentions(r, "alice", "bob") || !strings.Contains(r.Text, "<@bob> (Black) wins by checkmate") || len(r.Buttons) != 2 || r.Buttons[0].Label != "Rematch" || r.Buttons[1].Label != "Analyse" {
		t.Fatalf("mate: %s", show(r))
	}
	if g := e.game(id); g.Status != bot.GameFinished || g.Result != bot.BlackWins {
		t.Fatalf("game after mate: %+v", g)
	}
	e.refused("alice", "/move move:e4 game:"+itoa(id), "over")

	h := e.ok("carol", "/history game:"+itoa(id))
	if !strings.Contains(h.Text, "1. f3 — e5\n2. g4 — Qh4#") || !strings.Contains(h.Text, "wins") {
		t.Fatalf("history: %q", h.Text)
	}
	x := e.ok("alice", "/export game:"+itoa(id))
	if len(x.Files) != 1 || x.Files[0].Name != "game-"+itoa(id)+".pgn" || !strings.Contains(string(x.Files[0].Data), "Qh4#") ||
		!strings.Contains(string(x.Files[0].Data), `[Result "0-1"]`) {
		t.Fatalf("export: %s", show(x))
	}

	// The outbox's game-over notification: result, final board and GIF.
	told, err := e.db.PendingNotifications(e.ctx, t0.Add(time.Hour), 0)
	if err != nil {
		t.Fatal(err)
	}
	var over, turn int
	for _, n := range told {
		rep := e.h.Notification(e.ctx, n)
		switch n.Kind {
		case bot.NotifyGameOver:
			over++
			if len(rep.Files) != 2 {
				t.Log(e.log.String())
			}
			if len(rep.Files) != 2 || !mentions(rep, n.UserID) || !strings.Contains(rep.Text, "wins") {
				t.Fatalf("game over: %s", show(rep))
			}
			if _, err := png.Decode(bytes.NewReader(rep.Files[0].Data)); err != nil {
				t.Fatal(err)
			}
			an, err := gif.DecodeAll(bytes.NewReader(rep.Files[1].Data))
			if err != nil {
				t.Fatal(err)
			}
			if len(an.Image) != 5 { // the start and 4 moves
				t.Errorf("GIF frames: %d, want 5", len(an.Image))
			}
		case bot.NotifyYourTurn:
			turn++
			if len(rep.Files) != 1 || !mentions(rep, n.UserID) {
				t.Fatalf("your turn: %s", show(rep))
			}
		}
	}
	if over != 2 || turn == 0 {
		t.Fatalf("notifications: %d game over, %d your turn", over, turn)
	}
	if s := e.log.String(); s != "" {
		t.Errorf("logged: %s", s)
	}
}

func TestRefusals(t *testing.T) {
	e := newEnv(t)
	id := e.start("chess")
	before := e.game(id)
	long := strings.Repeat("x", 300)
	cases := []struct{ user, line, want string }{
		{"alice", "/frobnicate", "Unknown command /frobnicate"},
		{"alice", "/move move:e4 colour:white", "no option"},
		{"alice", "/move", "needs move:"},
		{"alice", "/move move:e4 game:abc", "whole number"},
		{"alice", "/move move:e4 game:0", "must be an ID"},
		{"alice", "/move move:e4 game:-3", "must be an ID"},
		{"alice", "/move move:e4 game:999", "no game 999"},
		{"alice", "/move move:" + long, "is 300 characters long: it holds at most 200."},
		{"alice", "/move move:e4\x00", "cannot be typed"},
		{"alice", "/move move:Ke2", ""},
		{"alice", "/move move:zz9", ""},
		{"bob", "/move move:e5", "not your turn"},
		{"carol", "/move move:e4 game:" + itoa(id), "not playing"},
		{"carol", "/move move:e4", "no game in progress"},
		{"alice", "/challenge opponent:bob variant:shogi", "Unknown variant"},
		{"alice", "/challenge opponent:bob variant:chess days:4", "not one of"},
		{"alice", "/challenge opponent:bob variant:chess color:green", "not one of"},
		{"alice", "/challenge opponent:bob variant:chess options:ranks=9", ""},
		{"alice", "/challenge opponent:bob variant:winning options:ranks=9", ""},
		{"alice", "/challenge opponent:alice variant:chess", "yourself"},
		{"alice", "/accept challenge:" + itoa(id), "Only the challenged"},
		{"alice", "/cancel", "needs challenge:"},
		{"bob", "/decline", "No challenge to you is waiting"},
		{"alice", "/settings reminder:100", "0 (never) to 99"},
		{"alice", "/settings reminder:x", "whole number"},
		{"alice", "/rules variant:nope", "not one of"},
		{"alice", "/choose choice:white", ""},
		{"", "/games", "No valid user"},
	}
	for _, c := range cases {
		e.refused(c.user, c.line, c.want)
	}
	if r := e.h.Execute(e.ctx, Request{UserID: "alice", Name: ""}); !r.Ephemeral || !strings.Contains(r.Text, "No command") {
		t.Fatalf("empty name: %s", show(r))
	}
	if r := e.h.Execute(e.ctx, Request{UserID: "alice", Name: "move", Options: map[string]string{"move\x00": "e4"}}); !r.Ephemeral {
		t.Fatalf("bad option name: %s", show(r))
	}
	if after := e.game(id); after.Version != before.Version || len(after.Moves) != 0 {
		t.Fatalf("a refused command changed the game: %+v", after)
	}
	if s := e.log.String(); s != "" {
		t.Errorf("logged: %s", s)
	}
}
