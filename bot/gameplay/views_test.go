package gameplay_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/rules"
	"github.com/fairypost/fairypost/rules/notation"
)

// challengeAccepted has req.Challenger challenge req.Challenged, who
// accepts at once; variant chess and channel "chan" unless given.
func (e *env) challengeAccepted(tb testing.TB, req gameplay.ChallengeRequest) *bot.Game {
	tb.Helper()
	if req.Variant == "" {
		req.Variant = "chess"
	}
	if req.ChannelID == "" {
		req.ChannelID = "chan"
	}
	if req.Color == 0 {
		req.Color = bot.ColorWhite
	}
	c, err := e.svc.Challenges().Challenge(ctx, req)
	if err != nil {
		tb.Fatal(err)
	}
	g, err := e.svc.Challenges().Accept(ctx, c.ID, c.Version, req.Challenged, bot.Where{GuildID: req.GuildID, ChannelID: req.ChannelID})
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// ids returns the IDs of games.
func ids(games []*bot.Game) []uint64 {
	out := []uint64{}
	for _, g := range games {
		out = append(out, g.ID)
	}
	return out
}

func TestActiveGamesOrder(t *testing.T) {
	e := newEnv(t)
	ab := func(days int) *bot.Game {
		return e.challengeAccepted(t, gameplay.ChallengeRequest{Challenger: "alice", Challenged: "bob", DaysPerMove: days})
	}
	g1 := ab(3)  // alice to act, deadline t0+3d
	g1b := ab(3) // alice to act, the same deadline: after g1 by ID
	e.clock.Advance(time.Hour)
	g2 := ab(0) // alice to act, no deadline
	e.clock.Advance(time.Hour)
	g3 := ab(3) // alice to act, t0+2h+3d
	g4 := ab(3)
	e.play(t, g4.ID, "alice e4") // bob to act, t0+2h+3d
	e.clock.Advance(time.Hour)
	g5 := ab(1) // alice to act, t0+3h+1d: the earliest
	g6 := ab(3)
	if _, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActResign, GameID: g6.ID, Version: bot.AnyVersion, UserID: "bob"}); err != nil { // over: not listed
		t.Fatal(err)
	}
	g7 := ab(0)
	e.play(t, g7.ID, "alice e4") // bob to act, no deadline
	g8 := ab(3)
	e.play(t, g8.ID, "alice d4") // bob to act, t0+3h+3d
	other := e.challengeAccepted(t, gameplay.ChallengeRequest{Challenger: "carol", Challenged: "dave", DaysPerMove: 1})

	alice, err := e.svc.Views().ActiveGames(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ids(alice), []uint64{g5.ID, g1.ID, g1b.ID, g3.ID, g2.ID, g4.ID, g8.ID, g7.ID}; !reflect.DeepEqual(got, want) {
		t.Errorf("alice's games %v, want %v", got, want)
	}
	bob, err := e.svc.Views().ActiveGames(ctx, "bob")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ids(bob), []uint64{g4.ID, g8.ID, g7.ID, g5.ID, g1.ID, g1b.ID, g3.ID, g2.ID}; !reflect.DeepEqual(got, want) {
		t.Errorf("bob's games %v, want %v", got, want)
	}
	if got, err := e.svc.Views().ActiveGames(ctx, "nobody"); err != nil || len(got) != 0 {
		t.Errorf("a user without games: %v, %v", ids(got), err)
	}
	if _, err := e.svc.Views().ActiveGames(ctx, ""); bot.ErrorCode(err) != bot.EINVALID {
		t.Errorf("no user: %v, want EINVALID", err)
	}

	chanGames, err := e.svc.Views().ChannelGames(ctx, "chan")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ids(chanGames), []uint64{g1.ID, g1b.ID, g2.ID, g3.ID, g4.ID, g5.ID, g7.ID, g8.ID, other.ID}; !reflect.DeepEqual(got, want) {
		t.Errorf("channel games %v, want %v (by ID, without the finished %d)", got, want, g6.ID)
	}
	if got, err := e.svc.Views().ChannelGames(ctx, "elsewhere"); err != nil || len(got) != 0 {
		t.Errorf("another channel: %v, %v", ids(got), err)
	}
}

func TestGameAndReplay(t *testing.T) {
	e := newEnv(t)
	g := e.start(t, "chess")
	e.play(t, g.ID, "alice e4", "bob c5", "alice Nf3")
	got, err := e.svc.Views().Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	rec, rg, err := e.svc.Views().Replay(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, rec) {
		t.Errorf("Replay's record %+v differs from Game's %+v", rec, got)
	}
	p := rg.Position()
	if p.FEN() != rec.FEN || len(rg.Moves()) != 3 {
		t.Errorf("replayed to %q after %d moves, want %q after 3", p.FEN(), len(rg.Moves()), rec.FEN)
	}
	if _, err := e.svc.Views().Game(ctx, 999); bot.ErrorCode(err) != bot.ENOTFOUND {
		t.Errorf("Game(999): %v, want ENOTFOUND", err)
	}
	if _, _, err := e.svc.Views().Replay(ctx, 999); bot.ErrorCode(err) != bot.ENOTFOUND {
		t.Errorf("Replay(999): %v, want ENOTFOUND", err)
	}
}

