// Package etcdstore keeps fairypost's records in etcd, so that several
// bot processes on several machines can share them. Store implements
// every store of package bot (bot.GameStore, bot.ChallengeStore,
// bot.UserStore, bot.Outbox, bot.NoteStore, bot.FollowStore,
// bot.RatingStore, bot.TournamentStore; see
// Stores) with the contracts package bot documents, as package storage
// does on a bbolt file; the conformance suite in storage/storetest runs
// against both.
//
// # Every change is one etcd transaction
//
// A change reads the record (and its ModRevision), lets package bot
// validate and edit a copy, and then commits one transaction that
// compares the record's ModRevision with the one read and, if it still
// matches, puts the record, puts and deletes its index entries and puts
// the notifications, all at one etcd revision. When the comparison fails
// (another process changed the record in between) the whole read,
// validate and write is done again: the functions of bot may run more
// than once, as bot allows. A version check against what a user saw
// (expected) is made on every try, so the loser of a race sees ECONFLICT.
//
// # Layout
//
// Every key starts with the configured prefix P (default "fairypost/"),
// so one etcd cluster can hold several bots. Numbers in keys are 16
// lower-case hex digits, so that keys sort as the numbers do.
//
//	P meta/schema                        the schema version (decimal)
//	P meta/ids                           the last challenge/game ID (decimal), a counter
//	P game/ID, P challenge/ID            the records (package storage's JSON)
//	P user/USERID                        preferences (package storage's JSON)
//	P outbox/TOKEN/I                     a notification, I in 000..fff
//	P ix/games_by_user/USER \x00 ID      empty values: one key per index entry,
//	P ix/games_by_channel/CHANNEL \x00 ID   listed by a prefix scan in ID order
//	P ix/active_games_by_user/...        the same for ongoing games only
//	P ix/active_games_by_channel/...
//	P ix/challenges_by_user/...
//	P ix/challenges_by_channel/...
//	P ix/games_by_deadline/NANOS ID      time indexes: scanned up to a time,
//	P ix/games_by_remind/NANOS ID        their first key is the earliest
//	P ix/challenges_by_expiry/NANOS ID   (pending challenges only)
//	P rating/..., P rating_history/...   standings and histories (rating.go)
//	P tournament/ID, P ix/tournaments_*  tournaments (tournament.go)
//	P note/GAME/USER, P follow/GAME/USER notes and follows (note.go)
//	P seen/KEY                           a key of FirstSeen (a signature the
//	                                     interactions endpoint accepted), empty,
//	                                     on a lease that deletes it (seen.go)
//
// Records are the same JSON as package storage writes (its Encode and
// Decode functions), so a record copied between the backends reads the
// same. Challenge IDs come from the counter meta/ids, incremented in the
// transaction that creates the challenge (compared on its ModRevision),
// so an ID is never used twice; a game takes its challenge's ID.
//
// A notification's ID is made from the etcd revision that created it and
// its place among the notifications of that transaction: CreateRevision
// × 4096 + I. Revisions only grow, so IDs increase in the order of
// appending and are never reused, without a counter that every game
// update would contend on. TOKEN names the change that wrote it (the
// record and the ModRevision it replaced), so keys never collide. An ID
// stays valid while the key lives; a copy of the data into another
// cluster (not an etcd snapshot restore, which keeps revisions) gives the
// notifications new IDs.
//
// # Several processes
//
// Any number of processes may use one prefix at once: every change is
// checked against the revision it read. Work that must run in one
// process at a time (the scheduler, the outbox deliverer) runs under
// Lead, an election with a lease: when the leader stops, it resigns; when
// it dies, the lease expires and another candidate takes over. The
// leader learns of the deadlines and notifications the others write
// through WatchChanges.
//
// # When the cluster does not answer
//
// An etcd leader change leaves requests without an answer for up to
// seconds. Open waits for the cluster up to Options.StartupWait. A change
// whose commit got no answer is looked for (landed): found applied, it
// is done; found not applied, it is tried again once the cluster
// answers (the revision check makes that safe); not found out, its error
// is bot.OutcomeUnknown's (bot.EUNKNOWN), which users are told as such.
// A read the cluster did not answer is bot.Unavailable's
// (bot.EUNAVAILABLE). Lead renews its lease often enough to keep the
// leadership through an election shorter than about 5/6 of its TTL.
//
// # Limits
//
// One change is one transaction: etcd refuses a transaction of more
// operations than its --max-txn-ops (128 by default); a change writes
// its record, at most a dozen index entries and its notifications, at
// most 4096 of them. Listings read the index at one revision and the
// records at that same revision, so a listing is a consistent snapshot.
package etcdstore

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/storage"
	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// DefaultPrefix is the key prefix when Options.Prefix is empty.
