package gameplay_test

import (
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/internal/testkit"
	"github.com/fairypost/fairypost/rules"
)

// addForecast stores line for user in game id, failing on error.
func (e *env) addForecast(tb testing.TB, id uint64, user, line string) *gameplay.ForecastLine {
	tb.Helper()
	l, err := e.svc.Forecasting().AddForecast(ctx, id, user, line)
	if err != nil {
		tb.Fatalf("add %q for %s: %v", line, user, err)
	}
	return l
}

// forecastTexts returns user's lines in game id as their owner reads them.
func (e *env) forecastTexts(tb testing.TB, id uint64, user string) []string {
	tb.Helper()
	_, lines, err := e.svc.Forecasting().Forecasts(ctx, id, user)
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	for _, l := range lines {
		out = append(out, l.String())
	}
	return out
}

// TestForecastChess: bob answers the Ruy Lopez in advance; each answer
// is played inside alice's move, both players are told, and bob is
// never sent "your turn" for a turn the bot played for him.
func TestForecastChess(t *testing.T) {
	e := newEnv(t)
	g := e.start(t, "chess")
	e.play(t, g.ID, "alice e4", "bob e5", "alice Nf3", "bob Nc6")
	before := must(t)(e.svc.Views().Game(ctx, g.ID))
	l := e.addForecast(t, g.ID, "bob", "3. Bb5 a6 4. Ba4 Nf6")
	if l.Number != 1 || l.String() != "if Bb5, then a6; if Ba4, then Nf6" {
		t.Fatalf("stored line %d %q", l.Number, l)
	}
	after := must(t)(e.svc.Views().Game(ctx, g.ID))
	if after.Version != before.Version {
		t.Errorf("storing a line moved the version from %d to %d: the opponent's buttons would go stale", before.Version, after.Version)
	}
	if got := e.forecastTexts(t, g.ID, "alice"); got != nil {
		t.Errorf("alice sees bob's lines: %q", got)
	}
	n := len(e.outbox(t))
	e.clock.Advance(time.Hour)
	res := e.play(t, g.ID, "alice Bb5")
	if want := []gameplay.ForecastAnswer{{UserID: "bob", SAN: "a6"}}; !reflect.DeepEqual(res.Answers, want) || res.AnswerPlies != 1 {
		t.Fatalf("answers %+v (%d plies), want %+v", res.Answers, res.AnswerPlies, want)
	}
	g = res.Game
	if g.Moves[len(g.Moves)-1] != "a7a6" || g.ToAct != "alice" || !res.SameTurn {
		t.Fatalf("after Bb5: moves %q, to act %q", g.Moves, g.ToAct)
	}
	wantClock(t, g, t0.Add(time.Hour))
	ns := e.notifications(t, n)
	if got, want := notificationKinds(ns), []string{"forecast alice", "forecast bob", "your-turn alice"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("notifications %q, want %q", got, want)
	}
	if want := "Game 1: <@bob> (Black) played a6 at once, from a conditional line stored in advance to answer Bb5."; ns[0].Text != want {
		t.Errorf("text %q, want %q", ns[0].Text, want)
	}
	if got, want := e.forecastTexts(t, g.ID, "bob"), []string{"if Ba4, then Nf6"}; !reflect.DeepEqual(got, want) {
		t.Errorf("lines left %q, want %q", got, want)
	}
	res = e.play(t, g.ID, "alice Ba4")
	if len(res.Answers) != 1 || res.Answers[0].SAN != "Nf6" || res.Game.Forecasts != nil {
		t.Fatalf("second answer %+v, lines %+v", res.Answers, res.Game.Forecasts)
	}
	// The game's replay is what was played.
	if _, rg, err := e.svc.Views().Replay(ctx, g.ID); err != nil || len(rg.Moves()) != 8 {
		t.Fatalf("replay: %v", err)
	}
}

