package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	botcmd "github.com/fairypost/fairypost/bot/command"
	"github.com/fairypost/fairypost/bot/console"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/bot/prefs"
	"github.com/fairypost/fairypost/bot/ratings"
	"github.com/fairypost/fairypost/bot/tournaments"
	"github.com/fairypost/fairypost/storage"
	"github.com/fairypost/fairypost/storage/hotcopy"
	berrors "go.etcd.io/bbolt/errors"
)

// Defaults of the console's flags.
const (
	defaultDB        = "fairypost.db"
	defaultImagesDir = "boards"
)

// lockTimeout is how long the commands that open a database wait for
// another process (a running bot) to release it.
const lockTimeout = time.Second

// consoleCommand is "fairypost console".
func consoleCommand() command {
	return command{
		name:     "console",
		synopsis: "[-db FILE] [-images DIR] [-user NAME] [-ini FILE]",
		summary:  "local play as several users, commands typed as in Discord",
		doc: `
Plays without Discord: every user is a name, and commands are typed as in
Discord, one a line, by the current user:
  as alice                   switch the current user to alice
  as alice /challenge @bob variant:tank days:3 color:white
  as bob /accept             run a command as bob (bob stays current)
  /move e4                   a bare value goes to the next option
  /move Nf3 game:2           options are name:value, "quoted" with spaces
  /press ID                  click a button shown under a reply
  help                       the syntax and every command
  quit                       or Ctrl-D (end of input), or Ctrl-C
Replies are printed as text, games as text boards (White at the bottom);
images and other attachments are written to -images and their paths
printed; notifications are printed as "→ @bob: ...". Clocks run on the
real time: time-outs and reminders are checked in the background.
When standard input is not a terminal, it is read as a script: no
prompts, each line echoed after "> ", the clocks checked and the
notifications printed right after each line, so the output is the same
every time. A bad line gets a message starting with "!" and the script
goes on; the exit status is 0 at the end of the script.
The database is the bot's: a database in use by another process (a
running bot, another console) cannot be opened: exit status 2 after one
second. While the console runs, "fairypost backup" can copy its database
(through the socket FILE.backup.sock, see 'fairypost help backup').`,
		setup: func(fs *flag.FlagSet) runFunc {
			db := fs.String("db", defaultDB, "the database `FILE` (created if missing)")
			images := fs.String("images", defaultImagesDir, "write board images to `DIR` (created with the first image)")
			user := fs.String("user", "", "start as user `NAME` (else the first line says \"as NAME\")")
			base := fs.String("base", "", "the public address of the game pages (`URL`): boards show their page's address, /link gives it")
			var ini iniFlag
			ini.register(fs)
			return func(ctx context.Context, a *app) error {
				if _, err := ini.apply(a); err != nil {
					return err
				}
				if *base != "" {
					if msg := checkBaseURL(*base); msg != "" {
						return badInput("-base %s: %s", quote(*base), msg)
					}
				}
				return a.console(ctx, *db, *images, *user, *base)
			}
		},
	}
}

// console runs the local console on the app's standard streams over
// the database at dbPath, writing images to imagesDir, first as user
// ("": the first line says), the boards linked to their pages under base
// ("": none): what "fairypost console" does, and what "fairypost run"
// starts when no Discord token is configured. Errors made with badInput
// (a database in use, an unusable path) give exit status 2.
func (a *app) console(ctx context.Context, dbPath, imagesDir, user, base string) error {
	if user != "" {
		if err := checkUserName(user); err != nil {
			return err
		}
	}
	db, err := openStore(dbPath, storeOpen{flag: "-db", created: newDatabaseNotice(a.stderr)})
	if err != nil {
		return err
	}
	defer db.Close()
	log := consoleLogger(a.stderr)
	defer a.serveHotCopy(ctx, db, dbPath, log)() // stops before db.Close
	return a.consoleOn(ctx, db.Stores(), imagesDir, user, base, dbPath, log)
}

// consoleLogger is the console's log: warnings and errors only.
func consoleLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// consoleOn runs the console over open stores (a file's or etcd's, named
// where), the boards linked to their pages under base ("": none).
func (a *app) consoleOn(ctx context.Context, st gameplay.Stores, imagesDir, user, base, where string, log *slog.Logger) error {
	reg, err := a.registry()
	if err != nil {
		return fmt.Errorf("variant registry: %w", err)
	}
	link, err := pageLinks(ctx, base, st, where)
	if err != nil {
		return err
	}
	svc := gameplay.NewService(st, reg)
	ratings.Register(svc)
	settings := prefs.New(svc, st.Users)
	analyses, err := newAnalyses(svc, st, defaultConfig().Play, log)
	if err != nil {
		return err
	}
	if analyses != nil {
		defer analyses.Close()
	}
	h := botcmd.New(svc, settings, botcmd.Options{Logger: log, Tournaments: tournaments.New(svc, st.Tournaments, st.Ratings),
		Ratings: ratings.New(svc, st.Ratings), Link: link, Analyses: analyses, Variants: serverVariants(ctx, svc, st, log)})
	c, err := console.New(console.Config{
		Service: svc, Prefs: settings, Handler: h, Outbox: st.Outbox,
		Out: a.stdout, ImagesDir: imagesDir,
		Interactive: a.terminal(a.stdin),
		User:        user,
		Logger:      log,
	})
	if err != nil {
		return badInput("%v", err)
	}
	if err := c.Run(ctx, a.stdin); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}

