package etcdstore_test

import (
	"bytes"
	"testing"

	"github.com/fairypost/fairypost/internal/testkit"
	"github.com/fairypost/fairypost/storage"
	"github.com/fairypost/fairypost/storage/etcdstore/etcdtest"
)

// TestSecretMigrates: a bbolt file's secret is copied into etcd by Load
// and back by Dump, and Verify checks it: the page links of a migrated
// database keep working.
func TestSecretMigrates(t *testing.T) {
	ctx := t.Context()
	db := testkit.OpenDB(t)
	made, err := db.EnsureSecret(ctx, storage.PageSecret)
	if err != nil {
		t.Fatal(err)
	}
	d, err := db.Dump(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s := openStore(t, etcdtest.Start(t, 1, etcdtest.Options{}))
	if err := s.Load(ctx, d); err != nil {
		t.Fatal(err)
	}
	if err := storage.Verify(ctx, d, s.Stores()); err != nil {
		t.Fatal(err)
	}
	back, err := s.Dump(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Secrets) != 1 || !bytes.Equal(back.Secrets[0].Key, made.Key) || !back.Secrets[0].Created.Equal(made.Created) {
		t.Fatalf("dumped from etcd: %+v, want the secret made in bbolt", back.Secrets)
	}
	if _, err := s.RotateSecret(ctx, storage.PageSecret); err != nil {
		t.Fatal(err)
	}
	if err := storage.Verify(ctx, d, s.Stores()); err == nil {
		t.Error("Verify accepted a copy whose secret was rotated")
	}
}
