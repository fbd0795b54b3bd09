package bot

import (
	"context"
	"time"
)

// ReplayGuard remembers keys for a while, so that something meant to
// happen once (a signed request Discord delivered) is refused the second
// time, even when the second copy reaches another process sharing the
// same store.
//
// FirstSeen records key, unless it is recorded already, and reports
// whether this call recorded it: true the first time, false for every
// later call with the same key while it is remembered. The check and the
// record are one atomic step: of any number of concurrent calls with one
// key, in this process or in others sharing the store, exactly one gets
// true. key must not be empty (EINVALID). A key is remembered at least
// until until; afterwards the store may forget it, so the caller must
// itself refuse anything older (for example by a timestamp). An error
// means it is unknown whether key was seen: the caller must not go on as
// if it were new; an error may have left key recorded (a retry then gets
// false), never the reverse.
//
// Safe for concurrent use.
type ReplayGuard interface {
	FirstSeen(ctx context.Context, key string, until time.Time) (bool, error)
}
