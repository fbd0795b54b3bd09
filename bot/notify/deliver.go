package notify

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
)

// Delivery retry timing: the first retry waits retryFirst, each further
// one twice as long as the one before, up to retryMax.
const (
	retryFirst = 30 * time.Second
	retryMax   = time.Hour
	// deliverBatch is how many notifications RunOnce reads at a time.
	deliverBatch = 100
)

// MaxDeliveryCrashes is how many times delivering one notification may
// crash (panic) before the Deliverer sets it aside for good.
const MaxDeliveryCrashes = 3

// Deliverer hands the notifications of an outbox to a send function (an
// adapter posting them) and removes each one once sent. A notification
// whose sending fails stays in the outbox and is tried again later, after
// a delay that doubles with every failure (30 s, 1 min, 2 min, ... up to
// 1 h): nothing is ever dropped. Delivery is at least once: a
// notification sent just before the process dies is sent again. Besides
// the count of crashes below (which a restart starts again), it keeps
// nothing in memory that is not in the outbox, so a restart loses
// nothing. Several Deliverers over one outbox would send twice: run one.
//
// A bug never stops delivery: a panic while delivering a notification
// (in send, or in the outbox while acknowledging it) is recovered,
// logged at error level with the notification and the stack, and counts
// as a failure; a notification whose delivery crashed MaxDeliveryCrashes
// times in this process is set aside (bot.Outbox.SetAsideNotification: kept,
// but no longer tried) with one error log line, and the others go on. A panic while reading the
// outbox is returned by RunOnce as an error (*bot.PanicError).
type Deliverer struct {
	out  bot.Outbox
	send func(context.Context, bot.Notification) error
	now  func() time.Time
	log  *slog.Logger
	poke chan struct{}

	mu      sync.Mutex
	crashes map[uint64]int // notification ID -> crashes of its delivery so far

	// digests, when set (Digests), holds notifications for their users'
	// daily digests.
	digests *Digests
}

// Digests makes d hold the notifications of users who asked for a daily
// digest (bot.Preferences.Digest, read from settings) and send them as
// one NotifyDigest at the digest time (Digests.DigestTime,
// Digests.Digest): a notification that waits is put off in the outbox
// until its digest time (bot.Outbox.RetryNotification: its Attempts grow
// by one), and when it is due, with the others of its user due in the
// same run, it is folded into one digest sent with send; they are
// acknowledged once the digest is sent, or all put off as after a
// failure. It returns d. Call it before Run.
func (d *Deliverer) Digests(settings Settings) *Deliverer {
	d.digests = NewDigests(settings)
	return d
}

// NewDeliverer returns a Deliverer from out to send, reading the time from
// now (time.Now when nil) and logging failures to log (slog.Default when
// nil).
func NewDeliverer(out bot.Outbox, send func(context.Context, bot.Notification) error, now func() time.Time, log *slog.Logger) *Deliverer {
	if now == nil {
		now = time.Now
	}
	if log == nil {
		log = slog.Default()
	}
	return &Deliverer{out: out, send: send, now: now, log: log, poke: make(chan struct{}, 1), crashes: map[uint64]int{}}
}

// RetryDelay returns how long a notification that failed attempts times
// before (0 for the first failure) waits before the next try.
func RetryDelay(attempts int) time.Duration {
	d := retryFirst
	for i := 0; i < attempts && d < retryMax; i++ {
		d *= 2
	}
	return min(d, retryMax)
}

// RunOnce sends every notification due now, oldest first: one that is
// sent is acknowledged (removed); one whose sending fails (or crashes) is
// kept with its next try put off by RetryDelay, and the failure is
// logged; one whose delivery crashed MaxDeliveryCrashes times is set
// aside. It returns how many were delivered. It stops at the first error
// of the outbox itself (returned) or when ctx is done (ctx.Err());
// whatever was not handled stays in the outbox for the next run. It
// never panics.
func (d *Deliverer) RunOnce(ctx context.Context) (delivered int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = gameplay.NewPanicError(r)
		}
	}()
	for {
		now := d.now()
		batch, err := d.out.PendingNotifications(ctx, now, deliverBatch)
		if err != nil {
			return delivered, err
		}
		var users []string
		held := map[string][]bot.Notification{}
		for _, n := range batch {
			if err := ctx.Err(); err != nil {
				return delivered, err
			}
			if d.digests != nil {
				at, wait, err := d.digests.DigestTime(ctx, n)
				if err != nil {
					d.log.Warn("notification: cannot tell whether it waits for a digest; sent now", append(notificationAttrs(n), "err", err)...)
				}
				switch {
				case err == nil && wait && now.Before(at):
					if err := d.out.RetryNotification(ctx, n.ID, at); err != nil {
						return delivered, err
					}
					continue
				case err == nil && wait:
					if held[n.UserID] == nil {
						users = append(users, n.UserID)
					}
					held[n.UserID] = append(held[n.UserID], n)
					continue
				}
			}
			sent, err := d.deliver(ctx, n, now)
			if err != nil {
				return delivered, err
			}
			if sent {
				delivered++
			}
		}
		for _, u := range users {
			sent, err := d.deliverDigest(ctx, u, held[u], now)
			if err != nil {
				return delivered, err
			}
			if sent {
				delivered++
			}
		}
		// Every notification of a full batch was either removed, put
		// off or set aside, so the next read makes progress; a short
		// batch was all.
		if len(batch) < deliverBatch {
			return delivered, nil
		}
	}
}