const DefaultPrefix = "fairypost/"

// DefaultDialTimeout bounds Open's first contact with the cluster when
// Options.DialTimeout is zero.
const DefaultDialTimeout = 5 * time.Second

// Keepalive pings of the client's connections: a member that stops
// answering without closing its connections (a hung process, a dropped
// network path) is found out after dialKeepAliveTime of silence plus
// dialKeepAliveTimeout, and the client moves to another member, instead
// of every request waiting for its own deadline. gRPC refuses pings more
// often than every 10 s.
const (
	dialKeepAliveTime    = 10 * time.Second
	dialKeepAliveTimeout = 5 * time.Second
)

// maxTxnGets is how many records one read transaction fetches: below
// etcd's default --max-txn-ops of 128.
const maxTxnGets = 100

// Options configures Open.
type Options struct {
	// Endpoints are the client URLs of the cluster's members, such as
	// "http://127.0.0.1:2379". At least one is required.
	Endpoints []string
	// Prefix starts every key this store reads or writes; "" is
	// DefaultPrefix. Stores with different prefixes share nothing.
	Prefix string
	// TLS, when not nil, is used to reach the members (see TLSConfig).
	TLS *tls.Config
	// Username and Password authenticate with etcd's own users, when
	// the cluster has authentication enabled.
	Username, Password string
	// DialTimeout bounds each try of the first contact (the schema
	// check; with StartupWait, the first tries less, from one second up)
	// and each connection attempt; 0 is DefaultDialTimeout.
	DialTimeout time.Duration
	// StartupWait is how long Open goes on trying while the cluster does
	// not answer (no member reachable, no raft leader): a process started
	// while etcd elects a leader or restarts waits for it instead of
	// failing. 0 makes one try.
	StartupWait time.Duration
	// Logger receives a line for each try of Open that found the cluster
	// unavailable (which endpoints, why) and one when it answers; nil
	// logs nothing.
	Logger *slog.Logger
}

// Store keeps the records of package bot in etcd. It is safe for
// concurrent use, also by several processes on the same cluster and
// prefix. Close it when done.
type Store struct {
	c    *clientv3.Client
	own  bool       // Close closes c
	p    string     // key prefix
	seen seenLeases // FirstSeen's leases (seen.go)
	// retried counts the commits tried again after getting no answer
	// (Retried).
	retried atomic.Int64
	// renewRetries counts the renewals of election leases tried again
	// (RenewRetries).
	renewRetries atomic.Int64
	renewals     atomic.Int64 // and those that succeeded (Renewals)
}

// Retried returns how many commits this store tried again because the
// cluster did not answer them and they were found not applied (an etcd
// leader change, for instance): for logs and tests.
func (s *Store) Retried() int64 { return s.retried.Load() }

// Compile-time checks that Store implements the stores of package bot.
var (
	_ bot.GameStore      = (*Store)(nil)
	_ bot.ChallengeStore = (*Store)(nil)
	_ bot.Outbox         = (*Store)(nil)
	_ bot.UserStore      = (*Store)(nil)
)

