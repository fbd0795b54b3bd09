package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"

	"github.com/fairypost/fairypost/storage"
	"github.com/fairypost/fairypost/storage/etcdstore"
	"github.com/fairypost/fairypost/storage/hotcopy"
)

// backupCommand is "fairypost backup".
func backupCommand() command {
	return command{
		name:     "backup",
		synopsis: "-db FILE -o COPY | -from etcd:URL[,URL...] [-prefix P] [-etcd-...] -o COPY | -config FILE -o COPY",
		summary:  "copy a live database consistently",
		doc: `
Writes a consistent copy of the database (one bbolt read transaction) to
COPY: first to a temporary file in COPY's folder, flushed to disk and
checked to open as a fairypost database, then renamed to COPY, so COPY is
never half-written. An existing COPY is replaced; COPY may not be the
database itself. Prints "COPY: N bytes" on success.
bbolt lets one process at a time open a database. When another process
holds FILE (a running bot or console), backup waits one second for it,
then asks that process for the copy through the unix socket
FILE.backup.sock, which the bot and the console serve while they run
(for their own OS user only); the copy is as consistent, and the bot goes
on meanwhile. If the process does not serve copies (an older version, or
a path too long for a unix socket: it logged a warning when it started),
backup fails with exit status 2: stop the process to copy its file.

With -from etcd:URL,..., the records under the key prefix P of that etcd
cluster are copied instead, while the bots go on: all of them are read at
one etcd revision (one moment), written into a new database file COPY in
the same way, then read back from COPY and compared. COPY is an ordinary
database file: 'fairypost migrate -from bolt:COPY -to etcd:...' restores
it into an empty prefix (the waiting notifications get new IDs), a bot
can run on it, and check and export read it. TLS and login flags and
-config are those of 'fairypost help migrate'.

With -config FILE alone, the store the file's storage.backend names is
copied: storage.path for bolt, the cluster of [storage.etcd] for etcd.`,
		setup: func(fs *flag.FlagSet) runFunc {
			db := fs.String("db", "", "the database `FILE`")
			from := fs.String("from", "", "copy the records of the etcd cluster at `etcd:URL[,URL...]` instead")
			out := fs.String("o", "", "write the copy to `COPY` (required)")
			var ef etcdFlags
			ef.register(fs)
			return func(ctx context.Context, a *app) error {
				if *out == "" {
					return badInput("-o COPY is required")
				}
				if err := ef.load(); err != nil {
					return err
				}
				switch {
				case *db != "" && *from != "":
					return badInput("-db and -from: give one source")
				case *db != "":
					return a.backup(ctx, *db, *out)
				case *from != "":
					src, err := parseStoreAddress("-from", *from)
					if err != nil {
						return err
					}
					if src.path != "" {
						return badInput("-from %s: backup copies etcd with -from; a file with -db FILE", *from)
					}
					return a.backupEtcd(ctx, &ef, src.endpoints, *out)
				case ef.cfg == nil:
					return badInput("-db FILE is required (or -from etcd:URL[,URL...], or -config FILE)")
				case ef.cfgBackend == backendEtcd:
					return a.backupEtcd(ctx, &ef, nil, *out)
				}
				return a.backup(ctx, ef.cfgPath, *out)
			}
		},
	}
}

