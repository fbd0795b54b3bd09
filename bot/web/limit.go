package web

import (
	"sync"
	"time"
)

// limiter is a token bucket per client address: rate requests a second
// on average, burst at once. Buckets full again are forgotten, so the
// memory it holds is that of the clients of the last moments.
type limiter struct {
	rate, burst float64
	now         func() time.Time

	mu      sync.Mutex
	buckets map[string]*bucket
	swept   time.Time
}

// bucket is one client's tokens at a time.
type bucket struct {
	tokens float64
	at     time.Time
}

// newLimiter returns a limiter of rate requests a second, burst at once.
func newLimiter(rate, burst float64, now func() time.Time) *limiter {
	return &limiter{rate: rate, burst: burst, now: now, buckets: map[string]*bucket{}}
}

// allow takes a token of client's bucket, reporting whether there was one.
func (l *limiter) allow(client string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	l.sweep(now)
	b, ok := l.buckets[client]
	if !ok {
		b = &bucket{tokens: l.burst, at: now}
		l.buckets[client] = b
	}
	if d := now.Sub(b.at).Seconds(); d > 0 {
		b.tokens = min(l.burst, b.tokens+d*l.rate)
	}
	b.at = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// sweep forgets, at most once a minute, the buckets that have been full
// again for a while: those of clients gone.
func (l *limiter) sweep(now time.Time) {
	if now.Sub(l.swept) < time.Minute {
		return
	}
	l.swept = now
	full := time.Duration(l.burst/l.rate*float64(time.Second)) + time.Minute
	for k, b := range l.buckets {
		if now.Sub(b.at) > full {
			delete(l.buckets, k)
		}
	}
}