// Open connects to the cluster, checks that it answers and that the data
// under the prefix has this program's schema (writing it under an empty
// prefix). It refuses data of another schema at once. While the cluster
// does not answer (no member reachable, or no raft leader: an election
// runs, a quorum is still starting), Open tries again, each try bounded by
// the dial timeout, with a growing pause between tries, logging what it
// waits for, until Options.StartupWait has passed; only then does it fail,
// with the last reason.
func Open(ctx context.Context, opts Options) (*Store, error) {
	if len(opts.Endpoints) == 0 {
		return nil, errors.New("etcd: no endpoints given")
	}
	if opts.DialTimeout <= 0 {
		opts.DialTimeout = DefaultDialTimeout
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	where := strings.Join(opts.Endpoints, ",")
	start := time.Now()
	giveUp := start.Add(opts.StartupWait)
	pause := startupFirstPause
	// The first tries are bounded by less than the dial timeout: a
	// request that reached a member while its raft leader died waits for
	// etcd's request timeout, seconds, while a try made again at once
	// finds the new leader.
	tryTimeout := min(opts.DialTimeout, startupFirstTry)
	if opts.StartupWait <= 0 { // one try: all of the dial timeout
		tryTimeout = opts.DialTimeout
	}
	for try := 1; ; try++ {
		s, err := open(ctx, opts, tryTimeout)
		if err == nil {
			if try > 1 {
				log.Info("etcd: the cluster answers", "endpoints", where, "tries", try,
					"waited", time.Since(start).Round(time.Millisecond))
			}
			return s, nil
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("etcd %s: %w", where, ctx.Err())
		}
		if !unavailable(err) {
			return nil, fmt.Errorf("etcd %s: %w", where, err)
		}
		if !time.Now().Add(pause).Before(giveUp) {
			if try == 1 {
				return nil, fmt.Errorf("etcd %s: no member answered within %v (is etcd running there?): %w", where, tryTimeout, err)
			}
			return nil, fmt.Errorf("etcd %s: the cluster did not answer in %v of trying (%d tries; is etcd running there, with a quorum of its members?): %w",
				where, time.Since(start).Round(time.Second), try, err)
		}
		log.Warn("etcd: waiting for the cluster to answer", "endpoints", where, "why", reason(err), "try", try,
			"next_in", pause, "gives_up_in", time.Until(giveUp).Round(time.Second))
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("etcd %s: %w", where, ctx.Err())
		case <-time.After(pause):
		}
		pause = min(2*pause, startupMaxPause)
		tryTimeout = min(2*tryTimeout, opts.DialTimeout)
	}
}

// The pauses between Open's tries: doubling from the first to the last.
// The bound of each try doubles from startupFirstTry to the dial timeout.
const (
	startupFirstTry   = time.Second
	startupFirstPause = 100 * time.Millisecond
	startupMaxPause   = 5 * time.Second
)

// open makes one try of Open: a client, and the schema check within
// timeout.
func open(ctx context.Context, opts Options, timeout time.Duration) (*Store, error) {
	c, err := clientv3.New(clientv3.Config{
		Endpoints: opts.Endpoints, TLS: opts.TLS, DialTimeout: opts.DialTimeout,
		DialKeepAliveTime: dialKeepAliveTime, DialKeepAliveTimeout: dialKeepAliveTimeout,
		Username: opts.Username, Password: opts.Password,
		Logger: zap.NewNop(),
	})
	if err != nil {
		return nil, err
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	s, err := New(cctx, c, opts.Prefix)
	if err != nil {
		c.Close()
		return nil, err
	}
	s.own = true
	return s, nil
}

// unavailable reports whether err says the cluster did not answer (yet):
// a deadline passed, no member could be reached, or the members have no
// raft leader. Such a request may succeed when tried again; any other
// error (refused credentials, another schema) will not.
func unavailable(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var ee rpctypes.EtcdError
	if errors.As(err, &ee) {
		return ee.Code() == codes.Unavailable || ee.Code() == codes.DeadlineExceeded
	}
	if st, ok := status.FromError(err); ok {
		return st.Code() == codes.Unavailable || st.Code() == codes.DeadlineExceeded
	}
	return false
}

// reason says in a few words why a request found the cluster
// unavailable, for the log.
func reason(err error) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "no answer in time (members unreachable, or no raft leader elected)"
	case errors.Is(err, rpctypes.ErrNoLeader):
		return "the members have no raft leader: an election runs"
	}
	return err.Error()
}

