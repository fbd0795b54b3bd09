package discordtest_test

import (
	"errors"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"

	"github.com/fairypost/fairypost/bot/discordtest"
)

// shardGuild returns a guild ID whose shard is k % count: the snowflake
// k << 22 (ShardOf keeps the bits above the 22 low ones).
func shardGuild(k uint64) string { return strconv.FormatUint(k<<22, 10) }

// shardSession is a discordgo session connected as shard id of count,
// recording the interactions it receives and the guilds of its READY.
type shardSession struct {
	s      *discordgo.Session
	mu     sync.Mutex
	guilds []string // from GUILD_CREATE
	got    []string // channel IDs of the interactions received
}

func openShard(t *testing.T, srv *discordtest.Server, id, count int) *shardSession {
	t.Helper()
	s, err := discordgo.New("Bot test-token")
	if err != nil {
		t.Fatal(err)
	}
	s.Client = srv.HTTPClient()
	s.ShouldReconnectOnError = false
	s.ShardID, s.ShardCount = id, count
	ss := &shardSession{s: s}
	s.AddHandler(func(_ *discordgo.Session, g *discordgo.GuildCreate) {
		ss.mu.Lock()
		ss.guilds = append(ss.guilds, g.ID)
		ss.mu.Unlock()
	})
	s.AddHandler(func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		ss.mu.Lock()
		ss.got = append(ss.got, ic.ChannelID)
		ss.mu.Unlock()
		_ = s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "shard " + strconv.Itoa(id)}})
	})
	if err := s.Open(); err != nil {
		t.Fatalf("opening shard %d of %d: %v", id, count, err)
	}
	t.Cleanup(func() { s.Close() })
	return ss
}

func (ss *shardSession) seen() (guilds, channels []string) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return slices.Clone(ss.guilds), slices.Clone(ss.got)
}

// TestShardRouting connects shards 0 and 1 of 2: each receives the
// guilds of its shard (READY and GUILD_CREATE, including a guild added
// later) and their interactions, and DM interactions reach shard 0 only.
func TestShardRouting(t *testing.T) {
	srv := discordtest.New()
	defer srv.Close()
	g0, g1, g2, g3 := shardGuild(4), shardGuild(5), shardGuild(6), shardGuild(7) // shards 0, 1, 0, 1
	for i, g := range []string{g0, g1} {
		srv.AddChannel(g, strconv.Itoa(300+i), "games")
	}
	srv.AddUser(alice, "alice")
	dm := srv.DMChannel(alice)

	if got := []int{discordtest.ShardOf(g0, 2), discordtest.ShardOf(g1, 2), discordtest.ShardOf("", 2),
		discordtest.ShardOf(g1, 1), discordtest.ShardOf("100", 2)}; !slices.Equal(got, []int{0, 1, 0, 0, 0}) {
		t.Fatalf("ShardOf = %v, want [0 1 0 0 0]", got)
	}
	sh0 := openShard(t, srv, 0, 2)
	sh1 := openShard(t, srv, 1, 2)
	if _, err := sh0.s.ApplicationCommandBulkOverwrite(srv.ApplicationID(), "", commands()); err != nil {
		t.Fatal(err)
	}
	srv.AddChannel(g2, "302", "games")
	srv.AddChannel(g3, "303", "games")
	if got := srv.Shards(); !slices.Equal(got, []discordtest.Shard{{ID: 0, Count: 2}, {ID: 1, Count: 2}}) {
		t.Fatalf("Shards = %v", got)
	}

	for _, ch := range []string{"300", "301", "302", "303", dm} {
		ix, err := srv.Slash(alice, ch, "slow")
		if err != nil {
			t.Fatalf("/slow in %s: %v", ch, err)
		}
		if _, err := ix.Final(ctxT(t)); err != nil {
			t.Fatalf("/slow in %s: %v", ch, err)
		}
		if ix.Acks() != 1 {
			t.Fatalf("/slow in %s answered %d times", ch, ix.Acks())
		}
	}
	if err := srv.WaitFor(ctxT(t), func() bool {
		g0s, _ := sh0.seen()
		g1s, _ := sh1.seen()
		return len(g0s) == 2 && len(g1s) == 2
	}); err != nil {
		t.Fatal("GUILD_CREATE did not arrive")
	}
	guilds0, got0 := sh0.seen()
	guilds1, got1 := sh1.seen()
	if !slices.Equal(guilds0, []string{g0, g2}) || !slices.Equal(guilds1, []string{g1, g3}) {
		t.Errorf("guilds: shard 0 %v (want %v), shard 1 %v (want %v)", guilds0, []string{g0, g2}, guilds1,
			[]string{g1, g3})
	}
	if !slices.Equal(got0, []string{"300", "302", dm}) || !slices.Equal(got1, []string{"301", "303"}) {
		t.Errorf("interactions: shard 0 %v, shard 1 %v; want [300 302 %s] and [301 303]", got0, got1, dm)
	}
}

// TestInvalidShardIsRefused: IDENTIFY with a shard outside 0..count-1
// (or no shards at all) is closed with 4010, as Discord does, and no
// session is made. discordgo refuses shard_id >= num_shards itself, so
// the shard is set in the payload directly.
func TestInvalidShardIsRefused(t *testing.T) {
	srv := discordtest.New()
	defer srv.Close()
	for _, shard := range [][2]int{{2, 2}, {-1, 2}, {0, 0}} {
		s, err := discordgo.New("Bot test-token")
		if err != nil {
			t.Fatal(err)
		}
		s.Client = srv.HTTPClient()
		s.ShouldReconnectOnError = false
		s.Identify.Shard = &shard
		err = s.Open()
		var ce *websocket.CloseError
		if !errors.As(err, &ce) || ce.Code != 4010 {
			t.Errorf("shard %v: Open = %v, want close 4010", shard, err)
		}
		s.Close()
	}
	if srv.Identifies() != 0 {
		t.Fatalf("%d sessions made with invalid shards", srv.Identifies())
	}
}

// TestShardWithoutSession: an interaction in a guild whose shard has no
// session is refused with ErrNoBot even when another shard is connected.
func TestShardWithoutSession(t *testing.T) {
	srv := discordtest.New()
	defer srv.Close()
	srv.AddChannel(shardGuild(1), "301", "games") // shard 1 of 2
	srv.AddUser(alice, "alice")
	sh0 := openShard(t, srv, 0, 2)
	if _, err := sh0.s.ApplicationCommandBulkOverwrite(srv.ApplicationID(), "", commands()); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.Slash(alice, "301", "slow"); !errors.Is(err, discordtest.ErrNoBot) {
		t.Fatalf("/slow in a guild of shard 1 with shard 0 alone: %v, want ErrNoBot", err)
	}
}
