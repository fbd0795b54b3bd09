package etcdstore

import (
	"context"
	"strings"
	"sync"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// WatchChanges tells this process of changes made by any process that
// the one running the scheduler and the deliverer must not sleep
// through: schedule is called after an entry is put in a time index (a
// new or moved deadline, reminder, challenge expiry or tournament
// start: the next wake-up
// may be earlier), deliver after a notification is appended or retried.
// Each is called once per etcd revision at most, from one goroutine per
// kind, and must not block (a Scheduler's or Deliverer's Poke). A watch
// that breaks (the cluster unreachable) is set up again a second later,
// and both are then called once, since changes may have been missed. It
// returns when ctx is done.
func (s *Store) WatchChanges(ctx context.Context, schedule, deliver func()) {
	var wg sync.WaitGroup
	timeIndexes := []string{s.indexPrefix(ixGamesByDeadline), s.indexPrefix(ixGamesByRemind), s.indexPrefix(ixChallengesByExpiry),
		s.indexPrefix(ixTournamentsByStart)}
	wg.Go(func() {
		s.watch(ctx, s.p+"ix/", func(key string) bool {
			for _, p := range timeIndexes {
				if strings.HasPrefix(key, p) {
					return true
				}
			}
			return false
		}, schedule)
	})
	wg.Go(func() { s.watch(ctx, s.outboxPrefix(), func(string) bool { return true }, deliver) })
	wg.Wait()
}

// watch calls fn after each revision that puts a key under prefix that
// match accepts, until ctx is done.
func (s *Store) watch(ctx context.Context, prefix string, match func(string) bool, fn func()) {
	wctx := clientv3.WithRequireLeader(ctx)
	for ctx.Err() == nil {
		for resp := range s.c.Watch(wctx, prefix, clientv3.WithPrefix(), clientv3.WithFilterDelete()) {
			if resp.Err() != nil {
				break
			}
			for _, ev := range resp.Events {
				if match(string(ev.Kv.Key)) {
					fn()
					break
				}
			}
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
			fn() // changes may have been missed while the watch was down
		}
	}
}
