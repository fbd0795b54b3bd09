package command

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/rules"
	"github.com/fairypost/fairypost/rules/notation"
)

// listedMoves returns the moves a /moves reply lists (every message),
// read from its group lines "**Heading** (N): m1, m2" and their
// "(continued)" lines, and fails when a message is over the limit.
func listedMoves(t *testing.T, r Reply) []string {
	t.Helper()
	var out []string
	for _, msg := range append([]string{r.Text}, r.More...) {
		if len(msg) > maxReply {
			t.Errorf("a /moves message has %d bytes, over %d", len(msg), maxReply)
		}
		for _, line := range strings.Split(msg, "\n") {
			if !strings.HasPrefix(line, "**") || strings.HasPrefix(line, "**Game #") {
				continue
			}
			_, list, ok := strings.Cut(line, "): ")
			if !ok {
				t.Fatalf("group line without moves: %q", line)
			}
			for _, m := range strings.Split(strings.TrimSuffix(list, ","), ", ") {
				out = append(out, m)
			}
		}
	}
	return out
}

// checkMoves runs /moves as user in game id and checks that it lists
// exactly the legal moves of the position, in the friendly form.
func (e *env) checkMoves(user string, id uint64) Reply {
	e.t.Helper()
	g := e.game(id)
	rg, err := e.svc.Views().ReplayRecord(g)
	if err != nil {
		e.t.Fatal(err)
	}
	p := rg.Position()
	want := notation.SANs(&p, rg.Legal())
	r := e.run(user, "/moves game:"+itoa(id))
	if !r.Ephemeral || len(r.Files) != 0 || !strings.HasPrefix(r.Text, "**Game #"+itoa(id)+"**: ") {
		e.t.Fatalf("/moves as %s in game %d: %s", user, id, show(r))
	}
	got := listedMoves(e.t, r)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		e.t.Fatalf("%s, game %d (%s) after %q: /moves lists %d moves %q, want the %d legal %q",
			g.Variant, id, p.FEN(), g.Moves, len(got), got, len(want), want)
	}
	return r
}

// TestMovesListsEveryLegalMove plays games of every variant key (moves
// chosen by a fixed rule among the legal ones, multi-part turns and
// special moves included) and checks /moves, for the player to act and
// for a spectator, at the start and at several later positions.
func TestMovesListsEveryLegalMove(t *testing.T) {
	e := newEnv(t)
	reg, err := registry()
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range reg.Keys() {
		id := e.startAny(key)
		for ply := 0; ply <= 24; ply++ {
			g := e.game(id)
			if g.Status != bot.GameActive {
				break
			}
			if ply%6 == 0 {
				r := e.checkMoves(g.ToAct, id)
				if !strings.Contains(r.Text, " for you (") {
					t.Errorf("%s: /moves for the player to act: %q", key, r.Text)
				}
				s := e.checkMoves("carol", id)
				if !strings.Contains(s.Text, " for <@"+g.ToAct+"> (") {
					t.Errorf("%s: /moves for a spectator: %q", key, s.Text)
				}
			}
			moves, err := e.svc.Views().LegalMoves(e.ctx, id, g.ToAct)
			if err != nil || len(moves) == 0 {
				t.Fatalf("%s: legal moves %v, %v", key, moves, err)
			}
			m := moves[(ply*7+3)%len(moves)]
			if _, err := e.svc.Move(e.ctx, gameplay.MoveRequest{GameID: id, UserID: g.ToAct, Move: m.Canonical, Version: bot.AnyVersion}); err != nil {
				t.Fatalf("%s: %s: %v", key, m.Canonical, err)
			}
		}
	}
}

