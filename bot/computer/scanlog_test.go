package computer_test

import (
	"context"
	"errors"
	"log/slog"
	"runtime"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/computer"
	"github.com/fairypost/fairypost/internal/testkit"
)

// scanFails is a GameStore whose listing of a player's active games
// fails with ctx's error once ctx is done, else with err.
type scanFails struct {
	bot.GameStore
	err    error
	called chan struct{}
}

func (s scanFails) ActiveGamesByUser(ctx context.Context, _ string) ([]*bot.Game, error) {
	defer func() { s.called <- struct{}{} }()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return nil, s.err
}

// TestComputerScanLogs: the computer player's scan that ends because
// its context did (the process stopping, or no longer the leader) is no
// error in the log, and one that failed because the store did not answer
// (an etcd election) is a warning; any other failure is an error.
func TestComputerScanLogs(t *testing.T) {
	db := testkit.OpenDB(t)
	for _, c := range []struct {
		name      string
		err       error
		cancelled bool
		want      string // the level logged
	}{
		{"stepped down", errors.New("unused"), true, ""},
		{"store unanswered", bot.Unavailable(errors.New("etcdserver: no leader")), false, "level=WARN"},
		{"store broken", errors.New("disk on fire"), false, "level=ERROR"},
	} {
		logs := &testkit.Buffer{}
		st := testkit.Stores(db)
		called := make(chan struct{}, 1)
		st.Games = scanFails{db, c.err, called}
		svc := testkit.ServiceOver(t, st, testkit.NewClock(testkit.T0))
		svc.SetComputer("fairybot")
		r := computer.NewRunner(svc, 1, slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
		ctx, cancel := context.WithCancel(context.Background())
		if c.cancelled {
			cancel()
		}
		done := make(chan error, 1)
		go func() { done <- r.Run(ctx) }()
		<-called
		if !c.cancelled {
			for !strings.Contains(logs.String(), "computer: scanning") { // the line follows the scan
				select {
				case err := <-done:
					t.Fatalf("%s: Run returned %v before logging", c.name, err)
				default:
					runtime.Gosched()
				}
			}
		}
		cancel()
		<-done
		got := logs.String()
		for _, level := range []string{"level=WARN", "level=ERROR"} {
			if strings.Contains(got, level) != (level == c.want) {
				t.Errorf("%s: logged %q, want %s only", c.name, got, c.want)
			}
		}
	}
}
