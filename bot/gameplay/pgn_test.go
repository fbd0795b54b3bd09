package gameplay_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/rules"
	"github.com/fairypost/fairypost/rules/notation"
)

// pgnOf exports game id, failing on error.
func (e *env) pgnOf(tb testing.TB, id uint64) string {
	tb.Helper()
	s, err := e.svc.Views().PGN(ctx, id)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

func TestPGNChessGolden(t *testing.T) {
	e := newEnv(t)
	g := e.challengeAccepted(t, gameplay.ChallengeRequest{Challenger: "alice", Challenged: "bob", GuildID: "111",
		ChannelID: "222", DaysPerMove: 0})
	e.clock.Advance(30 * time.Hour) // the Date is the game's creation
	e.play(t, g.ID, "alice f3", "bob e5", "alice g4", "bob Qh4")
	want := `[Event "fairypost correspondence game"]
[Site "https://discord.com/channels/111/222"]
[Date "2026.03.01"]
[Round "-"]
[White "alice"]
[Black "bob"]
[Result "0-1"]
[GameId "1"]
[Variant "Chess"]
[VariantKey "chess"]
[TimeControl "-"]
[Termination "normal"]
[Reason "checkmate"]
[PlyCount "4"]

1. f3 {f2f3} 1... e5 {e7e5} 2. g4 {g2g4} 2... Qh4# {d8h4} 0-1
`
	if got := e.pgnOf(t, g.ID); got != want {
		t.Errorf("PGN\n%s\nwant\n%s", got, want)
	}
}

func TestPGNTankGolden(t *testing.T) {
	e := newEnv(t)
	g := e.start(t, "tank")
	// A Tank's push (Th1-h2) and a Bomb's detonation (M*a8).
	e.play(t, g.ID, "alice g4", "bob d5", "alice Th1-h2", "bob Bxg4", "alice Tg2", "bob M*a8")
	if _, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActResign, GameID: g.ID, Version: bot.AnyVersion, UserID: "alice"}); err != nil {
		t.Fatal(err)
	}
	want := `[Event "fairypost correspondence game"]
[Site "?"]
[Date "2026.03.01"]
[Round "-"]
[White "alice"]
[Black "bob"]
[Result "0-1"]
[GameId "1"]
[Variant "Tank Chess"]
[VariantKey "tank"]
[TimeControl "1/259200"]
[Termination "normal"]
[Reason "resignation"]
[PlyCount "6"]

1. g4 {g2g4} 1... d5 {d7d5} 2. Th1-h2 {h1h2} 2... Bxg4 {c8g4} 3. Tg2 {h2g2} 3...
M*a8 {a8a8} 0-1
`
	if got := e.pgnOf(t, g.ID); got != want {
		t.Errorf("PGN\n%s\nwant\n%s", got, want)
	}
}

func TestPGNTrainWreckGolden(t *testing.T) {
	e := newEnv(t)
	g := e.start(t, "trainwreck")
	e.play(t, g.ID, "alice Nc3", "alice d5", "bob h5", "bob Nf3", "alice g3")
	want := `[Event "fairypost correspondence game"]
[Site "?"]
[Date "2026.03.01"]
[Round "-"]
[White "alice"]
[Black "bob"]
[Result "*"]
[GameId "1"]
[Variant "Train Wreck Chess"]
[VariantKey "trainwreck"]
[TimeControl "1/259200"]
[Termination "unterminated"]
[PlyCount "5"]

1. Nc3 d5 {b1c3 d7d5} 1... h5 Nf3 {h7h5 g1f3} 2. g3 {g2g3} *
`
	if got := e.pgnOf(t, g.ID); got != want {
		t.Errorf("PGN\n%s\nwant\n%s", got, want)
	}
	if _, err := e.svc.Views().PGN(ctx, 999); bot.ErrorCode(err) != bot.ENOTFOUND {
		t.Errorf("unknown game: %v, want ENOTFOUND", err)
	}
}