// startAny starts a game of key between alice (White) and bob, making
// the pre-game choices of variants that have them.
func (e *env) startAny(key string) uint64 {
	e.t.Helper()
	colour := " color:white"
	if reg, _ := registry(); reg.Default(key).PreGame != nil {
		colour = "" // no colour to ask for: the pre-game choice decides
	}
	r := e.ok("alice", "/challenge opponent:bob variant:"+key+colour)
	id := challengeID(e.t, r)
	e.ok("bob", "/accept challenge:"+itoa(id))
	for g := e.game(id); g.Status == bot.GameSetup; g = e.game(id) {
		if g.Setup.Army == "" {
			e.ok(g.Setup.Challenged, "/choose choice:white game:"+itoa(id))
		} else {
			e.ok(g.Setup.Challenger, "/choose choice:me game:"+itoa(id))
		}
	}
	return id
}

// TestMovesSplitsLongLists fills both Cold Fusion pockets so that the
// drops make the list longer than one message: it goes on in Reply.More,
// every message within the limit and every move listed once.
func TestMovesSplitsLongLists(t *testing.T) {
	e := newEnv(t)
	id := e.start("coldfusion")
	for _, m := range []string{"^Pa3", "^Pa8", "^Nb2", "^Nb9", "^Ra1", "^Ra10", "^Qd2"} {
		g := e.game(id)
		e.ok(g.ToAct, "/move move:"+m+" game:"+itoa(id))
	}
	r := e.checkMoves("bob", id)
	if len(r.More) == 0 {
		t.Fatalf("a list of %d bytes in one message", len(r.Text))
	}
	all := strings.Join(append([]string{r.Text}, r.More...), "\n")
	for _, want := range []string{"**Drops of your own pocketed men — dropped demoted** (", "R*=B@a1, ", "P*=P@",
		"**Drops of your own pocketed men — dropped demoted** (continued): ", "Play one with /move"} {
		if !strings.Contains(all, want) {
			t.Errorf("/moves does not show %q:\n%s", want, all)
		}
	}
}

// TestMovesShowsEveryKind pins the headings and remarks of special moves
// in one position of each variant that has them.
func TestMovesShowsEveryKind(t *testing.T) {
	e := newEnv(t)
	for _, c := range []struct {
		key   string
		moves []string
		want  []string
	}{
		{"tank", nil, []string{"**Pawn** (16): a3, a4", "**Knight** (4): Nc3, Na3, Nh3, Nf3",
			"**Detonations — a Bomb or Atomic bomb blows up** (1): M*a1",
			"**Tank pushes — the Tank shoves the pieces ahead of it** (3): Th1-h2, Th1-g1, Th1-g2"}},
		{"chess", []string{"e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6"}, []string{"**Bishop** (", "Bxf7+", "+ marks a move that gives check", "**Castling** (1): O-O"}},
		{"crazyhouse", []string{"e4", "d5", "exd5", "Qxd5"}, []string{"**Drops (piece letter @ square)** (", "P@a3"}},
		{"trainwreck", []string{"e4"}, []string{"White moves a Black piece:", "**Pawn** (", "**Knight** ("}},
		{"annihilation", nil, []string{"**Pass** (1): pass"}},
		{"winning", nil, []string{"**Attacker** (", "Af3>", "**Defender swaps with its King (~)** (2): D~K, D~K>",
			"A move ending in > does not end your turn: you act again after it."}},
		{"winning", []string{"Af3>"}, []string{"Black may answer with the Defender, or pass, before White's Attacker steps again:",
			"**Defender swaps with its King (~)** (1): D~K\n", "**Pass** (1): pass"}},
	} {
		id := e.startAny(c.key)
		for _, m := range c.moves {
			g := e.game(id)
			e.ok(g.ToAct, "/move move:"+m+" game:"+itoa(id))
		}
		r := e.checkMoves("carol", id)
		for _, w := range c.want {
			if !strings.Contains(r.Text, w) {
				t.Errorf("%s: /moves does not say %q:\n%s", c.key, w, r.Text)
			}
		}
	}
}

