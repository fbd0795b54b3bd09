package notify_test

import (
	"context"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/internal/testkit"
	"github.com/fairypost/fairypost/storage"
)

var ctx = context.Background()

// endOfTime is later than any notification's NotBefore: reading the
// outbox as of then lists every pending notification.
var endOfTime = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)

// env is the game's Service over a real database (checked when the test
// ends), whose outbox the tests deliver, on a settable clock.
type env struct {
	db    *storage.DB
	svc   *gameplay.Service
	clock *testkit.Clock
}

func newEnv(tb testing.TB) *env {
	tb.Helper()
	db := testkit.OpenDB(tb)
	c := testkit.NewClock(testkit.T0)
	return &env{db: db, clock: c, svc: testkit.Service(tb, db, c)}
}

// start has alice (white) challenge bob to variant, 3 days per move,
// and bob accept: a challenge-received for bob, a challenge-accepted and
// a your-turn for alice.
func (e *env) start(tb testing.TB, variant string) *bot.Game {
	tb.Helper()
	c, err := e.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "alice", Challenged: "bob", ChannelID: "chan",
		Variant: variant, DaysPerMove: 3, Color: bot.ColorWhite})
	if err != nil {
		tb.Fatal(err)
	}
	g, err := e.svc.Challenges().Accept(ctx, c.ID, c.Version, "bob", bot.Where{ChannelID: "chan"})
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

// setDigest stores userID's digest setting as the Service of package
// bot/prefs does once it has checked it (SetDigest, tested there): on
// or off (the hour then kept), at hour of their time, offset minutes
// from UTC.
func (e *env) setDigest(tb testing.TB, userID string, on bool, hour, offset int) {
	tb.Helper()
	_, err := e.db.UpdatePreferences(ctx, userID, func(p *bot.Preferences) error {
		p.Digest, p.UTCOffset = on, offset
		if on {
			p.DigestHour = hour
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
}