// backup copies the database at dbPath to out, through the hot-copy
// socket of the process that holds it if another does.
func (a *app) backup(ctx context.Context, dbPath, out string) error {
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
	db, err := openStore(dbPath, storeOpen{flag: "-db", readOnly: true})
	var inUse inUseError
	switch {
	case errors.As(err, &inUse):
		// Another process holds the file: ask it for the copy (db is nil).
	case err != nil:
		return err
	default:
		defer db.Close()
	}

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
	var n int64
	if db != nil {
		n, err = db.Backup(f)
		if err != nil {
			return fmt.Errorf("copying %s: %w", dbPath, err)
		}
	} else if n, err = hotcopy.Fetch(ctx, hotcopy.SocketPath(dbPath), f); err != nil {
		return fetchError(dbPath, inUse, err)
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

// backupEtcd copies the records under ef's prefix in the etcd cluster at
// endpoints (nil: those of -config) into a new database file out: read at
// one revision (etcdstore.Store.Dump), loaded into a temporary file in
// out's folder, verified against what was read, then renamed to out.
func (a *app) backupEtcd(ctx context.Context, ef *etcdFlags, endpoints []string, out string) error {
	opts, err := ef.options(a, "-from", endpoints)
	if err != nil {
		return err
	}
	if st, err := os.Stat(out); err == nil && st.IsDir() {
		return badInput("-o %s is a folder: give the copy's file name", out)
	}
	f, err := os.CreateTemp(filepath.Dir(out), "."+filepath.Base(out)+".*.tmp")
	if err != nil {
		return badInput("-o %s: %v", out, err)
	}
	tmp := f.Name()
	f.Close()
	done := false
	defer func() {
		if !done {
			os.Remove(tmp)
		}
	}()
	s, err := etcdstore.Open(ctx, opts)
	if err != nil {
		return outsideError{err}
	}
	defer s.Close()
	d, err := s.Dump(ctx)
	if err != nil {
		return outsideError{fmt.Errorf("reading etcd %s prefix %q: %w", joinEndpoints(opts.Endpoints), opts.Prefix, err)}
	}
	db, err := storage.Open(tmp, storage.Options{Timeout: lockTimeout})
	if err != nil {
		return fmt.Errorf("-o %s: %w", out, err)
	}
	err = db.Load(ctx, d)
	if err == nil {
		if err = storage.Verify(ctx, d, db.Stores()); err != nil {
			err = fmt.Errorf("the copy differs from what was read: %w", err)
		}
	}
	if cerr := db.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("-o %s: %w", out, err)
	}
	st, err := os.Stat(tmp)
	if err != nil {
		return fmt.Errorf("-o %s: %w", out, err)
	}
	if err := os.Rename(tmp, out); err != nil {
		return badInput("-o %s: %v", out, err)
	}
	done = true
	syncDir(filepath.Dir(out))
	_, err = fmt.Fprintf(a.stdout, "%s: %d bytes (etcd %s prefix %q: %d games, %d challenges, %d users' preferences, %d notifications, %d ratings with %d rated results, %d tournaments, %d notes, %d follows)\n",
		out, st.Size(), joinEndpoints(opts.Endpoints), opts.Prefix, len(d.Games), len(d.Challenges), len(d.Preferences), len(d.Outbox),
		len(d.Standings), len(d.RatingHistory), len(d.Tournaments), len(d.Notes), len(d.Follows))
	return err
}

// fetchError explains a failed hot copy of the database at dbPath, which
// another process holds (inUse).
func fetchError(dbPath string, inUse inUseError, err error) error {
	sock := hotcopy.SocketPath(dbPath)
	switch {
	case errors.Is(err, os.ErrNotExist), errors.Is(err, syscall.ECONNREFUSED):
		// Nobody serves copies: the process holding the file is not a
		// fairypost that does, or it could not create its socket.
		return badInput("-db %s is in use by another process (a running bot?); waited %v, and it offers no live copy on %s. Stop it to back up its file", inUse.path, inUse.waited, sock)
	case errors.Is(err, hotcopy.ErrPathTooLong):
		return badInput("-db %s is in use by another process (a running bot?); waited %v, and it offers no live copy: the path of its socket %s is too long for a unix socket. Stop it to back up its file, or move the database to a shorter path", inUse.path, inUse.waited, sock)
	case errors.Is(err, os.ErrPermission):
		return badInput("-db %s is in use by another process (a running bot?) whose live copies on %s are for its own OS user: run backup as that user", inUse.path, sock)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) {
		// The server ended the copy: its process is stopping.
		return outsideError{fmt.Errorf("the process holding %s cut the copy short (it is stopping?): %w; run backup again", dbPath, err)}
	}
	return fmt.Errorf("copying %s from the process that holds it: %w", dbPath, err)
}

// checkCopy opens the copy at path as a database and closes it.
func checkCopy(path string) error {
	c, err := storage.Open(path, storage.Options{Timeout: lockTimeout, ReadOnly: true})
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
