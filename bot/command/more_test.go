package command

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/bot/prefs"
	"github.com/fairypost/fairypost/internal/testkit"
	"github.com/fairypost/fairypost/rules"
)

func TestButtons(t *testing.T) {
	e := newEnv(t)
	id := e.start("chess")
	board := e.ok("alice", "/board")
	if len(board.Mention) != 0 {
		t.Fatalf("/board pings: %s", show(board))
	}
	offer := button(t, board, "Offer draw")
	resign := button(t, board, "Resign")
	r := e.ok("alice", "/move move:e4")
	fresh := button(t, r, "Offer draw")

	// A stale button (the game moved on), a stranger, forged IDs.
	if got := e.h.Press(e.ctx, clickIn("alice"), offer); !got.Ephemeral || !strings.Contains(got.Text, "out of date") {
		t.Fatalf("stale: %s", show(got))
	}
	if got := e.h.Press(e.ctx, clickIn("carol"), fresh); !got.Ephemeral || !strings.Contains(got.Text, "Only the players of game #") {
		t.Fatalf("stranger: %s", show(got))
	}
	forged := []string{"", "fp1", "fp1:resign:1", "fp2:resign:1:1", "fp1:resign:x:1", "fp1:nuke:1:1",
		"fp1:resign:01:1", "fp1:resign:1:0", "fp1:resign:0:1", "fp1:resign:1:1:1", "fp1:resign:1:99999999999999999999",
		"fp1:resign:1:" + strings.Repeat("1", 100), "fp1:resign:1:\x001", "\xff\xfe"}
	for _, f := range forged {
		got := e.h.Press(e.ctx, clickIn("alice"), f)
		if !got.Ephemeral || got.Text != "This button is not from fairypost or is damaged." {
			t.Fatalf("forged %q: %s", f, show(got))
		}
	}
	if got := e.h.Press(e.ctx, clickIn("alice"), resign); !strings.Contains(got.Text, "out of date") {
		t.Fatalf("stale resign: %s", show(got))
	}

	// Bob offers a draw with the fresh board's button; alice cannot accept
	// her own opponent's... she can: she accepts with the offer's button.
	off := e.h.Press(e.ctx, clickIn("bob"), fresh)
	if off.Ephemeral || !mentions(off, "alice") || !strings.Contains(off.Text, "offers a draw") {
		t.Fatalf("offer: %s", show(off))
	}
	accept := button(t, off, "Accept draw")
	if got := e.h.Press(e.ctx, clickIn("bob"), accept); !got.Ephemeral || !strings.Contains(got.Text, "your own") {
		t.Fatalf("bob accepts his own offer: %s", show(got))
	}
	done := e.h.Press(e.ctx, clickIn("alice"), accept)
	checkPNG(t, done)
	if !strings.Contains(done.Text, "a draw by") || !mentions(done, "alice", "bob") || len(done.Buttons) != 2 || done.Buttons[0].Label != "Rematch" || done.Buttons[1].Label != "Analyse" {
		t.Fatalf("draw accepted: %s", show(done))
	}
	if g := e.game(id); g.Status != bot.GameFinished || g.Result != bot.Draw {
		t.Fatalf("after the draw: %+v", g)
	}
	if got := e.h.Press(e.ctx, clickIn("alice"), accept); !strings.Contains(got.Text, "out of date") {
		t.Fatalf("double click: %s", show(got))
	}

	// Resigning asks for confirmation first.
	id2 := e.start("chess")
	b2 := e.ok("bob", "/board game:"+itoa(id2))
	ask := e.h.Press(e.ctx, clickIn("bob"), button(t, b2, "Resign"))
	if !ask.Ephemeral || !strings.Contains(ask.Text, "Really resign") {
		t.Fatalf("resign: %s", show(ask))
	}
	if g := e.game(id2); g.Status != bot.GameActive {
		t.Fatalf("resign without confirmation ended the game")
	}
	if got := e.h.Press(e.ctx, clickIn("carol"), button(t, ask, "Yes, resign")); !strings.Contains(got.Text, "Only the players") {
		t.Fatalf("%s", show(got))
	}
	res := e.h.Press(e.ctx, clickIn("bob"), button(t, ask, "Yes, resign"))
	if !strings.Contains(res.Text, "<@alice> (White) wins by resignation") {
		t.Fatalf("resigned: %s", show(res))
	}

	// Challenge buttons: a stranger cannot accept a challenge to bob;
	// bob declines; the Accept button is then refused.
	c := e.ok("alice", "/challenge opponent:bob variant:tank")
	if got := e.h.Press(e.ctx, clickIn("carol"), button(t, c, "Accept")); !got.Ephemeral || !strings.Contains(got.Text, "Only the challenged") {
		t.Fatalf("stranger accepts: %s", show(got))
	}
	d := e.h.Press(e.ctx, clickIn("bob"), button(t, c, "Decline"))
	if d.Ephemeral || !strings.Contains(d.Text, "declined") || !mentions(d, "alice") {
		t.Fatalf("decline: %s", show(d))
	}
	if got := e.h.Press(e.ctx, clickIn("bob"), button(t, c, "Accept")); !got.Ephemeral || !strings.Contains(got.Text, "out of date") {
		t.Fatalf("accept after decline: %s", show(got))
	}
	// An open challenge accepted by its button.
	o := e.ok("alice", "/challenge variant:crazyhouse days:0")
	if len(o.Mention) != 0 || !strings.Contains(o.Text, "anyone here") {
		t.Fatalf("open challenge: %s", show(o))
	}
	for _, b := range o.Buttons {
		if b.Label == "Decline" {
			t.Fatalf("an open challenge has a Decline button")
		}
	}
	acc := e.h.Press(e.ctx, clickIn("carol"), button(t, o, "Accept"))
	checkPNG(t, acc)
	if !mentions(acc, "alice") || !strings.Contains(acc.Text, "no time limit") {
		t.Fatalf("open accepted: %s", show(acc))
	}
}