// pgnTurn is one numbered turn read back from PGN movetext.
type pgnTurn struct {
	number    string   // "3." or "3..."
	friendly  []string // the moves as written
	canonical []string // the moves of the comment
}

var (
	pgnTagRE    = regexp.MustCompile(`^\[(\w+) "((?:[^"\\]|\\.)*)"\]$`)
	pgnNumberRE = regexp.MustCompile(`^\d+\.(\.\.)?$`)
)

// readPGN reads what PGN writes: the tags, the turns and the result. It
// fails on anything else.
func readPGN(tb testing.TB, text string) (map[string]string, []pgnTurn, string) {
	tb.Helper()
	head, body, ok := strings.Cut(text, "\n\n")
	if !ok || !strings.HasSuffix(body, "\n") {
		tb.Fatalf("no blank line after the tags, or no final newline:\n%s", text)
	}
	tags := map[string]string{}
	for _, line := range strings.Split(head, "\n") {
		m := pgnTagRE.FindStringSubmatch(line)
		if m == nil {
			tb.Fatalf("bad tag line %q", line)
		}
		tags[m[1]] = strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(m[2])
	}
	for _, line := range strings.Split(strings.TrimSuffix(body, "\n"), "\n") {
		if len(line) > 80 || line == "" || strings.TrimSpace(line) != line {
			tb.Errorf("movetext line of %d characters: %q", len(line), line)
		}
	}
	words := strings.Fields(body)
	result := words[len(words)-1]
	var turns []pgnTurn
	inComment := false
	for _, w := range words[:len(words)-1] {
		switch {
		case inComment || strings.HasPrefix(w, "{"):
			if len(turns) == 0 || (!inComment && len(turns[len(turns)-1].canonical) > 0) {
				tb.Fatalf("a comment where none belongs: %q", w)
			}
			inComment = !strings.HasSuffix(w, "}")
			c := &turns[len(turns)-1]
			c.canonical = append(c.canonical, strings.Trim(w, "{}"))
		case pgnNumberRE.MatchString(w):
			turns = append(turns, pgnTurn{number: w})
		default:
			if len(turns) == 0 || len(turns[len(turns)-1].canonical) > 0 {
				tb.Fatalf("a move outside a turn: %q", w)
			}
			c := &turns[len(turns)-1]
			c.friendly = append(c.friendly, w)
		}
	}
	return tags, turns, result
}