// TestMovesRefusals: no game, a game over, a game in its pre-game choice.
func TestMovesRefusals(t *testing.T) {
	e := newEnv(t)
	e.refused("alice", "/moves", "No game is being played in this channel")
	c := e.ok("alice", "/challenge opponent:bob variant:annihilation")
	e.ok("bob", "/accept challenge:"+itoa(challengeID(t, c)))
	e.refused("alice", "/moves", "has not started: Waiting for <@bob> to choose an army.")
	id := e.start("chess")
	e.ok("alice", "/resign game:"+itoa(id))
	if g := e.game(id); g.Status == bot.GameActive {
		r := e.run("alice", "/resign game:"+itoa(id))
		e.h.Press(e.ctx, clickIn("alice"), button(t, r, "Yes, resign"))
	}
	e.refused("bob", "/moves game:"+itoa(id), "is over, so nobody has a move")
}

// TestSplitMessages pins the packing of lines into messages: within the
// limit, a long line cut after a comma with its heading repeated, and a
// line without commas cut anywhere.
func TestSplitMessages(t *testing.T) {
	var moves []string
	for i := range 300 {
		moves = append(moves, "Q=C@"+rules.NewSquare(i%10, i/30).String())
	}
	long := "**Drops** (300): " + strings.Join(moves, ", ")
	msgs := splitMessages([]string{"**Game #1**: head", long, "tail"}, 500)
	var got []string
	for i, m := range msgs {
		if len(m) > 500 {
			t.Errorf("message %d has %d bytes", i, len(m))
		}
		if i > 0 && !strings.HasPrefix(m, "**Drops** (continued): ") && m != "tail" {
			t.Errorf("message %d does not start with the heading: %q", i, m[:40])
		}
	}
	r := listedMoves(t, Reply{Text: msgs[0], More: msgs[1:]})
	got = append(got, r...)
	if !slices.Equal(got, moves) {
		t.Errorf("split lists %d moves, want %d", len(got), len(moves))
	}
	if last := msgs[len(msgs)-1]; !strings.HasSuffix(last, "\ntail") && last != "tail" {
		t.Errorf("the last line is lost: %q", last)
	}
	hard := splitMessages([]string{strings.Repeat("é", 300)}, 101)
	if len(hard) != 6 || strings.Join(hard, "") != strings.Repeat("é", 300) {
		t.Errorf("a line without commas: %d messages %q", len(hard), hard)
	}
	for _, m := range hard {
		if len(m) > 101 {
			t.Errorf("message of %d bytes", len(m))
		}
	}
}

// TestMoveErrorsTellWhatToDo plays the positions where new players met
// unhelpful refusals (issue 12, section 3) and pins each /move answer:
// the reason, the move probably meant, and where the legal moves are.
func TestMoveErrorsTellWhatToDo(t *testing.T) {
	e := newEnv(t)
	const tail = ". /moves lists the legal moves."
	for _, c := range []struct {
		key    string
		before []string // played first, in canonical or friendly form
		move   string
		want   string
	}{
		{"coldfusion", []string{"^Pa3", "^Pa8"}, "P@g6",
			"illegal move: P@g6: a drop written P@ comes from the Safe pocket, and White's holds no Pawn (did you mean P*=P@g6?)" + tail},
		{"coldfusion", []string{"^Ra1", "^Ra10", "Qd2/Rd1", "^Pa8"}, "R@g7",
			"illegal move: R@g7: a drop written R@ comes from the Safe pocket, and White's holds no Rook (did you mean R*=B@g7?)" + tail},
		{"easymate", []string{"Nf3", "e5", "Ng5", "a6", "Ne6"}, "Ke7",
			"illegal move: Ke7: the King is frozen: it may not move while its Queen is attacked (the Queen on d8 is)" + tail},
		{"trainwreck", []string{"d2d3", "a7a6", "a6a5", "b1c3", "c1d2", "h7h6", "h6h5", "g1f3"}, "O-O-O",
			"illegal move: O-O-O: castling O-O-O needs d1 empty (did you mean QO-O-O?)" + tail},
		{"trainwreck", []string{"e2e4", "e7e5", "d7d6", "d2d3", "a2a3"}, "Ke7",
			"illegal move: Ke7: the enemy King may not be moved: in this half-move you move one of Black's other pieces" + tail},
		{"tank", nil, "A*e2", "illegal move: A*e2: there is no White Atomic bomb on e2" + tail},
		{"tank", nil, "Th1-h2=N", "illegal move: Th1-h2=N: this push puts no pawn on its last rank, so nothing promotes (did you mean Th1-h2?)" + tail},
		{"crazyhouse", []string{"e4", "d5", "exd5", "Qxd5"}, "P@d2",
			"illegal move: P@d2: d2 is taken by a White Pawn: a piece is dropped only on an empty square" + tail},
		{"grand", nil, "Mg4", "illegal move: Mg4: M is not a piece of Grand Chess: its Marshal is written C"},
		{"tank", nil, "zz", `unreadable move: "zz": neither a coordinate move nor SAN: expected a move like Nc3, a3, M*a1 or Th1-h2 (in coordinates, Nc3 is b1c3)` + tail},
		{"chess", nil, "e4 e5", "illegal move: e4e5: White has no Pawn on e4. One move at a time: /move e4, then /move e5" + tail},
	} {
		id := e.startAny(c.key)
		for _, m := range c.before {
			e.ok(e.game(id).ToAct, "/move move:"+m+" game:"+itoa(id))
		}
		g := e.game(id)
		r := e.h.Execute(e.ctx, Request{UserID: g.ToAct, GuildID: "g1", ChannelID: "c1", Name: "move",
			Options: map[string]string{"move": c.move, "game": itoa(id)}})
		if !r.Ephemeral || !strings.HasPrefix(r.Text, c.want) {
			t.Errorf("%s after %q: /move %s: %q, want %q", c.key, c.before, c.move, r.Text, c.want)
		}
		if after := e.game(id); len(after.Moves) != len(g.Moves) {
			t.Errorf("%s: a refused move changed the game", c.key)
		}
	}
}