func TestAbortTakebackDraw(t *testing.T) {
	e := newEnv(t)
	id := e.start("chess")
	e.ok("alice", "/move move:e4")
	if r := e.ok("bob", "/abort"); !strings.Contains(r.Text, "aborted") || !mentions(r, "alice", "bob") {
		t.Fatalf("abort: %s", show(r))
	}
	if g := e.game(id); g.Status != bot.GameAborted {
		t.Fatalf("status %v", g.Status)
	}

	id = e.start("chess")
	e.ok("alice", "/move move:e4")
	e.ok("bob", "/move move:e5")
	e.refused("bob", "/abort", "can no longer be aborted")
	e.refused("alice", "/draw action:claim", "")
	e.refused("bob", "/takeback action:accept", "")
	ask := e.ok("bob", "/takeback action:ask")
	if !mentions(ask, "alice") || !strings.Contains(ask.Text, "take back") {
		t.Fatalf("ask: %s", show(ask))
	}
	button(t, ask, "Accept takeback")
	r := e.ok("alice", "/takeback action:accept")
	checkPNG(t, r)
	if !mentions(r, "bob") || !strings.Contains(r.Text, "<@bob>, your move") {
		t.Fatalf("takeback: %s", show(r))
	}
	if g := e.game(id); len(g.Moves) != 1 {
		t.Fatalf("moves after takeback: %v", g.Moves)
	}
	e.ok("alice", "/draw action:offer")
	dec := e.ok("bob", "/draw action:decline")
	if !mentions(dec, "alice") || !strings.Contains(dec.Text, "declines") {
		t.Fatalf("decline: %s", show(dec))
	}
	e.ok("bob", "/draw action:offer")
	// Offering while the opponent's offer stands accepts it.
	r = e.ok("alice", "/draw action:offer")
	if g := e.game(id); g.Result != bot.Draw || !strings.Contains(r.Text, "draw") || len(r.Files) != 1 {
		t.Fatalf("mutual offers: %s, %+v", show(r), g.Status)
	}
	r = e.ok("alice", "/resign game:"+itoa(id))
	if !r.Ephemeral {
		t.Fatalf("resigning a finished game: %s", show(r))
	}
}

