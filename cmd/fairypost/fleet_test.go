package main

import (
	"context"
	"fmt"
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
)

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
	// started tells the front that process i runs, with the logs it
	// wrote so far.
	started(i int, logs string)
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

func (f *shardFront) started(int, string) {}
func (f *shardFront) restarts() bool      { return true }
func (f *shardFront) close()              {}

// httpFront is Discord's interactions endpoint in front of HTTP-only
// workers (discord.http_listen, public_key, gateway = false): the fake
// posts each interaction, signed, to the workers' endpoints in turn, and
// one whose connection is refused (a worker down) is skipped, as a load
// balancer does. A dead worker needs no restart: the others take its
// share.
type httpFront struct {
	srv *discordtest.Server

	mu   sync.Mutex
	urls []string // each process's endpoint, once it listens
	live []bool
}

func newHTTPFront(srv *discordtest.Server, n int) *httpFront {
	return &httpFront{srv: srv, urls: make([]string, n), live: make([]bool, n)}
}

func (f *httpFront) config(int) string {
	return fmt.Sprintf("api_url = %q\nhttp_listen = \"127.0.0.1:0\"\npublic_key = %q\ngateway = false\n", f.srv.URL(), f.srv.PublicKeyHex())
}

// started records the endpoint process i logged and gives the fake every
// endpoint known (a dead worker's stays: its connections are refused).
func (f *httpFront) started(i int, logs string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if addr := listeningAddr(logs); addr != "" {
		f.urls[i] = "http://" + addr + "/interactions"
	}
	f.srv.SetInteractionsEndpoint(f.urls...)
}

func (f *httpFront) setLive(i int, live bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.live[i] = live
}

func (f *httpFront) isLive(i int) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.live[i]
}

// owner is the worker whose endpoint answered the interaction's POST (or
// was cut off while answering it), once the POST is over.
func (f *httpFront) owner(ix *discordtest.Interaction) (int, bool) {
	done, cancel := context.WithCancel(context.Background())
	cancel() // only what is known now
	d, err := ix.Delivery(done)
	if err != nil {
		return 0, false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, u := range f.urls {
		if u != "" && u == d.Endpoint {
			return i, true
		}
	}
	return 0, false
}

func (f *httpFront) restarts() bool { return false }
func (f *httpFront) close()         {}

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
	f.front.started(i, p.stderr.String())
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
