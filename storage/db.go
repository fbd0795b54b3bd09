package storage

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	bolt "go.etcd.io/bbolt"
)

// SchemaVersion is the version of the layout and records this package
// writes. 2 added games_by_remind and a game's remind_at (migrateRemindAt);
// 4 moved notes and followers out of game records into their own
// (migrateNotesAndFollows).
const SchemaVersion = 4

// DefaultTimeout is how long Open waits for the file lock by default.
const DefaultTimeout = 2 * time.Second

var (
	bucketMeta                = []byte("meta")
	bucketGames               = []byte("games")
	bucketChallenges          = []byte("challenges")
	bucketGamesByUser         = []byte("games_by_user")
	bucketGamesByChannel      = []byte("games_by_channel")
	bucketChallengesByUser    = []byte("challenges_by_user")
	bucketChallengesByChannel = []byte("challenges_by_channel")
	bucketGamesByDeadline     = []byte("games_by_deadline")
	bucketGamesByRemind       = []byte("games_by_remind")
	bucketActiveByUser        = []byte("active_games_by_user")    // ongoing games only (bot.Game.Ongoing)
	bucketActiveByChannel     = []byte("active_games_by_channel") // ongoing games only
	bucketOutbox              = []byte("outbox")
	bucketChallengesByExpiry  = []byte("challenges_by_expiry")
	bucketUsers               = []byte("users")

	keySchema = []byte("schema")
	keyIDs    = []byte("ids") // the bucket in meta whose sequence numbers challenges and games
)

// allBuckets are created by Open. Buckets added within a schema version
// (challenges_by_expiry, users) are created by Open in files written
// before them; see setUp for the index they need.
var allBuckets = [][]byte{bucketMeta, bucketGames, bucketChallenges, bucketGamesByUser,
	bucketGamesByChannel, bucketGamesByDeadline, bucketChallengesByUser, bucketChallengesByChannel, bucketOutbox,
	bucketChallengesByExpiry, bucketUsers, bucketGamesByRemind, bucketActiveByUser, bucketActiveByChannel,
	bucketNotes, bucketFollows}

// migration upgrades a file from schema version n to n+1 (migrations[n-1]).
type migration func(tx *bolt.Tx) error

// migrations, indexed by the version they upgrade from minus one. They
// run after Open created the buckets of the current schema.
var migrations = []migration{migrateRemindAt, indexActiveGames, migrateNotesAndFollows}

// DB is a bbolt file holding games, challenges, users' preferences and
// the outbox. It is safe for concurrent use. Close it when done.
type DB struct {
	bolt *bolt.DB
	seen seenSet // FirstSeen's keys (seen.go)
}

// Compile-time checks that DB implements the stores of package bot.
var (
	_ bot.GameStore      = (*DB)(nil)
	_ bot.ChallengeStore = (*DB)(nil)
	_ bot.Outbox         = (*DB)(nil)
	_ bot.UserStore      = (*DB)(nil)
)

// Options configures Open.
type Options struct {
	// Timeout is how long to wait for another process to release the
	// file (0: DefaultTimeout). It is never unlimited.
	Timeout time.Duration
	// ReadOnly opens an existing database without ever writing to it:
	// a missing file is not created, an empty one is not set up, and
	// the schema is not migrated (a file of an older schema is refused
	// with ErrOldSchema). Other read-only openers may share the file;
	// a process holding it read-write keeps them out until Timeout.
	// Only the reading methods (and Backup) may be used.
	ReadOnly bool
}

// ErrEmpty is Open's error, in ReadOnly mode, for a file of zero bytes:
// nothing was ever written there.
var ErrEmpty = errors.New("the file is empty: no database was ever written there")

// ErrNotDatabase is wrapped by Open's error for a bbolt file that is not
// a fairypost database (it has no schema version).
var ErrNotDatabase = errors.New("not a fairypost database")

// ErrOldSchema is wrapped by Open's error, in ReadOnly mode, for a file
// of an older schema, which only a read-write Open can bring up to date.
var ErrOldSchema = errors.New("written by an older version of fairypost")

// DamagedError is Open's error for a file that fails the consistency
// check: pages that contradict each other (a zeroed or overwritten page,
// a truncated file, a broken freelist). Such a file is never served:
// reading it could return wrong data or crash in the middle of serving.
type DamagedError struct {
	Path    string
	Problem string // what the check found first, one line
}

func (e *DamagedError) Error() string {
	return fmt.Sprintf("storage: the database %s is damaged: %s", e.Path, e.Problem)
}

