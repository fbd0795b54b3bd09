package prefs_test

import (
	"context"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/bot/prefs"
	"github.com/fairypost/fairypost/internal/testkit"
	"github.com/fairypost/fairypost/storage"
)

var ctx = context.Background()

// t0 is the time tests start at.
var t0 = testkit.T0

// day is a day of the clocks.
const day = 24 * time.Hour

// endOfTime is later than any notification's NotBefore: reading the
// outbox as of then lists every pending notification.
var endOfTime = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)

// inChan is where the tests' challenges are answered: channel "chan"
// of the console's server.
var inChan = bot.Where{ChannelID: "chan"}

// env is the game's Service over a real database (checked when the test
// ends) with the players' settings kept by prefs, as cmd/fairypost
// wires them, on a settable clock.
type env struct {
	db    *storage.DB
	svc   *gameplay.Service
	prefs *prefs.Service
	clock *testkit.Clock
}

func newEnv(tb testing.TB) *env {
	tb.Helper()
	db := testkit.OpenDB(tb)
	c := testkit.NewClock(t0)
	svc := testkit.Service(tb, db, c)
	return &env{db: db, clock: c, svc: svc, prefs: prefs.New(svc, db)}
}

// start has alice (white) challenge bob to variant, 3 days per move,
// and bob accept.
func (e *env) start(tb testing.TB, variant string) *bot.Game {
	tb.Helper()
	c, err := e.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "alice", Challenged: "bob", ChannelID: "chan",
		Variant: variant, DaysPerMove: 3, Color: bot.ColorWhite})
	if err != nil {
		tb.Fatal(err)
	}
	g, err := e.svc.Challenges().Accept(ctx, c.ID, c.Version, "bob", inChan)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// play plays moves ("user move") in game id, failing on any error.
func (e *env) play(tb testing.TB, id uint64, moves ...string) *gameplay.MoveResult {
	tb.Helper()
	return testkit.Play(tb, e.svc, id, moves...)
}

// game reads game id.
func (e *env) game(tb testing.TB, id uint64) *bot.Game {
	tb.Helper()
	g, err := e.svc.Views().Game(ctx, id)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// outbox returns every pending notification.
func (e *env) outbox(tb testing.TB) []bot.Notification {
	tb.Helper()
	ns, err := e.db.PendingNotifications(ctx, endOfTime, 0)
	if err != nil {
		tb.Fatal(err)
	}
	return ns
}

// notifications returns the pending notifications after the first skip.
func (e *env) notifications(tb testing.TB, skip int) []bot.Notification {
	tb.Helper()
	ns := e.outbox(tb)
	if skip > len(ns) {
		tb.Fatalf("%d notifications, want more than %d", len(ns), skip)
	}
	return ns[skip:]
}

// notificationKinds returns "kind user" of each notification.
func notificationKinds(ns []bot.Notification) []string {
	var out []string
	for _, n := range ns {
		out = append(out, n.Kind.String()+" "+n.UserID)
	}
	return out
}

// must fails tb on err, else returns g.
func must(tb testing.TB) func(g *bot.Game, err error) *bot.Game {
	return func(g *bot.Game, err error) *bot.Game {
		tb.Helper()
		if err != nil {
			tb.Fatal(err)
		}
		return g
	}
}