// New returns a Store over an existing client, checking the schema as
// Open does. Closing the Store leaves c open.
func New(ctx context.Context, c *clientv3.Client, prefix string) (*Store, error) {
	if prefix == "" {
		prefix = DefaultPrefix
	}
	s := &Store{c: c, p: prefix}
	if err := s.checkSchema(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

// checkSchema writes the schema version under an empty prefix and
// refuses any other version than storage.SchemaVersion, but for schema
// 3, which it migrates (migrateNotesAndFollows).
func (s *Store) checkSchema(ctx context.Context) error {
	key := s.p + "meta/schema"
	want := strconv.Itoa(storage.SchemaVersion)
	r, err := s.c.Txn(ctx).If(clientv3.Compare(clientv3.CreateRevision(key), "=", 0)).
		Then(clientv3.OpPut(key, want)).Else(clientv3.OpGet(key)).Commit()
	if err != nil {
		return err
	}
	if r.Succeeded {
		return nil
	}
	kvs := r.Responses[0].GetResponseRange().Kvs
	if len(kvs) != 1 {
		return fmt.Errorf("schema key %s vanished", key)
	}
	got, err := strconv.Atoi(string(kvs[0].Value))
	switch {
	case err != nil:
		return fmt.Errorf("schema key %s holds %q, not a number", key, kvs[0].Value)
	case got > storage.SchemaVersion:
		return fmt.Errorf("schema version %d under %q is newer than this program's %d", got, s.p, storage.SchemaVersion)
	case got == 3 && storage.SchemaVersion == 4:
		return s.migrateNotesAndFollows(ctx, key)
	case got < storage.SchemaVersion:
		return fmt.Errorf("schema version %d under %q: this program knows no migration from it to %d", got, s.p, storage.SchemaVersion)
	}
	return nil
}

// Close closes the connection, if Open made it.
func (s *Store) Close() error {
	if s.own {
		return s.c.Close()
	}
	return nil
}

// Client returns the etcd client (for elections and diagnostics).
func (s *Store) Client() *clientv3.Client { return s.c }

// Prefix returns the key prefix.
func (s *Store) Prefix() string { return s.p }

// TLSConfig builds the TLS configuration of a client from PEM files: the
// client certificate and its key (both or neither) and the certificate
// authority that signed the members' certificates ("" for the system's).
func TLSConfig(certFile, keyFile, caFile string) (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	switch {
	case certFile != "" && keyFile != "":
		cert, err := tls.LoadX509KeyPair(certFile, keyFile)
		if err != nil {
			return nil, fmt.Errorf("client certificate: %w", err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	case certFile != "" || keyFile != "":
		return nil, errors.New("a client certificate needs both its file and its key file")
	}
	if caFile != "" {
		pem, err := os.ReadFile(caFile)
		if err != nil {
			return nil, fmt.Errorf("certificate authority: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("certificate authority %s: no PEM certificate in it", caFile)
		}
		cfg.RootCAs = pool
	}
	return cfg, nil
}

// hex16 writes n as 16 lower-case hex digits, so keys sort as numbers.
func hex16(n uint64) string { return fmt.Sprintf("%016x", n) }

// Keys of the records and indexes (see the package documentation).
func (s *Store) gameKey(id uint64) string      { return s.p + "game/" + hex16(id) }
func (s *Store) challengeKey(id uint64) string { return s.p + "challenge/" + hex16(id) }
func (s *Store) userKey(userID string) string  { return s.p + "user/" + userID }
func (s *Store) idsKey() string                { return s.p + "meta/ids" }
func (s *Store) outboxPrefix() string          { return s.p + "outbox/" }
func (s *Store) indexPrefix(index string) string {
	return s.p + "ix/" + index + "/"
}

// Index names.
const (
	ixGamesByUser          = "games_by_user"
	ixGamesByChannel       = "games_by_channel"
	ixActiveByUser         = "active_games_by_user"
	ixActiveByChannel      = "active_games_by_channel"
	ixGamesByDeadline      = "games_by_deadline"
	ixGamesByRemind        = "games_by_remind"
	ixChallengesByUser     = "challenges_by_user"
	ixChallengesByChannel  = "challenges_by_channel"
	ixChallengesByExpiry   = "challenges_by_expiry"
	idHexLen               = 16
	timeKeyLen             = 2 * idHexLen
	maxNotesPerTransaction = 4096
)

// entryKey returns the key of id under key in a keyed index.
func (s *Store) entryKey(index, key string, id uint64) string {
	return s.indexPrefix(index) + key + "\x00" + hex16(id)
}

// timeKey returns the key of id in a time index: t in Unix nanoseconds
// (clamped to 0 before 1970 and to the largest int64 after 2262), then
// the ID, so keys sort by time, then ID.
func timeKey(t time.Time, id uint64) string {
	var ns uint64
	switch {
	case t.Before(time.Unix(0, 0)):
		ns = 0
	case t.After(time.Unix(0, 1<<63-1)):
		ns = 1<<63 - 1
	default:
		ns = uint64(t.UnixNano())
	}
	return hex16(ns) + hex16(id)
}

// parseTimeKey reads the time and the ID of a time index key (without
// its index prefix).
func parseTimeKey(k string) (time.Time, uint64, error) {
	if len(k) != timeKeyLen {
		return time.Time{}, 0, fmt.Errorf("corrupt time index key %q", k)
	}
	ns, err1 := strconv.ParseUint(k[:idHexLen], 16, 64)
	id, err2 := strconv.ParseUint(k[idHexLen:], 16, 64)
	if err1 != nil || err2 != nil {
		return time.Time{}, 0, fmt.Errorf("corrupt time index key %q", k)
	}
	return time.Unix(0, int64(ns)).UTC(), id, nil
}

// gameIndexKeys returns every index key of g (none for nil).
func (s *Store) gameIndexKeys(g *bot.Game) []string {
	if g == nil {
		return nil
	}
	var keys []string
	for _, u := range []string{g.White, g.Black} {
		if u != "" {
			keys = append(keys, s.entryKey(ixGamesByUser, u, g.ID))
			if g.Ongoing() {
				keys = append(keys, s.entryKey(ixActiveByUser, u, g.ID))
			}
		}
	}
	if g.ChannelID != "" {
		keys = append(keys, s.entryKey(ixGamesByChannel, g.ChannelID, g.ID))
		if g.Ongoing() {
			keys = append(keys, s.entryKey(ixActiveByChannel, g.ChannelID, g.ID))
		}
	}
	if !g.Deadline.IsZero() {
		keys = append(keys, s.indexPrefix(ixGamesByDeadline)+timeKey(g.Deadline, g.ID))
	}
	if !g.RemindAt.IsZero() {
		keys = append(keys, s.indexPrefix(ixGamesByRemind)+timeKey(g.RemindAt, g.ID))
	}
	return keys
}

// challengeIndexKeys returns every index key of c (none for nil).
func (s *Store) challengeIndexKeys(c *bot.Challenge) []string {
	if c == nil {
		return nil
	}
	var keys []string
	for _, u := range []string{c.Challenger, c.Challenged} {
		if u != "" {
			keys = append(keys, s.entryKey(ixChallengesByUser, u, c.ID))
		}
	}
	if c.ChannelID != "" {
		keys = append(keys, s.entryKey(ixChallengesByChannel, c.ChannelID, c.ID))
	}
	if c.Status == bot.ChallengePending {
		keys = append(keys, s.indexPrefix(ixChallengesByExpiry)+timeKey(c.Expires, c.ID))
	}
	return keys
}

// reindexOps returns the operations that turn the index entries old into
// new: deletes of the keys no longer wanted, puts of the keys not there
// yet. etcd refuses a transaction that names a key twice, so each key
// appears once, and entries that stay are not rewritten.
func reindexOps(old, new []string) []clientv3.Op {
	was := make(map[string]bool, len(old))
	for _, k := range old {
		was[k] = true
	}
	want := make(map[string]bool, len(new))
	var ops []clientv3.Op
	for _, k := range new {
		if !want[k] {
			want[k] = true
			if !was[k] {
				ops = append(ops, clientv3.OpPut(k, ""))
			}
		}
	}
	for k := range was {
		if !want[k] {
			ops = append(ops, clientv3.OpDelete(k))
		}
	}
	return ops
}

// casLoop runs try until the transaction it builds commits: try reads
// what it needs, decides, and returns the comparisons that must still
// hold and the operations to apply (neither: nothing to do). A failed
// comparison (a concurrent change) runs try again; an error from try ends
// the loop. ctx bounds the whole.
//
// The cluster not answering (an etcd leader change, members unreachable)
// is waited out, up to retryBudget: a read that fails so is tried again,
// and a commit that fails so may have been applied all the same, so the
// store looks (landed). Applied, the change is done; not applied, the
// whole is tried again once the cluster answers — safe, since every try
// compares what it read; unknown (the cluster answers no read either),
// the error is bot.OutcomeUnknown's, so the user is told to look rather
// than that the change failed. A later try that finds the earlier one
// applied after all (try refuses because the record moved on, or its
// comparison fails) reports it done. When the budget or ctx runs out,
// the error is bot.OutcomeUnknown's after a commit without an answer,
// bot.Unavailable's when nothing was sent. Other errors of etcd end the
// loop as they are.
func (s *Store) casLoop(ctx context.Context, try func() ([]clientv3.Cmp, []clientv3.Op, error)) error {
	var pending []clientv3.Op // a commit that got no answer and was not found applied
	var waitUntil time.Time   // the end of the budget, from the first failure to answer
	pause := retryFirstPause
	// waitOut pauses before trying again after err, the cluster not
	// answering, or returns the error to report when out of time.
	waitOut := func(err error) error {
		if waitUntil.IsZero() {
			waitUntil = time.Now().Add(retryBudget)
		}
		if ctx.Err() == nil && time.Now().Add(pause).Before(waitUntil) {
			s.retried.Add(1)
			select {
			case <-ctx.Done():
			case <-time.After(pause):
			}
			pause = min(2*pause, retryMaxPause)
			if ctx.Err() == nil {
				return nil
			}
			err = ctx.Err()
		}
		if pending != nil {
			return bot.OutcomeUnknown(fmt.Errorf("etcd: %w", err))
		}
		return bot.Unavailable(fmt.Errorf("etcd: %w", err))
	}
	for {
		if err := ctx.Err(); err != nil {
			if pending != nil {
				return bot.OutcomeUnknown(fmt.Errorf("etcd: %w", err))
			}
			return err
		}
		cmps, ops, err := try()
		if err != nil {
			if pending != nil && s.landed(ctx, pending) == applied {
				return nil
			}
			if !unavailable(err) {
				return err
			}
			if err := waitOut(err); err != nil {
				return err
			}
			continue
		}
		if cmps == nil && ops == nil { // nothing to write
			return nil
		}
		r, err := s.c.Txn(ctx).If(cmps...).Then(ops...).Commit()
		if err == nil && r.Succeeded {
			return nil
		}
		if err == nil { // a concurrent change, or the earlier try landed late
			if pending != nil && s.landed(ctx, pending) == applied {
				return nil
			}
			continue
		}
		found := s.landed(ctx, ops)
		switch {
		case found == applied:
			return nil
		case !unavailable(err): // refused (too large, not permitted...), not lost
			return fmt.Errorf("etcd: %w", err)
		case found == unknown:
			return bot.OutcomeUnknown(fmt.Errorf("etcd: %w", err))
		}
		if pending == nil {
			pending = ops
		}
		if err := waitOut(err); err != nil {
			return err
		}
	}
}

// The pauses of casLoop before trying again while the cluster does not
// answer (doubling from the first to the last), and how long it goes on
// trying: an etcd election takes seconds.
const (
	retryFirstPause = 50 * time.Millisecond
	retryMaxPause   = time.Second
	retryBudget     = 20 * time.Second
)

// landedTimeout bounds the read that looks for a transaction whose
// answer was lost.
const landedTimeout = 5 * time.Second

// outcome is what landed found out about a transaction.
type outcome int

const (
	unknown    outcome = iota // no read answered: it may or may not have been applied
	notApplied                // it was not applied (before the read)
	applied                   // every value it puts is there: it was applied
)

// landed reports whether the transaction of ops, whose commit returned an
// error, took effect all the same: every put of a non-empty value finds
// its key holding exactly that value. etcd may apply a transaction whose
// answer never arrives (the raft leader crashed after the proposal, or
// the request timed out while it was being committed); reporting a
// failure then would tell a player their move was refused while it was
// played. Records carry their new version, so equal bytes mean this
// write, not an earlier one. The read is linearizable, is tried again
// while etcd has no leader, and has its own deadline (the caller's may be
// what ran out). unknown when no read succeeds, or no put carries a
// value.
func (s *Store) landed(ctx context.Context, ops []clientv3.Op) outcome {
	var gets []clientv3.Op
	var want [][]byte
	for _, op := range ops {
		if op.IsPut() && len(op.ValueBytes()) > 0 {
			gets = append(gets, clientv3.OpGet(string(op.KeyBytes())))
			want = append(want, op.ValueBytes())
		}
	}
	if len(gets) == 0 {
		return unknown
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), landedTimeout)
	defer cancel()
	var r *clientv3.TxnResponse
	for { // while etcd elects a leader, reads fail too: try again until the deadline
		var err error
		if r, err = s.c.Txn(rctx).Then(gets...).Commit(); err == nil {
			break
		}
		select {
		case <-rctx.Done():
			return unknown
		case <-time.After(100 * time.Millisecond):
		}
	}
	for i, resp := range r.Responses {
		kvs := resp.GetResponseRange().Kvs
		if len(kvs) == 0 || !bytes.Equal(kvs[0].Value, want[i]) {
			return notApplied
		}
	}
	return applied
}

// getOne reads key: its value and ModRevision, or found false.
func (s *Store) getOne(ctx context.Context, key string) (value []byte, modRev int64, found bool, err error) {
	r, err := s.c.Get(ctx, key)
	if err != nil {
		return nil, 0, false, readError(err)
	}
	if len(r.Kvs) == 0 {
		return nil, 0, false, nil
	}
	return r.Kvs[0].Value, r.Kvs[0].ModRevision, true, nil
}

// getMany reads keys at revision rev (0: the latest) in transactions of
// at most maxTxnGets reads, and returns the values in the order of keys.
// A key that is missing is an error naming it (an index pointing at no
// record).
func (s *Store) getMany(ctx context.Context, keys []string, rev int64) ([][]byte, error) {
	out := make([][]byte, 0, len(keys))
	for start := 0; start < len(keys); start += maxTxnGets {
		chunk := keys[start:min(start+maxTxnGets, len(keys))]
		ops := make([]clientv3.Op, len(chunk))
		for i, k := range chunk {
			ops[i] = clientv3.OpGet(k, clientv3.WithRev(rev))
		}
		r, err := s.c.Txn(ctx).Then(ops...).Commit()
		if err != nil {
			return nil, readError(err)
		}
		for i, resp := range r.Responses {
			kvs := resp.GetResponseRange().Kvs
			if len(kvs) == 0 {
				return nil, fmt.Errorf("etcd: index entry without record %s", chunk[i])
			}
			out = append(out, kvs[0].Value)
		}
	}
	return out, nil
}

// indexIDs lists the IDs under key in a keyed index, in ID order, and
// the revision the listing was read at.
func (s *Store) indexIDs(ctx context.Context, index, key string) ([]uint64, int64, error) {
	prefix := s.indexPrefix(index) + key + "\x00"
	r, err := s.c.Get(ctx, prefix, clientv3.WithPrefix(), clientv3.WithKeysOnly())
	if err != nil {
		return nil, 0, readError(err)
	}
	ids := make([]uint64, 0, len(r.Kvs))
	for _, kv := range r.Kvs {
		rest := string(kv.Key[len(prefix):])
		id, err := strconv.ParseUint(rest, 16, 64)
		if err != nil || len(rest) != idHexLen {
			return nil, 0, fmt.Errorf("etcd: corrupt index key %q", kv.Key)
		}
		ids = append(ids, id)
	}
	return ids, r.Header.Revision, nil
}

// timeIDs lists the IDs of the time index whose time is not after t,
// earliest first, and the revision the listing was read at.
func (s *Store) timeIDs(ctx context.Context, index string, t time.Time) ([]uint64, int64, error) {
	prefix := s.indexPrefix(index)
	end := prefix + timeKey(t, 1<<64-1) + "\x00" // the first key after t's last
	r, err := s.c.Get(ctx, prefix, clientv3.WithRange(end), clientv3.WithKeysOnly())
	if err != nil {
		return nil, 0, readError(err)
	}
	ids := make([]uint64, 0, len(r.Kvs))
	for _, kv := range r.Kvs {
		_, id, err := parseTimeKey(string(kv.Key[len(prefix):]))
		if err != nil {
			return nil, 0, fmt.Errorf("etcd: %w", err)
		}
		ids = append(ids, id)
	}
	return ids, r.Header.Revision, nil
}

// firstTimeOp reads the first key of a time index.
func (s *Store) firstTimeOp(index string) clientv3.Op {
	return clientv3.OpGet(s.indexPrefix(index), clientv3.WithPrefix(), clientv3.WithKeysOnly(), clientv3.WithLimit(1))
}

// firstTime decodes the answer of firstTimeOp: the zero time for an
// empty index.
func (s *Store) firstTime(index string, r *clientv3.GetResponse) (time.Time, error) {
	if len(r.Kvs) == 0 {
		return time.Time{}, nil
	}
	t, _, err := parseTimeKey(string(r.Kvs[0].Key[len(s.indexPrefix(index)):]))
	return t, err
}

// Stores returns every store of package bot, each kept in s.
func (s *Store) Stores() gameplay.Stores {
	return gameplay.Stores{Games: s, Challenges: s, Users: s, Outbox: s, Notes: s, Follows: s, Ratings: s, Tournaments: s}
}

// readError is the error of a read that etcd failed: bot.Unavailable's
// when the cluster did not answer (an election, members unreachable), so
// that callers tell it from a bug; otherwise etcd's error, named so.
func readError(err error) error {
	if unavailable(err) {
		return bot.Unavailable(fmt.Errorf("etcd: %w", err))
	}
	return fmt.Errorf("etcd: %w", err)
}
