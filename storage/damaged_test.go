package storage_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/storage"
	bolt "go.etcd.io/bbolt"
)

// filledDB writes a database with games and notifications to a new file
// and returns its path, closed.
func filledDB(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fairypost.db")
	db := mustOpenDB(t, path)
	for i := range 60 { // enough for the games and outbox buckets to span pages
		mustAddGame(t, db, fmt.Sprint("white", i), fmt.Sprint("black", i), "channel", "e2e4", "e7e5")
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// pageOf returns the page size of the bbolt file at path and the page
// that pick chooses in a read transaction.
func pageOf(t *testing.T, path string, pick func(tx *bolt.Tx) uint64) (pageSize int, page uint64) {
	t.Helper()
	b, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := b.View(func(tx *bolt.Tx) error { page = pick(tx); return nil }); err != nil {
		t.Fatal(err)
	}
	return b.Info().PageSize, page
}

// zeroPage overwrites page n of the file at path with zeros.
func zeroPage(t *testing.T, path string, pageSize int, n uint64) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(make([]byte, pageSize), int64(n)*int64(pageSize)); err != nil {
		t.Fatal(err)
	}
}

// TestOpenRefusesDamagedFile: a file with a zeroed page (a bucket's
// root, the freelist) or cut short is refused by Open, read-write and
// read-only, with a *DamagedError and no panic, before anything is
// served from it.
func TestOpenRefusesDamagedFile(t *testing.T) {
	for _, c := range []struct {
		name  string
		spoil func(t *testing.T, path string)
	}{
		{"zeroed bucket root", func(t *testing.T, path string) {
			size, root := pageOf(t, path, func(tx *bolt.Tx) uint64 { return uint64(tx.Bucket([]byte("games")).Root()) })
			if root == 0 {
				t.Fatal("the games bucket is inline: no page to zero")
			}
			zeroPage(t, path, size, root)
		}},
		{"zeroed outbox page", func(t *testing.T, path string) {
			size, root := pageOf(t, path, func(tx *bolt.Tx) uint64 { return uint64(tx.Bucket([]byte("outbox")).Root()) })
			if root == 0 {
				t.Fatal("the outbox bucket is inline: no page to zero")
			}
			zeroPage(t, path, size, root)
		}},
		{"zeroed freelist", func(t *testing.T, path string) {
			// The freelist moves as the file is written: find its page
			// (a read-write open loads the free pages Tx.Page needs).
			b, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
			if err != nil {
				t.Fatal(err)
			}
			var freelist uint64
			err = b.View(func(tx *bolt.Tx) error {
				for id := 2; int64(id)*int64(b.Info().PageSize) < tx.Size(); id++ {
					info, err := tx.Page(id)
					if err != nil {
						return err
					}
					if info != nil && info.Type == "freelist" {
						freelist = uint64(id)
					}
				}
				return nil
			})
			size := b.Info().PageSize
			b.Close()
			if err != nil {
				t.Fatal(err)
			}
			if freelist == 0 {
				t.Fatal("no freelist page found")
			}
			zeroPage(t, path, size, freelist)
		}},
		{"truncated", func(t *testing.T, path string) {
			var used int64
			pageOf(t, path, func(tx *bolt.Tx) uint64 { used = tx.Size(); return 0 })
			if err := os.Truncate(path, used/2); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filledDB(t)
			c.spoil(t, path)
			for _, ro := range []bool{false, true} {
				db, err := storage.Open(path, storage.Options{Timeout: time.Second, ReadOnly: ro})
				if err == nil {
					db.Close()
					t.Fatalf("read-only %v: a damaged file opened", ro)
				}
				var d *storage.DamagedError
				if !errors.As(err, &d) || d.Path != path || d.Problem == "" || strings.Contains(d.Problem, "\n") {
					t.Errorf("read-only %v: error %v (%T), want a one-line *DamagedError for %s", ro, err, err, path)
				}
			}
		})
	}
}

// TestOpenRefusesPointersOutside: a page whose element points past its
// page, or to a page past the file, is refused by Open with a
// *DamagedError naming the page. (bbolt would read there: a memory fault
// that kills the process, in its consistency check as in serving.)
func TestOpenRefusesPointersOutside(t *testing.T) {
	e := binary.NativeEndian
	for _, c := range []struct {
		name  string
		spoil func(branch, leaf []byte)
		want  string
	}{
		{"child past the file", func(branch, _ []byte) { e.PutUint64(branch[16+8:], 1<<40) }, "is outside the"},
		{"key past the page", func(_, leaf []byte) { e.PutUint32(leaf[16+8:], 1<<30) }, "element 0 reaches past the page"},
		{"no page type", func(_, leaf []byte) { e.PutUint16(leaf[8:], 0) }, "is neither a branch nor a leaf page"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filledDB(t)
			size, root := pageOf(t, path, func(tx *bolt.Tx) uint64 { return uint64(tx.Bucket([]byte("games")).Root()) })
			f, err := os.OpenFile(path, os.O_RDWR, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			branch := make([]byte, size)
			if _, err := f.ReadAt(branch, int64(root)*int64(size)); err != nil {
				t.Fatal(err)
			}
			if e.Uint16(branch[8:])&1 == 0 {
				t.Fatalf("the games bucket's root page %d is not a branch page", root)
			}
			child := e.Uint64(branch[16+8:])
			leaf := make([]byte, size)
			if _, err := f.ReadAt(leaf, int64(child)*int64(size)); err != nil {
				t.Fatal(err)
			}
			c.spoil(branch, leaf)
			f.WriteAt(branch, int64(root)*int64(size))
			f.WriteAt(leaf, int64(child)*int64(size))
			for _, ro := range []bool{true, false} {
				db, err := storage.Open(path, storage.Options{Timeout: time.Second, ReadOnly: ro})
				if err == nil {
					db.Close()
					t.Fatalf("read-only %v: opened", ro)
				}
				var d *storage.DamagedError
				if !errors.As(err, &d) || !strings.Contains(d.Problem, c.want) {
					t.Errorf("read-only %v: %v, want a *DamagedError saying %q", ro, err, c.want)
				}
			}
		})
	}
}

// TestOpenReadOnly: a read-only Open neither creates a missing file nor
// writes to an empty one, and reads a database written before.
func TestOpenReadOnly(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.db")
	if db, err := storage.Open(missing, storage.Options{ReadOnly: true}); err == nil {
		db.Close()
		t.Error("a missing file opened read-only")
	}
	if _, err := os.Stat(missing); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a read-only Open created %s: %v", missing, err)
	}
	empty := filepath.Join(dir, "empty.db")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if db, err := storage.Open(empty, storage.Options{ReadOnly: true}); !errors.Is(err, storage.ErrEmpty) {
		if err == nil {
			db.Close()
		}
		t.Errorf("an empty file read-only: %v, want ErrEmpty", err)
	}
	if st, err := os.Stat(empty); err != nil || st.Size() != 0 {
		t.Errorf("the empty file after a read-only Open: %v, %v", st, err)
	}

	path := filledDB(t)
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	db, err := storage.Open(path, storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if g, err := db.Game(ctx, 1); err != nil || len(g.Moves) != 2 {
		t.Errorf("game 1 read-only: %v, %v", g, err)
	}
	// A second reader shares the file.
	db2, err := storage.Open(path, storage.Options{ReadOnly: true, Timeout: 100 * time.Millisecond})
	if err != nil {
		t.Errorf("a second read-only Open: %v", err)
	} else {
		db2.Close()
	}
	db.Close()
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Error("a read-only Open changed the file")
	}
}

// TestOpenReadOnlyRefusesOldSchema: a schema-1 file is not migrated by a
// read-only Open, which says how to upgrade it.
func TestOpenReadOnlyRefusesOldSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	writeSchema1File(t, path, nil, nil)
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	db, err := storage.Open(path, storage.Options{ReadOnly: true})
	if !errors.Is(err, storage.ErrOldSchema) {
		if err == nil {
			db.Close()
		}
		t.Fatalf("a schema-1 file read-only: %v, want ErrOldSchema", err)
	}
	if !strings.Contains(err.Error(), "upgrade") {
		t.Errorf("the error does not say how to upgrade: %v", err)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Error("a read-only Open changed the schema-1 file")
	}
}
