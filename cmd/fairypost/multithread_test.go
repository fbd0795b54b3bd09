package main

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/discordtest"
)

// finishedElsewhere starts the answer a process gives for another,
// killed before it answered (discord.Bot.FinishDeferred).
const finishedElsewhere = "The bot restarted while answering"

// checkDeferredAnswered waits until no interaction is left deferred and
// unanswered ("thinking…" for the player), and fails for each one still
// so after limit. It logs how many were finished by another process than
// the one that deferred them, and how long after the deferral.
func checkDeferredAnswered(t *testing.T, ctx context.Context, srv *discordtest.Server, limit time.Duration) {
	t.Helper()
	hanging := func() []*discordtest.Interaction {
		var out []*discordtest.Interaction
		for _, ix := range srv.Interactions() {
			if ix.Hanging() {
				out = append(out, ix)
			}
		}
		return out
	}
	wctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	_ = waitCond(wctx, func() bool { return len(hanging()) == 0 })
	for _, ix := range hanging() {
		acked, _ := ix.Answered()
		t.Errorf("interaction %s (%s%s) deferred %v ago and never answered", ix.ID, ix.Command, ix.CustomID,
			time.Since(acked).Round(time.Millisecond))
	}
	deferred := 0
	var took []time.Duration
	var sample string
	for _, ix := range srv.Interactions() {
		if !ix.Deferred() {
			continue
		}
		deferred++
		qctx, qcancel := context.WithTimeout(ctx, 50*time.Millisecond)
		m, err := ix.Final(qctx)
		qcancel()
		if err != nil || !strings.HasPrefix(m.Content, finishedElsewhere) {
			continue
		}
		acked, final := ix.Answered()
		took = append(took, final.Sub(acked))
		if sample == "" {
			sample = m.Content
		}
	}
	slices.Sort(took)
	figures := "none"
	if n := len(took); n > 0 {
		figures = fmt.Sprintf("%d, %v to %v after the deferral (median %v); e.g. %q", n, took[0].Round(time.Millisecond),
			took[n-1].Round(time.Millisecond), took[n/2].Round(time.Millisecond), sample)
	}
	t.Logf("deferred answers: %d in all, %d left unanswered; finished by another process: %s", deferred, len(hanging()), figures)
}

// gameThreads checks that every game has exactly one thread, the one its
// record names, among all the threads ever made in channels (those
// deleted included: a thread made twice and deleted once is fine), and
// returns each game's thread. It logs how many threads were made per
// game and how many deleted.
func gameThreads(t *testing.T, ctx context.Context, srv *discordtest.Server, channels []string, ids []uint64,
	read func(context.Context, uint64) (*bot.Game, error)) map[uint64]string {
	t.Helper()
	live, made := map[uint64][]string{}, map[uint64]int{}
	deleted := 0
	gameOf := func(name string) uint64 {
		rest, ok := strings.CutPrefix(name, "Game ")
		num, _, ok2 := strings.Cut(rest, ":")
		id, err := strconv.ParseUint(num, 10, 64)
		if !ok || !ok2 || err != nil {
			return 0
		}
		return id
	}
	for _, ch := range channels {
		for _, th := range srv.Threads(ch) {
			id := gameOf(th.Name)
			live[id] = append(live[id], th.ID)
			made[id]++
		}
		for _, th := range srv.DeletedThreads(ch) {
			made[gameOf(th.Name)]++
			deleted++
		}
	}
	perGame := map[int]int{} // threads made -> games
	out := map[uint64]string{}
	for _, id := range ids {
		perGame[made[id]]++
		g, err := read(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if len(live[id]) != 1 {
			t.Errorf("game %d has %d threads %v (%d made), want 1", id, len(live[id]), live[id], made[id])
			continue
		}
		if g.ThreadID != live[id][0] {
			t.Errorf("game %d names thread %q, its thread is %s", id, g.ThreadID, live[id][0])
		}
		out[id] = live[id][0]
	}
	var counts []int
	for n := range perGame {
		counts = append(counts, n)
	}
	sort.Ints(counts)
	var parts []string
	for _, n := range counts {
		parts = append(parts, fmt.Sprintf("%d games with %d made", perGame[n], n))
	}
	t.Logf("threads: %d games, one live thread each: %v; %s; %d duplicates deleted", len(ids), len(out) == len(ids), strings.Join(parts, ", "), deleted)
	return out
}

// rollingRestart stops each process in turn with SIGTERM and starts it
// again, as an operator upgrading the fleet would.
func rollingRestart(t *testing.T, ctx context.Context, fl *fleet) {
	t.Helper()
	for i, p := range fl.procs {
		if p == nil {
			continue
		}
		select {
		case <-p.exited:
		default:
			fl.front.setLive(i, false)
			p.cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-p.exited:
			case <-time.After(20 * time.Second):
				t.Fatalf("process %d did not stop after SIGTERM", i)
			}
		}
		fl.start(ctx, i)
	}
}

// checkThreadAnswers has each game's player to act ask /board and try a
// move in the game's thread, with no game: option: the thread alone must
// tell the game (the symptom of two threads per game was "No game is
// being played in this channel" there after a restart). move is a move
// refused in every game (so that the games stay as played).
func checkThreadAnswers(t *testing.T, ctx context.Context, srv *discordtest.Server, threads map[uint64]string,
	players map[uint64]string, move string) {
	t.Helper()
	ask := func(user, thread, cmd string, args ...discordtest.Arg) (discordtest.Message, error) {
		for {
			ix, err := srv.Slash(user, thread, cmd, args...)
			if err == discordtest.ErrNoBot { // its shard is still connecting
				time.Sleep(20 * time.Millisecond)
				continue
			}
			if err != nil {
				return discordtest.Message{}, err
			}
			qctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			defer cancel()
			m, err := ix.Final(qctx)
			if err != nil && len(ix.Followups()) > 0 {
				return ix.Followups()[0], nil
			}
			return m, err
		}
	}
	var ids []uint64
	for id := range threads {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	samples := map[string]string{}
	for _, id := range ids {
		tag := fmt.Sprintf("#%d", id)
		b, err := ask(players[id], threads[id], "board")
		if err != nil {
			t.Errorf("game %d: /board in its thread: %v", id, err)
		} else if !strings.Contains(b.Content, tag) || b.Ephemeral {
			t.Errorf("game %d: /board in its thread answered %q (ephemeral %v), want the game", id, b.Content, b.Ephemeral)
		}
		samples["board"] = b.Content
		m, err := ask(players[id], threads[id], "move", discordtest.String("move", move))
		if err != nil {
			t.Errorf("game %d: /move in its thread: %v", id, err)
		} else if strings.Contains(m.Content, "No game is being played") || strings.Contains(m.Content, "no game in this channel") ||
			!strings.Contains(m.Content, move) {
			t.Errorf("game %d: /move %s in its thread answered %q, want the move refused in that game", id, move, m.Content)
		}
		samples["move"] = m.Content
	}
	t.Logf("after the rolling restart, %d games answered /board and /move in their threads; e.g. %q and %q", len(ids),
		tail(samples["board"], 120), tail(samples["move"], 160))
}
