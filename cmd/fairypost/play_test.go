package main

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/discordtest"
	"github.com/fairypost/fairypost/rules"
	"github.com/fairypost/fairypost/rules/notation"
)

// pawnLine is the line every game of the load tests plays, White first:
// pawn pushes only, no capture, no check, so that a move once played can
// never be legal again for its player. An interaction served late (or
// twice) after its move was stored is then refused, never played twice,
// and players may send a move again whenever they did not see it
// acknowledged. 20 plies at most.
func pawnLine(plies int) []string {
	line := []string{"a3", "a6", "b3", "b6", "c3", "c6", "d3", "d6", "e3", "e6",
		"f3", "f6", "g3", "g6", "h3", "h6", "a4", "a5", "b4", "b5"}
	return line[:plies]
}

// canonical returns the canonical forms (what games store) of the
// friendly moves line, played from chess's start.
func canonical(tb testing.TB, line []string) []string {
	tb.Helper()
	reg, err := rules.NewRegistry()
	if err != nil {
		tb.Fatal(err)
	}
	g := rules.NewGame(reg.Default("chess").Start())
	var out []string
	for _, text := range line {
		p := g.Position()
		m, err := notation.ParseMove(&p, text)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, rules.FormatMove(&p, m))
		if err := g.Play(m); err != nil {
			tb.Fatal(err)
		}
	}
	return out
}

// loadGame is one game of a load test: White and Black play pawnLine in
// channel.
type loadGame struct {
	id                    uint64
	white, black, channel string
}

// gameReader reads a game as stored (nil when the test cannot read the
// store, a bbolt file held by the bot).
type gameReader func(ctx context.Context, id uint64) (*bot.Game, error)

// player plays games through the fake Discord, as users who answer as
// soon as it is their turn, and records what the fake acknowledged.
type player struct {
	srv   *discordtest.Server
	front front // nil: one process, no routing
	read  gameReader
	line  []string // friendly moves
	// slow, when set, is told of every interaction answered after more
	// than 3 s.
	slow func(format string, args ...any)
	// wait bounds how long a player waits for the answer to one
	// interaction before looking at the game again and trying again.
	wait time.Duration

	acked     atomic.Int64
	sent      atomic.Int64
	mu        sync.Mutex
	latencies []time.Duration
	// ackedBy is, per game and ply, the interactions whose answer the
	// user saw as the move played.
	ackedBy map[[2]uint64][]string
	// unacked counts moves found stored whose answer the user never saw.
	unacked int
	// gaveUp are the interactions whose answer the user stopped waiting
	// for ("no answer", "owner died"), by ID with the outcome: on a
	// loaded machine an answer may still come after that.
	gaveUp map[string]string
	// attempts counts interactions sent per outcome ("acked", "refused",
	// "failed", "owner died", "no answer"...).
	outcomes map[string]int
}

// newPlayer returns a player of line through srv.
func newPlayer(srv *discordtest.Server, f front, read gameReader, line []string) *player {
	return &player{srv: srv, front: f, read: read, line: line, wait: 20 * time.Second,
		ackedBy: map[[2]uint64][]string{}, outcomes: map[string]int{}, gaveUp: map[string]string{}}
}

// gameIDRe finds "#ID" in an answer.
var gameIDRe = regexp.MustCompile(`#(\d+)`)

// start has white challenge black to chess in channel (White, one day a
// move) and black accept with the button, and returns the game.
func (pl *player) start(ctx context.Context, white, black, channel string) (loadGame, error) {
	g := loadGame{white: white, black: black, channel: channel}
	ix, err := pl.srv.Slash(white, channel, "challenge", discordtest.User("opponent", black),
		discordtest.String("variant", "chess"), discordtest.String("color", "white"), discordtest.Int("days", 1))
	if err != nil {
		return g, err
	}
	m, err := pl.final(ctx, ix)
	if err != nil {
		return g, fmt.Errorf("challenge: %w", err)
	}
	accept := ""
	for _, b := range m.Buttons() {
		if b.Label == "Accept" {
			accept = b.CustomID
		}
	}
	if accept == "" {
		return g, fmt.Errorf("challenge answer %q has no Accept button", m.Content)
	}
	ix, err = pl.srv.Click(black, channel, m.ID, accept)
	if err != nil {
		return g, err
	}
	if m, err = pl.final(ctx, ix); err != nil {
		return g, fmt.Errorf("accept: %w", err)
	}
	id := gameIDRe.FindStringSubmatch(m.Content)
	if id == nil || m.Ephemeral {
		return g, fmt.Errorf("accept answer %q names no game", m.Content)
	}
	g.id, _ = strconv.ParseUint(id[1], 10, 64)
	return g, nil
}

// final waits, up to pl.wait, for the message ix finally shows.
func (pl *player) final(ctx context.Context, ix *discordtest.Interaction) (discordtest.Message, error) {
	ctx, cancel := context.WithTimeout(ctx, pl.wait)
	defer cancel()
	return ix.Final(ctx)
}