func TestGameOptionResolution(t *testing.T) {
	e := newEnv(t)
	g1 := e.start("chess")
	g2 := e.start("chess")
	// Alice is to move in both: ambiguous.
	r := e.refused("alice", "/move move:e4", "add game:ID")
	if !strings.Contains(r.Text, "#"+itoa(g1)) || !strings.Contains(r.Text, "#"+itoa(g2)) {
		t.Fatalf("ambiguity: %q", r.Text)
	}
	e.ok("alice", "/move move:e4 game:"+itoa(g1))
	// Now only game 2 is her turn: /move picks it.
	if r := e.ok("alice", "/move move:d4"); r.GameID != g2 {
		t.Fatalf("picked game %d, want %d", r.GameID, g2)
	}
	// Both games are bob's turn now: ambiguous for him, also for /resign.
	e.refused("bob", "/move move:e5", "add game:ID")
	e.refused("bob", "/resign", "add game:ID")
	e.refused("bob", "/board", "You have 2 games")
	// A spectator: two games here are ambiguous; game: works; buttons
	// are for players only.
	e.refused("carol", "/board", "There are 2 games")
	b := e.ok("carol", "/board game:"+itoa(g1))
	checkPNG(t, b)
	if len(b.Buttons) != 0 || len(b.Mention) != 0 {
		t.Fatalf("spectator board: %s", show(b))
	}
	// Another channel: alice has no game there; a spectator sees nothing.
	other := e.h.Execute(e.ctx, parse("alice", "c2", "/move move:e5"))
	if !other.Ephemeral || !strings.Contains(other.Text, "no game in this channel") {
		t.Fatalf("other channel: %s", show(other))
	}
	if r := e.h.Execute(e.ctx, parse("carol", "c2", "/board")); !strings.Contains(r.Text, "No game is being played") {
		t.Fatalf("empty channel: %s", show(r))
	}
	// Bob draws in game 1: /draw accept by alice picks the game with the offer.
	e.ok("bob", "/draw action:offer game:"+itoa(g1))
	if r := e.ok("alice", "/draw action:accept"); r.GameID != g1 || !strings.Contains(r.Text, "draw") {
		t.Fatalf("draw accept picked: %s", show(r))
	}
	// One game left in c1: a spectator's /board finds it.
	if r := e.ok("carol", "/board"); r.GameID != g2 {
		t.Fatalf("spectator board: %s", show(r))
	}
	// A game's thread resolves to that game.
	if err := e.svc.SetThread(e.ctx, g2, "t2"); err != nil {
		t.Fatal(err)
	}
	if r := e.h.Execute(e.ctx, parse("bob", "t2", "/move move:e5")); r.GameID != g2 || r.Ephemeral {
		t.Fatalf("thread: %s", show(r))
	}
}

func TestComplete(t *testing.T) {
	e := newEnv(t)
	id := e.start("chess")
	req := func(user, typed string) Request {
		return parse(user, "c1", "/move move:"+typed)
	}
	all := e.h.Complete(e.ctx, req("alice", ""), "move")
	if len(all) != 20 {
		t.Fatalf("chess start: %d moves: %v", len(all), all)
	}
	kn := e.h.Complete(e.ctx, req("alice", "n"), "move")
	if len(kn) != 4 {
		t.Fatalf("knight moves: %v", kn)
	}
	for _, c := range kn {
		if !strings.HasPrefix(c.Name, "N") || len(c.Value) != 4 {
			t.Fatalf("knight move choice %+v", c)
		}
	}
	if got := e.h.Complete(e.ctx, req("alice", "G1F"), "move"); len(got) != 1 || got[0].Value != "g1f3" {
		t.Fatalf("canonical filter: %v", got)
	}
	// "f3" matches Nf3 inside and f3 / f2f3 by prefix; prefix matches come first.
	got := e.h.Complete(e.ctx, req("alice", "f3"), "move")
	if len(got) < 2 || got[0].Value != "f2f3" {
		t.Fatalf("contains filter: %v", got)
	}
	if got := e.h.Complete(e.ctx, req("bob", ""), "move"); len(got) != 0 {
		t.Fatalf("not bob's turn: %v", got)
	}
	if got := e.h.Complete(e.ctx, req("carol", ""), "move"); len(got) != 0 {
		t.Fatalf("carol: %v", got)
	}
	if got := e.h.Complete(e.ctx, req("alice", "e4\x00"), "move"); got != nil {
		t.Fatalf("NUL: %v", got)
	}
	// More legal moves than 25: capped.
	w := e.start("winning")
	big := e.h.Complete(e.ctx, parse("alice", "c1", "/move move: game:"+itoa(w)), "move")
	if len(big) != 25 {
		t.Fatalf("winning: %d choices", len(big))
	}
	games := e.h.Complete(e.ctx, parse("alice", "c1", "/move move:e4 game:"), "game")
	if len(games) != 2 || games[0].Value != itoa(id) && games[1].Value != itoa(id) {
		t.Fatalf("game choices: %v", games)
	}
	if got := e.h.Complete(e.ctx, parse("alice", "c1", "/move move:e4 game:winn"), "game"); len(got) != 1 || got[0].Value != itoa(w) {
		t.Fatalf("filtered game choices: %v", got)
	}
	e.ok("carol", "/challenge opponent:alice variant:grand")
	ch := e.h.Complete(e.ctx, parse("alice", "c1", "/accept challenge:"), "challenge")
	if len(ch) != 1 || !strings.Contains(ch[0].Name, "Grand Chess") {
		t.Fatalf("challenge choices: %v", ch)
	}
	if got := e.h.Complete(e.ctx, parse("alice", "c1", "/accept"), "nonsense"); got != nil {
		t.Fatalf("unknown option: %v", got)
	}
}