// TestForecastMismatchAndBranches: lines branch on the opponent's moves;
// a move that leaves a line drops it, and the other branch is played.
func TestForecastMismatchAndBranches(t *testing.T) {
	e := newEnv(t)
	g := e.start(t, "chess")
	e.play(t, g.ID, "alice e4")
	e.play(t, g.ID, "bob e5")
	e.addForecast(t, g.ID, "bob", "Nf3 Nc6 Bb5 a6")
	e.addForecast(t, g.ID, "bob", "Nf3 Nc6 Bc4 Bc5")
	e.addForecast(t, g.ID, "bob", "d4 exd4")
	if got := e.forecastTexts(t, g.ID, "bob"); len(got) != 3 {
		t.Fatalf("lines %q", got)
	}
	res := e.play(t, g.ID, "alice Nf3")
	if len(res.Answers) != 1 || res.Answers[0].SAN != "Nc6" {
		t.Fatalf("answers %+v", res.Answers)
	}
	if got, want := e.forecastTexts(t, g.ID, "bob"), []string{"if Bb5, then a6", "if Bc4, then Bc5"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("lines after Nf3 %q, want %q", got, want)
	}
	n := len(e.outbox(t))
	res = e.play(t, g.ID, "alice d4")
	if res.Answers != nil || res.Game.Forecasts != nil || res.Game.ToAct != "bob" {
		t.Fatalf("a move off every line: answers %+v, lines %+v, to act %q", res.Answers, res.Game.Forecasts, res.Game.ToAct)
	}
	if got, want := notificationKinds(e.notifications(t, n)), []string{"your-turn bob"}; !reflect.DeepEqual(got, want) {
		t.Errorf("notifications %q, want %q", got, want)
	}
}

// TestForecastRefused: lines are checked when stored, and a refused one
// changes nothing.
func TestForecastRefused(t *testing.T) {
	e := newEnv(t)
	g := e.start(t, "chess")
	e.play(t, g.ID, "alice e4")
	e.addForecast(t, g.ID, "alice", "e5 Nf3 Nc6 Bb5")
	for _, c := range []struct{ user, line, want string }{
		{"bob", "e5 Nf3", "It is your turn in game 1"},
		{"carol", "e5 Nf3", "You are not playing in game 1"},
		{"alice", "", "Give the line as moves"},
		{"alice", "e5", "no move of yours"},
		{"alice", "e5 Nf3 Nc6", "ends with your opponent's Nc6"},
		{"alice", "e6 Ke3", "Move 2 of the line, Ke3, for you"},
		{"alice", "Nf3", "Move 1 of the line, Nf3, for your opponent"},
		{"alice", "e5 Nc3", "your line 1 answers Nf3 where this one answers Nc3"},
		{"alice", "e5 Nf3", "Your line 1 holds this line already"},
	} {
		before := e.snapshot(t)
		_, err := e.svc.Forecasting().AddForecast(ctx, g.ID, c.user, c.line)
		if err == nil || !strings.Contains(bot.ErrorMessage(err), c.want) {
			t.Errorf("%s %q: %v, want %q", c.user, c.line, err, c.want)
		}
		e.wantUnchanged(t, before)
	}
	// A line that continues a stored one replaces it.
	e.addForecast(t, g.ID, "alice", "e5 Nf3 Nc6 Bb5 a6 Ba4")
	if got, want := e.forecastTexts(t, g.ID, "alice"), []string{"if e5, then Nf3; if Nc6, then Bb5; if a6, then Ba4"}; !reflect.DeepEqual(got, want) {
		t.Errorf("lines %q, want %q", got, want)
	}
	// A line that would go on past the end of the game.
	e2 := newEnv(t)
	g2 := e2.start(t, "chess")
	e2.play(t, g2.ID, "alice f3", "bob e5")
	_, err := e2.svc.Forecasting().AddForecast(ctx, g2.ID, "bob", "g4 Qh4 a3")
	if err == nil || !strings.Contains(bot.ErrorMessage(err), "after the game would be over") {
		t.Errorf("a line past mate: %v", err)
	}
	if n, err := e.svc.Forecasting().ClearForecasts(ctx, g.ID, "alice"); err != nil || n != 1 {
		t.Errorf("clear: %d, %v", n, err)
	}
	if got := e.forecastTexts(t, g.ID, "alice"); got != nil {
		t.Errorf("lines after clear %q", got)
	}
}

