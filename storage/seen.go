package storage

import (
	"context"
	"sync"
	"time"

	"github.com/fairypost/fairypost/bot"
)

var _ bot.ReplayGuard = (*DB)(nil)

// seenSweepEvery is how often FirstSeen drops the keys past their time.
const seenSweepEvery = time.Minute

// seenSet holds the keys of DB.FirstSeen in memory. Its zero value is
// ready to use.
type seenSet struct {
	mu        sync.Mutex
	until     map[string]time.Time
	nextSweep time.Time
}

// FirstSeen implements bot.ReplayGuard: it records key until until and
// reports whether key was not recorded already (or only until a time now
// past).
//
// The keys are kept in this process's memory, not in the file: bbolt lets
// one process at a time open a file for writing, so every caller that
// shares this database shares this DB value and its memory, and an
// in-memory set answers as a record in the file would, without a disk
// write per call. What it does not keep is the keys across a restart of
// the process; the callers' own time limit (bot/discord refuses requests
// signed more than a few minutes ago) bounds what a restart could let
// through. Expired keys are dropped once a minute, so memory holds only
// the keys of the last few minutes.
func (db *DB) FirstSeen(ctx context.Context, key string, until time.Time) (bool, error) {
	if key == "" {
		return false, bot.Errorf(bot.EINVALID, "a replay guard key must not be empty")
	}
	if err := ctx.Err(); err != nil {
		return false, err
	}
	return db.seen.firstSeen(key, until, time.Now()), nil
}

// firstSeen records key until until, at now, and reports whether it was
// new.
func (s *seenSet) firstSeen(key string, until, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.until == nil {
		s.until = make(map[string]time.Time)
	}
	if now.After(s.nextSweep) {
		for k, u := range s.until {
			if now.After(u) {
				delete(s.until, k)
			}
		}
		s.nextSweep = now.Add(seenSweepEvery)
	}
	if u, ok := s.until[key]; ok && !now.After(u) {
		return false
	}
	s.until[key] = until
	return true
}

// seenLen returns how many keys s holds.
func (s *seenSet) seenLen() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.until)
}
