package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/storage/etcdstore"
	"github.com/fairypost/fairypost/storage/etcdstore/etcdtest"
)

// TestFailoverAfterKill runs two bot processes (the real binary) on one
// etcd: the first is elected and delivers a notification another client
// wrote (woken by the etcd watch, not by polling); it is killed with
// SIGKILL; the second takes over once the first's lease expires and
// delivers the next notification. Each is delivered exactly once.
func TestFailoverAfterKill(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	srv := clubDiscord(t)
	cfg := filepath.Join(dir, "c.toml")
	// Polling the outbox once an hour: the notifications written by
	// another process are seen through the etcd watch (WatchChanges).
	text := fmt.Sprintf("[discord]\napi_url = %q\nguild_id = \"100\"\ndeliver_every = \"1h\"\n", srv.URL()) + etcdConfig(c, "failover/")
	if err := os.WriteFile(cfg, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	wait, stop := context.WithTimeout(context.Background(), 60*time.Second)
	defer stop()
	until := func(what string, cond func() bool) {
		t.Helper()
		for !cond() {
			select {
			case <-wait.Done():
				t.Fatalf("gave up waiting for %s", what)
			case <-time.After(10 * time.Millisecond):
			}
		}
	}
	start := func(name string) (*exec.Cmd, *lockedBuffer) {
		cmd := exec.Command(bin, "-config", cfg)
		cmd.Env = append(os.Environ(), "DISCORD_TOKEN=t")
		var stderr lockedBuffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		until(name+" running", func() bool { return strings.Contains(stderr.String(), "fairypost: running") })
		return cmd, &stderr
	}
	s, err := etcdstore.Open(context.Background(), etcdstore.Options{Endpoints: c.Endpoints, Prefix: "failover/"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	notify := func(text string) {
		t.Helper()
		ch := &bot.Challenge{Challenger: "1", Challenged: "2", GuildID: "100", ChannelID: "200", Variant: "chess",
			DaysPerMove: 3, Color: bot.ColorRandom, Status: bot.ChallengePending, Expires: time.Now().Add(time.Hour)}
		if err := s.CreateChallenge(context.Background(), ch, []bot.Notification{{Kind: bot.NotifyChallengeReceived,
			UserID: "2", GuildID: "100", ChannelID: "200", Text: text, Created: time.Now()}}); err != nil {
			t.Fatal(err)
		}
	}

	a, aLog := start("first process")
	until("the first process to lead", func() bool { return strings.Contains(aLog.String(), "etcd: leading") })
	b, bLog := start("second process")
	emptyOutbox := func() bool {
		ns, err := s.PendingNotifications(context.Background(), time.Now(), 0)
		return err == nil && len(ns) == 0
	}
	notify("one")
	until("the first notification", func() bool { return len(srv.DMs("2")) == 1 })
	// Acknowledged: a notification sent but not yet acknowledged when
	// its sender dies is sent again (at least once).
	until("the first notification acknowledged", emptyOutbox)
	if strings.Contains(bLog.String(), "etcd: leading") {
		t.Fatalf("both processes lead:\n%s", bLog.String())
	}

	if err := a.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	a.Wait()
	notify("two")
	until("the second process to lead", func() bool { return strings.Contains(bLog.String(), "etcd: leading") })
	took := time.Since(killed)
	until("the second notification", func() bool { return len(srv.DMs("2")) >= 2 })
	until("an empty outbox", emptyOutbox)
	t.Logf("the second process led %v after the first was killed (leader_ttl 1s)", took.Round(time.Millisecond))
	if dms := srv.DMs("2"); len(dms) != 2 {
		for _, m := range dms {
			t.Logf("DM: %q", m.Content)
		}
		t.Errorf("%d DMs to bob, want 2 (one per notification)", len(dms))
	}
	if err := b.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := b.Wait(); err != nil {
		t.Errorf("second process after SIGTERM: %v\n%s", err, bLog.String())
	}
}
