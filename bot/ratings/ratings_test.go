package ratings_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/bot/ratings"
	"github.com/fairypost/fairypost/internal/testkit"
	"github.com/fairypost/fairypost/rating"
	"github.com/fairypost/fairypost/storage"
)

var ctx = context.Background()

// endOfTime is later than any notification's NotBefore: reading the
// outbox as of then lists every pending notification.
var endOfTime = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)

// t0 is the time tests start at.
var t0 = testkit.T0

// env is the game Service over a real database (checked when the test
// ends) with its ratings registered and read, as cmd/fairypost wires
// them (testkit.Service registers them), on a settable clock.
type env struct {
	db    *storage.DB
	svc   *gameplay.Service
	rates *ratings.Service
	clock *testkit.Clock
}

// newRatedEnv returns an env on a fresh database.
func newRatedEnv(tb testing.TB) *env {
	tb.Helper()
	db := testkit.OpenDB(tb)
	clock := testkit.NewClock(t0)
	svc := testkit.Service(tb, db, clock)
	return &env{db: db, svc: svc, rates: ratings.New(svc, db), clock: clock}
}

// play plays moves ("user move") in game id, failing tb on a refusal,
// and returns what the last one did.
func (e *env) play(tb testing.TB, id uint64, moves ...string) *gameplay.MoveResult {
	tb.Helper()
	return testkit.Play(tb, e.svc, id, moves...)
}

// startIn has alice (white) challenge bob to chess in guild ("" for the
// console), rated or not, and bob accept.
func (e *env) startIn(tb testing.TB, guild string, rated bool) *bot.Game {
	tb.Helper()
	c, err := e.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "alice", Challenged: "bob", GuildID: guild, ChannelID: "chan",
		Variant: "chess", DaysPerMove: 3, Color: bot.ColorWhite, Rated: rated})
	if err != nil {
		tb.Fatal(err)
	}
	g, err := e.svc.Challenges().Accept(ctx, c.ID, c.Version, "bob", bot.Where{GuildID: guild, ChannelID: "chan"})
	if err != nil {
		tb.Fatal(err)
	}
	if g.Rated != rated {
		tb.Fatalf("game rated = %v, challenge asked %v", g.Rated, rated)
	}
	return g
}

// standing returns user's standing in the chess pool of guild.
func (e *env) standing(tb testing.TB, guild, user string) (bot.Standing, bool) {
	tb.Helper()
	pool, err := rating.NewPool("chess", "", guild)
	if err != nil {
		tb.Fatal(err)
	}
	sts, err := e.db.PoolStandings(ctx, pool.Key())
	if err != nil {
		tb.Fatal(err)
	}
	for _, st := range sts {
		if st.UserID == user {
			return st, true
		}
	}
	return bot.Standing{}, false
}

// foolsMate is a chess game Black (bob) wins by checkmate.
var foolsMate = []string{"alice f3", "bob e5", "alice g4", "bob Qh4#"}

