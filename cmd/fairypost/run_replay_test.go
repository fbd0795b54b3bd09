package main

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot/discordtest"
	"github.com/fairypost/fairypost/storage/etcdstore"
	"github.com/fairypost/fairypost/storage/etcdstore/etcdtest"
)

// TestRunHTTPReplayAcrossWorkers runs two "fairypost run" HTTP-only
// workers on one in-process etcd, each with its own interactions
// endpoint, as behind a load balancer. A signed /challenge answered by
// worker A and then replayed, byte for byte, to worker B within the
// clock window is refused by B with 401 (B's own memory never saw it;
// the etcd store did), and no second challenge is made.
func TestRunHTTPReplayAcrossWorkers(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	srv := clubDiscord(t)
	dir := t.TempDir()
	wait, stopWait := context.WithTimeout(context.Background(), 30*time.Second)
	defer stopWait()
	var workers []*runningBot
	var urls []string
	for i := range 2 {
		text := fmt.Sprintf("[discord]\ntoken = \"t\"\napi_url = %q\nguild_id = \"100\"\ndeliver_every = \"20ms\"\n"+
			"http_listen = \"127.0.0.1:0\"\npublic_key = %q\ngateway = false\n", srv.URL(), srv.PublicKeyHex()) +
			etcdConfig(c, "replay/") + "[log]\nformat = \"json\"\nlevel = \"debug\"\n"
		w := startRunWhen(t, filepath.Join(dir, fmt.Sprintf("worker%d.toml", i)), text,
			func() bool { return len(srv.Commands("100")) > 0 }, wait, srv)
		var addr string
		if err := srv.WaitFor(wait, func() bool { addr = listeningAddr(w.stderr.String()); return addr != "" }); err != nil {
			t.Fatalf("worker %d does not listen: %v; stderr %s", i, err, w.stderr.String())
		}
		workers = append(workers, w)
		urls = append(urls, "http://"+addr+"/interactions")
	}
	if n := srv.Connections(); n != 0 {
		t.Errorf("HTTP-only workers opened %d gateway connections", n)
	}

	srv.SetInteractionsEndpoint(urls[0])
	ix, err := srv.Slash("1", "200", "challenge", discordtest.String("variant", "chess"), discordtest.User("opponent", "2"))
	if err != nil {
		t.Fatal(err)
	}
	if m, err := ix.Final(wait); err != nil || !strings.Contains(m.Content, "challenge") {
		t.Fatalf("challenge answer %q, err %v", m.Content, err)
	}
	if d, err := ix.Delivery(wait); err != nil || d.Status != http.StatusOK || d.Endpoint != urls[0] {
		t.Fatalf("the challenge was answered %d by %s, err %v; want 200 by worker A", d.Status, d.Endpoint, err)
	}
	d, err := srv.ReplayTo(wait, ix, urls[1])
	if err != nil || d.Status != http.StatusUnauthorized {
		t.Errorf("the challenge replayed to worker B answered %d %q, err %v; want 401", d.Status, d.Body, err)
	}
	s, err := etcdstore.Open(context.Background(), etcdstore.Options{Endpoints: c.Endpoints, Prefix: "replay/"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if cs, err := s.ChallengesByUser(context.Background(), "1"); err != nil || len(cs) != 1 {
		t.Errorf("challenges of alice in etcd after the challenge and its replay: %d, %v; want 1", len(cs), err)
	}
	if ms := srv.Messages("200"); len(ms) != 1 {
		t.Errorf("%d messages in the channel after one challenge and its replay, want 1", len(ms))
	}
	for _, w := range workers {
		w.stop(t, 20*time.Second)
	}
	if logs := workers[1].stderr.String(); !strings.Contains(logs, "seen already by another process") {
		t.Errorf("worker B's logs do not tell the replay:\n%s", logs)
	}
}
