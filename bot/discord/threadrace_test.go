package discord_test

import (
	"context"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/fairypost/fairypost/internal/testkit"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/discordtest"
	"github.com/fairypost/fairypost/bot/gameplay"
)

// TestOneThreadAcrossProcesses (issue 29): two bots sharing one store,
// as two processes share etcd, both deliver a new game's first
// notification at once; the fake lets both thread creations through
// together, so both make a thread. The game keeps one: the first claim
// in the store wins, the other bot deletes its thread and posts into the
// winner's, and the game's record names the thread that is left; nothing goes to
// the channel itself.
func TestOneThreadAcrossProcesses(t *testing.T) {
	srv := discordtest.New(discordtest.WithDeadline(fakeDeadline))
	t.Cleanup(srv.Close)
	guild := strconv.FormatUint(2<<22, 10)
	channel := strconv.FormatUint(2<<22+1, 10)
	srv.AddChannel(guild, channel, "games")
	db := testkit.OpenDBAt(t, filepath.Join(t.TempDir(), "race.db"))
	clk := newClock()
	h0, _ := startShard(t, srv, db, clk, 0, 2)
	h1, _ := startShard(t, srv, db, clk, 1, 2)
	alice, bob := "500", "501"
	srv.AddUser(alice, "alice")
	srv.AddUser(bob, "bob")

	ctx := ctxT(t)
	at := bot.Where{GuildID: guild, ChannelID: channel}
	c, err := h0.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: alice, Challenged: bob, GuildID: guild, ChannelID: channel,
		Variant: "chess", Color: bot.ColorWhite})
	if err != nil {
		t.Fatal(err)
	}
	g, err := h0.svc.Challenges().Accept(ctx, c.ID, c.Version, bob, at)
	if err != nil {
		t.Fatal(err)
	}
	ns, err := db.PendingNotifications(ctx, clk.Now().Add(24*time.Hour), 0)
	if err != nil {
		t.Fatal(err)
	}
	var first *bot.Notification
	for i := range ns {
		if ns[i].GameID == g.ID {
			first = &ns[i]
			break
		}
	}
	if first == nil {
		t.Fatalf("no notification about game %d among %d", g.ID, len(ns))
	}

	srv.HoldThreads(2)
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, h := range []*harness{h0, h1} {
		wg.Go(func() { errs[i] = h.b.Send(context.Background(), *first) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("bot %d: %v", i, err)
		}
	}
	live, deleted := srv.Threads(channel), srv.DeletedThreads(channel)
	if len(live)+len(deleted) != 2 {
		t.Fatalf("%d threads made (%d live, %d deleted), want 2: the race did not happen", len(live)+len(deleted), len(live), len(deleted))
	}
	if len(live) != 1 || len(deleted) != 1 {
		t.Fatalf("%d live threads and %d deleted, want 1 and 1", len(live), len(deleted))
	}
	stored := h0.game(t, g.ID)
	if stored.ThreadID != live[0].ID {
		t.Errorf("the game names thread %q, the live one is %s", stored.ThreadID, live[0].ID)
	}
	if n := len(srv.Messages(channel)); n != 0 {
		t.Errorf("%d messages posted in the channel, want none (the thread holds the game)", n)
	}
}
