package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
