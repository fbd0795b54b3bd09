package computer_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/computer"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/internal/testkit"
	"github.com/fairypost/fairypost/rules"
	"github.com/fairypost/fairypost/storage"
)

var ctx = context.Background()

// endOfTime is later than any notification's NotBefore: reading the
// outbox as of then lists every pending notification.
var endOfTime = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)

// t0 is the time tests start at.
var t0 = testkit.T0

// env is the game Service over a real database (checked when the test
// ends) on a settable clock.
type env struct {
	db    *storage.DB
	svc   *gameplay.Service
	clock *testkit.Clock
}

func newEnv(tb testing.TB) *env {
	tb.Helper()
	db := testkit.OpenDB(tb)
	c := testkit.NewClock(t0)
	return &env{db: db, clock: c, svc: testkit.Service(tb, db, c)}
}

// play plays moves ("user move") in game id, failing tb on a refusal.
func (e *env) play(tb testing.TB, id uint64, moves ...string) {
	tb.Helper()
	testkit.Play(tb, e.svc, id, moves...)
}

// game returns game id as stored.
func (e *env) game(tb testing.TB, id uint64) *bot.Game {
	tb.Helper()
	g, err := e.svc.Views().Game(ctx, id)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// notifications returns the pending notifications after the first skip.
func (e *env) notifications(tb testing.TB, skip int) []bot.Notification {
	tb.Helper()
	ns, err := e.db.PendingNotifications(ctx, endOfTime, 0)
	if err != nil {
		tb.Fatal(err)
	}
	if skip > len(ns) {
		tb.Fatalf("%d notifications, want more than %d", len(ns), skip)
	}
	return ns[skip:]
}

// outbox returns "kind user" for every pending notification.
func (e *env) outbox(tb testing.TB) []string {
	tb.Helper()
	var out []string
	for _, n := range e.notifications(tb, 0) {
		out = append(out, n.Kind.String()+" "+n.UserID)
	}
	return out
}

// startFrom stores a chess-like game of variant from fen between alice
// (White) and bob, 3 days per move, with the clock of the side to act
// started, as if a challenge had been accepted from that position.
func (e *env) startFrom(tb testing.TB, variant, fen string) *bot.Game {
	tb.Helper()
	return testkit.StartFrom(tb, e.db, e.clock.Now(), variant, fen)
}

// computerEnv is an env whose Service has a computer player, "bot".
func computerEnv(tb testing.TB) (*env, *computer.Runner) {
	tb.Helper()
	e := newEnv(tb)
	e.svc.SetComputer("bot")
	return e, computer.NewRunner(e.svc, 1, nil)
}

// challengeComputer has alice challenge the computer to variant at level
// with colour and returns the game it accepted at once.
func (e *env) challengeComputer(tb testing.TB, variant string, level int, colour bot.ColorChoice) *bot.Game {
	tb.Helper()
	c, err := e.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "alice", Challenged: "bot", ChannelID: "chan",
		Variant: variant, DaysPerMove: 3, Color: colour, Level: level, Rated: true})
	if err != nil {
		tb.Fatal(err)
	}
	if c.Status != bot.ChallengeAccepted {
		tb.Fatalf("challenge to the computer is %s, want accepted at once", c.Status)
	}
	g, err := e.svc.Views().Game(ctx, c.ID)
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
	after, err := e.svc.Views().Game(ctx, g.ID)
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
			cur, err := e.svc.Views().Game(ctx, g.ID)
			if err != nil {
				t.Fatal(err)
			}
			rg, err := e.svc.Views().ReplayRecord(cur)
			if err != nil {
				t.Fatal(err)
			}
			legal := rg.Legal()
			p := rg.Position()
			e.play(t, g.ID, "alice "+rules.FormatMove(&p, legal[0]))
		}
		cur, _ := e.svc.Views().Game(ctx, g.ID)
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
	r := computer.NewRunner(second, 2, nil)
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	for {
		cur, err := second.Views().Game(ctx, g.ID)
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
	cur, _ := e.svc.Views().Game(ctx, g.ID)
	if _, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAskTakeback, GameID: g.ID, Version: cur.Version, UserID: "alice"}); err != nil {
		t.Fatal(err)
	}
	if acted, err := r.Step(ctx, g.ID); err != nil || !acted {
		t.Fatalf("takeback: acted %v, %v", acted, err)
	}
	cur, _ = e.svc.Views().Game(ctx, g.ID)
	if len(cur.Moves) != 0 || cur.Takeback != "" {
		t.Fatalf("after the takeback: moves %v, takeback %q", cur.Moves, cur.Takeback)
	}

}

// TestComputerChallengeRefusals: levels outside 1..MaxComputerLevel are
// refused; the computer never challenges.
func TestComputerChallengeRefusals(t *testing.T) {
	e, _ := computerEnv(t)
	_, err := e.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "alice", Challenged: "bot", ChannelID: "chan",
		Variant: "chess", DaysPerMove: 3, Level: gameplay.MaxComputerLevel + 1})
	if bot.ErrorCode(err) != bot.EINVALID || !strings.Contains(bot.ErrorMessage(err), "levels 1 (weakest) to") {
		t.Errorf("level too high: %v", err)
	}
	_, err = e.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "bot", Challenged: "alice", ChannelID: "chan",
		Variant: "chess", DaysPerMove: 3})
	if bot.ErrorCode(err) != bot.EINVALID {
		t.Errorf("the computer challenging: %v", err)
	}
}

