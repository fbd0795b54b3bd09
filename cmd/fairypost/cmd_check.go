package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"

	berrors "go.etcd.io/bbolt/errors"

	"github.com/fairypost/fairypost/storage"
)

// checkCommand is "fairypost check".
func checkCommand() command {
	return command{
		name:     "check",
		synopsis: "-db FILE",
		summary:  "check a database: its pages and that every index matches its records",
		doc: `
Opens the database read-only and checks it: bbolt's consistency check of
the file's pages, then every game and challenge record against the
indexes the bot finds them by (by user, by channel, the ongoing games,
deadlines, reminders and expiries), both ways: an index entry without its
record and a record without its entry are both problems. Prints one
problem per line on stdout and exits with status 1 when it finds any;
prints "FILE: no problems found" and exits with 0 when the database is
sound. A file that is not a fairypost database, or is in use by a running
bot or console (exit status 2 after one second), is bad input: check a
backup of a live database ('fairypost backup').`,
		setup: func(fs *flag.FlagSet) runFunc {
			db := fs.String("db", "", "the database `FILE` (required)")
			return func(ctx context.Context, a *app) error { return a.check(ctx, *db) }
		},
	}
}

// problemsFound is check's error for a database with problems: exit
// status 1, the problems themselves on stdout.
type problemsFound struct {
	path string
	n    int
}

func (e problemsFound) Error() string {
	if e.n == 1 {
		return fmt.Sprintf("the database %s has a problem (above)", e.path)
	}
	return fmt.Sprintf("the database %s has %d problems (above)", e.path, e.n)
}

// check checks the database at dbPath.
func (a *app) check(ctx context.Context, dbPath string) error {
	db, err := a.openChecked(dbPath)
	var damaged *storage.DamagedError
	if errors.As(err, &damaged) {
		// A file damaged so that it does not open is a finding, not bad
		// input: the problem Open found is listed.
		if err := a.writeLines([]string{"file: " + damaged.Problem}); err != nil {
			return err
		}
		return outsideError{problemsFound{path: dbPath, n: 1}}
	}
	if err != nil {
		return err
	}
	defer db.Close()
	problems, err := db.Check(ctx)
	if err != nil {
		return err
	}
	if len(problems) == 0 {
		return a.writeLines([]string{dbPath + ": no problems found"})
	}
	lines := make([]string, len(problems))
	for i, p := range problems {
		lines[i] = p.String()
	}
	if err := a.writeLines(lines); err != nil {
		return err
	}
	return outsideError{problemsFound{path: dbPath, n: len(problems)}}
}

// openChecked opens the database at dbPath read-only for check: a
// *storage.DamagedError as Open returns it, and any other failure as
// openStore words it.
func (a *app) openChecked(dbPath string) (*storage.DB, error) {
	if st, err := os.Stat(dbPath); dbPath != "" && err == nil && !st.IsDir() && st.Size() > 0 {
		db, err := storage.Open(dbPath, storage.Options{Timeout: lockTimeout, ReadOnly: true})
		var damaged *storage.DamagedError
		switch {
		case err == nil || errors.As(err, &damaged):
			return db, err
		case errors.Is(err, berrors.ErrTimeout):
			return nil, inputError{inUseError{path: dbPath, flag: "-db", waited: lockTimeout}}
		}
	}
	return openStore(dbPath, storeOpen{flag: "-db", readOnly: true})
}
