package analysis_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/analysis"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/internal/testkit"
	"github.com/fairypost/fairypost/storage"
)

const startFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// setup returns a service over a real bbolt file, its database and its
// clock.
func setup(t *testing.T) (*gameplay.Service, *storage.DB, *testkit.Clock) {
	db := testkit.OpenDB(t)
	clock := testkit.NewClock(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	return testkit.Service(t, db, clock), db, clock
}

// foolsMate stores a chess game between alice and bob ended by
// f3 e5 g4 Qh4#.
func foolsMate(t *testing.T, svc *gameplay.Service, db *storage.DB, clock *testkit.Clock) uint64 {
	g := testkit.StartFrom(t, db, clock.Now(), "chess", startFEN)
	testkit.Play(t, svc, g.ID, "alice f3", "bob e5", "alice g4", "bob Qh4#")
	return g.ID
}

// wait returns what done was told, failing t when the test's deadline
// comes first.
func wait(t *testing.T, ch <-chan result) result {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-t.Context().Done():
		t.Fatal("the analysis never finished")
		return result{}
	}
}

type result struct {
	a   *bot.GameAnalysis
	err error
}

func doneTo(ch chan result) analysis.Done {
	return func(a *bot.GameAnalysis, err error) { ch <- result{a, err} }
}

