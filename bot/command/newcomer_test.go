package command

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fairypost/fairypost/bot"
)

// TestRematchKeepsRated: the rematch of a rated game is rated, and its
// message says so; the rematch of a casual game stays casual and says
// that (issue 24 §5).
func TestRematchKeepsRated(t *testing.T) {
	for _, c := range []struct {
		rated, want string
		wantRated   bool
	}{{"yes", ", rated.", true}, {"no", ", casual (not rated).", false}} {
		e := newEnv(t)
		ch := e.ok("alice", "/challenge opponent:bob variant:chess color:white rated:"+c.rated)
		id := challengeID(t, ch)
		e.ok("bob", "/accept challenge:"+itoa(id))
		over := e.ok("alice", "/resign game:"+itoa(id))
		r := e.press("alice", over, "Rematch")
		wantText(t, "rematch of a rated:"+c.rated+" game", r, "rematch of game #1: Chess", c.want)
		a := e.ok("bob", "/accept challenge:"+itoa(challengeID(t, r)))
		if g := e.game(a.GameID); g.Rated != c.wantRated || g.White != "bob" {
			t.Errorf("rematch of a rated:%s game: %+v", c.rated, g)
		}
	}
}

// TestTextOptionLimits: a note line holds 1000 characters (counted as
// characters, not bytes), a forecast line more than the old 200; a value
// past its option's limit is refused with a message that states the
// limit, a whole note past bot.MaxNoteLen says how long it is, and a
// line break is refused as such (issue 24 §5).
func TestTextOptionLimits(t *testing.T) {
	e := newEnv(t)
	id := e.start("chess")
	e.ok("alice", "/move move:e4")
	note := func(text string) Reply {
		return e.h.Execute(e.ctx, Request{UserID: "alice", GuildID: "g1", ChannelID: "c1", Name: "note",
			Options: map[string]string{"action": "add", "text": text}})
	}
	line := strings.Repeat("é", 1000) // 2000 bytes
	if r := note(line); !strings.Contains(r.Text, "Your private note on game #1") || strings.Join(append([]string{r.Text}, r.More...), "\n") != r.Text+"\n"+line {
		t.Fatalf("a 1000-character note line: %s, more %q", show(r), r.More)
	}
	if r := note(line + "!"); !r.Ephemeral || !strings.Contains(r.Text, "The value of text: is 1001 characters long: it holds at most 1000.") {
		t.Errorf("a 1001-character note line: %s", show(r))
	}
	if r := note(strings.Repeat("a", 500)); !r.Ephemeral || !strings.Contains(r.Text,
		"A note holds at most 1500 characters; your note on game 1 holds 1000, and this line would make it 1501") {
		t.Errorf("a note past 1500 characters: %s", show(r))
	}
	stored := func() string { n, _ := e.svc.Notes().Read(context.Background(), id, "alice"); return n }
	if r := note(strings.Repeat("a", 499)); utf8.RuneCountInString(stored()) != 1500 {
		t.Errorf("a note of exactly 1500 characters: %s; stored %d characters", show(r), utf8.RuneCountInString(stored()))
	}
	// /note show gives the whole note, the board's text first, then the
	// rest in further messages.
	r := e.run("alice", "/note action:show")
	checkPNG(t, r)
	if all := strings.Join(append([]string{r.Text}, r.More...), "\n"); !strings.HasSuffix(all, "Your private note:\n"+line+"\n"+strings.Repeat("a", 499)) {
		t.Errorf("/note show: %s, more %q", show(r), r.More)
	}
	if r := note("one\ntwo"); !r.Ephemeral || !strings.Contains(r.Text, "The value of text: holds characters that cannot be typed (line breaks") {
		t.Errorf("a line break: %s", show(r))
	}

	forecast := func(line string) Reply {
		return e.h.Execute(e.ctx, Request{UserID: "alice", GuildID: "g1", ChannelID: "c1", Name: "forecast",
			Options: map[string]string{"action": "add", "line": line}})
	}
	long := "1... e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 " +
		"10. d4 Nbd7 11. Nbd2 Bb7 12. Bc2 Re8 13. Nf1 Bf8 14. Ng3 g6 15. a4 c5 16. d5 c4 17. Bg5 h6 18. Be3 Nc5 " +
		"19. Qd2 h5 20. Bg5 Be7 21. Bxf6"
	if len(long) <= 200 {
		t.Fatalf("the long line has %d characters: it must pass the old 200", len(long))
	}
	if r := forecast(long); r.Ephemeral && !strings.Contains(r.Text, "Conditional line 1 stored for game #1") {
		t.Errorf("a %d-character forecast line: %s", len(long), show(r))
	}
	if r := forecast(strings.Repeat("e5 ", 334)); !r.Ephemeral || !strings.Contains(r.Text, "The value of line: is 1002 characters long: it holds at most 1000.") {
		t.Errorf("a 1002-character forecast line: %s", show(r))
	}
}

