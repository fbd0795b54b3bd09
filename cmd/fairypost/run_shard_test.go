package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/fairypost/fairypost/bot/discordtest"
	"github.com/fairypost/fairypost/storage/etcdstore/etcdtest"
)

// TestRunShards runs "fairypost run" twice on one etcd cluster, as shards
// 0 and 1 of 2 (discord.shard_id/shard_count): both identify with their
// shard, the commands are written once (by shard 0), and a challenge in
// a server of each shard is answered.
func TestRunShards(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	srv := discordtest.New()
	defer srv.Close()
	var channels []string
	for k := uint64(4); k <= 5; k++ { // servers of shards 0 and 1
		g := strconv.FormatUint(k<<22, 10)
		channels = append(channels, strconv.FormatUint(k<<22+1, 10))
		srv.AddChannel(g, channels[len(channels)-1], "games")
	}
	srv.AddUser("1", "alice")
	srv.AddUser("2", "bob")
	dir := t.TempDir()
	wait, stop := context.WithTimeout(context.Background(), 30*time.Second)
	defer stop()
	var runs []*runningBot
	for shard := range 2 {
		text := fmt.Sprintf("[discord]\ntoken = \"t\"\napi_url = %q\nshard_id = %d\nshard_count = 2\n", srv.URL(), shard) +
			etcdConfig(c, "shards/") + "[log]\nformat = \"json\"\nlevel = \"debug\"\n"
		runs = append(runs, startRunWhen(t, filepath.Join(dir, fmt.Sprintf("shard%d.toml", shard)), text, func() bool {
			return len(srv.Shards()) == shard+1 && len(srv.Commands("")) > 0
		}, wait, srv))
	}
	if got := srv.Shards(); !slices.Equal(got, []discordtest.Shard{{ID: 0, Count: 2}, {ID: 1, Count: 2}}) {
		t.Fatalf("connected shards %v", got)
	}
	if n := srv.CommandWrites(); n != 1 {
		t.Errorf("commands written %d times by two shards, want once", n)
	}
	for _, ch := range channels {
		ix, err := srv.Slash("1", ch, "challenge", discordtest.String("variant", "chess"), discordtest.User("opponent", "2"))
		if err != nil {
			t.Fatal(err)
		}
		if m, err := ix.Final(wait); err != nil || !strings.Contains(m.Content, "challenge") || ix.Acks() != 1 {
			t.Errorf("challenge in %s: %q, %d answers, err %v", ch, m.Content, ix.Acks(), err)
		}
	}
	for i, r := range runs {
		r.stop(t, 20*time.Second)
		if logs := r.stderr.String(); !strings.Contains(logs, fmt.Sprintf(`"shard":[%d,2]`, i)) {
			t.Errorf("shard %d's READY log lacks its shard:\n%s", i, logs)
		}
	}
}

// startRunWhen runs "fairypost run -config cfg" with text as the file and
// waits (until wait ends) for ready to hold.
func startRunWhen(t *testing.T, cfg, text string, ready func() bool, wait context.Context, srv *discordtest.Server) *runningBot {
	t.Helper()
	if err := os.WriteFile(cfg, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	r := &runningBot{stderr: &lockedBuffer{}, cancel: cancel, done: make(chan int, 1)}
	go func() {
		var stdout lockedBuffer
		r.done <- Main(ctx, []string{"run", "-config", cfg}, strings.NewReader(""), &stdout, r.stderr)
	}()
	if err := srv.WaitFor(wait, ready); err != nil {
		t.Fatalf("the bot did not connect: %v; stderr %s", err, r.stderr.String())
	}
	return r
}

// TestShardRefusalAdvice: Discord's refusals of a shard (gateway closes
// 4010 and 4011) are bad input naming the keys to change.
func TestShardRefusalAdvice(t *testing.T) {
	for _, code := range []int{4010, 4011} {
		err := connectError(fmt.Errorf("discord: connecting: %w", &websocket.CloseError{Code: code, Text: "refused"}), "")
		var in inputError
		if !errors.As(err, &in) || !strings.Contains(err.Error(), "discord.shard_count") ||
			!strings.Contains(err.Error(), strconv.Itoa(code)) {
			t.Errorf("close %d: %v (%T), want bad input naming discord.shard_count", code, err, err)
		}
	}
}
