package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot/discordtest"
	"github.com/gorilla/websocket"
)

// buildBinary builds fairypost into a temporary folder of tb and returns
// its path; tb is skipped with -short or without the go command.
func buildBinary(tb testing.TB) string {
	tb.Helper()
	if testing.Short() {
		tb.Skip("builds the binary; skipped with -short")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		tb.Skip("go command not found:", err)
	}
	bin := filepath.Join(tb.TempDir(), "fairypost")
	if out, err := exec.Command(goCmd, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		tb.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// front is how the interactions of the fake Discord reach the bot
// processes of a fleet, so that each is served by exactly one process.
// The fake dispatches every gateway event to every session; what decides
// which process serves an interaction is the front's (a proxy in front of
// each gateway connection today; gateway shards or HTTP workers behind a
// balancer are other fronts).
type front interface {
	// config returns the [discord] table of process i (api_url and
	// whatever else the front needs), without the table's header.
	config(i int) string
	// setLive tells the front that process i runs (after it connected)
	// or is gone (before it is killed): a balancer's health check.
	setLive(i int, live bool)
	isLive(i int) bool
	// owner returns the process an interaction was given to, and false
	// while it was given to none.
	owner(ix *discordtest.Interaction) (int, bool)
	// restarts reports whether a process that dies must be started
	// again for its users to be served (a shard: Discord sends its
	// servers' interactions to it alone), as a supervisor would.
	restarts() bool
	close()
}

// shardFront is gateway sharding as Discord does it: process i is shard
// i of n (discord.shard_id, discord.shard_count), and the fake sends each
// guild's interactions to the session of the guild's shard
// (discordtest.ShardOf). A dead shard's servers are unserved until it is
// started again.
type shardFront struct {
	srv *discordtest.Server
	n   int

	mu   sync.Mutex
	live []bool
}

func newShardFront(srv *discordtest.Server, n int) *shardFront {
	return &shardFront{srv: srv, n: n, live: make([]bool, n)}
}

func (f *shardFront) config(i int) string {
	return fmt.Sprintf("api_url = %q\nshard_id = %d\nshard_count = %d\n", f.srv.URL(), i, f.n)
}

func (f *shardFront) setLive(i int, live bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.live[i] = live
}

func (f *shardFront) isLive(i int) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.live[i]
}

func (f *shardFront) owner(ix *discordtest.Interaction) (int, bool) {
	return discordtest.ShardOf(ix.GuildID, f.n), true
}

func (f *shardFront) restarts() bool { return true }
func (f *shardFront) close()         {}

// gatewayRouter is a front made of one proxy per process between the
// process and the fake: REST passes through; the gateway address the
// fake hands out is replaced by the proxy's, and the proxy forwards the
// gateway's frames, except INTERACTION_CREATE dispatches given to another
// process. An interaction is given to one live process, chosen by a hash
// of its ID (as a balancer spreads HTTP interactions over workers); a
// process that dies keeps the interactions it was given (they fail for
// their users, who try again).
type gatewayRouter struct {
	srv     *discordtest.Server
	proxies []*httptest.Server

	mu     sync.Mutex
	live   []bool
	owners map[string]int
}

// newGatewayRouter starts the proxies of n processes in front of srv.
func newGatewayRouter(srv *discordtest.Server, n int) *gatewayRouter {
	r := &gatewayRouter{srv: srv, live: make([]bool, n), owners: map[string]int{}}
	target, _ := url.Parse(srv.URL())
	for i := range n {
		rp := httputil.NewSingleHostReverseProxy(target)
		rp.ErrorLog = log.New(io.Discard, "", 0) // requests cut by a process killed
		var p *httptest.Server
		rp.ModifyResponse = func(resp *http.Response) error { return r.rewriteGateway(resp, p) }
		p = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			if websocket.IsWebSocketUpgrade(req) {
				r.pump(i, w, req)
				return
			}
			rp.ServeHTTP(w, req)
		}))
		r.proxies = append(r.proxies, p)
	}
	return r
}

func (r *gatewayRouter) config(i int) string {
	return fmt.Sprintf("api_url = %q\n", r.proxies[i].URL)
}

func (r *gatewayRouter) setLive(i int, live bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.live[i] = live
}

func (r *gatewayRouter) isLive(i int) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.live[i]
}

func (r *gatewayRouter) owner(ix *discordtest.Interaction) (int, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	o, ok := r.owners[ix.ID]
	return o, ok
}

func (r *gatewayRouter) restarts() bool { return false }

func (r *gatewayRouter) close() {
	for _, p := range r.proxies {
		p.CloseClientConnections()
		p.Close()
	}
}

// mine reports whether interaction id goes to process i, giving it to a
// live process the first time a proxy asks.
func (r *gatewayRouter) mine(i int, id string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	o, ok := r.owners[id]
	if !ok {
		var live []int
		for j, l := range r.live {
			if l {
				live = append(live, j)
			}
		}
		if len(live) == 0 {
			return false
		}
		h := fnv.New32a()
		h.Write([]byte(id))
		o = live[int(h.Sum32()%uint32(len(live)))]
		r.owners[id] = o
	}
	return o == i
}

