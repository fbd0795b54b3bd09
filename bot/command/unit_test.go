package command

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/bot/prefs"
	"github.com/fairypost/fairypost/internal/testkit"
	"github.com/fairypost/fairypost/rules"
)

func TestCustomIDs(t *testing.T) {
	for _, a := range []string{actAccept, actDecline, actCancel, actResign, actResignConfirm, actDrawOffer, actDrawAccept,
		actDrawDecline, actTakebackAccept, actTakebackDecline} {
		id := customID(a, 1<<63, 1<<62)
		if len(id) > 100 {
			t.Fatalf("%q: %d characters", id, len(id))
		}
		got, gid, v, err := parseCustomID(id)
		if err != nil || got != a || gid != 1<<63 || v != 1<<62 {
			t.Fatalf("%q: %q %d %d %v", id, got, gid, v, err)
		}
	}
}

func TestJoinLines(t *testing.T) {
	var lines []string
	for i := range 200 {
		lines = append(lines, fmt.Sprintf("#%d · a line of about forty characters", i))
	}
	s := joinLines("Head:", lines, maxReply)
	if len(s) > maxReply || !strings.HasPrefix(s, "Head:\n#0 ·") {
		t.Fatalf("%d bytes: %q", len(s), s)
	}
	shown := strings.Count(s, "\n") - 1
	if !strings.HasSuffix(s, fmt.Sprintf("… and %d more", 200-shown)) {
		t.Fatalf("tail: %q", s[len(s)-40:])
	}
	if s := joinLines("Head:", lines[:3], maxReply); strings.Contains(s, "more") || strings.Count(s, "\n") != 3 {
		t.Fatalf("short: %q", s)
	}
}

func TestLastLinesAndTruncate(t *testing.T) {
	lines := []string{"aaaa", "bbbb", "cccc"}
	if got := lastLines(lines, 10); got != 1 {
		t.Fatalf("lastLines: %d", got)
	}
	if got := lastLines(lines, 100); got != 0 {
		t.Fatalf("lastLines: %d", got)
	}
	s := truncate(strings.Repeat("é", 1500), maxReply)
	if len(s) > maxReply || !utf8.ValidString(s) || !strings.HasSuffix(s, "…") {
		t.Fatalf("truncate: %d bytes", len(s))
	}
}

// TestHistoryLines: one line per full move, White's turn then Black's
// after a dash, the moves of a turn separated by commas (never "+",
// which reads as check), the other player's answer inside a turn and
// the forced passes said so, numbers from the turns (a game may start
// with Black, or at another move number).
func TestHistoryLines(t *testing.T) {
	e := func(c rules.Color, san string) gameplay.HistoryEntry {
		return gameplay.HistoryEntry{Color: c, SAN: san}
	}
	turn := func(n int, c rules.Color, moves ...gameplay.HistoryEntry) gameplay.Turn {
		return gameplay.Turn{Number: n, Color: c, Moves: moves}
	}
	forced := gameplay.HistoryEntry{Color: rules.Black, SAN: "pass", Forced: true}
	cases := []struct {
		turns []gameplay.Turn
		want  string
	}{
		{[]gameplay.Turn{turn(1, rules.White, e(rules.White, "e4")), turn(1, rules.Black, e(rules.Black, "e5")),
			turn(2, rules.White, e(rules.White, "Nf3"))}, "1. e4 — e5|2. Nf3"},
		{[]gameplay.Turn{turn(7, rules.Black, e(rules.Black, "e5")), turn(8, rules.White, e(rules.White, "a"), e(rules.White, "b")),
			turn(8, rules.Black, e(rules.Black, "c"), e(rules.Black, "d"), e(rules.Black, "f"))}, "7… e5|8. a, b — c, d, f"},
		{[]gameplay.Turn{turn(3, rules.White, e(rules.White, "Af3>"), e(rules.Black, "Dg7"), e(rules.White, "Ag4")),
			turn(3, rules.Black, e(rules.Black, "Kg8")), turn(4, rules.White, e(rules.White, "Ae2>"), forced, e(rules.White, "Ad3"))},
			"3. Af3>, (Black answers Dg7), Ag4 — Kg8|4. Ae2>, (Black had to pass), Ad3"},
		{[]gameplay.Turn{turn(5, rules.White, e(rules.White, "Af3>"), e(rules.Black, "pass"), e(rules.White, "Ae4"))},
			"5. Af3>, (Black passes), Ae4"},
	}
	for _, c := range cases {
		if got := strings.Join(historyLines(c.turns), "|"); got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
}

// BenchmarkMove measures /move through Execute: resolving the game,
// committing the move to bbolt (fsync included), replaying it and
// rendering the 800 px board.
func BenchmarkMove(b *testing.B) {
	reg, err := registry()
	if err != nil {
		b.Fatal(err)
	}
	db := testkit.OpenDB(b)
	svc := gameplay.NewService(gameplay.Stores{Games: db, Challenges: db, Users: db, Outbox: db}, reg, gameplay.Coin(func() bool { return true }))
	h := New(svc, prefs.New(svc, db), Options{})
	ctx := context.Background()
	moves := []struct{ user, move string }{{"alice", "Nf3"}, {"bob", "Nf6"}, {"alice", "Ng1"}, {"bob", "Ng8"}}
	var game string
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if i%8 == 0 { // a new game before any repetition rule applies
			b.StopTimer()
			c, err := svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "alice", Challenged: "bob", ChannelID: "c", Variant: "chess", DaysPerMove: 3, Color: bot.ColorWhite})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := svc.Challenges().Accept(ctx, c.ID, bot.AnyVersion, "bob", bot.Where{ChannelID: "c"}); err != nil {
				b.Fatal(err)
			}
			game = fmt.Sprint(c.ID)
			b.StartTimer()
		}
		m := moves[i%4]
		r := h.Execute(ctx, Request{UserID: m.user, ChannelID: "c", Name: "move", Options: map[string]string{"move": m.move, "game": game}})
		if r.Ephemeral || len(r.Files) != 1 {
			b.Fatalf("%s %s: %q", m.user, m.move, r.Text)
		}
	}
}