// maxProblems is how many of the consistency check's findings a
// DamagedError quotes.
const maxProblems = 3

// Open opens or creates the database at path, checks that it is
// sound, creates the buckets and brings the schema up to SchemaVersion
// (with opts.ReadOnly: opens an existing file, checks it and changes
// nothing). It fails after opts.Timeout if another process has the file
// open, for a file written by a newer schema, and with a *DamagedError
// for a damaged file, found by two checks made once the file is locked:
// checkStructure reads every page in use and refuses a page, key or value
// that points outside the file (bbolt would read there, a fault that
// kills the process), then bbolt's consistency check (every page
// reachable once or free, keys in order, the freelist and the meta pages
// agreeing). On the 230 MB file of 100,000 games of BenchmarkOpen100k,
// with the file in the page cache, they take about 120 ms and 50 ms of
// CPU, against 0.5 ms for the rest of Open (BenchmarkCheckStructure100k,
// BenchmarkCheckConsistency100k); a cold disk adds the time to read the
// file once. Open never panics and does not crash on a damaged file: a
// panic or a memory fault inside bbolt while opening is reported as a
// *DamagedError too (the file's descriptor may then stay open until the
// process ends).
func Open(path string, opts Options) (*DB, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.ReadOnly {
		if st, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("storage: open %s: %w", path, err)
		} else if st.Size() == 0 {
			return nil, fmt.Errorf("storage: open %s: %w", path, ErrEmpty)
		}
	}
	// The length alone can be checked before taking the lock: a process
	// writing the file only ever makes it longer than its pages.
	if err := checkLength(path); err != nil {
		return nil, err
	}
	var b *bolt.DB
	var err error
	if opts.ReadOnly {
		b, err = openChecked(path, opts)
	} else {
		// bbolt reads the freelist while it opens a file for writing, and
		// a damaged one can make it panic with the file mapped and locked
		// (the lock then stays until the process ends): an existing file
		// is checked through a read-only open first.
		if st, serr := os.Stat(path); serr == nil && st.Size() > 0 {
			ro := opts
			ro.ReadOnly = true
			rb, rerr := openChecked(path, ro)
			if rerr != nil {
				return nil, rerr
			}
			rb.Close()
		}
		b, err = openBolt(path, opts)
	}
	if err != nil {
		return nil, err
	}
	setup := setUp
	if opts.ReadOnly {
		setup = checkSchema
	}
	if err := runSafely(path, func() error {
		if opts.ReadOnly {
			return b.View(setup)
		}
		if err := b.Update(setup); err != nil {
			return err
		}
		return b.View(func(tx *bolt.Tx) error {
			// setUp created every bucket: one not found now has a key
			// that bbolt cannot find its way to (a damaged page that
			// its consistency check does not catch).
			for _, name := range allBuckets {
				if tx.Bucket(name) == nil {
					return &DamagedError{Path: path, Problem: fmt.Sprintf("the bucket %s cannot be found after creating it", name)}
				}
			}
			return nil
		})
	}); err != nil {
		b.Close()
		var d *DamagedError
		if errors.As(err, &d) {
			return nil, err
		}
		return nil, fmt.Errorf("storage: open %s: %w", path, err)
	}
	return &DB{bolt: b}, nil
}

// openBolt opens the bbolt file, turning a panic of bbolt's (a freelist
// or meta page it cannot read) into a *DamagedError; the file is then
// closed, which releases its lock (its mapping stays).
func openBolt(path string, opts Options) (b *bolt.DB, err error) {
	var file *os.File
	openFile := func(name string, flag int, perm os.FileMode) (*os.File, error) {
		f, err := os.OpenFile(name, flag, perm)
		file = f
		return f, err
	}
	err = runSafely(path, func() error {
		var err error
		b, err = bolt.Open(path, 0o600, &bolt.Options{Timeout: opts.Timeout, ReadOnly: opts.ReadOnly, OpenFile: openFile})
		if err != nil {
			return fmt.Errorf("storage: open %s: %w", path, err)
		}
		return nil
	})
	var d *DamagedError
	if errors.As(err, &d) && file != nil {
		file.Close()
	}
	return b, err
}

// openChecked opens the file at path with opts and checks it: its
// structure (checkStructure: every page in use within the file) and
// bbolt's own check. Only with the file locked are its pages read:
// another process may be writing them until then. On error the file is
// closed.
func openChecked(path string, opts Options) (*bolt.DB, error) {
	b, err := openBolt(path, opts)
	if err != nil {
		return nil, err
	}
	if err := checkStructure(path); err != nil {
		b.Close()
		return nil, err
	}
	if err := check(b); err != nil {
		b.Close()
		return nil, err
	}
	return b, nil
}

