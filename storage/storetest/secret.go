package storetest

import (
	"bytes"
	"context"
	"sync"
	"testing"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/storage"
)

// SecretStore is what a backend keeps secrets with (storage.DB and
// etcdstore.Store).
type SecretStore interface {
	Secret(ctx context.Context, name string) (storage.Secret, error)
	EnsureSecret(ctx context.Context, name string) (storage.Secret, error)
	RotateSecret(ctx context.Context, name string) (storage.Secret, error)
}

// OpenSecrets returns the secret store of a fresh, empty backend for
// test t, closed when t ends.
type OpenSecrets func(t *testing.T) SecretStore

// RunSecrets runs the conformance tests of the secrets as subtests of
// t, each on a store of its own from open.
func RunSecrets(t *testing.T, open OpenSecrets) {
	tests := []struct {
		name string
		fn   func(*testing.T, SecretStore)
	}{
		{"EnsureMakesOnce", testSecretEnsureOnce},
		{"EnsureConcurrently", testSecretEnsureConcurrently},
		{"Rotate", testSecretRotate},
		{"BadNames", testSecretBadNames},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, open(t)) })
	}
}

func testSecretEnsureOnce(t *testing.T, s SecretStore) {
	ctx := t.Context()
	if _, err := s.Secret(ctx, storage.PageSecret); bot.ErrorCode(err) != bot.ENOTFOUND {
		t.Fatalf("Secret of a fresh store: %v, want ENOTFOUND", err)
	}
	a, err := s.EnsureSecret(ctx, storage.PageSecret)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Key) != storage.SecretSize || bytes.Equal(a.Key, make([]byte, storage.SecretSize)) || a.Name != storage.PageSecret || a.Created.IsZero() {
		t.Fatalf("made %+v, want %d random bytes named %s with a creation time", a, storage.SecretSize, storage.PageSecret)
	}
	b, err := s.EnsureSecret(ctx, storage.PageSecret)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Secret(ctx, storage.PageSecret)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Key, b.Key) || !bytes.Equal(a.Key, got.Key) || !got.Created.Equal(a.Created) {
		t.Errorf("made %x, then ensured %x and read %x: want the same secret every time", a.Key, b.Key, got.Key)
	}
	other, err := s.EnsureSecret(ctx, "other")
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(other.Key, a.Key) {
		t.Errorf("two secrets have the same key %x", a.Key)
	}
}

func testSecretEnsureConcurrently(t *testing.T, s SecretStore) {
	ctx := t.Context()
	const n = 8
	keys := make([][]byte, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			sec, err := s.EnsureSecret(ctx, storage.PageSecret)
			keys[i], errs[i] = sec.Key, err
		})
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if !bytes.Equal(keys[i], keys[0]) {
			t.Fatalf("concurrent EnsureSecret gave %x and %x: every caller must get the one secret", keys[0], keys[i])
		}
	}
}

func testSecretRotate(t *testing.T, s SecretStore) {
	ctx := t.Context()
	old, err := s.EnsureSecret(ctx, storage.PageSecret)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := s.RotateSecret(ctx, storage.PageSecret)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(old.Key, fresh.Key) || len(fresh.Key) != storage.SecretSize {
		t.Fatalf("rotated %x into %x: want a new key of %d bytes", old.Key, fresh.Key, storage.SecretSize)
	}
	got, err := s.EnsureSecret(ctx, storage.PageSecret)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Key, fresh.Key) {
		t.Errorf("after rotating, EnsureSecret gave %x, want the new %x", got.Key, fresh.Key)
	}
	made, err := s.RotateSecret(ctx, "never-made")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := s.Secret(ctx, "never-made"); err != nil || !bytes.Equal(got.Key, made.Key) {
		t.Errorf("rotating a secret never made: read %x, %v; want %x", got.Key, err, made.Key)
	}
}

func testSecretBadNames(t *testing.T, s SecretStore) {
	ctx := t.Context()
	for _, name := range []string{"", "Upper", "a/b", "../x", "-lead", string(make([]byte, 65))} {
		if _, err := s.EnsureSecret(ctx, name); bot.ErrorCode(err) != bot.EINVALID {
			t.Errorf("EnsureSecret(%q): %v, want EINVALID", name, err)
		}
		if _, err := s.RotateSecret(ctx, name); bot.ErrorCode(err) != bot.EINVALID {
			t.Errorf("RotateSecret(%q): %v, want EINVALID", name, err)
		}
		if _, err := s.Secret(ctx, name); bot.ErrorCode(err) != bot.EINVALID {
			t.Errorf("Secret(%q): %v, want EINVALID", name, err)
		}
	}
}
