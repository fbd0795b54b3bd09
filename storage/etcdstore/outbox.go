package etcdstore

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/storage"
	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// noteOps returns the puts that append notes to the outbox under token,
// the name of the change writing them (unique: a record key and the
// ModRevision it replaces). Their IDs are known only once the
// transaction has a revision: see notificationID.
func (s *Store) noteOps(token string, notes []bot.Notification) ([]clientv3.Op, error) {
	if len(notes) == 0 {
		return nil, nil
	}
	if len(notes) > maxNotesPerTransaction {
		return nil, fmt.Errorf("etcd: %d notifications in one change, at most %d", len(notes), maxNotesPerTransaction)
	}
	ops := make([]clientv3.Op, len(notes))
	for i := range notes {
		n := notes[i]
		n.ID = 0
		b, err := storage.EncodeNotification(&n)
		if err != nil {
			return nil, err
		}
		ops[i] = clientv3.OpPut(fmt.Sprintf("%s%s/%03x", s.outboxPrefix(), token, i), string(b))
	}
	return ops, nil
}

// notificationID returns the ID of the outbox entry kv: its
// CreateRevision times 4096 plus its place in its transaction (the key's
// last three hex digits).
func (s *Store) notificationID(kv *mvccpb.KeyValue) (uint64, error) {
	k := string(kv.Key)
	slash := strings.LastIndexByte(k, '/')
	idx, err := strconv.ParseUint(k[slash+1:], 16, 16)
	if slash < len(s.outboxPrefix()) || err != nil || idx >= maxNotesPerTransaction || kv.CreateRevision <= 0 {
		return 0, fmt.Errorf("etcd: corrupt outbox key %q", k)
	}
	return uint64(kv.CreateRevision)*maxNotesPerTransaction + idx, nil
}

// decodeNote reads the outbox entry kv with its ID.
func (s *Store) decodeNote(kv *mvccpb.KeyValue) (bot.Notification, error) {
	id, err := s.notificationID(kv)
	if err != nil {
		return bot.Notification{}, err
	}
	n, err := storage.DecodeNotification(kv.Value)
	if err != nil {
		return bot.Notification{}, err
	}
	n.ID = id
	return n, nil
}

// PendingNotifications returns up to limit undelivered notifications
// whose NotBefore is zero or not after now, oldest (lowest ID) first
// (bot.Outbox). It reads the whole outbox, which stays small: delivered
// notifications are removed.
func (s *Store) PendingNotifications(ctx context.Context, now time.Time, limit int) ([]bot.Notification, error) {
	r, err := s.c.Get(ctx, s.outboxPrefix(), clientv3.WithPrefix())
	if err != nil {
		return nil, readError(err)
	}
	var out []bot.Notification
	for _, kv := range r.Kvs {
		n, err := s.decodeNote(kv)
		if err != nil {
			return nil, err
		}
		if !n.NotBefore.After(now) {
			out = append(out, n)
		}
	}
	sortNotes(out)
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// findNote returns the outbox entry of notification id, nil when it is
// not there. Only the entries created at id's revision are sent by etcd.
func (s *Store) findNote(ctx context.Context, id uint64, opts ...clientv3.OpOption) (*mvccpb.KeyValue, error) {
	rev := int64(id / maxNotesPerTransaction)
	if rev <= 0 || rev > 1<<52 {
		return nil, nil
	}
	opts = append([]clientv3.OpOption{clientv3.WithPrefix(), clientv3.WithMinCreateRev(rev), clientv3.WithMaxCreateRev(rev)}, opts...)
	r, err := s.c.Get(ctx, s.outboxPrefix(), opts...)
	if err != nil {
		return nil, readError(err)
	}
	for _, kv := range r.Kvs {
		if got, err := s.notificationID(kv); err == nil && got == id {
			return kv, nil
		}
	}
	return nil, nil
}

// RetryNotification records a failed delivery of notification id: its
// Attempts is incremented and NotBefore set, in one transaction guarded
// by the entry's ModRevision. A notification no longer there is not an
// error (bot.Outbox).
func (s *Store) RetryNotification(ctx context.Context, id uint64, notBefore time.Time) error {
	return s.casLoop(ctx, func() ([]clientv3.Cmp, []clientv3.Op, error) {
		kv, err := s.findNote(ctx, id)
		if err != nil {
			return nil, nil, err
		}
		if kv == nil {
			return nil, nil, nil // gone: nothing to do
		}
		n, err := s.decodeNote(kv)
		if err != nil {
			return nil, nil, err
		}
		n.Attempts++
		n.NotBefore = notBefore
		n.ID = 0
		b, err := storage.EncodeNotification(&n)
		if err != nil {
			return nil, nil, err
		}
		key := string(kv.Key)
		return []clientv3.Cmp{clientv3.Compare(clientv3.ModRevision(key), "=", kv.ModRevision)},
			[]clientv3.Op{clientv3.OpPut(key, string(b))}, nil
	})
}

// AckNotification removes notification id from the outbox (bot.Outbox);
// one that is not there is not an error.
func (s *Store) AckNotification(ctx context.Context, id uint64) error {
	kv, err := s.findNote(ctx, id, clientv3.WithKeysOnly())
	if err != nil || kv == nil {
		return err
	}
	if _, err := s.c.Delete(ctx, string(kv.Key)); err != nil {
		return fmt.Errorf("etcd: %w", err)
	}
	return nil
}

// sortNotes orders notifications by ID: the order of appending.
func sortNotes(ns []bot.Notification) {
	slices.SortFunc(ns, func(a, b bot.Notification) int {
		switch {
		case a.ID < b.ID:
			return -1
		case a.ID > b.ID:
			return 1
		}
		return 0
	})
}

// asidePrefix is where notifications set aside are kept, out of the
// outbox: each under its outbox key's last part, its value the reason, a
// newline, and the notification's record.
func (s *Store) asidePrefix() string { return s.p + "aside/" }

// SetAsideNotification takes notification id out of delivery for good
// (bot.Outbox): in one transaction guarded by the entry's ModRevision it
// is moved from the outbox to the aside prefix with reason, so
// PendingNotifications no longer lists it. A notification no longer there
// is not an error.
func (s *Store) SetAsideNotification(ctx context.Context, id uint64, reason string) error {
	if reason == "" {
		reason = "set aside"
	}
	return s.casLoop(ctx, func() ([]clientv3.Cmp, []clientv3.Op, error) {
		kv, err := s.findNote(ctx, id)
		if err != nil || kv == nil {
			return nil, nil, err
		}
		key := string(kv.Key)
		aside := s.asidePrefix() + strings.TrimPrefix(key, s.outboxPrefix())
		return []clientv3.Cmp{clientv3.Compare(clientv3.ModRevision(key), "=", kv.ModRevision)},
			[]clientv3.Op{clientv3.OpPut(aside, reason+"\n"+string(kv.Value)), clientv3.OpDelete(key)}, nil
	})
}