// TestForecastGameOverAndIllegal: a game that ends drops every line, and
// a line whose move is no longer legal when reached is dropped with a
// word to its owner instead of being played.
func TestForecastGameOverAndIllegal(t *testing.T) {
	e := newEnv(t)
	g := e.start(t, "chess")
	e.play(t, g.ID, "alice e4")
	e.addForecast(t, g.ID, "alice", "e5 Nf3")
	g = must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActResign, GameID: g.ID, Version: bot.AnyVersion, UserID: "bob"}))
	if g.Forecasts != nil {
		t.Errorf("lines kept after the game ended: %+v", g.Forecasts)
	}
	if _, err := e.svc.Forecasting().AddForecast(ctx, g.ID, "alice", "e5 Nf3"); bot.ErrorCode(err) != bot.EINVALID {
		t.Errorf("a line in a finished game: %v", err)
	}

	// A line in the record whose answer is illegal (a record written by
	// hand: stored lines are checked when stored).
	e = newEnv(t)
	g = e.start(t, "chess")
	e.play(t, g.ID, "alice e4")
	if _, err := e.db.AnnotateGame(ctx, g.ID, func(_ bot.Game, a *bot.Annotations) ([]bot.Notification, error) {
		a.Forecasts = []bot.Forecast{{Owner: "alice", Base: 1, Moves: []string{"e7e5", "e1e3"}}}
		return nil, nil
	}); err != nil {
		t.Fatal(err)
	}
	n := len(e.outbox(t))
	res := e.play(t, g.ID, "bob e5")
	if res.Answers != nil || res.Game.Forecasts != nil || res.Game.ToAct != "alice" {
		t.Fatalf("an illegal answer: answers %+v, lines %+v, to act %q", res.Answers, res.Game.Forecasts, res.Game.ToAct)
	}
	ns := e.notifications(t, n)
	if got, want := notificationKinds(ns), []string{"your-turn alice", "forecast alice"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("notifications %q, want %q", got, want)
	}
	if !strings.Contains(ns[1].Text, "e1e3, is not legal now") {
		t.Errorf("dropped-line text %q", ns[1].Text)
	}
}

// TestForecastForcedPass: in Winning Chess a line written over the
// opponent's Attacker step gets the forced pass of the response window
// (which the bot plays) added, and is then matched through it.
func TestForecastForcedPass(t *testing.T) {
	e := newEnv(t)
	g := e.startFrom(t, "winning", "6k5/p11/12/12/12/12/12/4A1K5 b - - 0 1")
	e.play(t, g.ID, "bob g8h8")
	e.addForecast(t, g.ID, "bob", "Af3> Ac6 a6")
	_, lines, err := e.svc.Forecasting().Forecasts(ctx, g.ID, "bob")
	if err != nil || len(lines) != 1 {
		t.Fatalf("lines %+v, %v", lines, err)
	}
	if got, want := lines[0].String(), "if Af3>, then (pass); if Ac6, then a6"; got != want {
		t.Errorf("line %q, want %q", got, want)
	}
	res := e.play(t, g.ID, "alice e1f3>")
	if res.Answers != nil || !reflect.DeepEqual(res.AutoMoves, []string{"pass"}) {
		t.Fatalf("first step: answers %+v, auto %q", res.Answers, res.AutoMoves)
	}
	res = e.play(t, g.ID, "alice f3c6")
	if want := []string{"g8h8", "e1f3>", "pass", "f3c6", "a7a6"}; !reflect.DeepEqual(res.Game.Moves, want) {
		t.Fatalf("moves %q, want %q", res.Game.Moves, want)
	}
	// Writing the forced pass is the same line.
	e = newEnv(t)
	g = e.startFrom(t, "winning", "6k5/p11/12/12/12/12/12/4A1K5 b - - 0 1")
	e.play(t, g.ID, "bob g8h8")
	e.addForecast(t, g.ID, "bob", "Af3> pass Ac6 a6")
	if got := e.forecastTexts(t, g.ID, "bob"); len(got) != 1 || got[0] != "if Af3>, then (pass); if Ac6, then a6" {
		t.Errorf("line with the pass written %q", got)
	}
}

// turnLine plays on a fork of rg, from a position where opp is to act,
// the opponent's whole next turn and then owner's answer up to the start
// of opp's following turn, choosing the first legal move that is not a
// pass where there is one. It returns the moves in canonical form, who
// made each, and whether each was forced.
func turnLine(g *bot.Game, rg *rules.Game, owner string) (moves, actors []string, forced []bool) {
	fg := rg.Fork()
	ownerMoved := false
	for len(moves) < 12 && !fg.Outcome().Over() {
		p := fg.Position()
		who := g.Black
		if p.ToAct() == rules.White {
			who = g.White
		}
		if ownerMoved && who != owner && p.BeginsTurn() {
			break
		}
		legal := fg.Legal()
		m := legal[0]
		for _, l := range legal {
			if rules.FormatMove(&p, l) != "pass" {
				m = l
				break
			}
		}
		isForced := len(legal) == 1 && rules.FormatMove(&p, m) == "pass"
		moves = append(moves, rules.FormatMove(&p, m))
		actors = append(actors, who)
		forced = append(forced, isForced)
		if who == owner && !isForced {
			ownerMoved = true
		}
		if fg.Play(m) != nil {
			break
		}
	}
	return moves, actors, forced
}

