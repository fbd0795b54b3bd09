package bot_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/internal/testkit"
	"github.com/fairypost/fairypost/rules"
)

// computerEnv is an env whose Service has a computer player, "bot".
func computerEnv(tb testing.TB) (*env, *bot.ComputerRunner) {
	tb.Helper()
	e := newEnv(tb)
	e.svc.SetComputer("bot")
	return e, bot.NewComputerRunner(e.svc, 1, nil)
}

// challengeComputer has alice challenge the computer to variant at level
// with colour and returns the game it accepted at once.
func (e *env) challengeComputer(tb testing.TB, variant string, level int, colour bot.ColorChoice) *bot.Game {
	tb.Helper()
	c, err := e.svc.Challenge(ctx, bot.ChallengeRequest{Challenger: "alice", Challenged: "bot", ChannelID: "chan",
		Variant: variant, DaysPerMove: 3, Color: colour, Level: level, Rated: true})
	if err != nil {
		tb.Fatal(err)
	}
	if c.Status != bot.ChallengeAccepted {
		tb.Fatalf("challenge to the computer is %s, want accepted at once", c.Status)
	}
	g, err := e.svc.Game(ctx, c.ID)
	if err != nil {
		tb.Fatal(err)
	}
	if g.Level != level || g.Rated {
		tb.Fatalf("game level %d rated %v, want level %d casual", g.Level, g.Rated, level)
	}
	return g
}

// TestComputerPlaysItsTurn: a challenge to the computer is accepted at
// once, as a casual game at the level asked; when it is its turn one step
// plays exactly one move, through the service, and nothing is sent to it.
func TestComputerPlaysItsTurn(t *testing.T) {
	e, r := computerEnv(t)
	g := e.challengeComputer(t, "chess", 2, bot.ColorWhite)
	if acted, err := r.Step(ctx, g.ID); err != nil || acted {
		t.Fatalf("step before alice moved: acted %v, %v", acted, err)
	}
	e.play(t, g.ID, "alice e4")
	acted, err := r.Step(ctx, g.ID)
	if err != nil || !acted {
		t.Fatalf("step on the computer's turn: acted %v, %v", acted, err)
	}
	after, err := e.svc.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(after.Moves) != 2 || after.ToAct != "alice" {
		t.Fatalf("after the computer's step: moves %v, to act %q", after.Moves, after.ToAct)
	}
	out := e.outbox(t)
	for _, n := range out {
		if strings.HasSuffix(n, " bot") {
			t.Errorf("a notification for the computer: %q", n)
		}
	}
	if !slices.Contains(out, "your-turn alice") {
		t.Errorf("alice was not told of the computer's move: %q", out)
	}
	if acted, err := r.Step(ctx, g.ID); err != nil || acted {
		t.Errorf("a second step on alice's turn: acted %v, %v", acted, err)
	}
}

// TestComputerDeterministic: the same moves against the computer at the
// same level get the same answers (its seed comes from the game and the
// ply), whatever else the machine does.
func TestComputerDeterministic(t *testing.T) {
	var lines [2][]string
	for i := range lines {
		e, r := computerEnv(t)
		g := e.challengeComputer(t, "tank", 3, bot.ColorBlack) // the computer moves first
		for range 3 {
			if err := r.PlayPending(ctx, 10); err != nil {
				t.Fatal(err)
			}
			cur, err := e.svc.Game(ctx, g.ID)
			if err != nil {
				t.Fatal(err)
			}
			rg, err := e.svc.ReplayRecord(cur)
			if err != nil {
				t.Fatal(err)
			}
			legal := rg.Legal()
			p := rg.Position()
			e.play(t, g.ID, "alice "+rules.FormatMove(&p, legal[0]))
		}
		cur, _ := e.svc.Game(ctx, g.ID)
		lines[i] = cur.Moves
	}
	if strings.Join(lines[0], " ") != strings.Join(lines[1], " ") {
		t.Errorf("two runs differ:\n%v\n%v", lines[0], lines[1])
	}
}

// TestComputerResumesAfterRestart: a Service and runner made anew over
// the same database (a restart) play the computer's pending turn.
func TestComputerResumesAfterRestart(t *testing.T) {
	db := testkit.OpenDB(t)
	clk := testkit.NewClock(t0)
	first := testkit.Service(t, db, clk)
	first.SetComputer("bot")
	e := &env{db: db, clock: clk, svc: first}
	g := e.challengeComputer(t, "chess", 1, bot.ColorBlack) // the computer is White and moves first
	second := testkit.Service(t, db, clk)
	second.SetComputer("bot")
	r := bot.NewComputerRunner(second, 2, nil)
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	for {
		cur, err := second.Game(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(cur.Moves) == 1 && cur.ToAct == "alice" {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatal("the computer never played after the restart")
		case <-time.After(10 * time.Millisecond):
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestComputerAnswersOffers: it accepts a takeback its opponent asks.
func TestComputerAnswersOffers(t *testing.T) {
	e, r := computerEnv(t)
	g := e.challengeComputer(t, "chess", 2, bot.ColorWhite)
	e.play(t, g.ID, "alice e4")
	if _, err := r.Step(ctx, g.ID); err != nil {
		t.Fatal(err)
	}
	cur, _ := e.svc.Game(ctx, g.ID)
	if _, err := e.svc.RequestTakeback(ctx, g.ID, cur.Version, "alice"); err != nil {
		t.Fatal(err)
	}
	if acted, err := r.Step(ctx, g.ID); err != nil || !acted {
		t.Fatalf("takeback: acted %v, %v", acted, err)
	}
	cur, _ = e.svc.Game(ctx, g.ID)
	if len(cur.Moves) != 0 || cur.Takeback != "" {
		t.Fatalf("after the takeback: moves %v, takeback %q", cur.Moves, cur.Takeback)
	}

}

// TestComputerChallengeRefusals: levels outside 1..MaxComputerLevel are
// refused; the computer never challenges.
func TestComputerChallengeRefusals(t *testing.T) {
	e, _ := computerEnv(t)
	_, err := e.svc.Challenge(ctx, bot.ChallengeRequest{Challenger: "alice", Challenged: "bot", ChannelID: "chan",
		Variant: "chess", DaysPerMove: 3, Level: bot.MaxComputerLevel + 1})
	if bot.ErrorCode(err) != bot.EINVALID || !strings.Contains(bot.ErrorMessage(err), "levels 1 (weakest) to") {
		t.Errorf("level too high: %v", err)
	}
	_, err = e.svc.Challenge(ctx, bot.ChallengeRequest{Challenger: "bot", Challenged: "alice", ChannelID: "chan",
		Variant: "chess", DaysPerMove: 3})
	if bot.ErrorCode(err) != bot.EINVALID {
		t.Errorf("the computer challenging: %v", err)
	}
}