func TestInfoCommands(t *testing.T) {
	e := newEnv(t)
	specs := e.h.Specs()
	seen := map[string]bool{}
	for _, s := range specs {
		if seen[s.Name] || s.Name != strings.ToLower(s.Name) || len(s.Description) > 100 || s.Description == "" {
			t.Errorf("spec %q: duplicate, not lowercase or bad description", s.Name)
		}
		seen[s.Name] = true
		optional := false
		for _, o := range s.Options {
			if len(o.Description) > 100 || o.Description == "" || len(o.Choices) > 25 || (o.Autocomplete && len(o.Choices) > 0) {
				t.Errorf("/%s %s: bad option spec", s.Name, o.Name)
			}
			if o.Required && optional {
				t.Errorf("/%s: required option %s after an optional one", s.Name, o.Name)
			}
			optional = optional || !o.Required
		}
	}
	for _, name := range []string{"challenge", "accept", "decline", "cancel", "move", "choose", "board", "moves", "games", "resign",
		"draw", "abort", "takeback", "history", "export", "rules", "variants", "settings", "help"} {
		if !seen[name] {
			t.Errorf("no /%s", name)
		}
	}
	reg, _ := registry()
	for _, k := range reg.Keys() {
		r := e.ok("alice", "/rules variant:"+k)
		if len(r.Text) > 2000 || reg.Default(k).Help.Summary == "" || !strings.Contains(r.Text, reg.Default(k).Name) || !strings.Contains(r.Text, "Pieces") {
			t.Errorf("/rules %s: %d bytes: %q", k, len(r.Text), r.Text)
		}
		if strings.HasSuffix(r.Text, "…") {
			t.Errorf("/rules %s was truncated", k)
		}
	}
	v := e.ok("alice", "/variants")
	for _, k := range reg.Keys() {
		if !strings.Contains(v.Text, "`"+k+"`") {
			t.Errorf("/variants lacks %s", k)
		}
	}
	if len(v.Text) > 2000 || !strings.Contains(v.Text, "ranks=8|10|12") {
		t.Errorf("/variants: %q", v.Text)
	}
	if h := e.ok("alice", "/help"); !h.Ephemeral || len(h.Text) > 2000 || !strings.Contains(h.Text, "/takeback action:…") {
		t.Errorf("/help: %q", h.Text)
	}
	s := e.ok("alice", "/settings")
	if !s.Ephemeral || !strings.Contains(s.Text, "direct message") || !strings.Contains(s.Text, "20%") {
		t.Errorf("/settings: %q", s.Text)
	}
	s = e.ok("alice", "/settings notify:channel reminder:0")
	if !strings.Contains(s.Text, "in the game's channel") || !strings.Contains(s.Text, "never reminded") {
		t.Errorf("/settings changed: %q", s.Text)
	}
	if p, _ := e.h.prefs.Preferences(e.ctx, "alice"); p.Delivery != bot.DeliverChannel || p.ReminderPercent != 0 {
		t.Errorf("stored: %+v", p)
	}
	// /games: their turn first, then by time left.
	if r := e.ok("alice", "/games"); !strings.Contains(r.Text, "no game in progress") {
		t.Errorf("no games: %q", r.Text)
	}
	g1 := e.start("chess")
	e.ok("alice", "/move move:e4")
	e.clk.Advance(time.Hour)
	g2 := e.start("tank")
	r := e.ok("alice", "/games")
	lines := strings.Split(r.Text, "\n")
	if !r.Ephemeral || len(lines) != 3 || !strings.HasPrefix(lines[1], "#"+itoa(g2)) || !strings.Contains(lines[1], "**your turn**") ||
		!strings.Contains(lines[2], "their turn") || !strings.Contains(lines[1], "vs <@bob>") || !strings.Contains(lines[1], "Tank Chess") ||
		!strings.Contains(lines[2], "#"+itoa(g1)) || !strings.Contains(lines[2], "2d 23h left") {
		t.Errorf("/games: %q", r.Text)
	}
	if h := e.ok("bob", "/history game:"+itoa(g2)); !strings.Contains(h.Text, "No moves yet") {
		t.Errorf("history: %q", h.Text)
	}
}

