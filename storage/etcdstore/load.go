package etcdstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/fairypost/fairypost/storage"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// loadBatch is how many operations one transaction of Load writes:
// below etcd's default --max-txn-ops of 128.
const loadBatch = 100

// Load copies every record of d into the store, whose prefix must hold
// nothing yet but its schema: games and challenges keep their IDs and
// versions, with all their index entries; preferences, standings,
// rating histories, tournaments (with their index entries), notes,
// follows and secrets are copied
// as they are; the notifications are appended in d's order and so get new
// IDs (etcd revisions) in the same order. The ID counter ends at d's
// LastID (or the largest ID, if larger), so no ID is ever given twice.
// The copy is made in transactions of up to 100 keys, eight at a time;
// the counter is written last, by a transaction that fails if anything
// created a challenge meanwhile: run it with no bot on the prefix. A Load that
// failed halfway leaves a prefix to delete (etcdctl del --prefix) before
// trying again.
func (s *Store) Load(ctx context.Context, d *storage.Dump) error {
	r, err := s.c.Get(ctx, s.p, clientv3.WithPrefix(), clientv3.WithCountOnly())
	if err != nil {
		return fmt.Errorf("etcd: %w", err)
	}
	if r.Count != 1 { // the schema key Open wrote
		return fmt.Errorf("etcd: prefix %q already holds %d keys: load into an empty prefix", s.p, r.Count-1)
	}
	// The records go in batches, several in flight at once (etcd groups
	// them into fewer disk syncs); their order does not matter.
	var batches [][]clientv3.Op
	var ops []clientv3.Op
	flush := func() {
		if len(ops) > 0 {
			batches, ops = append(batches, ops), nil
		}
	}
	add := func(more []clientv3.Op) {
		if len(ops)+len(more) > loadBatch {
			flush()
		}
		ops = append(ops, more...)
	}
	last := d.LastID
	for _, g := range d.Games {
		more, err := s.putGameOps(nil, g, "", nil)
		if err != nil {
			return err
		}
		add(more)
		last = max(last, g.ID)
	}
	for _, c := range d.Challenges {
		more, err := s.putChallengeOps(nil, c, "", nil)
		if err != nil {
			return err
		}
		add(more)
		last = max(last, c.ID)
	}
	for _, p := range d.Preferences {
		if p.UserID == "" {
			return errors.New("etcd: preferences without a user")
		}
		b, err := storage.EncodePreferences(p)
		if err != nil {
			return err
		}
		add([]clientv3.Op{clientv3.OpPut(s.userKey(p.UserID), string(b))})
	}
	rops, err := s.loadRatingOps(d)
	if err != nil {
		return err
	}
	for len(rops) > 0 {
		n := min(len(rops), loadBatch)
		add(rops[:n])
		rops = rops[n:]
	}
	for _, t := range d.Tournaments {
		more, err := s.putTournamentOps(nil, t, "", nil)
		if err != nil {
			return err
		}
		add(more)
		last = max(last, t.ID)
	}
	nops, err := s.noteAndFollowOps(d.Notes, d.Follows)
	if err != nil {
		return err
	}
	for len(nops) > 0 {
		n := min(len(nops), loadBatch)
		add(nops[:n])
		nops = nops[n:]
	}
	vops, err := s.loadVariantOps(d)
	if err != nil {
		return err
	}
	for len(vops) > 0 {
		n := min(len(vops), loadBatch)
		add(vops[:n])
		vops = vops[n:]
	}
	sops, err := s.loadSecretOps(d)
	if err != nil {
		return err
	}
	add(sops)
	aops, err := s.loadAnalysisOps(d)
	if err != nil {
		return err
	}
	for len(aops) > 0 {
		n := min(len(aops), loadBatch)
		add(aops[:n])
		aops = aops[n:]
	}
	flush()
	if err := s.commitAll(ctx, batches); err != nil {
		return err
	}
	// Notifications: one transaction per batch, one after the other, so
	// that their IDs (revision, place in the batch) keep d's order.
	for start := 0; start < len(d.Outbox); start += loadBatch {
		notes := d.Outbox[start:min(start+loadBatch, len(d.Outbox))]
		more, err := s.noteOps("m"+hex16(uint64(start)), notes)
		if err != nil {
			return err
		}
		if _, err := s.c.Txn(ctx).Then(more...).Commit(); err != nil {
			return fmt.Errorf("etcd: %w", err)
		}
	}
	cr, err := s.c.Txn(ctx).If(clientv3.Compare(clientv3.CreateRevision(s.idsKey()), "=", 0)).
		Then(clientv3.OpPut(s.idsKey(), strconv.FormatUint(last, 10))).Commit()
	if err != nil {
		return fmt.Errorf("etcd: %w", err)
	}
	if !cr.Succeeded {
		return fmt.Errorf("etcd: a challenge was created under %q during the load: stop every bot on it, delete the prefix and load again", s.p)
	}
	return nil
}

// loadWorkers is how many transactions Load has in flight at once.
const loadWorkers = 8

// commitAll commits each batch as a transaction, loadWorkers at a time,
// and returns the first error (the others may have been committed).
func (s *Store) commitAll(ctx context.Context, batches [][]clientv3.Op) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var next atomic.Int64
	var mu sync.Mutex
	var first error
	var wg sync.WaitGroup
	for range min(loadWorkers, len(batches)) {
		wg.Go(func() {
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= len(batches) {
					return
				}
				if _, err := s.c.Txn(ctx).Then(batches[i]...).Commit(); err != nil {
					mu.Lock()
					if first == nil {
						first = fmt.Errorf("etcd: %w", err)
					}
					mu.Unlock()
					cancel()
				}
			}
		})
	}
	wg.Wait()
	return first
}