// runSafely runs fn, returning a *DamagedError for the file at path if
// fn panics: bbolt panics on pages it cannot make sense of. A memory
// fault (a damaged page pointing outside the mapped file) is made a panic
// too, for the time of fn and in this goroutine only: elsewhere it kills
// the process.
func runSafely(path string, fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			problem := oneLine(fmt.Sprint(r))
			if _, ok := r.(interface{ Addr() uintptr }); ok {
				problem = "a page points outside the file (" + problem + ")"
			}
			err = &DamagedError{Path: path, Problem: problem}
		}
	}()
	return fn()
}

// check runs bbolt's consistency check over the whole file in a read
// transaction and returns a *DamagedError quoting its first findings.
func check(b *bolt.DB) error {
	var problems []string
	total := 0
	err := runSafely(b.Path(), func() error {
		return b.View(func(tx *bolt.Tx) error {
			// Check reports on a channel from its own goroutine (and
			// recovers its own panics): read it to the end.
			for err := range tx.Check() {
				total++
				if len(problems) < maxProblems {
					// A bbolt assertion that failed inside the check
					// reads "panic: assertion failed: ...".
					msg := strings.TrimPrefix(strings.TrimPrefix(err.Error(), "panic: "), "assertion failed: ")
					problems = append(problems, oneLine(msg))
				}
			}
			return nil
		})
	})
	if err != nil {
		return err
	}
	if total == 0 {
		return nil
	}
	p := strings.Join(problems, "; ")
	if total > len(problems) {
		p += fmt.Sprintf("; and %d more problems", total-len(problems))
	}
	return &DamagedError{Path: b.Path(), Problem: p}
}

// oneLine joins the lines of s with "; ".
func oneLine(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' }), "; ")
}

// checkSchema is setUp for a read-only Open: it refuses a file that is
// not a fairypost database, or not of this program's schema, and one that
// lacks a bucket (which a read-write Open would have created).
func checkSchema(tx *bolt.Tx) error {
	meta := tx.Bucket(bucketMeta)
	if meta == nil || meta.Get(keySchema) == nil {
		return ErrNotDatabase
	}
	b := meta.Get(keySchema)
	if len(b) != 8 {
		return errors.New("corrupt schema version")
	}
	switch v := binary.BigEndian.Uint64(b); {
	case v > SchemaVersion:
		return fmt.Errorf("schema version %d is newer than this program's %d", v, SchemaVersion)
	case v < SchemaVersion:
		return fmt.Errorf("%w (schema %d; this program reads %d): open it once read-write (fairypost console -db FILE, or the bot) to upgrade it", ErrOldSchema, v, SchemaVersion)
	}
	for _, name := range allBuckets {
		if tx.Bucket(name) == nil {
			return fmt.Errorf("%w: the bucket %s is missing", ErrNotDatabase, name)
		}
	}
	return nil
}

// setUp creates the buckets and runs the migrations.
func setUp(tx *bolt.Tx) error {
	// challenges_by_expiry was added within schema 1: a file written
	// before it has pending challenges the new index must list.
	fillExpiry := tx.Bucket(bucketChallenges) != nil && tx.Bucket(bucketChallengesByExpiry) == nil
	for _, name := range slices.Concat(allBuckets, ratingBuckets, tournamentBuckets, deferredBuckets) {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return err
		}
	}
	meta := tx.Bucket(bucketMeta)
	if _, err := meta.CreateBucketIfNotExists(keyIDs); err != nil {
		return err
	}
	v := uint64(SchemaVersion)
	if b := meta.Get(keySchema); b != nil {
		if len(b) != 8 {
			return errors.New("corrupt schema version")
		}
		v = binary.BigEndian.Uint64(b)
	}
	if v > SchemaVersion {
		return fmt.Errorf("schema version %d is newer than this program's %d", v, SchemaVersion)
	}
	for ; v < SchemaVersion; v++ {
		if err := migrations[v-1](tx); err != nil {
			return fmt.Errorf("migrating from schema %d: %w", v, err)
		}
	}
	if fillExpiry {
		if err := indexPendingChallenges(tx); err != nil {
			return fmt.Errorf("indexing challenges by expiry: %w", err)
		}
	}
	return meta.Put(keySchema, itob(SchemaVersion))
}

// Close closes the file.
func (db *DB) Close() error { return db.bolt.Close() }

