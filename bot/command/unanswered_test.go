package command

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/prefs"
	"github.com/fairypost/fairypost/internal/testkit"
)

// unansweredGames is a GameStore whose updates fail as a store's do when
// the cluster did not answer: with err (bot.OutcomeUnknown's or
// bot.Unavailable's), changing nothing.
type unansweredGames struct {
	bot.GameStore
	err error
}

func (u unansweredGames) UpdateGame(context.Context, uint64, uint64, func(*bot.Game) ([]bot.Notification, error)) (*bot.Game, error) {
	return nil, u.err
}

// TestStoreWithoutAnswer: a move the store could neither confirm nor
// deny is answered with what is known — it may have been played, /board
// shows whether — and one that was not written says so; neither is
// "Internal error.", and neither is logged as an error.
func TestStoreWithoutAnswer(t *testing.T) {
	e := newEnv(t)
	id := e.start("chess")
	cause := errors.New("etcd: etcdserver: request timed out")
	for _, c := range []struct {
		err  error
		line string
		want string
	}{
		{bot.OutcomeUnknown(cause), "/move move:e4", OutcomeUnknownMove},
		{bot.OutcomeUnknown(cause), "/resign game:" + itoa(id), bot.OutcomeUnknownMessage},
		{bot.Unavailable(cause), "/move move:e4", bot.UnavailableMessage},
	} {
		logs := &testkit.Buffer{}
		st := testkit.Stores(e.db)
		st.Games = unansweredGames{e.db, c.err}
		st.Ratings, st.Tournaments = nil, nil // as on etcd: every change of a game goes through UpdateGame
		svc := testkit.ServiceOver(t, st, e.clk)
		h := New(svc, prefs.New(svc, st.Users), Options{BoardSize: 240, Logger: slog.New(slog.NewTextHandler(logs, nil))})
		r := h.Execute(e.ctx, parse("alice", "c1", c.line))
		if r.Text != c.want || !r.Ephemeral {
			t.Errorf("%s with %v: %q (ephemeral %v), want %q", c.line, c.err, r.Text, r.Ephemeral, c.want)
		}
		if strings.Contains(logs.String(), "level=ERROR") || !strings.Contains(logs.String(), "level=WARN") {
			t.Errorf("%s with %v: logged %q, want a warning and no error", c.line, c.err, logs.String())
		}
	}
}