// deadEven is a chess position that can only be drawn: kings and locked
// pawns that neither king can reach.
const deadEven = "4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 1"

// kingWalk are moves of White's king in deadEven, every one to a square
// it has not stood on, so that no position repeats.
var kingWalk = []string{"Kd2", "Kc3", "Kb3", "Ka3", "Kb2", "Kc1", "Kd1", "Ke2", "Kf3", "Kg3", "Kh3", "Kh2"}

// drawEnv is an env where bob is the computer player, in a game from fen
// against alice (White), offering draws by rule.
func drawEnv(tb testing.TB, fen string, rule computer.DrawOffers) (*env, *computer.Runner, *bot.Game) {
	tb.Helper()
	e := newEnv(tb)
	e.svc.SetComputer("bob")
	r := computer.NewRunner(e.svc, 1, nil)
	r.Draws = rule
	return e, r, e.startFrom(tb, "chess", fen)
}

// answer has alice play move (or decline the standing offer first, when
// decline) and the computer answer; it returns the game after.
func (e *env) answer(tb testing.TB, r *computer.Runner, id uint64, move string, decline bool) *bot.Game {
	tb.Helper()
	if decline {
		if _, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActDeclineDraw, GameID: id, Version: bot.AnyVersion, UserID: "alice"}); err != nil {
			tb.Fatal(err)
		}
	}
	e.play(tb, id, "alice "+move)
	if acted, err := r.Step(ctx, id); err != nil || !acted {
		tb.Fatalf("the computer's answer to %s: acted %v, %v", move, acted, err)
	}
	g := e.game(tb, id)
	if g.Status != bot.GameActive || g.ToAct != "alice" {
		tb.Fatalf("after the computer's answer to %s: status %s, to act %q", move, g.Status, g.ToAct)
	}
	return g
}

// offersAt plays kingWalk against the computer (alice declining each
// offer when decline, else letting her next move decline it) and returns
// the computer's turns (1-based) after which its draw offer stood.
func offersAt(tb testing.TB, e *env, r *computer.Runner, g *bot.Game, turns int, decline bool) []int {
	tb.Helper()
	var at []int
	offered := false
	for i := range turns {
		cur := e.answer(tb, r, g.ID, kingWalk[i], offered && decline)
		offered = cur.DrawOffer == "bob"
		if offered {
			at = append(at, i+1)
		}
	}
	return at
}

// TestComputerOffersDraw: in a dead even position the computer offers a
// draw once it has seen Turns even turns in a row and the game has
// MinPlies moves; the offer goes to alice and to the game's thread.
func TestComputerOffersDraw(t *testing.T) {
	for _, c := range []struct {
		rule computer.DrawOffers
		want int // the computer's turn after which it first offers
	}{
		{computer.DrawOffers{MinPlies: 4, Turns: 3, Margin: 20}, 3},
		{computer.DrawOffers{MinPlies: 10, Turns: 1, Margin: 20}, 5}, // its 5th turn ends at ply 10
		{computer.DrawOffers{MinPlies: 0, Turns: 2, Margin: 0}, 2},   // the position scores 0 exactly
	} {
		e, r, g := drawEnv(t, deadEven, c.rule)
		at := offersAt(t, e, r, g, c.want, false)
		if !slices.Equal(at, []int{c.want}) {
			t.Errorf("%+v: offers after turns %v, want %d", c.rule, at, c.want)
			continue
		}
		var toAlice, toThread int
		for _, n := range e.notifications(t, 0) {
			if n.Kind != bot.NotifyDrawOffered {
				continue
			}
			switch n.UserID {
			case "alice":
				toAlice++
			case "":
				toThread++
				if n.ChannelID != "chan" || !strings.Contains(n.Text, "<@bob> offers a draw") || !strings.Contains(n.Text, "<@alice>: accept or decline") {
					t.Errorf("the offer posted to the thread: %+v", n)
				}
			default:
				t.Errorf("a draw offer to %q", n.UserID)
			}
		}
		if toAlice != 1 || toThread != 1 {
			t.Errorf("%+v: draw offers to alice %d, to the thread %d; want 1 each", c.rule, toAlice, toThread)
		}
		// Alice accepts it as she would any offer.
		if _, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAcceptDraw, GameID: g.ID, Version: bot.AnyVersion, UserID: "alice"}); err != nil {
			t.Fatal(err)
		}
		if end := e.game(t, g.ID); end.Result != bot.Draw || end.Reason != "agreement" {
			t.Errorf("after accepting: %s %q", end.Result, end.Reason)
		}
	}
}

