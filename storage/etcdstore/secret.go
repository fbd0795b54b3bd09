package etcdstore

import (
	"context"
	"fmt"
	"time"

	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/storage"
)

// secretKey is where the secret name is kept (storage.Secret).
func (s *Store) secretKey(name string) string { return s.p + "secret/" + name }

// Secret returns the secret name, ENOTFOUND when none was ever made
// (as storage.DB.Secret).
func (s *Store) Secret(ctx context.Context, name string) (storage.Secret, error) {
	if err := storage.CheckSecretName(name); err != nil {
		return storage.Secret{}, err
	}
	v, _, found, err := s.getOne(ctx, s.secretKey(name))
	if err != nil {
		return storage.Secret{}, err
	}
	if !found {
		return storage.Secret{}, bot.Errorf(bot.ENOTFOUND, "There is no secret %s in the database yet.", name)
	}
	return storage.DecodeSecret(v)
}

// EnsureSecret returns the secret name, making it first when there is
// none, in one transaction that puts it only if the key is still
// missing: every process, whichever was first, gets the same secret.
func (s *Store) EnsureSecret(ctx context.Context, name string) (storage.Secret, error) {
	if sec, err := s.Secret(ctx, name); bot.ErrorCode(err) != bot.ENOTFOUND {
		return sec, err
	}
	fresh, err := storage.NewSecret(name, time.Now())
	if err != nil {
		return storage.Secret{}, err
	}
	b, err := storage.EncodeSecret(fresh)
	if err != nil {
		return storage.Secret{}, err
	}
	k := s.secretKey(name)
	r, err := s.c.Txn(ctx).If(clientv3.Compare(clientv3.CreateRevision(k), "=", 0)).
		Then(clientv3.OpPut(k, string(b))).Else(clientv3.OpGet(k)).Commit()
	if err != nil {
		return storage.Secret{}, readError(err)
	}
	if r.Succeeded {
		return fresh, nil
	}
	kvs := r.Responses[0].GetResponseRange().GetKvs()
	if len(kvs) != 1 {
		return storage.Secret{}, fmt.Errorf("etcd: the secret %s was made and gone at once", name)
	}
	return storage.DecodeSecret(kvs[0].Value)
}

// RotateSecret replaces the secret name with a fresh one (making it when
// there is none) and returns it (as storage.DB.RotateSecret).
func (s *Store) RotateSecret(ctx context.Context, name string) (storage.Secret, error) {
	fresh, err := storage.NewSecret(name, time.Now())
	if err != nil {
		return storage.Secret{}, err
	}
	b, err := storage.EncodeSecret(fresh)
	if err != nil {
		return storage.Secret{}, err
	}
	if _, err := s.c.Put(ctx, s.secretKey(name), string(b)); err != nil {
		return storage.Secret{}, bot.OutcomeUnknown(fmt.Errorf("etcd: %w", err))
	}
	return fresh, nil
}

// dumpSecrets adds the secrets under the prefix at revision rev to d, by
// name.
func (s *Store) dumpSecrets(ctx context.Context, rev int64, d *storage.Dump) error {
	return s.scan(ctx, s.p+"secret/", rev, func(kv *mvccpb.KeyValue) error {
		sec, err := storage.DecodeSecret(kv.Value)
		d.Secrets = append(d.Secrets, sec)
		return err
	})
}

// loadSecretOps returns the puts that copy the secrets of d.
func (s *Store) loadSecretOps(d *storage.Dump) ([]clientv3.Op, error) {
	var ops []clientv3.Op
	for _, sec := range d.Secrets {
		b, err := storage.EncodeSecret(sec)
		if err != nil {
			return nil, err
		}
		ops = append(ops, clientv3.OpPut(s.secretKey(sec.Name), string(b)))
	}
	return ops, nil
}
