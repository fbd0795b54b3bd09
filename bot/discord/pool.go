package discord

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
)

// pool bounds the commands and button presses that run at once, so that
// a burst of interactions cannot starve what must happen on time: reading
// the gateway and acknowledging interactions within Discord's deadline.
// An interaction either gets a worker at once, or waits for one in a
// queue of at most limit (acknowledged as deferred first), or is turned
// away as busy.
type pool struct {
	slots   chan struct{} // one token per running worker
	waiting atomic.Int64  // interactions waiting for a worker
	limit   int64
}

func newPool(workers, queue int) *pool {
	return &pool{slots: make(chan struct{}, workers), limit: int64(queue)}
}

// tryAcquire takes a worker if one is free.
func (p *pool) tryAcquire() bool {
	select {
	case p.slots <- struct{}{}:
		return true
	default:
		return false
	}
}

// enqueue reserves a place in the queue; false when it is full. A
// reserved place is given back by acquire.
func (p *pool) enqueue() bool {
	if p.waiting.Add(1) > p.limit {
		p.waiting.Add(-1)
		return false
	}
	return true
}

// acquire waits for a worker (in arrival order) after enqueue, or until
// ctx ends (then it returns false and holds no worker).
func (p *pool) acquire(ctx context.Context) bool {
	defer p.waiting.Add(-1)
	select {
	case p.slots <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

// release gives a worker back.
func (p *pool) release() { <-p.slots }

// ackGate gives acknowledgements (deferrals, busy answers) priority over
// work: at most a few are sent at once, so that a burst reuses
// connections instead of opening one per request, and a worker starts its
// next command only once no acknowledgement is waiting or in flight.
type ackGate struct {
	slots   chan struct{}
	mu      sync.Mutex
	idle    *sync.Cond // signalled when pending drops to 0
	pending int
}

func newAckGate(concurrent int) *ackGate {
	g := &ackGate{slots: make(chan struct{}, concurrent)}
	g.idle = sync.NewCond(&g.mu)
	return g
}

// errAckTooLate is returned by ackGate.send for an acknowledgement of an
// interaction that reached the bot longer ago than Discord's deadline: it
// would be refused, so it is not sent and leaves its turn to others.
var errAckTooLate = errors.New("discord: the interaction expired before it could be acknowledged")

// send runs the request ack through the gate, or returns errAckTooLate
// without running it when, its turn come, more than Discord's deadline
// has passed since the interaction arrived (arrived is the bot's own
// clock, so a clock that differs from Discord's cannot cause this).
func (g *ackGate) send(arrived time.Time, ack func() error) error {
	g.mu.Lock()
	g.pending++
	g.mu.Unlock()
	g.slots <- struct{}{}
	defer func() {
		<-g.slots
		g.mu.Lock()
		if g.pending--; g.pending == 0 {
			g.idle.Broadcast()
		}
		g.mu.Unlock()
	}()
	if time.Since(arrived) > discordgo.InteractionDeadline {
		return errAckTooLate
	}
	return ack()
}

// waitIdle returns once no acknowledgement is waiting or in flight.
func (g *ackGate) waitIdle() {
	g.mu.Lock()
	for g.pending > 0 {
		g.idle.Wait()
	}
	g.mu.Unlock()
}

// deferDelay returns how long after now interaction i may still be
// answered directly before it must be acknowledged as deferred:
// deferAfter counted from when Discord created it (its ID's timestamp),
// so that time spent reaching the bot (a busy gateway) is counted. A
// timestamp in the future (clocks differ) counts from now; an unreadable
// ID counts from now.
func deferDelay(i *discordgo.Interaction, deferAfter time.Duration, now time.Time) time.Duration {
	created, err := discordgo.SnowflakeTimestamp(i.ID)
	if err != nil {
		return deferAfter
	}
	age := now.Sub(created)
	return min(max(deferAfter-age, 0), deferAfter)
}