// TestResultText: how a game ended reads as plain English: no "aborted
// (aborted)", no "wins by king captured".
func TestResultText(t *testing.T) {
	db := testkit.OpenDB(t)
	svc := testkit.Service(t, db, testkit.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)))
	h := New(svc, prefs.New(svc, db), Options{})
	g := func(st bot.GameStatus, r bot.Result, reason rules.Reason) *bot.Game {
		return &bot.Game{ID: 3, Variant: "annihilation", White: "w", Black: "b", Status: st, Result: r, Reason: reason}
	}
	for _, c := range []struct {
		g    *bot.Game
		want string
	}{
		{g(bot.GameAborted, bot.NoResult, "aborted"), "Game #3 was aborted."},
		{g(bot.GameAborted, bot.NoResult, "no move in time"), "Game #3 was aborted: no move was made in time."},
		{g(bot.GameFinished, bot.BlackWins, "king captured"), "Game #3 is over: <@b> (Black) wins by capturing the King, 0-1."},
		{g(bot.GameFinished, bot.WhiteWins, "timeout"), "Game #3 is over: <@w> (White) wins on time, 1-0."},
		{g(bot.GameFinished, bot.Draw, "both kings captured"), "Game #3 is over: a draw: both Kings were captured at once, ½-½."},
		{g(bot.GameFinished, bot.WhiteWins, "annihilation"), "Game #3 is over: <@w> (White) wins: the opponent has no pieces left, 1-0."},
	} {
		if got := h.resultText(c.g); got != c.want {
			t.Errorf("%s %s %q: %q, want %q", c.g.Status, c.g.Result, c.g.Reason, got, c.want)
		}
	}
}

// TestGameActionTable: the table of game actions has one row for each
// action of gameplay.Service.Act and none else, each with a reply; its
// buttons have distinct custom-ID actions, each answered by a press
// (the Handler's button table) and fit in a custom ID.
func TestGameActionTable(t *testing.T) {
	rows := map[gameplay.Action]int{}
	for _, d := range gameActions() {
		rows[d.act]++
		if d.reply == nil {
			t.Errorf("%s: no reply", d.act)
		}
	}
	for _, a := range gameplay.Actions() {
		if rows[a] != 1 {
			t.Errorf("%s: %d rows in the table, want 1", a, rows[a])
		}
		delete(rows, a)
	}
	for a := range rows {
		t.Errorf("the table has a row for %q, which gameplay.Service.Act does not do", a)
	}
	h := newWithSettings(t, testkit.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)), Options{})
	ids := map[string]bool{}
	for _, d := range gameActions() {
		for _, b := range d.buttons {
			if ids[b.id] {
				t.Errorf("two buttons with the custom-ID action %q", b.id)
			}
			ids[b.id] = true
			if _, ok := h.buttons[b.id]; !ok {
				t.Errorf("the button %q of %s is not answered by a press", b.id, d.act)
			}
			if got, _, _, err := parseCustomID(customID(b.id, 1<<63, 1<<62)); err != nil || got != b.id {
				t.Errorf("the button %q of %s: custom ID reads back as %q, %v", b.id, d.act, got, err)
			}
		}
	}
}

// newWithSettings returns a Handler over a fresh database, its Service on
// clock and its players' settings.
func newWithSettings(t *testing.T, clock *testkit.Clock, opts Options) *Handler {
	t.Helper()
	db := testkit.OpenDB(t)
	svc := testkit.Service(t, db, clock)
	return New(svc, prefs.New(svc, db), opts)
}
