// Package testkit is what the tests of several packages share: a bbolt
// database in a test's temporary folder that is checked when the test
// ends, a settable clock, a buffer safe for concurrent writers, the rules
// registry and a Service wired like the bot's, and a Probe that counts
// store calls and catches a store touched from inside an update. It is
// for tests only (internal: nothing outside this module imports it).
package testkit

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/bot/ratings"
	"github.com/fairypost/fairypost/rules"
	"github.com/fairypost/fairypost/storage"
)

// T0 is when the clocks of tests start: 2026-03-01 12:00 UTC.
var T0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// Seed is the seed of every random start (rules.PreGame) the Services of
// Service draw.
const Seed uint64 = 0x5eed_f00d_cafe_0001

// OpenDB opens a fresh database file in tb's temporary folder; see OpenDBAt.
func OpenDB(tb testing.TB) *storage.DB {
	tb.Helper()
	return OpenDBAt(tb, filepath.Join(tb.TempDir(), "fairypost.db"))
}

// OpenDBAt opens (or creates) the database at path, failing tb if it
// cannot. When tb ends, CheckDB runs on it and it is closed. A test may
// close it earlier itself (to reopen the file): the check is then left to
// the database opened after it.
func OpenDBAt(tb testing.TB, path string) *storage.DB {
	tb.Helper()
	db, err := storage.Open(path, storage.Options{Timeout: time.Second})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		checkDB(tb, db, true)
		db.Close()
	})
	return db
}

// CheckDB fails tb with every problem storage.DB.Check finds in db:
// bbolt's consistency check and an index entry that does not match its
// record (or a record without its entry).
func CheckDB(tb testing.TB, db *storage.DB) {
	tb.Helper()
	checkDB(tb, db, false)
}

// checkDB is CheckDB; closedOK skips a database the test closed.
func checkDB(tb testing.TB, db *storage.DB, closedOK bool) {
	tb.Helper()
	problems, err := db.Check(context.Background())
	if closedOK && errors.Is(err, bolt.ErrDatabaseNotOpen) {
		return
	}
	if err != nil {
		tb.Errorf("checking the database: %v", err)
		return
	}
	for _, p := range problems {
		tb.Errorf("database %s: %s", db.Path(), p)
	}
}

// Clock is a settable clock, safe for concurrent use. Its Now is what a
// Service, a Deliverer or a Scheduler is given as their time.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock returns a clock showing t.
func NewClock(t time.Time) *Clock { return &Clock{now: t} }

// Now returns the time the clock shows.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// Buffer is a bytes.Buffer safe for concurrent writers and readers: a log
// destination for code that logs from its own goroutines.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p.
func (s *Buffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String returns what was written so far.
func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Reset forgets what was written.
func (s *Buffer) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.b.Reset()
}

// SharedRegistry returns the rules registry shared by the tests and
// benchmarks of one test binary: it is built once (building it compiles
// every variant).
var SharedRegistry = sync.OnceValues(rules.NewRegistry)

// Registry returns SharedRegistry's registry, failing tb if it cannot be
// built.
func Registry(tb testing.TB) *rules.Registry {
	tb.Helper()
	reg, err := SharedRegistry()
	if err != nil {
		tb.Fatal(err)
	}
	return reg
}

// Service returns a Service over db (all its stores) on clock c, whose
// coin gives the challenger White and whose random starts use Seed, and
// which rates rated games (ratings.Register), as cmd/fairypost wires it;
// opts come after those and may replace them.
func Service(tb testing.TB, db *storage.DB, c *Clock, opts ...gameplay.Option) *gameplay.Service {
	tb.Helper()
	return ServiceOver(tb, Stores(db), c, opts...)
}

// ServiceOver is Service over the given stores (a Probe's, say).
func ServiceOver(tb testing.TB, st gameplay.Stores, c *Clock, opts ...gameplay.Option) *gameplay.Service {
	tb.Helper()
	base := []gameplay.Option{gameplay.Clock(c.Now), gameplay.Coin(func() bool { return true }), gameplay.Seed(func() uint64 { return Seed })}
	svc := gameplay.NewService(st, Registry(tb), append(base, opts...)...)
	ratings.Register(svc)
	return svc
}

// Stores returns db as each of the stores of a Service, ratings and
// tournaments included.
func Stores(db *storage.DB) gameplay.Stores {
	return db.Stores()
}

// Play plays moves, each "user move" ("alice e4"), in game id through
// svc, failing tb on a refusal, and returns what the last one did.
func Play(tb testing.TB, svc *gameplay.Service, id uint64, moves ...string) *gameplay.MoveResult {
	tb.Helper()
	var res *gameplay.MoveResult
	for _, um := range moves {
		user, mv, ok := strings.Cut(um, " ")
		if !ok {
			tb.Fatalf("bad test move %q: want \"user move\"", um)
		}
		var err error
		if res, err = svc.Move(context.Background(), gameplay.MoveRequest{GameID: id, UserID: user, Move: mv}); err != nil {
			tb.Fatalf("%s: %v", um, err)
		}
	}
	return res
}

// StartFrom stores, through db as an accepted challenge would, an active
// game of variant between alice (White) and bob (Black) in channel
// "chan" from fen, 3 days per move, the clock of the side to act started
// at now: positions that would take long sequences of moves to reach.
func StartFrom(tb testing.TB, db *storage.DB, now time.Time, variant, fen string) *bot.Game {
	tb.Helper()
	ctx := context.Background()
	v, err := Registry(tb).Variant(variant, "")
	if err != nil {
		tb.Fatal(err)
	}
	p, err := rules.ParseFEN(v, fen)
	if err != nil {
		tb.Fatal(err)
	}
	c := &bot.Challenge{Challenger: "alice", Challenged: "bob", ChannelID: "chan", Variant: variant, DaysPerMove: 3,
		Color: bot.ColorWhite, Status: bot.ChallengePending, Expires: now.Add(gameplay.ChallengeTTL), Created: now, Updated: now}
	if err := db.CreateChallenge(ctx, c, nil); err != nil {
		tb.Fatal(err)
	}
	toAct := "alice"
	if p.ToAct() == rules.Black {
		toAct = "bob"
	}
	_, g, err := db.UpdateChallenge(ctx, c.ID, c.Version, func(c *bot.Challenge) (bot.ChallengeChange, error) {
		c.Status = bot.ChallengeAccepted
		return bot.ChallengeChange{Game: &bot.Game{ID: c.ID, Variant: variant, StartFEN: p.FEN(), FEN: p.FEN(),
			ToAct: toAct, White: "alice", Black: "bob", ChannelID: "chan", Status: bot.GameActive, DaysPerMove: 3,
			TurnStarted: now, Deadline: now.Add(3 * 24 * time.Hour), Created: now, Updated: now}}, nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return g
}