// TestComputerNoDrawOfferWhenAhead: a queen up, the computer never
// offers, whatever the rule's counts; nor in a dead position before
// MinPlies, nor with offers turned off.
func TestComputerNoDrawOfferWhenAhead(t *testing.T) {
	e, r, g := drawEnv(t, "3qk3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 1", computer.DrawOffers{MinPlies: 0, Turns: 1, Margin: 20})
	for turn := range 4 {
		cur := e.game(t, g.ID)
		if cur.Status != bot.GameActive {
			if turn == 0 {
				t.Fatal("the game ended at once")
			}
			break
		}
		rg, err := e.svc.Views().ReplayRecord(cur)
		if err != nil {
			t.Fatal(err)
		}
		p, legal := rg.Position(), rg.Legal()
		cur = e.answer(t, r, g.ID, rules.FormatMove(&p, legal[0]), false)
		if cur.DrawOffer != "" {
			t.Fatalf("a queen up, the computer offered a draw after its turn %d", turn+1)
		}
	}
	for _, rule := range []computer.DrawOffers{{MinPlies: 30, Turns: 1, Margin: 20}, {}} {
		e, r, g := drawEnv(t, deadEven, rule)
		if at := offersAt(t, e, r, g, 6, false); len(at) > 0 {
			t.Errorf("%+v: offers after turns %v, want none", rule, at)
		}
	}
}

// TestComputerDrawOfferNotRepeated: after alice declines (or moves on,
// which declines too) the computer waits Turns more even turns before it
// offers again.
func TestComputerDrawOfferNotRepeated(t *testing.T) {
	for _, decline := range []bool{true, false} {
		e, r, g := drawEnv(t, deadEven, computer.DrawOffers{MinPlies: 0, Turns: 3, Margin: 20})
		at := offersAt(t, e, r, g, 9, decline)
		if !slices.Equal(at, []int{3, 6, 9}) {
			t.Errorf("declining by button %v: offers after turns %v, want 3, 6, 9", decline, at)
		}
	}
}

// TestComputerDrawCountAfterTakeback: moves taken back start the count
// of even turns again.
func TestComputerDrawCountAfterTakeback(t *testing.T) {
	e, r, g := drawEnv(t, deadEven, computer.DrawOffers{MinPlies: 0, Turns: 3, Margin: 20})
	e.answer(t, r, g.ID, kingWalk[0], false)
	e.answer(t, r, g.ID, kingWalk[1], false)
	if _, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAskTakeback, GameID: g.ID, Version: bot.AnyVersion, UserID: "alice"}); err != nil {
		t.Fatal(err)
	}
	if acted, err := r.Step(ctx, g.ID); err != nil || !acted {
		t.Fatalf("takeback: acted %v, %v", acted, err)
	}
	back := e.game(t, g.ID)
	if len(back.Moves) != 2 {
		t.Fatalf("after the takeback: moves %v, want alice's and the computer's first", back.Moves)
	}
	// Without the takeback, the first of these would be the third even
	// turn in a row.
	for i, move := range kingWalk[1:3] {
		if cur := e.answer(t, r, g.ID, move, false); cur.DrawOffer != "" {
			t.Fatalf("offered after %d even turns since the takeback", i+1)
		}
	}
	if cur := e.answer(t, r, g.ID, kingWalk[3], false); cur.DrawOffer != "bob" {
		t.Errorf("no offer after 3 even turns since the takeback: moves %v", cur.Moves)
	}
}

// TestComputerTurnPosted: each turn of the computer is posted once to
// the game's thread (a notification to nobody, in the game's channel),
// the player to act being told as before; a turn of several moves (Train
// Wreck's two half-moves) is posted once, when it is over.
func TestComputerTurnPosted(t *testing.T) {
	for _, c := range []struct {
		variant string
		steps   int // the computer's steps in one turn
	}{{"chess", 1}, {"trainwreck", 2}} {
		e, r := computerEnv(t)
		g := e.challengeComputer(t, c.variant, 2, bot.ColorBlack) // the computer moves first
		for step := range c.steps {
			if acted, err := r.Step(ctx, g.ID); err != nil || !acted {
				t.Fatalf("%s: step %d: acted %v, %v", c.variant, step, acted, err)
			}
			posts := 0
			for _, n := range e.notifications(t, 0) {
				if n.Kind == bot.NotifyComputerTurn {
					posts++
					if n.UserID != "" || n.ChannelID != "chan" || n.GameID != g.ID {
						t.Errorf("%s: the post of the computer's turn: %+v", c.variant, n)
					}
				}
			}
			if want := map[bool]int{true: 1, false: 0}[step == c.steps-1]; posts != want {
				t.Errorf("%s: after step %d of %d: %d posts of the computer's turn, want %d", c.variant, step+1, c.steps, posts, want)
			}
		}
		if cur := e.game(t, g.ID); cur.ToAct != "alice" || len(cur.Moves) != c.steps {
			t.Fatalf("%s: after the computer's turn: moves %v, to act %q", c.variant, cur.Moves, cur.ToAct)
		}
		if out := e.outbox(t); !slices.Contains(out, "your-turn alice") {
			t.Errorf("%s: alice was not told of her turn: %q", c.variant, out)
		}
	}
}
