package storage_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/storage"
)

// TestSecretDumpLoadVerify: a secret goes with Dump into a new file by
// Load, Verify accepts the copy and refuses one whose secret differs, a
// read-only Open reads it, and Load refuses a file that has one.
func TestSecretDumpLoadVerify(t *testing.T) {
	src := mustOpenDB(t, "")
	mustAddGame(t, src, "alice", "bob", "c1", "e2e4")
	made, err := src.EnsureSecret(ctx, storage.PageSecret)
	if err != nil {
		t.Fatal(err)
	}
	d, err := src.Dump(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Secrets) != 1 || !bytes.Equal(d.Secrets[0].Key, made.Key) {
		t.Fatalf("dumped secrets %+v, want the one made", d.Secrets)
	}
	path := filepath.Join(t.TempDir(), "copy.db")
	dst := mustOpenDB(t, path)
	if err := dst.Load(ctx, d); err != nil {
		t.Fatal(err)
	}
	if err := storage.Verify(ctx, d, dst.Stores()); err != nil {
		t.Fatalf("Verify of the copy: %v", err)
	}
	got, err := dst.Secret(ctx, storage.PageSecret)
	if err != nil || !bytes.Equal(got.Key, made.Key) {
		t.Fatalf("the copy's secret: %x, %v; want %x", got.Key, err, made.Key)
	}
	if _, err := dst.RotateSecret(ctx, storage.PageSecret); err != nil {
		t.Fatal(err)
	}
	if err := storage.Verify(ctx, d, dst.Stores()); err == nil || !strings.Contains(err.Error(), "secret web-pages differs") {
		t.Errorf("Verify after rotating the copy's secret: %v, want it to differ", err)
	}
	if err := dst.Load(ctx, &storage.Dump{Secrets: d.Secrets}); err == nil {
		t.Error("Load of a secret into a file that has it succeeded")
	}
	dst.Close()
	ro, err := storage.Open(path, storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if got, err := ro.Secret(ctx, storage.PageSecret); err != nil || bytes.Equal(got.Key, made.Key) {
		t.Errorf("read-only: %x, %v; want the rotated secret", got.Key, err)
	}
}