// A rated game won by checkmate in a server changes both players' ratings
// in the server's pool and the global pool, once, in the transaction that
// ends it: the game records the changes, the standings and histories
// hold them, and the result's notification announces them.
func TestRatedGameChangesRatings(t *testing.T) {
	e := newRatedEnv(t)
	g := e.startIn(t, "g1", true)
	res := e.play(t, g.ID, foolsMate...)
	end := res.Game
	if end.Status != bot.GameFinished || end.Result != bot.BlackWins {
		t.Fatalf("game: %v %v", end.Status, end.Result)
	}
	sys := rating.Lichess()
	wantW, wantB, err := sys.Rate(rating.Player{}, rating.Player{}, rating.Loss, t0)
	if err != nil {
		t.Fatal(err)
	}
	if len(end.Ratings) != 4 {
		t.Fatalf("rating changes: %+v, want white and black in two pools", end.Ratings)
	}
	for _, guild := range []string{"g1", ""} {
		w, okW := e.standing(t, guild, "alice")
		b, okB := e.standing(t, guild, "bob")
		if !okW || !okB {
			t.Fatalf("pool %q: standings missing", guild)
		}
		if w.Player != wantW || b.Player != wantB || w.Version != 1 {
			t.Errorf("pool %q: alice %+v bob %+v, want %+v and %+v", guild, w, b, wantW, wantB)
		}
		if !(b.Player.Rating > 1500 && w.Player.Rating < 1500) {
			t.Errorf("pool %q: the winner must gain and the loser lose: %v %v", guild, b.Player.Rating, w.Player.Rating)
		}
		pool, _ := rating.NewPool("chess", "", guild)
		h, err := e.db.RatingHistory(ctx, pool.Key(), "bob")
		if err != nil || len(h) != 1 || h[0].GameID != g.ID || h[0].Entry.Score != rating.Win || h[0].Entry.After != wantB.Glicko {
			t.Errorf("pool %q: bob's history %+v, %v", guild, h, err)
		}
	}
	stored, err := e.svc.Views().Game(ctx, g.ID)
	if err != nil || len(stored.Ratings) != 4 {
		t.Fatalf("stored game ratings %+v, %v", stored, err)
	}
	lines := ratings.Lines(sys, stored)
	want := "<@alice> 1500? → " + sys.Display(wantW.Glicko)
	if !strings.Contains(lines, want) || !strings.Contains(lines, "<@bob> 1500? → "+sys.Display(wantB.Glicko)+" (+") {
		t.Errorf("rating lines %q, want %q and bob's gain", lines, want)
	}
	ns, err := e.db.PendingNotifications(ctx, endOfTime, 0)
	if err != nil {
		t.Fatal(err)
	}
	over := 0
	for _, n := range ns {
		if n.Kind == bot.NotifyGameOver {
			over++
			if !strings.Contains(n.Text, lines) {
				t.Errorf("game-over notification %q lacks the rating changes %q", n.Text, lines)
			}
		}
	}
	if over != 2 {
		t.Errorf("%d game-over notifications, want 2", over)
	}
	// The finished game is never rated again: a second game starts
	// from the first's ratings.
	g2 := e.startIn(t, "g1", true)
	e.clock.Advance(time.Hour)
	if _, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActResign, GameID: g2.ID, Version: bot.AnyVersion, UserID: "bob"}); err != nil {
		t.Fatal(err)
	}
	b, _ := e.standing(t, "g1", "bob")
	w, _ := e.standing(t, "g1", "alice")
	if b.Player.Games != 2 || w.Player.Games != 2 || b.Version != 2 || !(b.Player.Rating < wantB.Rating) || !(w.Player.Rating > wantW.Rating) {
		t.Errorf("after bob resigns the second game: alice %+v, bob %+v", w, b)
	}
}

// Casual games, aborted rated games and games outside a server: only
// what counts changes, and only the pools the game belongs to.
func TestWhatCountsForRatings(t *testing.T) {
	e := newRatedEnv(t)
	casual := e.startIn(t, "g1", false)
	e.play(t, casual.ID, foolsMate...)
	if g, _ := e.svc.Views().Game(ctx, casual.ID); len(g.Ratings) != 0 {
		t.Errorf("casual game rated: %+v", g.Ratings)
	}
	if _, ok := e.standing(t, "g1", "bob"); ok {
		t.Error("a casual game gave bob a standing")
	}
	aborted := e.startIn(t, "g1", true)
	if _, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAbort, GameID: aborted.ID, Version: bot.AnyVersion, UserID: "alice"}); err != nil {
		t.Fatal(err)
	}
	if _, ok := e.standing(t, "", "alice"); ok {
		t.Error("an aborted game gave alice a standing")
	}
	// A rated game in the console (no server) counts in the global pool
	// alone; a draw counts.
	console := e.startIn(t, "", true)
	if _, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActOfferDraw, GameID: console.ID, Version: bot.AnyVersion, UserID: "alice"}); err != nil {
		t.Fatal(err)
	}
	g, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAcceptDraw, GameID: console.ID, Version: bot.AnyVersion, UserID: "bob"})
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Ratings) != 2 || g.Ratings[0].Pool != "global/chess" {
		t.Fatalf("draw's rating changes: %+v", g.Ratings)
	}
	w, _ := e.standing(t, "", "alice")
	b, _ := e.standing(t, "", "bob")
	if w.Player.Games != 1 || b.Player.Games != 1 || w.Player.Rating != b.Player.Rating || !(w.Player.Deviation < 500) {
		t.Errorf("a draw between newcomers: alice %+v bob %+v", w.Player, b.Player)
	}
	if sts, _ := e.db.UserStandings(ctx, "alice"); len(sts) != 1 {
		t.Errorf("alice has standings %+v, want the global one only", sts)
	}
}

// A rated game lost on time counts: the sweep that ends it rates it.
func TestTimeLossIsRated(t *testing.T) {
	e := newRatedEnv(t)
	g := e.startIn(t, "g1", true)
	e.play(t, g.ID, "alice e4", "bob e5")
	e.clock.Advance(4 * 24 * time.Hour) // alice's 3 days run out
	if _, err := e.svc.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	end, err := e.svc.Views().Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if end.Result != bot.BlackWins || len(end.Ratings) != 4 {
		t.Fatalf("after the sweep: %v %s, ratings %+v", end.Result, end.Reason, end.Ratings)
	}
	if b, _ := e.standing(t, "g1", "bob"); !(b.Player.Rating > 1500) {
		t.Errorf("bob won on time but has %+v", b.Player)
	}
}

