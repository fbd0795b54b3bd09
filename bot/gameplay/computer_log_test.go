package gameplay_test

import (
	"context"
	"errors"
	"log/slog"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/internal/testkit"
)

// dueFails is a GameStore whose listing of the games due fails with err.
type dueFails struct {
	bot.GameStore
	err error
}

func (d dueFails) GamesDue(context.Context, time.Time) ([]*bot.Game, error) { return nil, d.err }

// TestSchedulerLogsAStoreWithoutAnswer: a sweep that failed because the
// store did not answer (an etcd election) is logged as a warning, not
// an error; any other failure stays an error.
func TestSchedulerLogsAStoreWithoutAnswer(t *testing.T) {
	db := testkit.OpenDB(t)
	for _, c := range []struct {
		err  error
		want string
	}{
		{bot.Unavailable(errors.New("etcdserver: no leader")), "level=WARN"},
		{errors.New("disk on fire"), "level=ERROR"},
	} {
		logs := &testkit.Buffer{}
		st := testkit.Stores(db)
		st.Games = dueFails{db, c.err}
		svc := testkit.ServiceOver(t, st, testkit.NewClock(t0))
		s := gameplay.NewScheduler(svc, slog.New(slog.NewTextHandler(logs, nil)),
			gameplay.SchedulerTimer(func(time.Duration) <-chan time.Time { return nil }))
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- s.Run(ctx) }()
		for !strings.Contains(logs.String(), "sweep failed") {
			runtime.Gosched()
		}
		cancel()
		<-done
		got := logs.String()
		for _, level := range []string{"level=WARN", "level=ERROR"} {
			if strings.Contains(got, level) != (level == c.want) {
				t.Errorf("%v: logged %q, want %s only", c.err, got, c.want)
			}
		}
	}
}