func TestHistoryLinesMultiPart(t *testing.T) {
	e := newEnv(t)
	id := e.start("trainwreck")
	r := e.ok("alice", "/move move:e4")
	if !mentions(r, "alice") || !strings.Contains(r.Text, "your turn continues: White moves a Black piece") {
		t.Fatalf("first half-move: %s", show(r))
	}
	r = e.ok("alice", "/move move:e5")
	if !mentions(r, "bob") {
		t.Fatalf("second half-move: %s", show(r))
	}
	h := e.ok("carol", "/history game:"+itoa(id))
	if !strings.Contains(h.Text, "\n1. e4, e5\n") && !strings.HasSuffix(h.Text, "\n1. e4, e5") {
		t.Fatalf("history: %q", h.Text)
	}
}

func TestChoose(t *testing.T) {
	e := newEnv(t)
	c := e.ok("alice", "/challenge opponent:bob variant:annihilation")
	a := e.ok("bob", "/accept challenge:"+itoa(challengeID(t, c)))
	if !mentions(a, "bob") || !strings.Contains(a.Text, "choose the army") || len(a.Files) != 1 {
		t.Fatalf("setup: %s", show(a))
	}
	e.refused("alice", "/choose choice:me", "")
	e.refused("bob", "/move move:e4", "")
	r := e.ok("bob", "/choose choice:black")
	if !mentions(r, "alice") || !strings.Contains(r.Text, "who moves first") {
		t.Fatalf("army chosen: %s", show(r))
	}
	r = e.ok("alice", "/choose choice:me")
	checkPNG(t, r)
	if !mentions(r, "alice", "bob") || !strings.Contains(r.Text, "The game begins") {
		t.Fatalf("first mover chosen: %s", show(r))
	}
}

func TestNotifications(t *testing.T) {
	e := newEnv(t)
	id := e.start("chess")
	e.clk.Advance(50 * time.Hour)
	r := e.h.Notification(e.ctx, bot.Notification{Kind: bot.NotifyReminder, UserID: "alice", GameID: id, Text: "x"})
	if !mentions(r, "alice") || !strings.Contains(r.Text, "<@alice>, reminder") || !strings.Contains(r.Text, "22h 0m left") || r.GameID != id {
		t.Fatalf("reminder: %s", show(r))
	}
	r = e.h.Notification(e.ctx, bot.Notification{Kind: bot.NotifyChallengeReceived, UserID: "bob", ChallengeID: 7, Text: "hi"})
	if r.Text != "hi" || !mentions(r, "bob") || len(r.Buttons) != 2 {
		t.Fatalf("challenge received: %s", show(r))
	}
	r = e.h.Notification(e.ctx, bot.Notification{Kind: bot.NotifyYourTurn, UserID: "alice", GameID: 999, Text: "your turn"})
	if r.Text != "your turn" || len(r.Files) != 0 {
		t.Fatalf("missing game: %s", show(r))
	}
	if !strings.Contains(e.log.String(), "notification without its game") {
		t.Fatalf("not logged: %s", e.log.String())
	}
}