// rewriteGateway replaces the gateway address in the fake's answers to
// GET /gateway and /gateway/bot by the proxy p's.
func (r *gatewayRouter) rewriteGateway(resp *http.Response, p *httptest.Server) error {
	if !strings.HasSuffix(resp.Request.URL.Path, "/gateway") && !strings.HasSuffix(resp.Request.URL.Path, "/gateway/bot") {
		return nil
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return err
	}
	var m map[string]any
	if err := json.Unmarshal(body, &m); err == nil {
		if _, ok := m["url"]; ok {
			m["url"] = "ws://" + strings.TrimPrefix(p.URL, "http://")
			body, _ = json.Marshal(m)
		}
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
	return nil
}

// pump joins process i's gateway connection to a connection of its own
// to the fake's gateway, dropping the interactions given to others.
func (r *gatewayRouter) pump(i int, w http.ResponseWriter, req *http.Request) {
	up := websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}
	client, err := up.Upgrade(w, req, nil)
	if err != nil {
		return
	}
	defer client.Close()
	server, _, err := websocket.DefaultDialer.Dial(r.srv.GatewayURL()+req.URL.RequestURI(), nil)
	if err != nil {
		return
	}
	defer server.Close()
	done := make(chan struct{}, 2)
	go func() {
		defer func() { done <- struct{}{} }()
		for {
			t, msg, err := client.ReadMessage()
			if err != nil {
				return
			}
			if err := server.WriteMessage(t, msg); err != nil {
				return
			}
		}
	}()
	go func() {
		defer func() { done <- struct{}{} }()
		for {
			t, msg, err := server.ReadMessage()
			if err != nil {
				return
			}
			if t == websocket.TextMessage && bytes.Contains(msg, []byte(`"INTERACTION_CREATE"`)) {
				var f struct {
					T string `json:"t"`
					D struct {
						ID string `json:"id"`
					} `json:"d"`
				}
				if json.Unmarshal(msg, &f) == nil && f.T == "INTERACTION_CREATE" && !r.mine(i, f.D.ID) {
					continue
				}
			}
			if err := client.WriteMessage(t, msg); err != nil {
				return
			}
		}
	}()
	<-done // either side gone: close both
}

// botProcess is one "fairypost run" process of a fleet.
type botProcess struct {
	i      int
	cmd    *exec.Cmd
	stderr *lockedBuffer
	exited chan struct{}
	err    error // of Wait, once exited is closed
}

// fleet runs bot processes (the built binary) that share one store,
// reached by the fake Discord through a front.
type fleet struct {
	tb    testing.TB
	bin   string
	dir   string
	front front
	// common is the configuration after the [discord] table: storage,
	// render, log.
	common string
	procs  []*botProcess
}

// start starts process i (again, after it died) and waits until it runs.
func (f *fleet) start(ctx context.Context, i int) *botProcess {
	f.tb.Helper()
	cfg := filepath.Join(f.dir, fmt.Sprintf("bot%d.toml", i))
	text := "[discord]\n" + f.front.config(i) + "defer_after = \"1s\"\ndeliver_every = \"500ms\"\n" + f.common
	if err := os.WriteFile(cfg, []byte(text), 0o600); err != nil {
		f.tb.Fatal(err)
	}
	cmd := exec.Command(f.bin, "run", "-config", cfg)
	cmd.Env = append(os.Environ(), "DISCORD_TOKEN=t")
	p := &botProcess{i: i, cmd: cmd, stderr: &lockedBuffer{}, exited: make(chan struct{})}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		f.tb.Fatal(err)
	}
	go func() { p.err = cmd.Wait(); close(p.exited) }()
	f.tb.Cleanup(func() {
		cmd.Process.Kill()
		<-p.exited
	})
	for len(f.procs) <= i {
		f.procs = append(f.procs, nil)
	}
	f.procs[i] = p
	for !strings.Contains(p.stderr.String(), `"msg":"fairypost: running"`) {
		select {
		case <-ctx.Done():
			f.tb.Fatalf("process %d did not start: %s", i, p.stderr.String())
		case <-p.exited:
			f.tb.Fatalf("process %d exited at start (%v): %s", i, p.err, p.stderr.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	f.front.setLive(i, true)
	return p
}

// leader returns the live process that etcd's election names as the
// leader (running the scheduler and the deliverer), or nil: none, or one
// that died and whose lease has not expired yet. lead reads the election
// (etcdstore.Store.Leader), whose IDs end with "/PID".
func (f *fleet) leader(ctx context.Context, lead func(context.Context) (string, error)) *botProcess {
	id, err := lead(ctx)
	if err != nil || id == "" {
		return nil
	}
	for _, p := range f.procs {
		if p == nil || !strings.HasSuffix(id, "/"+strconv.Itoa(p.cmd.Process.Pid)) {
			continue
		}
		select {
		case <-p.exited:
			return nil
		default:
			return p
		}
	}
	return nil
}

// kill takes process i out of the front and kills it with SIGKILL.
func (f *fleet) kill(i int) {
	f.tb.Helper()
	f.front.setLive(i, false)
	if err := f.procs[i].cmd.Process.Signal(syscall.SIGKILL); err != nil {
		f.tb.Fatal(err)
	}
	<-f.procs[i].exited
}

// stop ends every process still running with SIGTERM and checks that
// each stops cleanly within limit.
func (f *fleet) stop(limit time.Duration) {
	f.tb.Helper()
	for _, p := range f.procs {
		select {
		case <-p.exited:
			continue
		default:
		}
		f.front.setLive(p.i, false)
		p.cmd.Process.Signal(syscall.SIGTERM)
	}
	for _, p := range f.procs {
		select {
		case <-p.exited:
		case <-time.After(limit):
			f.tb.Errorf("process %d did not stop after SIGTERM", p.i)
			continue
		}
		if ws, ok := p.cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
			continue // killed by the test
		}
		if p.err != nil {
			f.tb.Errorf("process %d after SIGTERM: %v\n%s", p.i, p.err, tail(p.stderr.String(), 4000))
		}
	}
}

// tail returns the last n bytes of s.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}
