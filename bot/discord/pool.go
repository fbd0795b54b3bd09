package discord

import (
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

// acquire waits for a worker (in arrival order) after enqueue.
func (p *pool) acquire() {
	p.slots <- struct{}{}
	p.waiting.Add(-1)
}

// release gives a worker back.
func (p *pool) release() { <-p.slots }

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
