package etcdstore

import (
	"context"
	"fmt"

	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/storage"
)

// variantKey is where the defined variant name of server is kept.
func (s *Store) variantKey(server, name string) string {
	return s.p + "variant/" + storage.VariantKey(server, name)
}

// DefineVariants stores vs in one transaction that puts them only if
// none of their keys exists (bot.VariantStore).
func (s *Store) DefineVariants(ctx context.Context, vs []bot.DefinedVariant) error {
	var cmps []clientv3.Cmp
	var puts []clientv3.Op
	for _, v := range vs {
		b, err := storage.EncodeDefinedVariant(v)
		if err != nil {
			return err
		}
		k := s.variantKey(v.Server, v.Name)
		cmps = append(cmps, clientv3.Compare(clientv3.CreateRevision(k), "=", 0))
		puts = append(puts, clientv3.OpPut(k, string(b)))
	}
	r, err := s.c.Txn(ctx).If(cmps...).Then(puts...).Commit()
	if err != nil {
		return bot.OutcomeUnknown(fmt.Errorf("etcd: %w", err))
	}
	if r.Succeeded {
		return nil
	}
	for _, v := range vs {
		if _, err := s.DefinedVariant(ctx, v.Server, v.Name); err == nil {
			return storage.VariantExists(v.Name)
		}
	}
	return bot.Errorf(bot.ECONFLICT, "The variants changed while they were defined: try again.")
}

// DefinedVariant returns the variant name of server (bot.VariantStore).
func (s *Store) DefinedVariant(ctx context.Context, server, name string) (bot.DefinedVariant, error) {
	v, _, err := s.definedVariant(ctx, server, name)
	return v, err
}

// definedVariant returns the variant and its record's revision.
func (s *Store) definedVariant(ctx context.Context, server, name string) (bot.DefinedVariant, int64, error) {
	b, rev, found, err := s.getOne(ctx, s.variantKey(server, name))
	if err != nil {
		return bot.DefinedVariant{}, 0, err
	}
	if !found {
		return bot.DefinedVariant{}, 0, storage.NoVariant(name)
	}
	v, err := storage.DecodeDefinedVariant(b)
	return v, rev, err
}

// DefinedVariants returns the variants of server, or of all servers for
// "" (bot.VariantStore).
func (s *Store) DefinedVariants(ctx context.Context, server string) ([]bot.DefinedVariant, error) {
	prefix := s.p + "variant/"
	if server != "" {
		prefix += server + "\x00"
	}
	var vs []bot.DefinedVariant
	err := s.scan(ctx, prefix, 0, func(kv *mvccpb.KeyValue) error {
		v, err := storage.DecodeDefinedVariant(kv.Value)
		vs = append(vs, v)
		return err
	})
	return vs, err
}

// LockVariant marks the variant locked (bot.VariantStore).
func (s *Store) LockVariant(ctx context.Context, server, name string) error {
	return s.changeVariant(ctx, server, name, func(k string, v bot.DefinedVariant) (clientv3.Op, bool, error) {
		if v.Locked {
			return clientv3.Op{}, false, nil
		}
		v.Locked = true
		b, err := storage.EncodeDefinedVariant(v)
		return clientv3.OpPut(k, string(b)), true, err
	})
}

// RemoveVariant removes an unlocked variant (bot.VariantStore).
func (s *Store) RemoveVariant(ctx context.Context, server, name string) error {
	return s.changeVariant(ctx, server, name, func(k string, v bot.DefinedVariant) (clientv3.Op, bool, error) {
		if v.Locked {
			return clientv3.Op{}, false, storage.VariantLocked(name)
		}
		return clientv3.OpDelete(k), true, nil
	})
}

// changeVariant reads the variant, asks fn for the operation to apply
// (none when fn says so) and applies it if the record has not changed
// since, reading again when it has.
func (s *Store) changeVariant(ctx context.Context, server, name string, fn func(key string, v bot.DefinedVariant) (clientv3.Op, bool, error)) error {
	k := s.variantKey(server, name)
	for {
		v, rev, err := s.definedVariant(ctx, server, name)
		if err != nil {
			return err
		}
		op, do, err := fn(k, v)
		if err != nil || !do {
			return err
		}
		r, err := s.c.Txn(ctx).If(clientv3.Compare(clientv3.ModRevision(k), "=", rev)).Then(op).Commit()
		if err != nil {
			return bot.OutcomeUnknown(fmt.Errorf("etcd: %w", err))
		}
		if r.Succeeded {
			return nil
		}
	}
}

// dumpVariants adds the defined variants at revision rev to d.
func (s *Store) dumpVariants(ctx context.Context, rev int64, d *storage.Dump) error {
	return s.scan(ctx, s.p+"variant/", rev, func(kv *mvccpb.KeyValue) error {
		v, err := storage.DecodeDefinedVariant(kv.Value)
		d.Variants = append(d.Variants, v)
		return err
	})
}

// loadVariantOps returns the puts that copy the defined variants of d.
func (s *Store) loadVariantOps(d *storage.Dump) ([]clientv3.Op, error) {
	var ops []clientv3.Op
	for _, v := range d.Variants {
		b, err := storage.EncodeDefinedVariant(v)
		if err != nil {
			return nil, err
		}
		ops = append(ops, clientv3.OpPut(s.variantKey(v.Server, v.Name), string(b)))
	}
	return ops, nil
}
