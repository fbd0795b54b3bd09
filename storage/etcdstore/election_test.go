package etcdstore_test

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/storage/etcdstore"
	"github.com/fairypost/fairypost/storage/etcdstore/etcdtest"
)

// logLine is one record a logRecorder kept: its level, message and
// attributes as "key=value" words.
type logLine struct {
	level slog.Level
	msg   string
	attrs string
}

func (l logLine) String() string { return fmt.Sprintf("%s %q %s", l.level, l.msg, l.attrs) }

// logRecorder is a slog.Handler that keeps every record (debug
// included) and tells waiters of each new one.
type logRecorder struct {
	mu    sync.Mutex
	lines []logLine
	added chan struct{} // closed and replaced on every record
}

func newLogRecorder() *logRecorder { return &logRecorder{added: make(chan struct{})} }

func (r *logRecorder) logger() *slog.Logger { return slog.New(r) }

func (r *logRecorder) Enabled(context.Context, slog.Level) bool { return true }
func (r *logRecorder) WithAttrs([]slog.Attr) slog.Handler       { return r }
func (r *logRecorder) WithGroup(string) slog.Handler            { return r }

func (r *logRecorder) Handle(_ context.Context, rec slog.Record) error {
	var attrs []string
	rec.Attrs(func(a slog.Attr) bool {
		attrs = append(attrs, a.Key+"="+a.Value.String())
		return true
	})
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lines = append(r.lines, logLine{rec.Level, rec.Message, strings.Join(attrs, " ")})
	close(r.added)
	r.added = make(chan struct{})
	return nil
}

// snapshot returns the lines kept so far.
func (r *logRecorder) snapshot() []logLine {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]logLine(nil), r.lines...)
}

// waitFor waits until a line with msg is kept and returns it; it fails
// t after a minute without one.
func (r *logRecorder) waitFor(t *testing.T, msg string) logLine {
	t.Helper()
	deadline := time.After(time.Minute)
	for {
		r.mu.Lock()
		added := r.added
		for _, l := range r.lines {
			if l.msg == msg {
				r.mu.Unlock()
				return l
			}
		}
		r.mu.Unlock()
		select {
		case <-added:
		case <-deadline:
			t.Fatalf("no log line %q; lines: %v", msg, r.snapshot())
		}
	}
}

