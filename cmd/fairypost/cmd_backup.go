package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/fairypost/fairypost/storage"
)

// backupCommand is "fairypost backup".
func backupCommand() command {
	return command{
		name:     "backup",
		synopsis: "-db FILE -o COPY",
		summary:  "copy a live database consistently",
		doc: `
Writes a consistent copy of the database (one bbolt read transaction) to
COPY: first to a temporary file in COPY's folder, flushed to disk and
checked to open as a fairypost database, then renamed to COPY, so COPY is
never half-written. An existing COPY is replaced; COPY may not be the
database itself. Prints "COPY: N bytes" on success.
bbolt lets one process at a time open a database: while a bot runs on
FILE, backup waits one second and fails (exit status 2). A running bot's
database is copied by the bot itself (storage.DB.Backup); stop the bot to
copy its file with this command.`,
		setup: func(fs *flag.FlagSet) runFunc {
			db := fs.String("db", "", "the database `FILE` (required)")
			out := fs.String("o", "", "write the copy to `COPY` (required)")
			return func(ctx context.Context, a *app) error {
				if *out == "" {
					return badInput("-o COPY is required")
				}
				return a.backup(*db, *out)
			}
		},
	}
}

// backup copies the database at dbPath to out.
func (a *app) backup(dbPath, out string) error {
	if dbPath == "" {
		return badInput("-db FILE is required")
	}
	if same, err := sameFile(dbPath, out); err != nil {
		return err
	} else if same {
		return badInput("-o %s is the database itself: write the copy elsewhere", out)
	}
	if st, err := os.Stat(out); err == nil && st.IsDir() {
		return badInput("-o %s is a folder: give the copy's file name", out)
	}
	db, err := openStore(dbPath, true)
	if err != nil {
		return err
	}
	defer db.Close()

	f, err := os.CreateTemp(filepath.Dir(out), "."+filepath.Base(out)+".*.tmp")
	if err != nil {
		return badInput("-o %s: %v", out, err)
	}
	tmp := f.Name()
	done := false
	defer func() {
		if !done {
			f.Close()
			os.Remove(tmp)
		}
	}()
	n, err := db.Backup(f)
	if err != nil {
		return fmt.Errorf("copying %s: %w", dbPath, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("-o %s: %w", out, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("-o %s: %w", out, err)
	}
	if err := checkCopy(tmp); err != nil {
		return err
	}
	if err := os.Rename(tmp, out); err != nil {
		return badInput("-o %s: %v", out, err)
	}
	done = true
	syncDir(filepath.Dir(out))
	_, err = fmt.Fprintf(a.stdout, "%s: %d bytes\n", out, n)
	return err
}

// checkCopy opens the copy at path as a database and closes it.
func checkCopy(path string) error {
	c, err := storage.Open(path, storage.Options{Timeout: lockTimeout})
	if err != nil {
		return fmt.Errorf("the copy does not open: %w", err)
	}
	return c.Close()
}

// sameFile reports whether a and b name the same file (b need not exist).
func sameFile(a, b string) (bool, error) {
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(sa, sb), nil
	}
	absA, err := filepath.Abs(a)
	if err != nil {
		return false, badInput("-db %s: %v", a, err)
	}
	absB, err := filepath.Abs(b)
	if err != nil {
		return false, badInput("-o %s: %v", b, err)
	}
	return absA == absB, nil
}

// syncDir flushes a folder's entries (the rename) to disk, where the
// system allows it.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	d.Sync() // best effort: some systems cannot sync a folder
	d.Close()
}
