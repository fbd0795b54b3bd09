package discord_test

import (
	"context"
	"log/slog"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot/command"
	"github.com/fairypost/fairypost/bot/discord"
	"github.com/fairypost/fairypost/bot/discordtest"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/bot/notify"
	"github.com/fairypost/fairypost/bot/prefs"
	"github.com/fairypost/fairypost/bot/ratings"
	"github.com/fairypost/fairypost/internal/testkit"
	"github.com/fairypost/fairypost/rules"
	"github.com/fairypost/fairypost/storage"
)

// channelLog records the channels of the commands and button presses a
// bot ran.
type channelLog struct {
	discord.Commands
	mu  sync.Mutex
	ran []string
}

func (c *channelLog) record(channel string) {
	c.mu.Lock()
	c.ran = append(c.ran, channel)
	c.mu.Unlock()
}

func (c *channelLog) Execute(ctx context.Context, req command.Request) command.Reply {
	c.record(req.ChannelID)
	return c.Commands.Execute(ctx, req)
}

func (c *channelLog) Press(ctx context.Context, at command.Request, customID string) command.Reply {
	c.record(at.ChannelID)
	return c.Commands.Press(ctx, at, customID)
}

func (c *channelLog) channels() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.ran)
}

// startShard connects a bot as shard id of count to srv, over db (which
// other shards share, as processes share etcd), with its commands
// registered globally. The bot is closed at the end of the test.
func startShard(t *testing.T, srv *discordtest.Server, db *storage.DB, clk *testkit.Clock, id, count int) (*harness, *channelLog) {
	t.Helper()
	return startShardWith(t, srv, db, clk, id, count, nil)
}

// startShardWith is startShard with the options changed by tweak (nil:
// none).
func startShardWith(t *testing.T, srv *discordtest.Server, db *storage.DB, clk *testkit.Clock, id, count int, tweak func(*discord.Options)) (*harness, *channelLog) {
	t.Helper()
	reg, err := rules.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	logs := &testkit.Buffer{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	st := testkit.Stores(db)
	svc := gameplay.NewService(st, reg, gameplay.Clock(clk.Now))
	ratings.Register(svc) // as cmd/fairypost wires it
	settings := prefs.New(svc, st.Users)
	ran := &channelLog{Commands: command.New(svc, settings, command.Options{BoardSize: boardSize, Logger: log})}
	slow := &slowCommands{Commands: ran}
	opts := discord.Options{Token: "test-token", APIURL: srv.URL(), DeferAfter: deferAfter,
		ShutdownTimeout: 5 * time.Second, Logger: log, ShardID: id, ShardCount: count}
	if tweak != nil {
		tweak(&opts)
	}
	b, err := discord.New(svc, settings, slow, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Open(ctxT(t)); err != nil {
		t.Fatalf("shard %d of %d: %v", id, count, err)
	}
	t.Cleanup(func() { b.Close() })
	h := &harness{srv: srv, db: db, svc: svc, prefs: settings, cmds: slow, b: b, clk: clk, logs: logs}
	h.deliv = notify.NewDeliverer(st.Outbox, b.Send, clk.Now, log).Digests(settings)
	return h, ran
}

// TestShardsShareTheWork runs the bot as shards 0 and 1 of 2 on one
// store, with four servers, two on each shard. The commands are
// registered once (by shard 0); every command and button press in a
// server is run by its shard alone and answered once; a DM reaches shard
// 0, which sees the games both shards started.
func TestShardsShareTheWork(t *testing.T) {
	srv := discordtest.New(discordtest.WithDeadline(fakeDeadline))
	t.Cleanup(srv.Close)        // after the bots (cleanups run last first)
	shardOf := map[string]int{} // channel -> shard
	var channels []string
	for k := uint64(2); k <= 5; k++ {
		g := strconv.FormatUint(k<<22, 10) // shard k % 2
		ch := strconv.FormatUint(k<<22+1, 10)
		srv.AddChannel(g, ch, "games")
		shardOf[ch] = discordtest.ShardOf(g, 2)
		channels = append(channels, ch)
	}
	if got := []int{shardOf[channels[0]], shardOf[channels[1]], shardOf[channels[2]], shardOf[channels[3]]}; !slices.Equal(got, []int{0, 1, 0, 1}) {
		t.Fatalf("the servers' shards are %v, want two on each", got)
	}
	db := testkit.OpenDBAt(t, filepath.Join(t.TempDir(), "shards.db"))
	clk := newClock()
	h0, ran0 := startShard(t, srv, db, clk, 0, 2)
	h1, ran1 := startShard(t, srv, db, clk, 1, 2)
	shards := []*harness{h0, h1}
	if got := srv.Shards(); !slices.Equal(got, []discordtest.Shard{{ID: 0, Count: 2}, {ID: 1, Count: 2}}) {
		t.Fatalf("connected shards %v", got)
	}
	if srv.CommandWrites() != 1 || len(srv.Commands("")) == 0 {
		t.Fatalf("commands written %d times (%d global commands), want once", srv.CommandWrites(), len(srv.Commands("")))
	}

	alice, bob := "500", "501"
	srv.AddUser(alice, "alice")
	srv.AddUser(bob, "bob")
	threadShard := map[string]int{}
	for _, ch := range channels {
		h := shards[shardOf[ch]] // either would do: the helpers read the shared store
		g, thread := h.start(t, ch, alice, bob, "chess")
		threadShard[thread] = shardOf[ch]
		h.move(t, g, thread, "e4")
	}
	dm := srv.DMChannel(alice)
	games := h0.slash(t, alice, dm, "games")
	if want := "Your games (" + strconv.Itoa(len(channels)) + ")"; !strings.Contains(games.Content, want) {
		t.Errorf("/games in a DM: %q, want %q (the games both shards started)", games.Content, want)
	}

	for shard, ran := range []*channelLog{ran0, ran1} {
		for _, ch := range ran.channels() {
			want, ok := shardOf[ch]
			if !ok {
				want, ok = threadShard[ch]
			}
			if !ok && ch == dm {
				want, ok = 0, true
			}
			if !ok || want != shard {
				t.Errorf("shard %d ran a command in channel %s, which belongs to shard %d (known %v)", shard, ch, want, ok)
			}
		}
	}
	ixs := srv.Interactions()
	if n := len(ran0.channels()) + len(ran1.channels()); n != len(ixs) {
		t.Errorf("the shards ran %d commands and presses for %d interactions", n, len(ixs))
	}
	if len(ran0.channels()) == 0 || len(ran1.channels()) == 0 {
		t.Errorf("one shard did nothing: %d and %d", len(ran0.channels()), len(ran1.channels()))
	}
	for _, ix := range ixs {
		answered(t, ix)
	}
}

// TestInvalidShardRefused: a shard ID outside 0..count-1 is refused by
// New, before anything connects.
func TestInvalidShardRefused(t *testing.T) {
	for _, c := range [][2]int{{2, 2}, {-1, 2}, {1, 0}, {1, 1}, {0, -1}} {
		_, err := discord.New(nil, nil, shared.cmds, discord.Options{Token: "t", ShardID: c[0], ShardCount: c[1]})
		if err == nil || !strings.Contains(err.Error(), "shard") {
			t.Errorf("shard %d of %d: %v, want an error about the shard", c[0], c[1], err)
		}
	}
}