func TestLegalMoves(t *testing.T) {
	e := newEnv(t)
	g := e.start(t, "chess")
	moves, err := e.svc.Views().LegalMoves(ctx, g.ID, "alice")
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) != 20 {
		t.Fatalf("%d legal moves at the start, want 20: %v", len(moves), moves)
	}
	v := registry(t).Default("chess")
	start := v.Start()
	seen := map[string]bool{}
	for i, m := range moves {
		byCanon, err := rules.ParseMove(&start, m.Canonical)
		if err != nil {
			t.Fatalf("move %d %+v: canonical: %v", i, m, err)
		}
		byFriendly, err := notation.ParseMove(&start, m.Friendly)
		if err != nil || byFriendly != byCanon {
			t.Errorf("move %d %+v: the friendly form reads as %v (%v), the canonical as %v", i, m, byFriendly, err, byCanon)
		}
		seen[m.Friendly+" "+m.Canonical] = true
	}
	for _, want := range []string{"e4 e2e4", "Nf3 g1f3", "a3 a2a3", "Nc3 b1c3"} {
		if !seen[want] {
			t.Errorf("missing %q in %v", want, moves)
		}
	}
	for _, user := range []string{"bob", "carol", ""} {
		if got, err := e.svc.Views().LegalMoves(ctx, g.ID, user); err != nil || len(got) != 0 {
			t.Errorf("LegalMoves for %q, not to act: %v, %v; want none", user, got, err)
		}
	}
	if _, err := e.svc.Views().LegalMoves(ctx, 999, "alice"); bot.ErrorCode(err) != bot.ENOTFOUND {
		t.Errorf("unknown game: %v, want ENOTFOUND", err)
	}

	// Train Wreck: after the first part alice acts again, moving one of
	// bob's pieces.
	tw := e.start(t, "trainwreck")
	e.play(t, tw.ID, "alice e4")
	moves, err = e.svc.Views().LegalMoves(ctx, tw.ID, "alice")
	if err != nil || len(moves) == 0 {
		t.Fatalf("Train Wreck second part: %v, %v", moves, err)
	}
	if !slices.Contains(moves, gameplay.LegalMove{Friendly: "e5", Canonical: "e7e5"}) {
		t.Errorf("Train Wreck second part: no e5 (e7e5) among %v", moves)
	}
	if got, _ := e.svc.Views().LegalMoves(ctx, tw.ID, "bob"); len(got) != 0 {
		t.Errorf("bob has moves during alice's turn: %v", got)
	}

	// A finished game has none.
	if _, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActResign, GameID: g.ID, Version: bot.AnyVersion, UserID: "alice"}); err != nil {
		t.Fatal(err)
	}
	for _, user := range []string{"alice", "bob"} {
		if got, err := e.svc.Views().LegalMoves(ctx, g.ID, user); err != nil || len(got) != 0 {
			t.Errorf("finished game, %s: %v, %v", user, got, err)
		}
	}
}

