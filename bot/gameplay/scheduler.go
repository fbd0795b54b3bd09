package gameplay

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"time"

	"github.com/fairypost/fairypost/bot"
)

// Scheduler runs the Service's Sweep when the clock asks for it: at the
// next deadline, reminder or challenge expiry (Service.NextWake), at least
// every MaxSleep so that a jump of the clock is caught, and whenever it is
// poked. It keeps nothing that is not in the stores: a Scheduler started
// after a restart finds every game and challenge from the store.
type Scheduler struct {
	svc   *Service
	log   *slog.Logger
	poke  chan struct{}
	after func(time.Duration) <-chan time.Time
	max   time.Duration
	retry time.Duration
}

// SchedulerOption configures a Scheduler.
type SchedulerOption func(*Scheduler)

// SchedulerTimer sets how the Scheduler sleeps: after(d) must deliver a
// value once d has passed (default time.After). Tests pass a timer they
// fire themselves, together with the Service's Clock.
func SchedulerTimer(after func(time.Duration) <-chan time.Time) SchedulerOption {
	return func(s *Scheduler) { s.after = after }
}

// SchedulerMaxSleep sets the longest the Scheduler sleeps between sweeps
// (default 1 hour).
func SchedulerMaxSleep(d time.Duration) SchedulerOption {
	return func(s *Scheduler) {
		if d > 0 {
			s.max = d
		}
	}
}

// Scheduler timing defaults.
const (
	schedulerMaxSleep = time.Hour        // the longest sleep
	schedulerMinSleep = time.Second      // the shortest: no busy loop when something stays due
	schedulerRetry    = 30 * time.Second // the sleep after a failed sweep
)

// NewScheduler returns a Scheduler for svc that logs to log (slog.Default
// when nil).
func NewScheduler(svc *Service, log *slog.Logger, opts ...SchedulerOption) *Scheduler {
	if log == nil {
		log = slog.Default()
	}
	s := &Scheduler{svc: svc, log: log, poke: make(chan struct{}, 1), after: time.After,
		max: schedulerMaxSleep, retry: schedulerRetry}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Poke wakes a running Run to sweep at once and look again at when to wake
// next; adapters poke after every change (a move starts a new clock). Pokes
// while it sweeps are kept (one is enough). It never blocks.
func (s *Scheduler) Poke() {
	select {
	case s.poke <- struct{}{}:
	default:
	}
}

// Run sweeps (Service.Sweep), then sleeps until the next wake-up the
// sweep reported (at least one second, at most the maximum sleep), a Poke
// or the end of ctx, and again,
// until ctx is done; then it returns nil. A failing sweep is logged and
// tried again after 30 seconds (sooner when poked): the store keeps
// everything, so nothing is lost meanwhile.
func (s *Scheduler) Run(ctx context.Context) error {
	for {
		wait := s.step(ctx)
		if ctx.Err() != nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-s.poke:
		case <-s.after(wait):
		}
	}
}

// step sweeps once and returns how long to sleep. A panic of the sweep
// outside the handling of one record (which Sweep recovers itself) is
// logged and counts as a failed sweep.
func (s *Scheduler) step(ctx context.Context) (wait time.Duration) {
	defer func() {
		if r := recover(); r != nil {
			p := NewPanicError(r)
			s.log.Error("sweep crashed; retrying", "panic", p.Value, "retry_in", s.retry, "stack", string(p.Stack))
			wait = s.retry
		}
	}()
	rep, err := s.svc.Sweep(ctx)
	if rep.Total() > 0 {
		s.log.Info("sweep", "timed_out", rep.TimedOut, "aborted", rep.Aborted, "reminded", rep.Reminded,
			"expired", rep.Expired)
	}
	if err != nil {
		if ctx.Err() == nil {
			attrs := []any{"err", err, "retry_in", s.retry}
			var p *PanicError
			if errors.As(err, &p) {
				attrs = append(attrs, "stack", string(p.Stack))
			}
			if bot.Unanswered(err) {
				s.log.Warn("sweep failed: the store did not answer; retrying", attrs...)
			} else {
				s.log.Error("sweep failed; retrying", attrs...)
			}
		}
		return s.retry
	}
	next := rep.Next
	if next.IsZero() {
		s.log.Debug("nothing scheduled", "sleep", s.max)
		return s.max
	}
	wait = min(max(next.Sub(s.svc.Now()), schedulerMinSleep), s.max)
	s.log.Debug("next wake-up", "at", next, "sleep", wait)
	return wait
}

// PanicError is a panic recovered by a background loop (the Scheduler's
// sweep, the Deliverer), as an error: the value given to panic and the
// stack of the goroutine that panicked.
type PanicError struct {
	Value any
	Stack []byte
}

func (e *PanicError) Error() string { return fmt.Sprintf("panic: %v", e.Value) }

// NewPanicError returns the PanicError for the value r just recovered,
// with the current stack (taken in the deferred function, it still shows
// where the panic happened).
func NewPanicError(r any) *PanicError { return &PanicError{Value: r, Stack: debug.Stack()} }

// recovering calls fn and returns its results, or a *PanicError if fn
// panics: one record whose handling crashes must not stop the handling
// of the others.
func recovering[T any](fn func() (T, error)) (v T, err error) {
	defer func() {
		if r := recover(); r != nil {
			var zero T
			v, err = zero, NewPanicError(r)
		}
	}()
	return fn()
}
