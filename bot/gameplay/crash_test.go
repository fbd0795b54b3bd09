package gameplay_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/storage"
)

func itoa(v uint64) string { return strconv.FormatUint(v, 10) }

// crashingGames is a game store whose updates of one game panic.
type crashingGames struct {
	*storage.DB
	id uint64
}

func (c crashingGames) UpdateGame(ctx context.Context, id, expected uint64, fn func(*bot.Game) ([]bot.Notification, error)) (*bot.Game, error) {
	if id == c.id {
		panic("a bug handling this game")
	}
	return c.DB.UpdateGame(ctx, id, expected, fn)
}

// TestSweepSurvivesPanic: a game whose handling panics does not stop the
// sweep: the other game due is timed out, and the error names the game
// that crashed. The Scheduler logs it and goes on.
func TestSweepSurvivesPanic(t *testing.T) {
	e := newEnv(t)
	e.noReminders(t, "alice", "bob")
	g1 := e.start(t, "chess")
	e.play(t, g1.ID, "alice e4", "bob e5")
	g2 := e.start(t, "chess")
	e.play(t, g2.ID, "alice e4", "bob e5")
	e.clock.Advance(3 * day)
	svc := gameplay.NewService(gameplay.Stores{Games: crashingGames{e.db, g1.ID}, Challenges: e.db, Users: e.db, Outbox: e.db},
		registry(t), gameplay.Clock(e.clock.Now))
	rep, err := svc.Sweep(ctx)
	var p *gameplay.PanicError
	if !errors.As(err, &p) || !strings.Contains(err.Error(), "game "+itoa(g1.ID)) || rep.TimedOut != 1 {
		t.Fatalf("sweep: %+v, %v; want game %d timed out and a panic of game %d", rep, err, g2.ID, g1.ID)
	}
	if g := e.game(t, g2.ID); g.Status != bot.GameFinished {
		t.Errorf("game %d: %s", g2.ID, g.Status)
	}

	var logs bytes.Buffer
	runCtx, cancel := context.WithCancel(ctx)
	fire := make(chan time.Time)
	sched := gameplay.NewScheduler(svc, slog.New(slog.NewTextHandler(&logs, nil)),
		gameplay.SchedulerTimer(func(time.Duration) <-chan time.Time { return fire }))
	done := make(chan error, 1)
	go func() { done <- sched.Run(runCtx) }()
	for i := 0; i < 2; i++ {
		fire <- time.Time{} // the scheduler sleeps again after each failed sweep
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run: %v", err)
	}
	if n := strings.Count(logs.String(), "a bug handling this game"); n < 2 {
		t.Errorf("the crash was logged %d times over three sweeps:\n%s", n, logs.String())
	}
}