// TestAnalyseStoresAndReuses: a finished game is analysed in the
// background with progress, the result is stored with the game (g4 a
// blunder with a better move, White less accurate than Black) and a
// second request answers from storage at once without running again.
func TestAnalyseStoresAndReuses(t *testing.T) {
	svc, db, clock := setup(t)
	id := foolsMate(t, svc, db, clock)
	an, err := analysis.New(svc, db, analysis.Config{Level: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer an.Close()
	var last, total atomic.Int64
	ch := make(chan result, 1)
	got, err := an.Request(t.Context(), id, "alice", func(d, n int) { last.Store(int64(d)); total.Store(int64(n)) }, doneTo(ch))
	if got != nil || err != nil {
		t.Fatalf("first request: %+v, %v; want started", got, err)
	}
	r := wait(t, ch)
	if r.err != nil {
		t.Fatal(r.err)
	}
	if total.Load() == 0 || last.Load() != total.Load() {
		t.Errorf("progress ended at %d of %d", last.Load(), total.Load())
	}
	a := r.a
	if a.GameID != id || a.Level != 1 || a.Seed != id || len(a.Plies) != 4 || a.RequestedBy != "alice" || !a.Created.Equal(clock.Now()) {
		t.Fatalf("analysis %+v", a)
	}
	g4 := a.Plies[2]
	if g4.Move != "g4" || g4.Judgement != "blunder" || g4.Best == "" || g4.Loss < 30 || !g4.White {
		t.Errorf("g4 analysed as %+v, want a White blunder with a better move", g4)
	}
	if !a.WhiteOK || !a.BlackOK || a.WhiteAccuracy >= a.BlackAccuracy {
		t.Errorf("accuracies white %.1f black %.1f: want White's below Black's", a.WhiteAccuracy, a.BlackAccuracy)
	}
	stored, err := db.Analysis(t.Context(), id)
	if err != nil || stored.Plies[2].Judgement != "blunder" {
		t.Fatalf("stored: %+v, %v", stored, err)
	}
	again, err := an.Request(t.Context(), id, "bob", func(int, int) { t.Error("a stored analysis ran again") },
		func(*bot.GameAnalysis, error) { t.Error("a stored analysis ran again") })
	if err != nil || again == nil || again.Plies[2].Best != g4.Best {
		t.Fatalf("second request: %+v, %v; want the stored analysis", again, err)
	}
}

// TestOngoingGameRefused: a game still being played is refused with the
// reason and nothing is stored; a game without moves as well.
func TestOngoingGameRefused(t *testing.T) {
	svc, db, clock := setup(t)
	g := testkit.StartFrom(t, db, clock.Now(), "chess", startFEN)
	an, err := analysis.New(svc, db, analysis.Config{Level: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer an.Close()
	fail := func(*bot.GameAnalysis, error) { t.Error("a refused request ran") }
	if _, err := an.Request(t.Context(), g.ID, "alice", nil, fail); bot.ErrorCode(err) != bot.EINVALID {
		t.Fatalf("game without moves: %v, want EINVALID", err)
	}
	testkit.Play(t, svc, g.ID, "alice e4")
	_, err = an.Request(t.Context(), g.ID, "alice", nil, fail)
	if bot.ErrorCode(err) != bot.EINVALID || !strings.Contains(bot.ErrorMessage(err), "still being played") {
		t.Fatalf("ongoing game: %v, want EINVALID saying it is still being played", err)
	}
	if _, err := an.Request(t.Context(), 999, "alice", nil, fail); bot.ErrorCode(err) != bot.ENOTFOUND {
		t.Fatalf("unknown game: %v, want ENOTFOUND", err)
	}
	if _, err := db.Analysis(t.Context(), g.ID); bot.ErrorCode(err) != bot.ENOTFOUND {
		t.Fatalf("a refused game has an analysis: %v", err)
	}
}

// TestLimits: one analysis per game at a time, at most AtOnce running
// (the second waits for the first to finish), at most PerDay requests a
// player in 24 hours (another player is not counted; the next day the
// player may ask again).
func TestLimits(t *testing.T) {
	svc, db, clock := setup(t)
	first := foolsMate(t, svc, db, clock)
	second := foolsMate(t, svc, db, clock)
	third := foolsMate(t, svc, db, clock)
	an, err := analysis.New(svc, db, analysis.Config{Level: 1, AtOnce: 1, PerDay: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer an.Close()
	ctx := t.Context()
	release := make(chan struct{})
	// active counts the analyses between their first and last progress
	// report; with AtOnce 1 it never exceeds 1, whichever of the two
	// queued analyses takes the place first.
	var blocked, overlapped atomic.Bool
	var active atomic.Int32
	track := func(block bool) analysis.Progress {
		started := false
		return func(d, n int) {
			if !started {
				started = true
				if active.Add(1) > 1 {
					overlapped.Store(true)
				}
			}
			if block && blocked.CompareAndSwap(false, true) {
				<-release
			}
			if d == n {
				active.Add(-1)
			}
		}
	}
	ch1, ch2 := make(chan result, 1), make(chan result, 1)
	if _, err := an.Request(ctx, first, "alice", track(true), doneTo(ch1)); err != nil {
		t.Fatal(err)
	}
	if _, err := an.Request(ctx, first, "bob", nil, nil); bot.ErrorCode(err) != bot.ECONFLICT {
		t.Fatalf("a game being analysed asked again: %v, want ECONFLICT", err)
	}
	if _, err := an.Request(ctx, second, "alice", track(false), doneTo(ch2)); err != nil {
		t.Fatal(err)
	}
	_, err = an.Request(ctx, third, "alice", nil, nil)
	if bot.ErrorCode(err) != bot.EFORBIDDEN || !strings.Contains(bot.ErrorMessage(err), "24 hours") {
		t.Fatalf("a third request in a day: %v, want EFORBIDDEN", err)
	}
	close(release)
	if r := wait(t, ch1); r.err != nil {
		t.Fatal(r.err)
	}
	if r := wait(t, ch2); r.err != nil {
		t.Fatal(r.err)
	}
	if overlapped.Load() {
		t.Error("two analyses ran at once with AtOnce 1")
	}
	clock.Advance(24*time.Hour + time.Minute)
	ch3 := make(chan result, 1)
	if _, err := an.Request(context.Background(), third, "alice", nil, doneTo(ch3)); err != nil {
		t.Fatalf("the next day: %v", err)
	}
	if r := wait(t, ch3); r.err != nil || r.a.GameID != third {
		t.Fatalf("the next day's analysis: %+v", r)
	}
}
