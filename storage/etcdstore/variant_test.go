package etcdstore_test

import (
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/internal/testkit"
	"github.com/fairypost/fairypost/storage"
	"github.com/fairypost/fairypost/storage/etcdstore/etcdtest"
)

// TestVariantsMigrate: a bbolt file's defined variants are copied into
// etcd by Load and back by Dump, and Verify checks them (migrate and
// backups keep a server's variants, locked or not).
func TestVariantsMigrate(t *testing.T) {
	ctx := t.Context()
	db := testkit.OpenDB(t)
	at := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	vs := []bot.DefinedVariant{
		{Server: "g1", Name: "a", Text: "[a:chess]\n", Author: "u1", Created: at},
		{Server: "g2", Name: "b", Text: "[b:chess]\n", Author: "u2", Created: at},
	}
	if err := db.DefineVariants(ctx, vs); err != nil {
		t.Fatal(err)
	}
	if err := db.LockVariant(ctx, "g2", "b"); err != nil {
		t.Fatal(err)
	}
	d, err := db.Dump(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Variants) != 2 || !d.Variants[1].Locked {
		t.Fatalf("dumped from bbolt: %+v, want both, b locked", d.Variants)
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
	if len(back.Variants) != 2 || back.Variants[0] != d.Variants[0] || back.Variants[1] != d.Variants[1] {
		t.Fatalf("dumped from etcd: %+v, want %+v", back.Variants, d.Variants)
	}
	if err := s.RemoveVariant(ctx, "g1", "a"); err != nil {
		t.Fatal(err)
	}
	if err := storage.Verify(ctx, d, s.Stores()); err == nil {
		t.Error("Verify accepted a copy missing a defined variant")
	}
}
