package discord_test

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/internal/testkit"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/discord"
	"github.com/fairypost/fairypost/bot/discordtest"
	"github.com/fairypost/fairypost/bot/gameplay"
)

// TestDeferredAnswerFinishedByAnother (issue 29): a /move deferred by
// one process (A) that never answers it (its work held, as if the
// process had died) is answered by another (B) once A is no longer
// among the live processes: "not played, send it again" while the game
// does not hold the move, "played" with the board once it does. While A
// lives B leaves its answers alone; an answered interaction leaves no
// record behind.
func TestDeferredAnswerFinishedByAnother(t *testing.T) {
	srv := discordtest.New(discordtest.WithDeadline(fakeDeadline))
	t.Cleanup(srv.Close)
	guild := strconv.FormatUint(2<<22, 10) // shard 0 of 2
	channel := strconv.FormatUint(2<<22+1, 10)
	srv.AddChannel(guild, channel, "games")
	db := testkit.OpenDBAt(t, filepath.Join(t.TempDir(), "deferred.db"))
	clk := newClock()
	// A record is finished for a process that is gone once it is grace
	// old: a process may defer before it is a candidate.
	const grace = 200 * time.Millisecond
	as := func(id string) func(*discord.Options) {
		return func(o *discord.Options) { o.Deferred, o.ProcessID, o.FinishGrace = db, id, grace }
	}
	a, _ := startShardWith(t, srv, db, clk, 0, 2, as("A"))
	b, _ := startShardWith(t, srv, db, clk, 1, 2, as("B"))
	alice, bob := "500", "501"
	srv.AddUser(alice, "alice")
	srv.AddUser(bob, "bob")
	g, thread := a.start(t, channel, alice, bob, "chess")
	ctx := ctxT(t)
	aliveA := func(context.Context) ([]string, error) { return []string{"A", "B"}, nil }
	goneA := func(context.Context) ([]string, error) { return []string{"B"}, nil }

	// A's work is held: its /move is deferred and stays "thinking…".
	gate := make(chan struct{})
	a.cmds.gate.Store(&gate)
	defer close(gate)
	deferred := func(move string) *discordtest.Interaction {
		t.Helper()
		ix, err := srv.Slash(alice, thread, "move", discordtest.String("move", move))
		if err != nil {
			t.Fatal(err)
		}
		r, err := ix.Response(ctx)
		if err != nil || r.Type != 5 {
			t.Fatalf("/move %s: response %+v, %v; want a deferral", move, r, err)
		}
		if err := waitCond(ctx, func() bool {
			rs, err := db.DeferredAnswers(ctx, time.Now())
			return err == nil && len(rs) > 0 && rs[len(rs)-1].InteractionID == ix.ID
		}); err != nil {
			t.Fatalf("the deferral of /move %s was not recorded: %v", move, err)
		}
		return ix
	}
	finish := func(alive func(context.Context) ([]string, error), want int) {
		t.Helper()
		n, err := b.b.FinishDeferred(ctx, alive)
		if err != nil || n != want {
			t.Fatalf("FinishDeferred: %d, %v; want %d", n, err, want)
		}
	}

	notPlayed := deferred("e4")
	finish(aliveA, 0)
	if rs, _ := db.DeferredAnswers(ctx, time.Now()); len(rs) != 1 || rs[0].Owner != "A" || rs[0].GameID != g.ID || rs[0].Before != 0 {
		t.Fatalf("the record while A lives: %+v, want A's /move in game %d before ply 0", rs, g.ID)
	}
	finish(goneA, 0) // younger than grace: its owner may be starting
	time.Sleep(grace)
	finish(goneA, 1)
	m, err := notPlayed.Final(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(m.Content, "was not played") || !strings.Contains(m.Content, "send it again") || !strings.Contains(m.Content, "e4") {
		t.Errorf("the answer for a move not played: %q", m.Content)
	}
	if rs, _ := db.DeferredAnswers(ctx, time.Now()); len(rs) != 0 {
		t.Errorf("records left after finishing: %+v", rs)
	}

	played := deferred("d4")
	// A stored the move and died before answering.
	if _, err := a.svc.Move(ctx, gameplay.MoveRequest{GameID: g.ID, UserID: alice, Move: "d4", Version: bot.AnyVersion}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(grace)
	finish(goneA, 1)
	m, err = played.Final(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(m.Content, "it was played, **d4**") || len(m.Files) == 0 {
		t.Errorf("the answer for a move played: %q with %d files, want it named and the board", m.Content, len(m.Files))
	}
	finish(goneA, 0)

	// A record left behind by an owner that answered and died before
	// forgetting it: the answer stays, the record goes.
	left, err := db.DeferredAnswers(ctx, time.Now())
	if err != nil || len(left) != 0 {
		t.Fatalf("records %+v, %v; want none", left, err)
	}
	stale := bot.DeferredAnswer{InteractionID: played.ID, ApplicationID: srv.ApplicationID(), Token: played.Token,
		Owner: "A", UserID: alice, ChannelID: thread, Request: "/move move:d4", GameID: g.ID, Move: "d4", Before: 0,
		Deferred: time.Now().Add(-grace), Expires: time.Now().Add(10 * time.Minute)}
	if err := db.PutDeferred(ctx, stale); err != nil {
		t.Fatal(err)
	}
	finish(goneA, 0)
	if m2, err := played.Final(ctx); err != nil || m2.Content != m.Content || m2.Edits != m.Edits {
		t.Errorf("an answered interaction was edited again: %q (%d edits), was %q (%d)", m2.Content, m2.Edits, m.Content, m.Edits)
	}
	if rs, _ := db.DeferredAnswers(ctx, time.Now()); len(rs) != 0 {
		t.Errorf("the stale record stayed: %+v", rs)
	}
}

// waitCond polls cond until it holds or ctx ends.
func waitCond(ctx context.Context, cond func() bool) error {
	for !cond() {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(5 * time.Millisecond):
		}
	}
	return nil
}
