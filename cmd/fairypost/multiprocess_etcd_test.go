package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	botcmd "github.com/fairypost/fairypost/bot/command"
	"github.com/fairypost/fairypost/bot/discordtest"
	"github.com/fairypost/fairypost/storage/etcdstore"
	"github.com/fairypost/fairypost/storage/etcdstore/etcdtest"
)

// etcdClusterConfig returns the [storage] table of a bot on every member
// of c under prefix, as an operator lists a cluster's members.
func etcdClusterConfig(c *etcdtest.Cluster, prefix string) string {
	return fmt.Sprintf("[storage]\nbackend = \"etcd\"\npath = \"unused.db\"\n[storage.etcd]\nendpoints = [%q, %q, %q]\nprefix = %q\n"+
		"leader_ttl = \"1s\"\nelection_timeout = \"100ms\"\ndial_timeout = \"300ms\"\nstartup_wait = \"1m\"\n",
		c.Endpoints[0], c.Endpoints[1], c.Endpoints[2], prefix)
}

// startRunNow runs "fairypost run -config cfg" with text as the file, in
// the background, without waiting for anything.
func startRunNow(t *testing.T, cfg, text string) *runningBot {
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
	return r
}

// waitLog waits until the run's log holds want, failing t if the run
// ends first or wait is done.
func (r *runningBot) waitLog(t *testing.T, wait context.Context, want string) {
	t.Helper()
	for !strings.Contains(r.stderr.String(), want) {
		select {
		case code := <-r.done:
			t.Fatalf("the run ended (exit %d) before logging %s; stderr:\n%s", code, want, r.stderr.String())
		case <-wait.Done():
			t.Fatalf("no %s in the log; stderr:\n%s", want, r.stderr.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// TestRunStartsDuringAnEtcdElection: "fairypost run" started while its
// etcd cluster cannot answer — one member of three running, no raft
// leader — waits for it, logging which endpoints it waits for and why,
// and comes up once a second member is back; one started right after
// the raft leader crashed, while the two members left elect another,
// comes up too. Neither logs an ERROR line, and their clean shutdowns log
// no WARN.
func TestRunStartsDuringAnEtcdElection(t *testing.T) {
	c := etcdtest.Start(t, 3, etcdtest.Options{Relay: true})
	srv := clubDiscord(t)
	dir := t.TempDir()
	text := fmt.Sprintf("[discord]\ntoken = \"t\"\napi_url = %q\nguild_id = \"100\"\n", srv.URL()) +
		etcdClusterConfig(c, "elect/") + "[log]\nformat = \"json\"\nlevel = \"debug\"\n"
	wait, stop := context.WithTimeout(context.Background(), time.Minute)
	defer stop()
	connected := func(n int) func() bool {
		return func() bool { return srv.Connections() == n }
	}
	checkLog := func(name string, logs string) {
		t.Helper()
		stopping := strings.Index(logs, `"msg":"fairypost: stopping"`)
		for _, line := range strings.Split(logs, "\n") {
			if strings.Contains(line, `"level":"ERROR"`) {
				t.Errorf("%s logged an error: %s", name, line)
			}
		}
		if stopping < 0 {
			t.Errorf("%s: no stopping line in its log:\n%s", name, logs)
		} else if strings.Contains(logs[stopping:], `"level":"WARN"`) {
			t.Errorf("%s logged a warning while stopping cleanly:\n%s", name, logs[stopping:])
		}
	}

	// No quorum at the start.
	c.Stop(1)
	c.Stop(2)
	started := time.Now()
	first := startRunNow(t, filepath.Join(dir, "first.toml"), text)
	first.waitLog(t, wait, `"msg":"etcd: waiting for the cluster to answer"`)
	for _, want := range []string{c.Endpoints[0], c.Endpoints[2], `"why":`} {
		if !strings.Contains(first.stderr.String(), want) {
			t.Errorf("the waiting line does not name %s:\n%s", want, first.stderr.String())
		}
	}
	c.Restart(t, 1)
	if err := srv.WaitFor(wait, connected(1)); err != nil {
		t.Fatalf("the process started without quorum did not come up once a member was back: %v; stderr:\n%s", err, first.stderr.String())
	}
	first.waitLog(t, wait, `"msg":"fairypost: running"`)
	t.Logf("started without quorum, a member back after its first wait: running after %v", time.Since(started).Round(time.Millisecond))

	// The raft leader crashes; a second process starts at once.
	c.Restart(t, 2)
	lead := -1
	for lead = c.Leader(); lead < 0; lead = c.Leader() {
		select {
		case <-wait.Done():
			t.Fatal("no raft leader")
		case <-time.After(5 * time.Millisecond):
		}
	}
	c.Kill(lead)
	started = time.Now()
	second := startRunNow(t, filepath.Join(dir, "second.toml"), text)
	if err := srv.WaitFor(wait, connected(2)); err != nil {
		t.Fatalf("the process started as the raft leader crashed did not come up: %v; stderr:\n%s", err, second.stderr.String())
	}
	second.waitLog(t, wait, `"msg":"fairypost: running"`)
	t.Logf("started as the raft leader (member %d) crashed: running after %v, %d waiting lines", lead,
		time.Since(started).Round(time.Millisecond), strings.Count(second.stderr.String(), "waiting for the cluster"))

	second.stop(t, 20*time.Second)
	first.stop(t, 20*time.Second)
	checkLog("the first process", first.stderr.String())
	checkLog("the second process", second.stderr.String())
}

// answer waits up to a minute for what the user of ix finally sees: the
// response message, or the follow-up that replaced a deferral (an
// ephemeral error after a deferral).
func answer(ctx context.Context, ix *discordtest.Interaction) (discordtest.Message, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	type result struct {
		m   discordtest.Message
		err error
	}
	done := make(chan result, 1)
	go func() {
		m, err := ix.Final(ctx)
		done <- result{m, err}
	}()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case r := <-done:
			if f := ix.Followups(); r.err != nil && len(f) > 0 {
				return f[0], nil
			}
			return r.m, r.err
		case <-tick.C:
			if f := ix.Followups(); len(f) > 0 {
				return f[0], nil
			}
		}
	}
}

// TestMovesInFlightWhenTheRaftLeaderDies: players of eight games move as
// fast as the bot answers, through one "fairypost run" process on a
// three-member etcd, while the raft leader crashes. Every /move is
// answered with the move played (and then it is stored once), or, for a
// write the cluster left without an answer, with the message saying
// whether it may have been played; never "Internal error.". The process
// logs no ERROR line.
func TestMovesInFlightWhenTheRaftLeaderDies(t *testing.T) {
	c := etcdtest.Start(t, 3, etcdtest.Options{Relay: true})
	srv := clubDiscord(t)
	const games, before, after = 8, 2, 8
	for i := range 2 * games {
		srv.AddUser(fmt.Sprint(500+i), fmt.Sprint("player", i))
	}
	dir := t.TempDir()
	text := fmt.Sprintf("[discord]\ntoken = \"t\"\napi_url = %q\nguild_id = \"100\"\n", srv.URL()) +
		etcdClusterConfig(c, "inflight/") + "[log]\nformat = \"json\"\n"
	wait, stop := context.WithTimeout(context.Background(), 3*time.Minute)
	defer stop()
	run := startRunNow(t, filepath.Join(dir, "bot.toml"), text)
	if err := srv.WaitFor(wait, func() bool { return srv.Connections() == 1 && len(srv.Commands("100")) > 0 }); err != nil {
		t.Fatalf("the bot did not connect: %v; stderr %s", err, run.stderr.String())
	}
	s, err := etcdstore.Open(wait, etcdstore.Options{Endpoints: c.Endpoints, Prefix: "inflight/", StartupWait: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	pl := newPlayer(srv, nil, nil, pawnLine(before+after+2))
	gs := make([]loadGame, games)
	for i := range gs {
		if gs[i], err = pl.start(wait, fmt.Sprint(500+2*i), fmt.Sprint(501+2*i), "200"); err != nil {
			t.Fatal(err)
		}
	}

	var mu sync.Mutex
	counts := map[string]int{}
	played := make(chan struct{}, games)
	var wg sync.WaitGroup
	for _, g := range gs {
		wg.Go(func() {
			ply := 0
			for sent := 0; sent < before+after; sent++ {
				if sent == before { // the leader is crashed while the games go on
					played <- struct{}{}
				}
				user := g.white
				if ply%2 == 1 {
					user = g.black
				}
				ix, err := srv.Slash(user, g.channel, "move", discordtest.String("move", pl.line[ply]), discordtest.Int("game", int64(g.id)))
				if err != nil {
					t.Error(err)
					return
				}
				m, err := answer(wait, ix)
				kind := ""
				switch {
				case err != nil:
					t.Errorf("game %d ply %d: no answer: %v", g.id, ply, err)
					return
				case !m.Ephemeral && strings.Contains(m.Content, fmt.Sprintf("#%d", g.id)):
					kind = "played"
				case m.Content == botcmd.OutcomeUnknownMove || m.Content == bot.UnavailableMessage:
					kind = m.Content
				default:
					kind = "other"
					t.Errorf("game %d ply %d: answered %q", g.id, ply, m.Content)
				}
				mu.Lock()
				counts[kind]++
				mu.Unlock()
				stored, err := s.Game(wait, g.id) // the player looks, as /board would
				if err != nil {
					t.Errorf("reading game %d: %v", g.id, err)
					return
				}
				if kind == "played" && len(stored.Moves) != ply+1 {
					t.Errorf("game %d: ply %d answered played, %d moves stored", g.id, ply, len(stored.Moves))
				}
				ply = len(stored.Moves)
			}
		})
	}
	for range games {
		<-played
	}
	lead := -1
	for lead = c.Leader(); lead < 0; lead = c.Leader() {
		time.Sleep(5 * time.Millisecond)
	}
	c.Kill(lead)
	wg.Wait()
	t.Logf("raft leader (member %d) crashed under %d games: answers %v", lead, games, counts)
	for _, g := range gs {
		stored, err := s.Game(wait, g.id)
		if err != nil {
			t.Fatal(err)
		}
		if want := canonical(t, pl.line)[:len(stored.Moves)]; !equalStrings(stored.Moves, want) {
			t.Errorf("game %d stored %v, want a prefix of the line played, each move once", g.id, stored.Moves)
		}
	}
	run.stop(t, 20*time.Second)
	for _, line := range strings.Split(run.stderr.String(), "\n") {
		if strings.Contains(line, `"level":"ERROR"`) {
			t.Errorf("the process logged an error: %s", line)
		}
	}
}