// TestForecastEveryVariant: in every variant, bob stores the answer to
// alice's whole next turn (however many moves it has, forced passes and
// Defender answers included); alice's turn played move by move sets off
// the answer at its end. Then the same line is left by alice's last move
// of her turn, and dropped.
func TestForecastEveryVariant(t *testing.T) {
	for _, key := range registry(t).Keys() {
		t.Run(key, func(t *testing.T) {
			e := newEnv(t)
			v := registry(t).Default(key)
			start := v.Start()
			g := e.startFrom(t, key, start.FEN())
			if g.ToAct != "alice" {
				t.Skip("the start position has Black to act")
			}
			rg := must2(t)(e.svc.Views().Replay(ctx, g.ID))
			moves, actors, forced := turnLine(g, rg, "bob")
			last := -1
			for i := range moves {
				if actors[i] == "bob" && !forced[i] {
					last = i
				}
			}
			if last < 0 {
				t.Fatalf("no answer for bob in %q", moves)
			}
			line := strings.Join(moves[:last+1], " ")
			t.Logf("line %q", line)
			e.addForecast(t, g.ID, "bob", line)
			var res *gameplay.MoveResult
			for i := range moves {
				if actors[i] != "alice" || forced[i] {
					continue
				}
				if res != nil && len(res.Game.Moves) > i {
					continue // played already, as part of an answer
				}
				res = e.play(t, g.ID, "alice "+moves[i])
			}
			if res == nil || len(res.Answers) == 0 || res.Answers[0].UserID != "bob" {
				t.Fatalf("line %q: no answer played: %+v", line, res)
			}
			if got := res.Game.Moves; len(got) < last+1 || !reflect.DeepEqual(got[:last+1], moves[:last+1]) {
				t.Fatalf("moves %q, want the line %q", got, moves[:last+1])
			}

			// The same line, left by alice's last move of her turn.
			e = newEnv(t)
			g = e.startFrom(t, key, start.FEN())
			e.addForecast(t, g.ID, "bob", line)
			k := -1 // alice's last own move before bob's first answer
			for i := range moves {
				if actors[i] == "bob" && !forced[i] {
					break
				}
				if actors[i] == "alice" && !forced[i] {
					k = i
				}
			}
			for i := 0; i < k; i++ {
				if actors[i] == "alice" && !forced[i] {
					e.play(t, g.ID, "alice "+moves[i])
				}
			}
			rg = must2(t)(e.svc.Views().Replay(ctx, g.ID))
			p := rg.Position()
			var other string
			for _, m := range rg.Legal() {
				if f := rules.FormatMove(&p, m); f != moves[k] {
					other = f
					break
				}
			}
			if other == "" {
				t.Skip("alice's move is her only one")
			}
			res = e.play(t, g.ID, "alice "+other)
			if res.Answers != nil || res.Game.Forecasts != nil {
				t.Fatalf("a line left by %s (not %s): answers %+v, lines %+v", other, moves[k], res.Answers, res.Game.Forecasts)
			}

			// Illegal at play time: the record's answer (written by
			// hand) is not a move of the position reached.
			e = newEnv(t)
			g = e.startFrom(t, key, start.FEN())
			j := k + 1 // bob's first answer
			for actors[j] != "bob" || forced[j] {
				j++
			}
			bad := append(append([]string(nil), moves[:j]...), "a1a1")
			if _, err := e.db.AnnotateGame(ctx, g.ID, func(_ bot.Game, a *bot.Annotations) ([]bot.Notification, error) {
				a.Forecasts = []bot.Forecast{{Owner: "bob", Base: 0, Moves: bad}}
				return nil, nil
			}); err != nil {
				t.Fatal(err)
			}
			for i := 0; i <= k; i++ {
				if actors[i] == "alice" && !forced[i] {
					res = e.play(t, g.ID, "alice "+moves[i])
				}
			}
			if res.Answers != nil || res.Game.Forecasts != nil || res.Game.ToAct != "bob" {
				t.Fatalf("an illegal answer: answers %+v, lines %+v, to act %s", res.Answers, res.Game.Forecasts, res.Game.ToAct)
			}
			if ns := e.notifications(t, 0); !strings.Contains(ns[len(ns)-1].Text, "a1a1, is not legal now") {
				t.Errorf("bob is not told why his line was dropped: %q", ns[len(ns)-1].Text)
			}

			// The game ends before the line is reached.
			e = newEnv(t)
			g = e.startFrom(t, key, start.FEN())
			e.addForecast(t, g.ID, "bob", line)
			if g = must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActResign, GameID: g.ID, Version: bot.AnyVersion, UserID: "alice"})); g.Forecasts != nil {
				t.Fatalf("lines outlived the game: %+v", g.Forecasts)
			}
		})
	}
}