// TestPauseDecline: the player asked to pause may decline, with the
// button or /pause action:decline, even when it is not their turn (a
// move was the only way before); the asker is told, the clocks run on,
// nothing else changes. A paused game reads "paused" in /games (issue 24
// §5).
func TestPauseDecline(t *testing.T) {
	e := newEnv(t)
	id := e.start("chess")
	e.ok("alice", "/move move:e4")
	deadline := e.game(id).Deadline
	ask := e.ok("bob", "/pause action:ask") // bob is to move; alice is not
	wantText(t, "the request", ask, "<@bob> asks to pause game #1.", "agree or decline with the buttons")
	e.refused("bob", "/pause action:decline", "The request to pause game 1 is yours")
	ns := e.pending()
	told := e.h.Notification(e.ctx, ns[len(ns)-1]) // to alice, with the buttons to answer
	wantText(t, "the request told", told, "<@bob> asks to pause game 1 (Chess)", "decline (/pause action:decline)")
	if len(told.Buttons) != 2 || told.Buttons[0].Label != "Agree to pause" || told.Buttons[1].Label != "Decline pause" {
		t.Errorf("the request told to alice: %s", show(told))
	}
	n := len(ns)
	dec := e.press("alice", ask, "Decline pause")
	wantText(t, "decline by button", dec, "<@alice> declines to pause game #1: the clocks run on. It is <@bob>'s turn.")
	if g := e.game(id); g.PauseOffer != "" || !g.PausedAt.IsZero() || !g.Deadline.Equal(deadline) || g.ToAct != "bob" {
		t.Errorf("after the decline: offer %q paused %v deadline %v (was %v)", g.PauseOffer, g.PausedAt, g.Deadline, deadline)
	}
	if ns := e.pending()[n:]; len(ns) != 1 || ns[0].UserID != "bob" || !strings.Contains(ns[0].Text, "<@alice> declines to pause game 1") {
		t.Errorf("notifications after the decline: %+v", ns)
	}
	e.refused("alice", "/pause action:decline", "Nobody asks to pause game 1")
	if r := e.press("alice", ask, "Agree to pause"); !r.Ephemeral || !strings.Contains(r.Text, "out of date") {
		t.Errorf("a stale Agree button: %s", show(r))
	}

	// Asked again: declined by command this time; then agreed.
	e.ok("bob", "/pause action:ask")
	e.ok("alice", "/pause action:decline")
	if g := e.game(id); g.PauseOffer != "" || !g.PausedAt.IsZero() {
		t.Fatalf("after /pause action:decline: %+v", g)
	}
	ask = e.ok("bob", "/pause action:ask")
	games := e.run("alice", "/games")
	wantText(t, "/games with a request", games, "<@bob> asks to pause")
	wantText(t, "agree by button", e.press("alice", ask, "Agree to pause"), "<@alice> agrees: game #1 is paused.")
	for _, who := range []string{"alice", "bob"} {
		wantText(t, who+"'s /games", e.run(who, "/games"), "#1 · vs ", "**paused** since 2026-03-01: no clock runs")
	}
	e.refused("alice", "/pause action:decline", "Game 1 is paused already: resume it")
}

// pending returns the undelivered notifications, in order.
func (e *env) pending() []bot.Notification {
	e.t.Helper()
	ns, err := e.db.PendingNotifications(e.ctx, t0.AddDate(1, 0, 0), 0)
	if err != nil {
		e.t.Fatal(err)
	}
	return ns
}

// TestDigestManyGames: a digest lists the games where it is the user's
// turn first, as many as fit in one message (the others counted), with at
// most ten boards; held notices that do not fit are cut, never the games.
func TestDigestManyGames(t *testing.T) {
	e := newEnv(t)
	const games = 24
	for i := 0; i < games; i++ {
		id := e.start("chess")
		e.ok("alice", "/move move:e4 game:"+itoa(id))
	}
	held := "Since the last digest:\n• " + strings.Repeat("a long notice ", 200)
	r := e.h.Notification(e.ctx, bot.Notification{Kind: bot.NotifyDigest, UserID: "bob", Text: held})
	listed := strings.Count(r.Text, "• **Game #")
	if listed < 10 || listed >= games || !strings.Contains(r.Text, fmt.Sprintf("It is your turn in %d games:", games)) ||
		!strings.Contains(r.Text, fmt.Sprintf("… and %d more: /games lists them.", games-listed)) {
		t.Errorf("%d games listed: %s", listed, show(r))
	}
	if len(r.Files) != min(listed, 10) || (listed > 10) != strings.Contains(r.Text, "(The boards of the first 10 games; /board shows the others.)") {
		t.Errorf("%d boards for %d games listed: %s", len(r.Files), listed, show(r))
	}
	if len(r.Text) > 2000 || !strings.HasPrefix(r.Text, "**Your fairypost digest**, 2026-03-01 12:00 UTC.") {
		t.Errorf("digest of %d bytes: %s", len(r.Text), show(r))
	}
}