// The leaderboard ranks established players only, shows the caller's
// own line when they are not in the top, and a trend over TrendWindow.
func TestServiceLeaderboard(t *testing.T) {
	e := newRatedEnv(t)
	// 18 games, bob winning every third and the others drawn: both
	// become established (deviation below 110), bob ahead.
	const games = 18
	for i := 0; i < games; i++ {
		g := e.startIn(t, "g1", true)
		e.clock.Advance(time.Hour)
		var err error
		if i%3 == 0 {
			_, err = e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActResign, GameID: g.ID, Version: bot.AnyVersion, UserID: "alice"})
		} else if _, err = e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActOfferDraw, GameID: g.ID, Version: bot.AnyVersion, UserID: "alice"}); err == nil {
			_, err = e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAcceptDraw, GameID: g.ID, Version: bot.AnyVersion, UserID: "bob"})
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	pool, _ := rating.NewPool("chess", "", "g1")
	lb, err := e.rates.Leaderboard(ctx, pool, 1, "alice")
	if err != nil {
		t.Fatal(err)
	}
	if len(lb.Top) != 1 || lb.Top[0].ID != "bob" || lb.Top[0].Rank != 1 || lb.Top[0].Games != games {
		t.Fatalf("top: %+v", lb.Top)
	}
	if lb.Own == nil || lb.Own.ID != "alice" || lb.Own.Rank != 2 {
		t.Fatalf("own line: %+v", lb.Own)
	}
	// Every game was within the window: the trend is the whole change
	// from the initial 1500.
	if lb.Top[0].Trend != lb.Top[0].Rating-1500 || lb.Own.Trend != lb.Own.Rating-1500 {
		t.Errorf("trends: %+v %+v", lb.Top[0], *lb.Own)
	}
	// Forty days later the trend window holds no game: no change.
	e.clock.Advance(40 * 24 * time.Hour)
	// (A top of 0 leaves bob's row to his own line, ranked or not.)
	lb, err = e.rates.Leaderboard(ctx, pool, 0, "bob")
	if err != nil {
		t.Fatal(err)
	}
	if lb.Own == nil || lb.Own.ID != "bob" || lb.Own.Trend != 0 || lb.Own.Rating <= 1500 {
		t.Errorf("bob's line after a quiet month: %+v", lb.Own)
	}
	prs, err := e.rates.Player(ctx, "bob", "g1")
	if err != nil || len(prs) != 1 || len(prs[0].History) != games || prs[0].Pool != pool {
		t.Errorf("bob's ratings in g1: %+v, %v", prs, err)
	}
}

// Two rated games of one player ending at the same moment are rated one
// after the other: neither update is computed from the rating the other
// replaced.
func TestConcurrentRatedEnds(t *testing.T) {
	e := newRatedEnv(t)
	var ids []uint64
	for _, opp := range []string{"bob", "carol"} {
		c, err := e.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "alice", Challenged: opp, GuildID: "g1", ChannelID: "chan",
			Variant: "chess", DaysPerMove: 3, Color: bot.ColorWhite, Rated: true})
		if err != nil {
			t.Fatal(err)
		}
		g, err := e.svc.Challenges().Accept(ctx, c.ID, c.Version, opp, bot.Where{GuildID: "g1", ChannelID: "chan"})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, g.ID)
	}
	var wg sync.WaitGroup
	errs := make([]error, len(ids))
	for i, id := range ids {
		wg.Go(func() {
			_, errs[i] = e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActResign, GameID: id, Version: bot.AnyVersion, UserID: "alice"})
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	st, ok := e.standing(t, "g1", "alice")
	pool, _ := rating.NewPool("chess", "", "g1")
	h, err := e.db.RatingHistory(ctx, pool.Key(), "alice")
	if !ok || err != nil || st.Player.Games != 2 || st.Version != 2 || len(h) != 2 {
		t.Fatalf("alice after two losses at once: %+v, history %+v, %v", st, h, err)
	}
	// Whichever was rated second started from the first one's result
	// (both ended at the same instant, so neither's deviation grew).
	first, _ := e.svc.Views().Game(ctx, h[0].GameID)
	second, _ := e.svc.Views().Game(ctx, h[1].GameID)
	if first.Ratings[0].Before.Rating != 1500 {
		first, second = second, first
	}
	if first.Ratings[0].Before.Rating != 1500 || second.Ratings[0].Before != first.Ratings[0].After {
		t.Errorf("rated from %v and %v; the first left %v", first.Ratings[0].Before, second.Ratings[0].Before, first.Ratings[0].After)
	}
}