func TestHistory(t *testing.T) {
	e := newEnv(t)
	g := e.start(t, "trainwreck")
	e.play(t, g.ID, "alice e4", "alice e5", "bob Nf6", "bob Nf3")
	h, err := e.svc.Views().History(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := []gameplay.HistoryEntry{
		{Ply: 1, Color: rules.White, UserID: "alice", SAN: "e4", Canonical: "e2e4"},
		{Ply: 2, Color: rules.White, UserID: "alice", SAN: "e5", Canonical: "e7e5"},
		{Ply: 3, Color: rules.Black, UserID: "bob", SAN: "Nf6", Canonical: "g8f6"},
		{Ply: 4, Color: rules.Black, UserID: "bob", SAN: "Nf3", Canonical: "g1f3"},
	}
	if !reflect.DeepEqual(h, want) {
		t.Errorf("history\n%+v\nwant\n%+v", h, want)
	}
	if _, err := e.svc.Views().History(ctx, 999); bot.ErrorCode(err) != bot.ENOTFOUND {
		t.Errorf("unknown game: %v, want ENOTFOUND", err)
	}
}

// TestTurns: moves are grouped into turns where a turn begins
// (rules.Position.BeginsTurn): Train Wreck's two half-moves; Winning
// Chess's Attacker steps with the pass the bot played for the opponent
// between them (W13, marked Forced) and the PGN numbering the same turns
// (a Black answer inside White's turn 1 is "1...", then "1." again).
func TestTurns(t *testing.T) {
	e := newEnv(t)
	tw := e.start(t, "trainwreck")
	e.play(t, tw.ID, "alice e4", "alice e5", "bob Nf6", "bob Nf3", "alice d4")
	turns, err := e.svc.Views().Turns(ctx, tw.ID)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tn := range turns {
		s := fmt.Sprintf("%d %s %s:", tn.Number, tn.Color, tn.UserID)
		for _, m := range tn.Moves {
			s += " " + m.SAN
		}
		got = append(got, s)
	}
	if want := []string{"1 white alice: e4 e5", "1 black bob: Nf6 Nf3", "2 white alice: d4"}; !reflect.DeepEqual(got, want) {
		t.Errorf("train wreck turns %q, want %q", got, want)
	}
	// From the turn holding the fourth move (bob's Nf3) on.
	rec, rg, err := e.svc.Views().Replay(ctx, tw.ID)
	if err != nil {
		t.Fatal(err)
	}
	if since := gameplay.TurnsSince(rec, rg, 3); len(since) != 2 || !reflect.DeepEqual(since, turns[1:]) {
		t.Errorf("TurnsSince(3) = %+v, want the last two turns", since)
	}
	if since := gameplay.TurnsSince(rec, rg, 5); since != nil {
		t.Errorf("TurnsSince past the end = %+v", since)
	}

	// Black has no Defender: the window after Af3> is a forced pass.
	wc := e.startFrom(t, "winning", "r5k4r/12/12/12/12/12/12/R4KA4R w - - 0 1")
	e.play(t, wc.ID, "alice Af3>", "alice Ag4", "bob Kg7")
	turns, err = e.svc.Views().Turns(ctx, wc.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(turns) != 2 || len(turns[0].Moves) != 3 || len(turns[1].Moves) != 1 {
		t.Fatalf("winning turns %+v, want 3 moves then 1", turns)
	}
	pass := turns[0].Moves[1]
	if pass.SAN != "pass" || !pass.Forced || pass.UserID != "bob" || pass.Color != rules.Black || turns[0].UserID != "alice" {
		t.Errorf("the window's pass %+v in alice's turn %+v, want bob's forced pass", pass, turns[0])
	}
	if turns[0].Moves[0].Forced || turns[1].Number != 1 || turns[1].Color != rules.Black {
		t.Errorf("turns %+v", turns)
	}
	if pgn := e.pgnOf(t, wc.ID); !strings.Contains(pgn, "1. Af3> pass Ag4 {g1f3> pass f3g4} 1... Kg7 {g8g7}") {
		t.Errorf("PGN numbers the turns otherwise:\n%s", pgn)
	}
}

func TestPendingChallenges(t *testing.T) {
	e := newEnv(t)
	chal := func(from, to string) *bot.Challenge {
		c, err := e.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: from, Challenged: to, ChannelID: "chan",
			Variant: "chess", DaysPerMove: 3})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	old := chal("alice", "bob") // expires first
	e.clock.Advance(time.Hour)
	c1 := chal("carol", "bob")
	declined := chal("dave", "bob")
	if _, err := e.svc.Challenges().Decline(ctx, declined.ID, bot.AnyVersion, "bob"); err != nil {
		t.Fatal(err)
	}
	chal("bob", "alice") // made by bob: not his to answer
	chal("alice", "")    // open: addressed to nobody
	c2 := chal("erin", "bob")
	ids := func(cs []*bot.Challenge) []uint64 {
		out := []uint64{}
		for _, c := range cs {
			out = append(out, c.ID)
		}
		return out
	}
	got, err := e.svc.Challenges().PendingChallenges(ctx, "bob")
	if err != nil {
		t.Fatal(err)
	}
	if want := []uint64{c2.ID, c1.ID, old.ID}; !reflect.DeepEqual(ids(got), want) {
		t.Errorf("bob's challenges %v, want %v (newest first)", ids(got), want)
	}
	// Once the first has expired (even before a sweep) it is not offered.
	e.clock.Advance(gameplay.ChallengeTTL - time.Hour)
	got, err = e.svc.Challenges().PendingChallenges(ctx, "bob")
	if err != nil {
		t.Fatal(err)
	}
	if want := []uint64{c2.ID, c1.ID}; !reflect.DeepEqual(ids(got), want) {
		t.Errorf("bob's challenges after %v: %v, want %v", gameplay.ChallengeTTL, ids(got), want)
	}
	if _, err := e.svc.Challenges().PendingChallenges(ctx, ""); bot.ErrorCode(err) != bot.EINVALID {
		t.Errorf("no user: %v, want EINVALID", err)
	}
}

// BenchmarkLegalMoves measures what autocompletion of /move costs: the
// game read, replayed and every legal move written in both forms, after
// 60 plies (each variant's own mix of moves).
func BenchmarkLegalMoves(b *testing.B) {
	for _, variant := range []string{"chess", "tank", "coldfusion", "winning"} {
		b.Run(variant, func(b *testing.B) {
			e := newEnv(b)
			g := e.start(b, variant)
			e.playOn(b, g.ID, 60)
			g = e.game(b, g.ID)
			if g.Status != bot.GameActive {
				b.Skipf("%s ended after %d plies", variant, len(g.Moves))
			}
			b.ResetTimer()
			for b.Loop() {
				if moves, err := e.svc.Views().LegalMoves(ctx, g.ID, g.ToAct); err != nil || len(moves) == 0 {
					b.Fatal(moves, err)
				}
			}
		})
	}
}