// TestPassThatDraws: in Crazyhouse Annihilation, once the opponent has
// passed, a pass draws at once (two passes in a row); /moves and the
// turn prompt (the reply and the notification) say so then, and only
// then.
func TestPassThatDraws(t *testing.T) {
	const warning = "Passing now ends the game at once in a draw: both players passed in a row."
	e := newEnv(t)
	id := e.startFrom("annihilation", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w - - 0 1")
	if r := e.run("alice", "/moves"); strings.Contains(r.Text, "Passing now") || !strings.Contains(r.Text, "**Pass** (1): pass") {
		t.Errorf("/moves before any pass:\n%s", r.Text)
	}
	r := e.ok("alice", "/move move:pass")
	if !strings.Contains(r.Text, "<@bob>, your move. "+warning) {
		t.Errorf("the reply to the first pass:\n%s", r.Text)
	}
	if r := e.run("bob", "/moves"); !strings.Contains(r.Text, "**Pass** (1): pass\n"+warning) {
		t.Errorf("/moves after the opponent's pass:\n%s", r.Text)
	}
	pending, err := e.db.PendingNotifications(e.ctx, e.clk.Now().Add(time.Hour), 0)
	if err != nil {
		t.Fatal(err)
	}
	told := false
	for _, n := range pending {
		if n.UserID == "bob" && n.GameID == id {
			told = told || strings.Contains(e.h.Notification(e.ctx, n).Text, warning)
		}
	}
	if !told {
		t.Error("bob's notification of his turn does not warn that a pass draws")
	}
	r = e.ok("bob", "/move move:e5")
	if strings.Contains(r.Text, "Passing now") {
		t.Errorf("after a move, a pass no longer draws:\n%s", r.Text)
	}
	r = e.ok("alice", "/move move:pass")
	r = e.ok("bob", "/move move:pass")
	if g := e.game(id); g.Status != bot.GameFinished || g.Result != bot.Draw || !strings.Contains(r.Text, "both players passed in a row") {
		t.Errorf("the second pass in a row: %v %v, %q", g.Status, g.Result, r.Text)
	}
	// A variant without passes never warns.
	e = newEnv(t)
	e.start("chess")
	if r := e.run("alice", "/moves"); strings.Contains(r.Text, "Passing") {
		t.Errorf("chess /moves:\n%s", r.Text)
	}
}