// Path returns the file's path.
func (db *DB) Path() string { return db.bolt.Path() }

// Backup writes a consistent copy of the whole database to w while
// others keep reading and writing (bbolt's Tx.WriteTo in a read
// transaction). The copy is a database file Open accepts. Writers go on
// while it runs, except one whose commit must grow the file's memory map:
// bbolt makes that wait for open read transactions, so a backup to a slow
// writer can hold up commits once the file needs to grow.
func (db *DB) Backup(w io.Writer) (int64, error) {
	var n int64
	err := db.bolt.View(func(tx *bolt.Tx) error {
		var err error
		n, err = tx.WriteTo(w)
		return err
	})
	return n, err
}

// view and update run fn in a read or read-write transaction after
// checking ctx. bbolt transactions cannot be interrupted, so ctx is only
// looked at before starting.
func (db *DB) view(ctx context.Context, fn func(*bolt.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return db.bolt.View(fn)
}

func (db *DB) update(ctx context.Context, fn func(*bolt.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return db.bolt.Update(fn)
}

// itob returns v as 8 big-endian bytes, so keys sort as numbers.
func itob(v uint64) []byte {
	b := make([]byte, 8)
	binary.BigEndian.PutUint64(b, v)
	return b
}

// timeKey returns the key of id in a time index (games_by_deadline,
// challenges_by_expiry): t in Unix nanoseconds, clamped to 0 before 1970
// and to the largest int64 after 2262, then the ID, 8 big-endian bytes
// each, so keys sort by time, then ID.
func timeKey(t time.Time, id uint64) []byte {
	var ns uint64
	switch {
	case t.Before(time.Unix(0, 0)):
		ns = 0
	case t.After(time.Unix(0, math.MaxInt64)):
		ns = math.MaxInt64
	default:
		ns = uint64(t.UnixNano())
	}
	return append(itob(ns), itob(id)...)
}

// firstTime returns the time of the first (earliest) entry of the time
// index b, the zero time when b is empty. Times are as the key holds
// them: to the nanosecond, in UTC, clamped as timeKey clamps.
func firstTime(b *bolt.Bucket) (time.Time, error) {
	k, _ := b.Cursor().First()
	if k == nil {
		return time.Time{}, nil
	}
	if len(k) != 16 {
		return time.Time{}, fmt.Errorf("corrupt time index key %x", k)
	}
	return time.Unix(0, int64(binary.BigEndian.Uint64(k[:8]))).UTC(), nil
}

// scanUntil calls fn with the ID of each entry of the time index b whose
// time is not after t, earliest first, stopping at fn's first error.
func scanUntil(b *bolt.Bucket, t time.Time, fn func(id uint64) error) error {
	limit := timeKey(t, math.MaxUint64)
	c := b.Cursor()
	for k, _ := c.First(); k != nil && bytes.Compare(k, limit) <= 0; k, _ = c.Next() {
		if len(k) != 16 {
			return fmt.Errorf("corrupt time index key %x", k)
		}
		if err := fn(binary.BigEndian.Uint64(k[8:])); err != nil {
			return err
		}
	}
	return nil
}

// indexKey returns key + 0x00 + the 8-byte ID.
func indexKey(key string, id uint64) []byte {
	return append(append([]byte(key), 0), itob(id)...)
}

// indexScan returns the IDs indexed under key in b, in order.
func indexScan(b *bolt.Bucket, key string) []uint64 {
	prefix := append([]byte(key), 0)
	var ids []uint64
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && len(k) == len(prefix)+8 && string(k[:len(prefix)]) == string(prefix); k, _ = c.Next() {
		ids = append(ids, binary.BigEndian.Uint64(k[len(prefix):]))
	}
	return ids
}

// reindex moves id's entries in b from the keys old to the keys new ("" keys
// are skipped): entries no longer wanted are deleted, the others written.
func reindex(b *bolt.Bucket, old, new []string, id uint64) error {
	for _, k := range old {
		if k != "" && !slices.Contains(new, k) {
			if err := b.Delete(indexKey(k, id)); err != nil {
				return err
			}
		}
	}
	for _, k := range new {
		if k != "" {
			if err := b.Put(indexKey(k, id), []byte{}); err != nil {
				return err
			}
		}
	}
	return nil
}

// Stores returns every store of package bot, each kept in db.
func (db *DB) Stores() gameplay.Stores {
	return gameplay.Stores{Games: db, Challenges: db, Users: db, Outbox: db, Notes: db, Follows: db, Ratings: db, Tournaments: db}
}