// must2 is must for functions that return a game and its replay.
func must2(tb testing.TB) func(g *bot.Game, rg *rules.Game, err error) *rules.Game {
	return func(g *bot.Game, rg *rules.Game, err error) *rules.Game {
		tb.Helper()
		if err != nil {
			tb.Fatal(err)
		}
		return rg
	}
}

// TestForecastPlayedOnceUnderRace: alice's move, which sets off bob's
// answer, races bob typing the same answer; the answer is played exactly
// once, whichever comes first.
func TestForecastPlayedOnceUnderRace(t *testing.T) {
	for round := 0; round < 20; round++ {
		e := newEnv(t)
		g := e.start(t, "chess")
		e.play(t, g.ID, "alice e4")
		e.play(t, g.ID, "bob e5")
		e.addForecast(t, g.ID, "bob", "Nf3 Nc6")
		var wg sync.WaitGroup
		wg.Add(3)
		go func() {
			defer wg.Done()
			if _, err := e.svc.Move(ctx, gameplay.MoveRequest{GameID: g.ID, UserID: "alice", Move: "Nf3"}); err != nil {
				t.Errorf("alice: %v", err)
			}
		}()
		for range 2 {
			go func() {
				defer wg.Done()
				_, err := e.svc.Move(ctx, gameplay.MoveRequest{GameID: g.ID, UserID: "bob", Move: "Nc6"})
				if err != nil && bot.ErrorCode(err) != bot.EFORBIDDEN {
					t.Errorf("bob: %v", err)
				}
			}()
		}
		wg.Wait()
		g = must(t)(e.svc.Views().Game(ctx, g.ID))
		if want := []string{"e2e4", "e7e5", "g1f3", "b8c6"}; !reflect.DeepEqual(g.Moves, want) || g.ToAct != "alice" {
			t.Fatalf("round %d: moves %q, to act %q", round, g.Moves, g.ToAct)
		}
	}
}

// TestForecastSurvivesRestart: lines are in the database, so a new
// Service over the reopened file plays them.
func TestForecastSurvivesRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fp.db")
	db := testkit.OpenDBAt(t, path)
	c := testkit.NewClock(t0)
	e := &env{db: db, clock: c, svc: gameplay.NewService(gameplay.Stores{Games: db, Challenges: db, Users: db, Outbox: db}, registry(t), gameplay.Clock(c.Now), gameplay.Coin(func() bool { return true }))}
	g := e.start(t, "trainwreck")
	rg := must2(t)(e.svc.Views().Replay(ctx, g.ID))
	moves, actors, forced := turnLine(g, rg, "bob")
	e.addForecast(t, g.ID, "bob", strings.Join(moves, " "))
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = testkit.OpenDBAt(t, path)
	e = &env{db: db, clock: c, svc: gameplay.NewService(gameplay.Stores{Games: db, Challenges: db, Users: db, Outbox: db}, registry(t), gameplay.Clock(c.Now))}
	var res *gameplay.MoveResult
	for i := range moves {
		if actors[i] == "alice" && !forced[i] {
			res = e.play(t, g.ID, "alice "+moves[i])
		}
	}
	if !reflect.DeepEqual(res.Game.Moves, moves) {
		t.Fatalf("moves %q, want the line %q", res.Game.Moves, moves)
	}
}

// TestForecastDroppedByTakeback: lines were read from a position a
// takeback removes, so they go with it.
func TestForecastDroppedByTakeback(t *testing.T) {
	e := newEnv(t)
	g := e.start(t, "chess")
	e.play(t, g.ID, "alice e4", "bob e5", "alice Nf3")
	e.addForecast(t, g.ID, "alice", "Nc6 Bb5")
	must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAskTakeback, GameID: g.ID, Version: bot.AnyVersion, UserID: "alice"}))
	g = must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAcceptTakeback, GameID: g.ID, Version: bot.AnyVersion, UserID: "bob"}))
	if g.Forecasts != nil {
		t.Fatalf("lines kept after the takeback: %+v", g.Forecasts)
	}
	res := e.play(t, g.ID, "alice Nf3", "bob Nc6")
	if res.Answers != nil {
		t.Errorf("a line of before the takeback was played: %+v", res.Answers)
	}
}