// raftLeader waits until the running members agree on a raft leader and
// returns it (other than not, unless not is -1).
func raftLeader(t *testing.T, c *etcdtest.Cluster, not int) int {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		if l := c.Leader(); l >= 0 && l != not {
			return l
		}
		select {
		case <-deadline:
			t.Fatal("the members elected no raft leader")
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// TestOpenWaitsForTheCluster: a process started while the cluster cannot
// answer — one member of three running, no quorum, no raft leader —
// does not give up after one dial timeout: Open tries again, logging
// which endpoints it waits for and why, and returns the store once a
// second member is back and a leader is elected. Started right after the
// raft leader crashed, with two members left electing a new one, Open
// comes up too. A cluster that never answers ends Open after
// StartupWait, with one error naming the endpoints.
func TestOpenWaitsForTheCluster(t *testing.T) {
	c := etcdtest.Start(t, 3, etcdtest.Options{Relay: true})
	prefix := openStore(t, c).Prefix()
	c.Stop(1)
	c.Stop(2)

	rec := newLogRecorder()
	type opened struct {
		s   *etcdstore.Store
		err error
	}
	done := make(chan opened, 1)
	start := time.Now()
	go func() {
		s, err := etcdstore.Open(t.Context(), etcdstore.Options{Endpoints: c.Endpoints, Prefix: prefix,
			DialTimeout: 200 * time.Millisecond, StartupWait: time.Minute, Logger: rec.logger()})
		done <- opened{s, err}
	}()
	waiting := rec.waitFor(t, "etcd: waiting for the cluster to answer")
	for _, want := range []string{"endpoints=" + strings.Join(c.Endpoints, ","), "why=", "try=1"} {
		if !strings.Contains(waiting.attrs, want) {
			t.Errorf("the waiting line %v does not say %s", waiting, want)
		}
	}
	c.Restart(t, 1)
	o := <-done
	if o.err != nil {
		t.Fatalf("Open with a member back: %v; log %v", o.err, rec.snapshot())
	}
	defer o.s.Close()
	rec.waitFor(t, "etcd: the cluster answers")
	t.Logf("without quorum at the start: up after %v, %d waiting lines", time.Since(start).Round(time.Millisecond), len(rec.snapshot())-1)

	// The raft leader crashes; a process starts at once, while the two
	// members left elect another.
	c.Restart(t, 2)
	lead := raftLeader(t, c, -1)
	c.Kill(lead)
	rec2 := newLogRecorder()
	start = time.Now()
	s, err := etcdstore.Open(t.Context(), etcdstore.Options{Endpoints: c.Endpoints, Prefix: prefix,
		StartupWait: time.Minute, Logger: rec2.logger()})
	if err != nil {
		t.Fatalf("Open while the raft leader is re-elected: %v", err)
	}
	defer s.Close()
	t.Logf("started as the raft leader (member %d) crashed: up after %v, log %v", lead, time.Since(start).Round(time.Millisecond), rec2.snapshot())

	// Nothing answers: one error after StartupWait.
	_, err = etcdstore.Open(t.Context(), etcdstore.Options{Endpoints: []string{"http://127.0.0.1:1"}, Prefix: prefix,
		DialTimeout: 100 * time.Millisecond, StartupWait: 500 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "http://127.0.0.1:1") || !strings.Contains(err.Error(), "did not answer") {
		t.Errorf("Open on no etcd: %v; want one error naming the endpoint and saying it did not answer", err)
	}
}

// TestWritesInFlightWhenTheRaftLeaderDies: writers update games
// continuously (each at the version it last saw, as a player's move is)
// while the raft leader of a three-member cluster crashes. Every write
// either succeeds — and is then stored exactly once — or is answered
// bot.EUNKNOWN (it may have been applied) or bot.EUNAVAILABLE (it was
// not), never another error (a read that fails is EUNAVAILABLE too): a commit that got no answer and was not
// applied is tried again once the new leader answers. The leader is
// crashed again (after a restart of the member) until a write was
// caught in flight, at most three times.
func TestWritesInFlightWhenTheRaftLeaderDies(t *testing.T) {
	c := etcdtest.Start(t, 3, etcdtest.Options{Relay: true})
	s := openStore(t, c)
	ctx := t.Context()
	const writers, afterKill = 8, 6
	games := make([]*bot.Game, writers)
	for i := range games {
		games[i] = addGame(t, s, "alice", "bob", fmt.Sprintf("c%d", i))
	}
	acked := make([]map[string]bool, writers) // moves answered played
	maybe := make([]map[string]bool, writers) // moves answered EUNKNOWN
	for i := range acked {
		acked[i], maybe[i] = map[string]bool{}, map[string]bool{}
	}
	var unknowns, unavailables, next int
	for round := 1; round <= 3 && s.Retried() == 0 && unknowns == 0; round++ {
		var wg sync.WaitGroup
		var mu sync.Mutex
		started := make(chan struct{}, writers)
		killed := make(chan struct{})
		for w := range writers {
			wg.Go(func() {
				g := games[w]
				for n := 0; ; n++ {
					if n == 3 {
						started <- struct{}{}
					}
					select {
					case <-killed:
						if n >= 3+afterKill {
							games[w] = g
							return
						}
					default:
					}
					mu.Lock()
					next++
					m := fmt.Sprintf("m%d", next)
					mu.Unlock()
					ng, err := s.UpdateGame(ctx, g.ID, g.Version, func(g *bot.Game) ([]bot.Notification, error) {
						g.Moves = append(g.Moves, m)
						return []bot.Notification{{Kind: bot.NotifyYourTurn, UserID: "bob", GameID: g.ID, Text: m}}, nil
					})
					mu.Lock()
					switch code := bot.ErrorCode(err); code {
					case "":
						acked[w][m] = true
						g = ng
					case bot.EUNKNOWN, bot.EUNAVAILABLE:
						if code == bot.EUNKNOWN {
							unknowns++
							maybe[w][m] = true
						} else {
							unavailables++
						}
					default:
						t.Errorf("write %s to game %d: %v (code %s), want success, %s or %s", m, g.ID, err, code, bot.EUNKNOWN, bot.EUNAVAILABLE)
					}
					mu.Unlock()
					for err != nil { // look, as the player would with /board
						var now *bot.Game
						if now, err = s.Game(ctx, g.ID); err == nil {
							g = now
						} else if ctx.Err() != nil {
							return
						} else if code := bot.ErrorCode(err); code != bot.EUNAVAILABLE {
							t.Errorf("reading game %d: %v (code %s), want %s while the cluster does not answer", g.ID, err, code, bot.EUNAVAILABLE)
						}
					}
				}
			})
		}
		for range writers {
			<-started
		}
		lead := raftLeader(t, c, -1)
		c.Kill(lead)
		close(killed)
		wg.Wait()
		t.Logf("round %d: raft leader (member %d) crashed under %d writers: %d commits tried again, %d EUNKNOWN, %d EUNAVAILABLE",
			round, lead, writers, s.Retried(), unknowns, unavailables)
		c.Restart(t, lead)
	}
	if s.Retried() == 0 && unknowns == 0 {
		t.Fatal("the raft leader's death caught no write in flight in three rounds: nothing was shown")
	}
	for w, g0 := range games {
		g, err := s.Game(ctx, g0.ID)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, m := range g.Moves {
			if seen[m] {
				t.Errorf("game %d: %s stored twice: %v", g.ID, m, g.Moves)
			}
			seen[m] = true
			if !acked[w][m] && !maybe[w][m] {
				t.Errorf("game %d: %s stored though refused", g.ID, m)
			}
		}
		for m := range acked[w] {
			if !seen[m] {
				t.Errorf("game %d: %s answered played but not stored", g.ID, m)
			}
		}
	}
}

// TestLeadershipOutlivesAnEtcdElection: the raft leader of a
// three-member cluster crashes, three times (restarted in between),
// while three processes take part in an election with a lease of two
// seconds (twenty times the test cluster's election timeout: one second
// was lost now and then under the race detector on two loaded cores,
// where a renewal's round trip alone took most of it). The process
// leading keeps leading through each etcd election — its lease is renewed
// again once a raft leader answers, and no other process ever leads — and
// nothing is logged at ERROR, nor "leadership lost". When the processes
// stop, the leader steps down and nothing is logged at WARN or above.
func TestLeadershipOutlivesAnEtcdElection(t *testing.T) {
	c := etcdtest.Start(t, 3, etcdtest.Options{Relay: true})
	prefix := openStore(t, c).Prefix()
	type proc struct {
		store  *etcdstore.Store
		log    *logRecorder
		cancel context.CancelFunc
		done   chan error
	}
	var mu sync.Mutex
	var leaders []int
	led := make(chan int, 10)
	var procs []*proc
	for i := range 3 {
		s, err := etcdstore.Open(t.Context(), etcdstore.Options{Endpoints: c.Endpoints, Prefix: prefix})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		ctx, cancel := context.WithCancel(context.Background())
		p := &proc{store: s, log: newLogRecorder(), cancel: cancel, done: make(chan error, 1)}
		procs = append(procs, p)
		go func() {
			p.done <- s.Lead(ctx, etcdstore.LeaderOptions{Name: "scheduler", ID: fmt.Sprint(i), TTL: 2 * time.Second, Logger: p.log.logger()},
				func(ctx context.Context) {
					mu.Lock()
					leaders = append(leaders, i)
					mu.Unlock()
					led <- i
					<-ctx.Done()
				})
		}()
	}
	defer func() {
		for _, p := range procs {
			p.cancel()
		}
	}()
	var first int
	select {
	case first = <-led:
	case <-time.After(30 * time.Second):
		t.Fatal("nobody leads")
	}
	renewedTwice := func(after int64) {
		t.Helper()
		deadline := time.After(30 * time.Second)
		for procs[first].store.Renewals() < after+2 {
			select {
			case <-deadline:
				t.Fatalf("the leader's lease was not renewed after the etcd election; log %v", procs[first].log.snapshot())
			case <-time.After(10 * time.Millisecond):
			}
		}
	}
	for round := range 3 {
		lead := raftLeader(t, c, -1)
		renewed := procs[first].store.Renewals()
		c.Kill(lead)
		raftLeader(t, c, lead)
		renewedTwice(renewed)
		t.Logf("round %d: raft leader member %d crashed; renewals of the leader's lease tried again so far: %d", round, lead, procs[first].store.RenewRetries())
		c.Restart(t, lead)
	}
	mu.Lock()
	if len(leaders) != 1 {
		t.Errorf("leaders through the etcd elections: %v, want %d alone", leaders, first)
	}
	mu.Unlock()
	for i, p := range procs {
		for _, l := range p.log.snapshot() {
			if l.level >= slog.LevelError || strings.Contains(l.msg, "leadership lost") {
				t.Errorf("process %d logged %v; its log: %v", i, l, p.log.snapshot())
			}
		}
	}
	// A clean shutdown: the leader last, so that it hands over to nobody.
	for i, p := range procs {
		if i != first {
			p.cancel()
			<-p.done
		}
	}
	before := len(procs[first].log.snapshot())
	procs[first].cancel()
	if err := <-procs[first].done; err != nil {
		t.Errorf("Lead after its context ended: %v", err)
	}
	for _, l := range procs[first].log.snapshot()[before:] {
		if l.level >= slog.LevelWarn {
			t.Errorf("the leader logged %v while stopping", l)
		}
	}
	procs[first].log.waitFor(t, "etcd: stepped down")
	for _, p := range procs {
		p.done <- nil // for the deferred cancel, done already read
	}
}

// TestOpenOnceWaitsTheDialTimeout: without StartupWait, Open makes one
// try bounded by the whole dial timeout (not the shorter first try of a
// wait), and says so.
func TestOpenOnceWaitsTheDialTimeout(t *testing.T) {
	_, err := etcdstore.Open(t.Context(), etcdstore.Options{Endpoints: []string{"http://127.0.0.1:1"}, DialTimeout: 1500 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "no member answered within 1.5s") {
		t.Errorf("Open on no etcd: %v; want no member answered within 1.5s", err)
	}
}