// inUseError is openStore's error for a database another process holds.
type inUseError struct {
	path, flag string
	waited     time.Duration
}

func (e inUseError) Error() string {
	if e.flag == "storage.path" {
		return fmt.Sprintf("storage.path %s is in use by another process (another bot, or a console?); waited %v. Stop it, or give this bot its own storage.path", e.path, e.waited)
	}
	return fmt.Sprintf("%s %s is in use by another process (a running bot?); waited %v. Stop it, or back it up (fairypost backup) and use the copy", e.flag, e.path, e.waited)
}

// newDatabaseNotice returns the created function of storeOpen for a
// command that reports on w: one line saying that a new database was
// created at the path.
func newDatabaseNotice(w io.Writer) func(string) {
	return func(path string) {
		fmt.Fprintf(w, "fairypost: there was no database at %s: a new one was created there.\n", path)
	}
}

// serveHotCopy serves copies of db, opened from dbPath, to "fairypost
// backup" on hotcopy.SocketPath(dbPath) until ctx is done or the
// returned function is called; call it before closing db (it waits for
// the copies in flight). Failed copies are logged to log at warning
// level. If the socket cannot be served (a path too long for a unix
// socket, a folder not writable...), that is one warning on log and the
// function returned does nothing: the bot runs, but its database cannot
// be backed up while it runs.
func (a *app) serveHotCopy(ctx context.Context, db *storage.DB, dbPath string, log *slog.Logger) func() {
	s, err := hotcopy.Serve(ctx, db, hotcopy.SocketPath(dbPath), log)
	if err != nil {
		log.Warn("fairypost: live backups are not possible; stop the bot to back up its database", "database", dbPath, "err", err)
		return func() {}
	}
	return func() { s.Close() }
}

// checkUserName checks -user as the console checks "as NAME".
func checkUserName(name string) error {
	if len(name) == 0 || len(name) > console.MaxUserName {
		return badInput("-user %s: use 1 to %d letters, digits, '_', '-' or '.'", quote(name), console.MaxUserName)
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
			return badInput("-user %s: use 1 to %d letters, digits, '_', '-' or '.'", quote(name), console.MaxUserName)
		}
	}
	return nil
}

// isTerminal reports whether r is a terminal, so that the console
// prompts; anything else (a file, a pipe, /dev/null) is read as a script.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	// /dev/null is a character device too: ask the terminal driver.
	return err == nil && st.Mode()&os.ModeCharDevice != 0 && isTTY(f)
}

// storeOpen says how openStore opens a database.
type storeOpen struct {
	// flag is how the user named the path, for messages: "-db" or
	// "storage.path".
	flag string
	// readOnly opens an existing database without changing it (export,
	// backup): a missing or empty file is bad input, never created.
	readOnly bool
	// timeout is how long to wait for another process to release the
	// file (0: lockTimeout).
	timeout time.Duration
	// created, when set, is called once a new database was created: the
	// file was missing or empty.
	created func(path string)
}

// openStore opens the database at path as o says. A file in use (a
// running bot holds bbolt's exclusive lock, which also blocks readers)
// is an inUseError after o.timeout; that, a folder, a file that is not a
// fairypost database, a damaged database ("restore a backup"), one of
// another schema and any other failure to open are bad input with one
// clear line (exit status 2).
func openStore(path string, o storeOpen) (*storage.DB, error) {
	if o.timeout <= 0 {
		o.timeout = lockTimeout
	}
	if path == "" {
		return nil, badInput("%s FILE is required", o.flag)
	}
	st, err := os.Stat(path)
	switch {
	case err == nil && st.IsDir():
		return nil, badInput("%s %s is a folder, not a database file", o.flag, path)
	case errors.Is(err, os.ErrNotExist) && o.readOnly:
		return nil, badInput("%s %s: no such database file", o.flag, path)
	case err != nil && !errors.Is(err, os.ErrNotExist):
		return nil, badInput("%s %s: %v", o.flag, path, err)
	case err == nil && st.Size() == 0 && o.readOnly:
		return nil, badInput("%s %s is an empty file: no database was ever written there", o.flag, path)
	}
	isNew := err != nil || st.Size() == 0
	db, err := storage.Open(path, storage.Options{Timeout: o.timeout, ReadOnly: o.readOnly})
	var damaged *storage.DamagedError
	switch {
	case err == nil:
		if isNew && o.created != nil {
			o.created(path)
		}
		return db, nil
	case errors.Is(err, berrors.ErrTimeout):
		return nil, inputError{inUseError{path: path, flag: o.flag, waited: o.timeout}}
	case errors.As(err, &damaged):
		return nil, badInput("the database %s is damaged: %s; restore a backup (fairypost backup makes them)", path, damaged.Problem)
	case errors.Is(err, berrors.ErrInvalid), errors.Is(err, berrors.ErrVersionMismatch), errors.Is(err, berrors.ErrChecksum),
		errors.Is(err, storage.ErrNotDatabase):
		return nil, badInput("%s %s is not a fairypost database (or is damaged beyond use): %v", o.flag, path, unwrapStorage(err, path))
	}
	return nil, badInput("%s %s: %v", o.flag, path, unwrapStorage(err, path))
}

// unwrapStorage returns the message of storage.Open's error err without
// the "storage: open PATH: " its caller already says.
func unwrapStorage(err error, path string) string {
	return strings.TrimPrefix(err.Error(), "storage: open "+path+": ")
}