// deliver sends n and acknowledges it, or records the failure. It
// reports whether n was sent and acknowledged, and returns the outbox's
// errors. A panic is recovered and handled by crashed.
func (d *Deliverer) deliver(ctx context.Context, n bot.Notification, now time.Time) (sent bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			sent, err = false, d.crashed(ctx, n, now, gameplay.NewPanicError(r))
		}
	}()
	if err := d.send(ctx, n); err != nil {
		wait := RetryDelay(n.Attempts)
		d.log.Warn("notification not delivered; will retry", append(notificationAttrs(n), "attempts", n.Attempts+1,
			"retry_in", wait, "err", err)...)
		return false, d.out.RetryNotification(ctx, n.ID, now.Add(wait))
	}
	if err := d.out.AckNotification(ctx, n.ID); err != nil {
		return false, err
	}
	d.mu.Lock()
	delete(d.crashes, n.ID)
	d.mu.Unlock()
	return true, nil
}

// crashed handles a panic p while delivering n: the notification is put
// off as after a failure, or set aside once its delivery has crashed
// MaxDeliveryCrashes times.
func (d *Deliverer) crashed(ctx context.Context, n bot.Notification, now time.Time, p *gameplay.PanicError) error {
	d.mu.Lock()
	d.crashes[n.ID]++
	count := d.crashes[n.ID]
	if count >= MaxDeliveryCrashes {
		delete(d.crashes, n.ID)
	}
	d.mu.Unlock()
	if count >= MaxDeliveryCrashes {
		d.log.Error("notification set aside: its delivery crashed every time", append(notificationAttrs(n),
			"crashes", count, "text", n.Text, "panic", p.Value)...)
		return d.out.SetAsideNotification(ctx, n.ID, fmt.Sprintf("delivery crashed %d times: %v", count, p.Value))
	}
	wait := RetryDelay(n.Attempts)
	d.log.Error("delivering a notification crashed; will retry", append(notificationAttrs(n), "crashes", count,
		"retry_in", wait, "panic", p.Value, "stack", string(p.Stack))...)
	return d.out.RetryNotification(ctx, n.ID, now.Add(wait))
}

// notificationAttrs returns the log attributes that identify n.
func notificationAttrs(n bot.Notification) []any {
	return []any{"id", n.ID, "kind", n.Kind.String(), "user", n.UserID, "channel", n.ChannelID,
		"game", n.GameID, "challenge", n.ChallengeID}
}

// Poke makes a running Run deliver at once instead of at its next tick;
// adapters poke after every change that may have queued a notification.
// It never blocks.
func (d *Deliverer) Poke() {
	select {
	case d.poke <- struct{}{}:
	default:
	}
}

// Run calls RunOnce at once, then every time every has passed (every <= 0:
// one second) or Poke was called, until ctx is done; then it returns nil.
// Errors of RunOnce (a panic reading the outbox included) are logged and
// the next run tries again. send is
// called from Run's goroutine, one notification at a time: it should
// give up (fail) rather than hang, since it holds up the others.
func (d *Deliverer) Run(ctx context.Context, every time.Duration) error {
	if every <= 0 {
		every = time.Second
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if _, err := d.RunOnce(ctx); err != nil && ctx.Err() == nil {
			d.log.Error("delivering notifications", "err", err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		case <-d.poke:
		}
	}
}

// deliverDigest sends the digest of user made of the notifications held
// and acknowledges them, or puts them all off as after a failure (a panic
// included). It reports whether the digest was sent, and returns the
// outbox's errors.
func (d *Deliverer) deliverDigest(ctx context.Context, user string, held []bot.Notification, now time.Time) (sent bool, err error) {
	failed := func(why any) error {
		d.log.Warn("digest not delivered; will retry", "user", user, "notifications", len(held), "err", why)
		for _, n := range held {
			if err := d.out.RetryNotification(ctx, n.ID, now.Add(RetryDelay(n.Attempts))); err != nil {
				return err
			}
		}
		return nil
	}
	defer func() {
		if r := recover(); r != nil {
			sent, err = false, failed(gameplay.NewPanicError(r))
		}
	}()
	digest, err := d.digests.Digest(ctx, user, held, now)
	if err != nil {
		return false, failed(err)
	}
	if err := d.send(ctx, digest); err != nil {
		return false, failed(err)
	}
	for _, n := range held {
		if err := d.out.AckNotification(ctx, n.ID); err != nil {
			return false, err
		}
	}
	return true, nil
}
