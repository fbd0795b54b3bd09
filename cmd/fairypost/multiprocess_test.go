package main

import (
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/discordtest"
	"github.com/fairypost/fairypost/rules"
	"github.com/fairypost/fairypost/storage"
	"github.com/fairypost/fairypost/storage/etcdstore"
	"github.com/fairypost/fairypost/storage/etcdstore/etcdtest"
	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// multiRun is the shape of one multi-process run.
type multiRun struct {
	procs        int // bot processes
	games, plies int // games played, moves in each (at most 20)
	timed        int // games on short clocks (even: half come due before the kill, half after)
	guilds       int // the games are spread over this many guilds, one channel each
	// killAt and stopAt are the shares of the moves acknowledged when the
	// leading bot process is killed and when an etcd member is stopped.
	killAt, stopAt float64
	// front makes how interactions reach the processes.
	front func(srv *discordtest.Server, procs int) front
}

// TestMultiProcess is issue 16's proof: three "fairypost run" processes
// (the built binary) share a three-member etcd cluster and the fake
// Discord, which gives each interaction to one of them. Players answer
// as soon as it is their turn, in every game at once; a move whose
// answer they did not see (its process died, or it came too late) is
// looked for in the stored game and sent again if missing. Meanwhile the
// leading process (clocks and deliveries) is killed with SIGKILL and,
// later, an etcd member (the raft leader) is stopped. Games on short
// clocks come due before and after the kill. Afterwards:
//
//   - every game holds exactly the moves played, in order, and replays;
//   - every interaction was answered by one process only (no second
//     answer refused by the fake as already acknowledged);
//   - every move the fake showed as played is in its game, once: no two
//     acknowledged interactions for one move;
//   - another process took over the clocks: every reminder and every
//     time loss due happened exactly once (one reminder notification
//     per game, one game-over per player);
//   - no notification was lost: the outbox is empty and every user got
//     at least as many DMs as notifications were written for them
//     (duplicates, sent again after the kill, are counted and logged).
//
// 50 games of 20 moves (1,000 moves) and 8 games on short clocks, over 6
// guilds, once for each way interactions reach the processes:
//
//   - shards: each process is one gateway shard (discord.shard_id,
//     shard_count) and the fake sends each server's interactions to its
//     shard; the killed shard is started again, as a supervisor would,
//     since its servers have no other process;
//   - http: each process is an HTTP-only worker (discord.http_listen,
//     gateway = false) and the fake posts each interaction, signed, to
//     the workers in turn, skipping one whose connection is refused (a
//     load balancer); the killed worker stays dead.
//
// About 20 s each on two loaded cores (the moves take 5 to 10 s of it).
// Skipped with -short (it builds the binary).
func TestMultiProcess(t *testing.T) {
	bin := buildBinary(t)
	base := multiRun{procs: 3, games: 50, plies: 20, timed: 8, guilds: 6, killAt: 0.25, stopAt: 0.5}
	t.Run("shards", func(t *testing.T) {
		r := base
		r.front = func(srv *discordtest.Server, n int) front { return newShardFront(srv, n) }
		runMulti(t, bin, r)
	})
	t.Run("http", func(t *testing.T) {
		r := base
		r.front = func(srv *discordtest.Server, n int) front { return newHTTPFront(srv, n) }
		runMulti(t, bin, r)
	})
}

func runMulti(t *testing.T, bin string, run multiRun) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	c := etcdtest.Start(t, 3, etcdtest.Options{Relay: true})
	srv := discordtest.New()
	defer srv.Close()
	var channels []string
	for g := range run.guilds {
		// Snowflakes, so that shards split them: (ID >> 22) % shards.
		guild, channel := fmt.Sprint(uint64(g+4)<<22), fmt.Sprint(uint64(g+4)<<22+1)
		srv.AddGuild(guild, fmt.Sprint("club ", g))
		srv.AddChannel(guild, channel, "games")
		channels = append(channels, channel)
	}
	user := func(kind string, i int) string {
		id := fmt.Sprintf("%d", 30000+i)
		if kind == "t" {
			id = fmt.Sprintf("%d", 40000+i)
		}
		return id
	}
	for i := range 2 * run.games {
		srv.AddUser(user("u", i), fmt.Sprint("player", i))
	}
	for i := range 2 * run.timed {
		srv.AddUser(user("t", i), fmt.Sprint("slow", i))
	}

	const prefix = "mp/"
	s, err := etcdstore.Open(ctx, etcdstore.Options{Endpoints: c.Endpoints, Prefix: prefix})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	first, err := s.Client().Get(ctx, prefix+"outbox/", clientv3.WithPrefix(), clientv3.WithCountOnly())
	if err != nil {
		t.Fatal(err)
	}
	startRev := first.Header.Revision

	f := run.front(srv, run.procs)
	defer f.close()
	eps := make([]string, len(c.Endpoints))
	for i, ep := range c.Endpoints {
		eps[i] = fmt.Sprintf("%q", ep)
	}
	fl := &fleet{tb: t, bin: bin, dir: t.TempDir(), front: f,
		common: fmt.Sprintf("[storage]\nbackend = \"etcd\"\npath = \"unused.db\"\n[storage.etcd]\nendpoints = [%s]\nprefix = %q\nleader_ttl = \"1s\"\nelection_timeout = \"100ms\"\n"+
			"[render]\nboard_size = 160\n[log]\nformat = \"json\"\n", strings.Join(eps, ", "), prefix)}
	for i := range run.procs {
		fl.start(ctx, i)
	}
	lead := func(ctx context.Context) (string, error) { return s.Leader(ctx, "scheduler") }
	for fl.leader(ctx, lead) == nil {
		select {
		case <-ctx.Done():
			t.Fatal("no process leads")
		case <-time.After(10 * time.Millisecond):
		}
	}
	if err := srv.WaitFor(ctx, func() bool { return len(srv.Commands("")) > 0 }); err != nil {
		t.Fatal(err)
	}

	read := func(ctx context.Context, id uint64) (*bot.Game, error) { return s.Game(ctx, id) }
	pl := newPlayer(srv, f, read, pawnLine(run.plies))
	pl.slow = t.Logf
	line := canonical(t, pl.line)

	// The games, started through the fake, a few at a time.
	games := make([]loadGame, run.games)
	timed := make([]loadGame, run.timed)
	var setup sync.WaitGroup
	sem := make(chan struct{}, 4)
	var setupMu sync.Mutex
	var setupErrs []error
	startGame := func(dst *loadGame, white, black, channel string) {
		setup.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			g, err := pl.start(ctx, white, black, channel)
			if err != nil {
				setupMu.Lock()
				setupErrs = append(setupErrs, err)
				setupMu.Unlock()
			}
			*dst = g
		})
	}
	for i := range games {
		startGame(&games[i], user("u", 2*i), user("u", 2*i+1), channels[i%len(channels)])
	}
	for i := range timed {
		startGame(&timed[i], user("t", 2*i), user("t", 2*i+1), channels[i%len(channels)])
	}
	setup.Wait()
	if len(setupErrs) > 0 {
		t.Fatalf("starting the games: %d failed, the first: %v", len(setupErrs), setupErrs[0])
	}
	// The games on short clocks: both players move (so that running out
	// of time loses), then the clock of White's second move is shortened
	// by hand: a reminder half a second later, the deadline seconds later.
	for _, g := range timed {
		if err := pl.play(ctx, g, 0, 2, nil); err != nil {
			t.Fatal(err)
		}
	}
	shorten := func(g loadGame, deadline time.Duration) {
		t.Helper()
		cur, err := s.Game(ctx, g.id)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.UpdateGame(ctx, g.id, cur.Version, func(sg *bot.Game) ([]bot.Notification, error) {
			now := time.Now()
			sg.TurnStarted, sg.Deadline, sg.RemindAt, sg.Reminded = now, now.Add(deadline), now.Add(500*time.Millisecond), false
			return nil, nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	for _, g := range timed[:run.timed/2] {
		shorten(g, 4*time.Second)
	}

	// The play, with the faults at their milestones.
	total := int64(run.games * run.plies)
	milestone := make(chan struct{}, 1)
	var acked atomic.Int64
	var timelineMu sync.Mutex
	var timeline []int // acknowledged moves per second of play
	started := time.Now()
	onAck := func() {
		acked.Add(1)
		timelineMu.Lock()
		sec := int(time.Since(started) / time.Second)
		for len(timeline) <= sec {
			timeline = append(timeline, 0)
		}
		timeline[sec]++
		timelineMu.Unlock()
		select {
		case milestone <- struct{}{}:
		default:
		}
	}
	var play sync.WaitGroup
	errs := make([]error, len(games))
	for i, g := range games {
		play.Go(func() { errs[i] = pl.play(ctx, g, 0, run.plies, onAck) })
	}
	allDone := make(chan struct{})
	go func() { play.Wait(); close(allDone) }()
	waitShare := func(share float64) bool {
		for acked.Load() < int64(share*float64(total)) {
			select {
			case <-milestone:
			case <-allDone:
				return false
			}
		}
		return true
	}
	var killed *botProcess
	stoppedMember := -1
	var failover time.Duration
	if waitShare(run.killAt) {
		killed = fl.leader(ctx, lead)
		if killed == nil {
			t.Fatal("no live process leads")
		}
		fl.kill(killed.i)
		killedAt := time.Now()
		t.Logf("killed process %d, the leader, after %d moves (%v)", killed.i, acked.Load(), time.Since(started).Round(time.Millisecond))
		for _, g := range timed[run.timed/2:] {
			shorten(g, 10*time.Second)
		}
		if f.restarts() {
			fl.start(ctx, killed.i)
			t.Logf("process %d started again after %v", killed.i, time.Since(killedAt).Round(time.Millisecond))
		}
		for {
			if l := fl.leader(ctx, lead); l != nil && l != killed {
				failover = time.Since(killedAt)
				t.Logf("process %d leads %v after the kill", l.i, failover.Round(time.Millisecond))
				break
			}
			select {
			case <-ctx.Done():
				t.Fatal("no process took over")
			case <-time.After(5 * time.Millisecond):
			}
		}
	}
	if waitShare(run.stopAt) {
		stoppedMember = c.Leader()
		if stoppedMember >= 0 {
			t.Logf("killing etcd member %d, the raft leader, after %d moves (%v)", stoppedMember, acked.Load(), time.Since(started).Round(time.Millisecond))
			c.Kill(stoppedMember)
			t.Logf("etcd member %d gone after %d moves", stoppedMember, acked.Load())
		}
	}
	<-allDone
	took := time.Since(started)
	for i, err := range errs {
		if err != nil {
			t.Errorf("game %d: %v", games[i].id, err)
		}
	}
	t.Logf("%d moves in %v (%.1f/s, %d acknowledged, %d stored without an answer seen), latency p50 %v p99 %v; all interactions: %s; load %s",
		total, took.Round(time.Millisecond), float64(total)/took.Seconds(), acked.Load(), pl.unacked,
		pl.latency(0.5).Round(time.Millisecond), pl.latency(0.99).Round(time.Millisecond), pl.outcomeText(), loadAverage())
	t.Logf("moves acknowledged in each second of play: %v", timeline)
	if killed == nil || stoppedMember < 0 {
		t.Errorf("faults not all injected: killed %v, stopped member %d", killed != nil, stoppedMember)
	}

	// The clocks: every short game lost on time by White.
	for _, g := range timed {
		var sg *bot.Game
		if err := waitCond(ctx, func() bool {
			sg, err = s.Game(ctx, g.id)
			return err == nil && sg.Status == bot.GameFinished
		}); err != nil {
			t.Fatalf("game %d on a short clock did not end: %v (%+v)", g.id, err, sg)
		}
		if sg.Reason != "timeout" || sg.Result != bot.BlackWins {
			t.Errorf("game %d on a short clock ended %s by %q, want 0-1 by timeout", g.id, sg.Result, sg.Reason)
		}
	}
	// Every notification delivered.
	if err := waitCond(ctx, func() bool {
		r, err := s.Client().Get(ctx, prefix+"outbox/", clientv3.WithPrefix(), clientv3.WithCountOnly())
		return err == nil && r.Count == 0
	}); err != nil {
		ns, _ := s.PendingNotifications(ctx, time.Now().Add(24*time.Hour), 0)
		t.Fatalf("the outbox did not empty: %v; %d left", err, len(ns))
	}
	// Issue 29: no answer left "thinking…" by the killed process; one
	// thread per game, in which every game answers after a rolling
	// restart.
	checkDeferredAnswered(t, ctx, srv, 30*time.Second)
	var ids []uint64
	players := map[uint64]string{}
	for _, g := range append(append([]loadGame{}, games...), timed...) {
		ids = append(ids, g.id)
	}
	threads := gameThreads(t, ctx, srv, channels, ids, read)
	played := map[uint64]string{}
	for _, g := range games {
		if th, ok := threads[g.id]; ok {
			played[g.id], players[g.id] = th, g.white // White is to move after the line
		}
	}
	rollingRestart(t, ctx, fl)
	checkThreadAnswers(t, ctx, srv, played, players, "c5")
	fl.stop(20 * time.Second)
	all := fl.procs
	if killed != nil && !slices.Contains(all, killed) {
		all = append(all, killed) // started again: the dead one too
	}
	for _, p := range all {
		if p == nil {
			continue
		}
		var notable []string
		for _, l := range strings.Split(p.stderr.String(), "\n") {
			if strings.Contains(l, `"level":"WARN"`) || strings.Contains(l, `"level":"ERROR"`) || strings.Contains(l, "etcd: lead") {
				notable = append(notable, l)
			}
		}
		if os.Getenv("MULTI_LOGS") != "" || len(notable) > 0 && testing.Verbose() {
			t.Logf("process %d (pid %d): %d lines worth a look:\n%s", p.i, p.cmd.Process.Pid, len(notable), tail(strings.Join(notable, "\n"), 3000))
		}
	}

	// The games.
	reg, err := rules.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	byID := map[uint64]*bot.Game{}
	for _, g := range append(append([]loadGame{}, games...), timed...) {
		sg, err := s.Game(ctx, g.id)
		if err != nil {
			t.Fatal(err)
		}
		byID[g.id] = sg
		start, err := rules.ParseFEN(reg.Default("chess"), sg.StartFEN)
		if err != nil {
			t.Fatalf("game %d: start %q: %v", g.id, sg.StartFEN, err)
		}
		if _, err := rules.Replay(start, sg.Moves); err != nil {
			t.Errorf("game %d does not replay: %v", g.id, err)
		}
	}
	for _, g := range games {
		if got := byID[g.id].Moves; !equalStrings(got, line) {
			t.Errorf("game %d holds %v, want %v", g.id, got, line)
		}
	}
	// The fake's acknowledged interactions against the stored games.
	ackedIn := map[string]bool{}
	for _, ix := range srv.Interactions() {
		// Served by one process: a second would have answered too, and
		// been refused as already acknowledged (40060).
		if slices.Contains(ix.Rejected(), 40060) || ix.Acks() > 1 {
			t.Errorf("interaction %s (%s%s) answered more than once: %d answers, refused %v", ix.ID, ix.Command, ix.CustomID, ix.Acks(), ix.Rejected())
		}
		if ix.Command != "move" {
			continue
		}
		qctx, qcancel := context.WithTimeout(ctx, 50*time.Millisecond)
		m, err := ix.Final(qctx)
		qcancel()
		if err == nil && !m.Ephemeral && gameIDRe.MatchString(m.Content) && !strings.HasPrefix(m.Content, finishedElsewhere) {
			ackedIn[ix.ID] = true
		}
	}
	seen := 0
	for key, ids := range pl.ackedBy {
		if len(ids) != 1 {
			t.Errorf("game %d move %d acknowledged %d times (interactions %v)", key[0], key[1]+1, len(ids), ids)
		}
		for _, id := range ids {
			if !ackedIn[id] {
				t.Errorf("interaction %s counted as acknowledged, but the fake shows no public answer", id)
			}
			seen++
		}
		if sg := byID[key[0]]; sg == nil || int(key[1]) >= len(sg.Moves) {
			t.Errorf("game %d move %d was acknowledged but is not stored", key[0], key[1]+1)
		}
	}
	// A public answer the player did not see must be one that came after
	// the player stopped waiting (and looked for the move in the stored
	// game instead); any other is an answer lost between the fake and
	// the player.
	late := 0
	for id := range ackedIn {
		if slices.ContainsFunc(slices.Collect(maps.Values(pl.ackedBy)), func(ids []string) bool { return slices.Contains(ids, id) }) {
			continue
		}
		if why, ok := pl.gaveUp[id]; ok {
			late++
			t.Logf("interaction %s was answered after its player stopped waiting (%s)", id, why)
			continue
		}
		t.Errorf("interaction %s shows a public answer that its player never saw nor gave up on", id)
	}
	if seen+late != len(ackedIn) {
		t.Errorf("the fake shows %d acknowledged moves, the players saw %d and gave up on %d of them", len(ackedIn), seen, late)
	}

	// Notifications: every one written since the start, from etcd's
	// history, against the DMs each user got.
	notes := outboxHistory(t, ctx, s.Client(), prefix, startRev)
	perUser := map[string]int{}
	reminders, over := map[uint64]int{}, map[uint64]int{}
	for _, n := range notes {
		perUser[n.UserID]++
		switch n.Kind {
		case bot.NotifyReminder:
			reminders[n.GameID]++
		case bot.NotifyGameOver:
			over[n.GameID]++
		}
	}
	for _, g := range timed {
		if reminders[g.id] != 1 || over[g.id] != 2 {
			t.Errorf("game %d on a short clock: %d reminders and %d game-over notifications written, want 1 and 2", g.id, reminders[g.id], over[g.id])
		}
	}
	lost, dups := 0, 0
	var users []string
	for u := range perUser {
		users = append(users, u)
	}
	sort.Strings(users)
	for _, u := range users {
		dms := len(srv.DMs(u))
		switch {
		case dms < perUser[u]:
			lost += perUser[u] - dms
			t.Errorf("user %s: %d notifications written, %d DMs", u, perUser[u], dms)
		case dms > perUser[u]:
			dups += dms - perUser[u]
		}
	}
	t.Logf("%d notifications written and delivered to %d users; %d DMs posted twice, %d sent again and not posted (nonce), %d lost; failover %v",
		len(notes), len(users), dups, srv.NonceDedups(), lost, failover.Round(time.Millisecond))
}

// loadAverage returns the machine's load averages (1, 5 and 15 minutes),
// as uptime prints them, for logs next to figures.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// equalStrings reports whether a and b hold the same strings in order.
func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// waitCond polls cond every 20 ms until it holds or ctx ends.
func waitCond(ctx context.Context, cond func() bool) error {
	for !cond() {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
	return nil
}

// outboxHistory returns every notification appended under the outbox
// of prefix since revision from (etcd keeps every revision until
// compacted): a watch from that revision replays the history, up to a
// key the test puts last under prefix (no bot runs any more).
func outboxHistory(t *testing.T, ctx context.Context, c *clientv3.Client, prefix string, from int64) []bot.Notification {
	t.Helper()
	end := prefix + "test-history-end"
	if _, err := c.Put(ctx, end, ""); err != nil {
		t.Fatal(err)
	}
	defer c.Delete(ctx, end)
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var out []bot.Notification
	for resp := range c.Watch(wctx, prefix, clientv3.WithPrefix(), clientv3.WithRev(from+1)) {
		if err := resp.Err(); err != nil {
			t.Fatal(err)
		}
		for _, ev := range resp.Events {
			switch key := string(ev.Kv.Key); {
			case key == end:
				return out
			case ev.Type == mvccpb.PUT && ev.Kv.Version == 1 && strings.HasPrefix(key, prefix+"outbox/"):
				n, err := storage.DecodeNotification(ev.Kv.Value)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, n)
			}
		}
	}
	t.Fatal("the watch of the history ended early")
	return nil
}