func TestNeverPanics(t *testing.T) {
	reg, err := registry()
	if err != nil {
		t.Fatal(err)
	}
	svc := gameplay.NewService(gameplay.Stores{}, reg) // no stores: every store access panics
	logs := &testkit.Buffer{}
	h := New(svc, prefs.New(svc, nil), Options{Logger: slog.New(slog.NewTextHandler(logs, nil))})
	ctx := context.Background()
	for _, line := range []string{"/games", "/move move:e4", "/challenge variant:chess", "/board game:1", "/settings"} {
		r := h.Execute(ctx, parse("alice", "c1", line))
		if !r.Ephemeral || !strings.Contains(r.Text, "Internal error") {
			t.Fatalf("%s: %s", line, show(r))
		}
	}
	if r := h.Press(ctx, clickIn("alice"), "fp1:resign:1:1"); !r.Ephemeral || !strings.Contains(r.Text, "Internal error") {
		t.Fatalf("press: %s", show(r))
	}
	if got := h.Complete(ctx, parse("alice", "c1", "/move move:e"), "move"); got != nil {
		t.Fatalf("complete: %v", got)
	}
	if r := h.Notification(ctx, bot.Notification{Kind: bot.NotifyYourTurn, UserID: "a", GameID: 1, Text: "t"}); r.Text == "" {
		t.Fatalf("notification: %s", show(r))
	}
	if !strings.Contains(logs.String(), "panic") {
		t.Fatalf("panics not logged: %s", logs.String())
	}
	// Rules and help need no store.
	if r := h.Execute(ctx, parse("alice", "c1", "/rules variant:tank")); r.Ephemeral {
		t.Fatalf("rules: %s", show(r))
	}
}

func TestDoubleClick(t *testing.T) {
	e := newEnv(t)
	id := e.start("chess")
	off := e.ok("bob", "/draw action:offer")
	accept := button(t, off, "Accept draw")
	const n = 6
	replies := make(chan Reply, n)
	for range n {
		go func() { replies <- e.h.Press(e.ctx, clickIn("alice"), accept) }()
	}
	won := 0
	for range n {
		r := <-replies
		switch {
		case !r.Ephemeral:
			won++
		case !strings.Contains(r.Text, "out of date"):
			t.Errorf("loser: %s", show(r))
		}
	}
	if won != 1 {
		t.Fatalf("%d clicks succeeded", won)
	}
	if g := e.game(id); g.Result != bot.Draw {
		t.Fatalf("result %v", g.Result)
	}
}

// startFrom stores a game of variant from fen between alice (White) and
// bob in c1, as if a challenge had been accepted, and returns its ID.
func (e *env) startFrom(variant, fen string) uint64 {
	e.t.Helper()
	reg, _ := registry()
	v, err := reg.Variant(variant, "")
	if err != nil {
		e.t.Fatal(err)
	}
	p, err := rules.ParseFEN(v, fen)
	if err != nil {
		e.t.Fatal(err)
	}
	now := e.clk.Now()
	c := &bot.Challenge{Challenger: "alice", Challenged: "bob", GuildID: "g1", ChannelID: "c1", Variant: variant, DaysPerMove: 3,
		Color: bot.ColorWhite, Status: bot.ChallengePending, Expires: now.Add(gameplay.ChallengeTTL), Created: now, Updated: now}
	if err := e.db.CreateChallenge(e.ctx, c, nil); err != nil {
		e.t.Fatal(err)
	}
	toAct := map[rules.Color]string{rules.White: "alice", rules.Black: "bob"}[p.ToAct()]
	_, g, err := e.db.UpdateChallenge(e.ctx, c.ID, c.Version, func(c *bot.Challenge) (bot.ChallengeChange, error) {
		c.Status = bot.ChallengeAccepted
		return bot.ChallengeChange{Game: &bot.Game{ID: c.ID, Variant: variant, StartFEN: p.FEN(), FEN: p.FEN(),
			ToAct: toAct, White: "alice", Black: "bob", GuildID: "g1", ChannelID: "c1", Status: bot.GameActive, DaysPerMove: 3,
			TurnStarted: now, Deadline: now.Add(72 * time.Hour), Created: now, Updated: now}}, nil
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return g.ID
}

// TestAutoMoveAnnounced: in Winning Chess, Black without a Defender can
// only pass in the response window; the reply to White's first Attacker
// step announces the pass and tells White the turn continues.
func TestAutoMoveAnnounced(t *testing.T) {
	e := newEnv(t)
	id := e.startFrom("winning", "6k5/p11/12/12/12/12/12/4A1K5 w - - 0 1")
	r := e.ok("alice", "/move move:e1f3>")
	checkPNG(t, r)
	if !strings.Contains(r.Text, "<@alice> played **Af3>** in game #1; <@bob> passed (the only legal move, so the bot played it).") ||
		!strings.Contains(r.Text, "<@alice>, your turn continues") ||
		!mentions(r, "alice") || r.GameID != id {
		t.Fatalf("reply: %s", show(r))
	}
}