// checkPGN reads the PGN of game id back and replays it both from the
// canonical comments and from the friendly moves: each must give the
// stored game exactly.
func (e *env) checkPGN(tb testing.TB, id uint64) string {
	tb.Helper()
	text := e.pgnOf(tb, id)
	g, err := e.svc.Views().Game(ctx, id)
	if err != nil {
		tb.Fatal(err)
	}
	tags, turns, result := readPGN(tb, text)
	if result != g.Result.String() || tags["Result"] != result {
		tb.Errorf("result %q, tag %q, want %q", result, tags["Result"], g.Result)
	}
	v, err := registry(tb).Variant(tags["VariantKey"], tags["Options"])
	if err != nil {
		tb.Fatal(err)
	}
	start := v.Start()
	if tags["SetUp"] == "1" {
		if start, err = rules.ParseFEN(v, tags["FEN"]); err != nil {
			tb.Fatal(err)
		}
	}
	byCanon, byFriendly := rules.NewGame(start), rules.NewGame(start)
	var canonical []string
	for _, turn := range turns {
		if len(turn.friendly) != len(turn.canonical) {
			tb.Fatalf("turn %s: %d moves and %d canonical ones", turn.number, len(turn.friendly), len(turn.canonical))
		}
		p := byCanon.Position()
		number := fmt.Sprintf("%d.", p.Fullmove())
		if p.ToAct() == rules.Black {
			number += ".."
		}
		if turn.number != number {
			tb.Errorf("turn numbered %q, want %q", turn.number, number)
		}
		for i, c := range turn.canonical {
			p := byCanon.Position()
			m, err := rules.ParseMove(&p, c)
			if err == nil {
				err = byCanon.Play(m)
			}
			if err != nil {
				tb.Fatalf("turn %s: canonical %q: %v", turn.number, c, err)
			}
			q := byFriendly.Position()
			f, err := notation.ParseMove(&q, turn.friendly[i])
			if err == nil {
				err = byFriendly.Play(f)
			}
			if err != nil || f != m {
				tb.Fatalf("turn %s: friendly %q read as %v (%v), canonical as %v", turn.number, turn.friendly[i], f, err, m)
			}
			canonical = append(canonical, c)
		}
		// A turn is its player's, whoever makes each part (the
		// opponent may answer in the middle): a finished turn ends with
		// its player's move.
		last := byCanon.PositionAt(len(canonical) - 1)
		if len(canonical) < len(g.Moves) && last.ToAct() != p.ToAct() {
			tb.Errorf("turn %s ends with the other player's move", turn.number)
		}
		if next := byCanon.Position(); len(canonical) < len(g.Moves) && next.ToAct() == last.ToAct() {
			tb.Errorf("turn %s ends but the same player acts next", turn.number)
		}
	}
	if !slices.Equal(canonical, g.Moves) {
		tb.Errorf("the PGN's canonical moves %v differ from the stored %v", canonical, g.Moves)
	}
	end := byCanon.Position()
	if end.FEN() != g.FEN {
		tb.Errorf("replayed to %q, stored %q", end.FEN(), g.FEN)
	}
	if tags["PlyCount"] != fmt.Sprint(len(g.Moves)) {
		tb.Errorf("PlyCount %q, want %d", tags["PlyCount"], len(g.Moves))
	}
	return text
}

// playOn plays up to plies moves in game id, each chosen from the legal
// ones by a fixed rule, and stops early when the game ends.
func (e *env) playOn(tb testing.TB, id uint64, plies int) {
	tb.Helper()
	for i := 0; i < plies; i++ {
		g, err := e.svc.Views().Game(ctx, id)
		if err != nil {
			tb.Fatal(err)
		}
		if g.Status != bot.GameActive {
			return
		}
		moves, err := e.svc.Views().LegalMoves(ctx, id, g.ToAct)
		if err != nil || len(moves) == 0 {
			tb.Fatalf("no legal moves for %s: %v", g.ToAct, err)
		}
		m := moves[(i*7+3)%len(moves)]
		if _, err := e.svc.Move(ctx, gameplay.MoveRequest{GameID: id, UserID: g.ToAct, Move: m.Friendly}); err != nil {
			tb.Fatalf("ply %d %+v: %v", i+1, m, err)
		}
	}
}

func TestPGNReadsBack(t *testing.T) {
	e := newEnv(t)
	for _, variant := range []string{"chess", "trainwreck", "trainwreck-threemove", "tank", "crazyhouse"} {
		g := e.start(t, variant)
		e.playOn(t, g.ID, 40)
		text := e.checkPGN(t, g.ID)
		_, movetext, _ := strings.Cut(text, "\n\n")
		if g, _ := e.svc.Views().Game(ctx, g.ID); len(g.Moves) < 20 || strings.Count(movetext, "\n") < 3 {
			t.Errorf("%s: a short game (%d moves) or no wrapping tested:\n%s", variant, len(g.Moves), text)
		}
	}
	// Winning Chess: a Defender pre-move (h8g8>) before Black's move, and
	// Black's Defender answer (g8h8) between the steps of White's Attacker.
	g := e.start(t, "winning")
	e.play(t, g.ID, "alice c1c7", "bob e7e5", "alice d2d4", "bob l7l5", "alice j2j4", "bob k8l7", "alice c7c6",
		"bob h8g8>", "bob a7a5", "alice e1d3>", "bob g8h8", "alice d3b5", "bob b8c6")
	text := e.checkPGN(t, g.ID)
	// White's turn 5, Black's answer included, is under one number.
	if want := "4... D~K> a5 {h8g8> a7a5} 5. Ad3> D~K Ab5 {e1d3> g8h8 d3b5}\n5... Txc6 {b8c6} *\n"; !strings.HasSuffix(text, want) {
		t.Errorf("Winning Chess movetext\n%s\nwant it to end with\n%s", text, want)
	}
}