// play plays g's moves from ply from to ply to (exclusive), each by the
// player whose turn it is as soon as the previous one is acknowledged.
// With a reader, a move whose answer was not seen is looked for in the
// stored game before it is sent again; without, it is sent again.
// onAck is called after every acknowledged move (nil: nothing).
func (pl *player) play(ctx context.Context, g loadGame, from, to int, onAck func()) error {
	for ply := from; ply < to; {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("game %d at ply %d: %w", g.id, ply, err)
		}
		user := g.white
		if ply%2 == 1 {
			user = g.black
		}
		t0 := time.Now()
		ix, err := pl.srv.Slash(user, g.channel, "move", discordtest.String("move", pl.line[ply]),
			discordtest.Int("game", int64(g.id)))
		if err != nil {
			if errors.Is(err, discordtest.ErrNoBot) {
				time.Sleep(20 * time.Millisecond)
				continue
			}
			return err
		}
		pl.sent.Add(1)
		outcome := pl.outcome(ctx, ix, g.id)
		if pl.slow != nil && time.Since(t0) > 3*time.Second {
			o, ok := -1, false
			if pl.front != nil {
				o, ok = pl.front.owner(ix)
			}
			pl.slow("game %d ply %d: interaction %s %s after %v (owner %d %v, failed %v, acks %d, rejected %v)", g.id, ply, ix.ID, outcome,
				time.Since(t0).Round(time.Millisecond), o, ok, ix.Failed(), ix.Acks(), ix.Rejected())
		}
		pl.mu.Lock()
		pl.outcomes[outcome]++
		if outcome == "no answer" || outcome == "owner died" {
			pl.gaveUp[ix.ID] = outcome
		}
		if outcome == "acked" {
			pl.latencies = append(pl.latencies, time.Since(t0))
			key := [2]uint64{g.id, uint64(ply)}
			pl.ackedBy[key] = append(pl.ackedBy[key], ix.ID)
		}
		pl.mu.Unlock()
		if outcome == "acked" {
			pl.acked.Add(1)
			ply++
			if onAck != nil {
				onAck()
			}
			continue
		}
		if pl.read == nil {
			if outcome == "refused" {
				return fmt.Errorf("game %d ply %d: move %s refused", g.id, ply, pl.line[ply])
			}
			continue
		}
		stored, err := pl.storedPly(ctx, g.id)
		if err != nil {
			return err
		}
		if stored > ply {
			pl.mu.Lock()
			pl.unacked++
			pl.mu.Unlock()
			ply++
		} else if outcome == "owner died" {
			time.Sleep(200 * time.Millisecond) // a player tries again a little later
		} else {
			time.Sleep(20 * time.Millisecond) // let a late answer land before trying again
		}
	}
	return nil
}

// storedPly returns how many moves game id has as stored, retrying reads
// while the store is briefly unavailable (a member stopping).
func (pl *player) storedPly(ctx context.Context, id uint64) (int, error) {
	for {
		rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		sg, err := pl.read(rctx, id)
		cancel()
		if err == nil {
			return len(sg.Moves), nil
		}
		if ctx.Err() != nil {
			return 0, fmt.Errorf("reading game %d: %w", id, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// outcome waits for what the user of move interaction ix about game id
// sees: "acked" (the public answer that names the game), "refused" (an
// answer that does not), "failed" (no answer in time: Discord's "This
// interaction failed"), "owner died" (the process serving it was
// killed) or "no answer" (none within pl.wait).
func (pl *player) outcome(ctx context.Context, ix *discordtest.Interaction, id uint64) string {
	fctx, cancel := context.WithTimeout(ctx, pl.wait)
	defer cancel()
	type result struct {
		m   discordtest.Message
		err error
	}
	done := make(chan result, 1)
	go func() {
		m, err := ix.Final(fctx)
		done <- result{m, err}
	}()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case r := <-done:
			switch {
			case r.err == nil && !r.m.Ephemeral && strings.Contains(r.m.Content, fmt.Sprintf("#%d", id)):
				return "acked"
			case r.err == nil:
				return "refused"
			case errors.Is(r.err, discordtest.ErrInteractionFailed):
				return "failed"
			case len(ix.Followups()) > 0:
				return "refused" // an ephemeral answer after a deferral
			}
			if pl.died(ix) {
				return "owner died"
			}
			return "no answer"
		case <-tick.C:
			if len(ix.Followups()) > 0 {
				// A deferred answer replaced by an ephemeral follow-up
				// (an error): the original response is gone, so Final
				// would wait in vain.
				return "refused"
			}
			if pl.died(ix) {
				cancel()
			}
		}
	}
}

// died reports whether the process given interaction ix was killed.
func (pl *player) died(ix *discordtest.Interaction) bool {
	if pl.front == nil {
		return false
	}
	o, ok := pl.front.owner(ix)
	if !ok {
		return false
	}
	return !pl.front.isLive(o)
}

// latency returns the q-quantile (0..1) of the acknowledged moves'
// latencies, from the Slash to the answer seen.
func (pl *player) latency(q float64) time.Duration {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	if len(pl.latencies) == 0 {
		return 0
	}
	l := slices.Clone(pl.latencies)
	sort.Slice(l, func(i, j int) bool { return l[i] < l[j] })
	return l[min(len(l)-1, int(q*float64(len(l))))]
}

// outcomeText lists the outcomes counted, for logs.
func (pl *player) outcomeText() string {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	var parts []string
	for k, v := range pl.outcomes {
		parts = append(parts, fmt.Sprintf("%s %d", k, v))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}