func TestPGNSetUpAndOptions(t *testing.T) {
	e := newEnv(t)
	// A game that starts from a position of its own (as a pre-game choice
	// makes): created through the store as Accept does.
	c, err := e.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "alice", Challenged: "bob", ChannelID: "chan",
		Variant: "winning", Options: "ranks=10", DaysPerMove: 7, Color: bot.ColorWhite})
	if err != nil {
		t.Fatal(err)
	}
	v, err := registry(t).Variant("winning", c.Options)
	if err != nil {
		t.Fatal(err)
	}
	start := v.Start()
	m, err := notation.ParseMove(&start, "e4")
	if err != nil {
		t.Fatal(err)
	}
	custom, err := start.Play(m)
	if err != nil {
		t.Fatal(err)
	}
	_, g, err := e.db.UpdateChallenge(ctx, c.ID, bot.AnyVersion, func(c *bot.Challenge) (bot.ChallengeChange, error) {
		c.Status, c.Challenged = bot.ChallengeAccepted, "bob"
		now := e.clock.Now()
		return bot.ChallengeChange{Game: &bot.Game{ID: c.ID, Variant: c.Variant, Options: c.Options,
			StartFEN: custom.FEN(), FEN: custom.FEN(), ToAct: "bob", White: "alice", Black: "bob", ChannelID: c.ChannelID,
			Status: bot.GameActive, DaysPerMove: c.DaysPerMove, Deadline: now.Add(7 * 24 * time.Hour),
			TurnStarted: now, Created: now, Updated: now}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	e.play(t, g.ID, "bob e7", "alice Nj3")
	text := e.checkPGN(t, g.ID)
	for _, want := range []string{
		"[Variant \"Winning Chess\"]\n[VariantKey \"winning\"]\n[Options \"ranks=10\"]\n[TimeControl \"1/604800\"]\n[SetUp \"1\"]\n[FEN \"" + custom.FEN() + "\"]\n",
		"\n\n1... e7 {e9e7} 2. Nj3 {i1j3} *\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("PGN\n%s\nlacks\n%s", text, want)
		}
	}
	// The variant's own start (with the option) needs no FEN.
	g2 := e.challengeAccepted(t, gameplay.ChallengeRequest{Challenger: "alice", Challenged: "bob", Variant: "winning",
		Options: "ranks=10", DaysPerMove: 7})
	if text := e.checkPGN(t, g2.ID); strings.Contains(text, "[FEN") || strings.Contains(text, "[SetUp") {
		t.Errorf("PGN of a normal start has a FEN:\n%s", text)
	}
}

func TestPGNAfterPreGameChoice(t *testing.T) {
	e := newEnv(t)
	g := e.start(t, "annihilation")
	text := e.pgnOf(t, g.ID) // still choosing: no moves, no start yet
	if !strings.HasSuffix(text, "\n\n*\n") || !strings.Contains(text, `[Termination "unterminated"]`) {
		t.Errorf("PGN during the pre-game choice:\n%s", text)
	}
	g, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActChoose, GameID: g.ID, Version: bot.AnyVersion, UserID: "bob", Choice: "black"})
	if err != nil {
		t.Fatal(err)
	}
	if g, err = e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActChoose, GameID: g.ID, Version: bot.AnyVersion, UserID: "alice", Choice: "me"}); err != nil {
		t.Fatal(err)
	}
	e.playOn(t, g.ID, 6)
	text = e.checkPGN(t, g.ID)
	g = e.game(t, g.ID)
	if !strings.Contains(text, "[SetUp \"1\"]\n[FEN \""+g.StartFEN+"\"]\n") {
		t.Errorf("PGN after the pre-game choice has no FEN %q:\n%s", g.StartFEN, text)
	}
}
