package hotcopy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/rules"
	"github.com/fairypost/fairypost/storage"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// shortDir returns a new folder with a short path (t.TempDir's can be
// too long for a unix socket), removed after the test.
func shortDir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "hc")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// openDB opens a new database in a short folder, closed after the test.
func openDB(t testing.TB) *storage.DB {
	t.Helper()
	db, err := storage.Open(filepath.Join(shortDir(t), "fp.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// serveDB serves db on its socket until the end of the test.
func serveDB(t testing.TB, db *storage.DB) *Server {
	t.Helper()
	s, err := Serve(context.Background(), db, SocketPath(db.Path()), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// shuffle is a cycle of legal moves from chess's start: the knights go
// out and back.
var shuffle = []string{"g1f3", "g8f6", "f3g1", "f6g8"}

// games plays chess games into a database: each move is one commit.
type games struct {
	db    *storage.DB
	v     *rules.Variant
	ids   []uint64
	first map[uint64]uint64 // each game's version when created
	pos   map[uint64]rules.Position
	ver   map[uint64]uint64
	moves int // moves committed
}

// newGames creates n games of chess, each from a challenge accepted.
func newGames(t testing.TB, db *storage.DB, n int) *games {
	t.Helper()
	reg, err := rules.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	v, err := reg.Variant("chess", "")
	if err != nil {
		t.Fatal(err)
	}
	gs := &games{db: db, v: v, first: map[uint64]uint64{}, pos: map[uint64]rules.Position{}, ver: map[uint64]uint64{}}
	ctx := context.Background()
	start := v.Start()
	for i := range n {
		white, black := fmt.Sprintf("w%d", i), fmt.Sprintf("b%d", i)
		c := &bot.Challenge{Challenger: white, Challenged: black, ChannelID: "ch", Variant: "chess",
			DaysPerMove: 3, Color: bot.ColorWhite, Status: bot.ChallengePending, Expires: t0.Add(gameplay.ChallengeTTL),
			Created: t0, Updated: t0}
		if err := db.CreateChallenge(ctx, c, nil); err != nil {
			t.Fatal(err)
		}
		_, g, err := db.UpdateChallenge(ctx, c.ID, c.Version, func(c *bot.Challenge) (bot.ChallengeChange, error) {
			c.Status, c.Updated = bot.ChallengeAccepted, t0
			return bot.ChallengeChange{Game: &bot.Game{Variant: "chess", StartFEN: start.FEN(), FEN: start.FEN(),
				ToAct: white, White: white, Black: black, ChannelID: "ch", Status: bot.GameActive, DaysPerMove: 3,
				Deadline: t0.Add(72 * time.Hour), TurnStarted: t0, Created: t0, Updated: t0}}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		gs.ids = append(gs.ids, g.ID)
		gs.first[g.ID], gs.ver[g.ID], gs.pos[g.ID] = g.Version, g.Version, start
	}
	return gs
}

// move plays the next move of the next game in turn (the games take
// turns in ID order), as one commit.
func (gs *games) move() error {
	id := gs.ids[gs.moves%len(gs.ids)]
	pos := gs.pos[id]
	m, err := rules.ParseMove(&pos, shuffle[(gs.moves/len(gs.ids))%len(shuffle)])
	if err != nil {
		return err
	}
	text := rules.FormatMove(&pos, m)
	next, err := pos.Play(m)
	if err != nil {
		return err
	}
	now := t0.Add(time.Duration(gs.moves) * time.Minute)
	g, err := gs.db.UpdateGame(context.Background(), id, gs.ver[id], func(g *bot.Game) ([]bot.Notification, error) {
		g.Moves = append(g.Moves, text)
		g.FEN, g.Updated = next.FEN(), now
		g.ToAct, g.TurnStarted, g.Deadline = g.Player(next.ToAct() == rules.White), now, now.Add(72*time.Hour)
		return []bot.Notification{{Kind: bot.NotifyYourTurn, UserID: g.ToAct, GameID: g.ID, Text: "your turn", Created: now}}, nil
	})
	if err != nil {
		return err
	}
	gs.pos[id], gs.ver[id] = next, g.Version
	gs.moves++
	return nil
}

// run plays moves until ctx is done and returns how many it played.
func (gs *games) run(ctx context.Context) (int, error) {
	n := 0
	for ctx.Err() == nil {
		if err := gs.move(); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// checkCopy opens the database at path and checks that its games are a
// state the database was in between two commits: each game's moves agree
// with its version and lead to its FEN, and the games' numbers of moves
// are those of a prefix of the commits (the games take turns). It
// returns the total number of moves.
func checkCopy(t *testing.T, path string, gs *games) int {
	t.Helper()
	db, err := storage.Open(path, storage.Options{Timeout: time.Second})
	if err != nil {
		t.Fatalf("the copy does not open: %v", err)
	}
	defer db.Close()
	var counts []int
	total := 0
	for _, id := range gs.ids {
		g, err := db.Game(context.Background(), id)
		if err != nil {
			t.Fatalf("game %d in the copy: %v", id, err)
		}
		if uint64(len(g.Moves)) != g.Version-gs.first[id] {
			t.Errorf("game %d in the copy: %d moves at version %d (created at %d)", id, len(g.Moves), g.Version, gs.first[id])
		}
		pos, err := rules.ParseFEN(gs.v, g.StartFEN)
		if err != nil {
			t.Fatal(err)
		}
		for i, s := range g.Moves {
			m, err := rules.ParseMove(&pos, s)
			if err != nil {
				t.Fatalf("game %d move %d %q: %v", id, i+1, s, err)
			}
			if pos, err = pos.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		if pos.FEN() != g.FEN {
			t.Errorf("game %d in the copy: moves lead to %s, FEN is %s", id, pos.FEN(), g.FEN)
		}
		counts = append(counts, len(g.Moves))
		total += len(g.Moves)
	}
	// After k commits, the first k mod n games have one move more.
	want := make([]int, len(counts))
	for i := range want {
		want[i] = total / len(want)
		if i < total%len(want) {
			want[i]++
		}
	}
	if !slices.Equal(counts, want) {
		t.Errorf("moves per game in the copy %v: not a state between commits (want %v)", counts, want)
	}
	return total
}

// fetchFile fetches a copy into a new file in dir and returns its path.
func fetchFile(t *testing.T, socket, dir, name string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	n, err := Fetch(context.Background(), socket, f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	if st, err := os.Stat(path); err != nil || st.Size() != n {
		t.Fatalf("Fetch returned %d bytes; the file: %v, %v", n, st, err)
	}
	return path
}

// TestFetchWhileCommitting: copies fetched while games keep changing
// open and hold a state between two commits; once the changes stop, a
// copy holds the last state.
func TestFetchWhileCommitting(t *testing.T) {
	t.Parallel()
	db := openDB(t)
	gs := newGames(t, db, 5)
	s := serveDB(t, db)
	out := shortDir(t)

	ctx, stop := context.WithCancel(context.Background())
	var played int
	var runErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		played, runErr = gs.run(ctx)
	}()
	seen := map[int]bool{}
	for i := range 20 {
		seen[checkCopy(t, fetchFile(t, s.Path(), out, fmt.Sprintf("c%d.db", i)), gs)] = true
	}
	stop()
	<-done
	if runErr != nil {
		t.Fatal(runErr)
	}
	if played == 0 {
		t.Fatal("no commit while copying")
	}
	t.Logf("%d commits during 20 copies, %d different states copied", played, len(seen))
	if total := checkCopy(t, fetchFile(t, s.Path(), out, "last.db"), gs); total != gs.moves {
		t.Errorf("the last copy has %d moves, the database %d", total, gs.moves)
	}
}

// TestConcurrentFetches: several clients copying at once while games
// change all get consistent copies.
func TestConcurrentFetches(t *testing.T) {
	t.Parallel()
	db := openDB(t)
	gs := newGames(t, db, 4)
	s := serveDB(t, db)
	out := shortDir(t)

	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := gs.run(ctx)
		done <- err
	}()
	const clients = 6
	paths := make([]string, clients)
	errs := make([]error, clients)
	var wg sync.WaitGroup
	for i := range clients {
		wg.Go(func() {
			paths[i] = filepath.Join(out, fmt.Sprintf("c%d.db", i))
			f, err := os.Create(paths[i])
			if err != nil {
				errs[i] = err
				return
			}
			defer f.Close()
			_, errs[i] = Fetch(context.Background(), s.Path(), f)
		})
	}
	wg.Wait()
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for i := range clients {
		if errs[i] != nil {
			t.Fatalf("client %d: %v", i, errs[i])
		}
		checkCopy(t, paths[i], gs)
	}
}

func TestSocketFile(t *testing.T) {
	t.Parallel()
	db := openDB(t)
	if got, want := SocketPath(db.Path()), db.Path()+".backup.sock"; got != want {
		t.Errorf("SocketPath = %q, want %q", got, want)
	}
	s := serveDB(t, db)
	st, err := os.Lstat(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode()&os.ModeSocket == 0 || st.Mode().Perm() != 0o600 {
		t.Errorf("socket file mode %v, want a socket with 0600", st.Mode())
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(s.Path()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("after Close, the socket file: %v", err)
	}
	if _, err := Fetch(context.Background(), s.Path(), io.Discard); err == nil {
		t.Error("Fetch after Close succeeded")
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

// TestStaleSocketReplaced: a socket file left by a dead process is
// replaced.
func TestStaleSocketReplaced(t *testing.T) {
	t.Parallel()
	db := openDB(t)
	gs := newGames(t, db, 2)
	path := SocketPath(db.Path())
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	ln.Close() // the file stays, nobody listens: as after a crash
	if _, err := os.Lstat(path); err != nil {
		t.Fatal(err)
	}
	s := serveDB(t, db)
	checkCopy(t, fetchFile(t, s.Path(), shortDir(t), "c.db"), gs)
}

// TestServeRefuses: a socket another process answers on, a file that is
// not a socket, and a path too long are refused, and left alone.
func TestServeRefuses(t *testing.T) {
	t.Parallel()
	db := openDB(t)
	ctx := context.Background()
	s := serveDB(t, db)
	if s2, err := Serve(ctx, db, s.Path(), nil); err == nil || !strings.Contains(err.Error(), "already serves") {
		t.Errorf("second Serve on a live socket: %v", err)
		if s2 != nil {
			s2.Close()
		}
	}
	if _, err := Fetch(ctx, s.Path(), io.Discard); err != nil {
		t.Errorf("the first server after the second Serve: %v", err)
	}

	plain := filepath.Join(filepath.Dir(db.Path()), "plain")
	if err := os.WriteFile(plain, []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Serve(ctx, db, plain, nil); err == nil || !strings.Contains(err.Error(), "not a socket") {
		t.Errorf("Serve on a plain file: %v", err)
	}
	if b, err := os.ReadFile(plain); err != nil || string(b) != "mine" {
		t.Errorf("the plain file after Serve: %q, %v", b, err)
	}

	// A socket this user may not connect to (as another user's) is not
	// removed.
	if os.Getuid() != 0 {
		locked := filepath.Join(filepath.Dir(db.Path()), "locked.sock")
		ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: locked, Net: "unix"})
		if err != nil {
			t.Fatal(err)
		}
		ln.SetUnlinkOnClose(false)
		ln.Close()
		if err := os.Chmod(locked, 0); err != nil {
			t.Fatal(err)
		}
		if _, err := Serve(ctx, db, locked, nil); !errors.Is(err, os.ErrPermission) {
			t.Errorf("Serve on a socket it may not connect to: %v", err)
		}
		if _, err := os.Lstat(locked); err != nil {
			t.Errorf("the socket it may not connect to: %v", err)
		}
	}

	long := "/tmp/" + strings.Repeat("x", MaxSocketPath)
	if _, err := Serve(ctx, db, long, nil); !errors.Is(err, ErrPathTooLong) {
		t.Errorf("Serve on a path of %d bytes: %v", len(long), err)
	}
	if _, err := Fetch(ctx, long, io.Discard); !errors.Is(err, ErrPathTooLong) {
		t.Errorf("Fetch from a path of %d bytes: %v", len(long), err)
	}
}

// fakeServer answers each connection on a new socket with reply.
func fakeServer(t *testing.T, reply []byte) string {
	t.Helper()
	path := filepath.Join(shortDir(t), "fake.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Write(reply)
			c.Close()
		}
	})
	return path
}

// frames builds a stream: the header, then parts (raw bytes).
func stream(parts ...[]byte) []byte {
	return slices.Concat(append([][]byte{[]byte(magic)}, parts...)...)
}

func frame(p []byte) []byte { return append(be32(uint32(len(p))), p...) }

func be32(v uint32) []byte { return []byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)} }

func be64(v uint64) []byte { return append(be32(uint32(v>>32)), be32(uint32(v))...) }

// TestFetchRefusesBadStreams: Fetch fails, with a message saying why,
// unless the stream is a whole copy.
func TestFetchRefusesBadStreams(t *testing.T) {
	t.Parallel()
	data := []byte("0123456789")
	for _, tc := range []struct {
		name  string
		reply []byte
		want  string
	}{
		{"ok", stream(frame(data[:4]), frame(data[4:]), be32(0), be64(10)), ""},
		{"other server", []byte("HTTP/1.1 400 Bad Request\r\n\r\n"), "not a fairypost hot-copy server"},
		{"other version", []byte("fairypost-hotcopy 2\n"), "not a fairypost hot-copy server"},
		{"nothing", nil, "no hot-copy header"},
		{"cut in a frame", stream(frame(data))[:len(magic)+8], "stopped after 4 bytes"},
		{"cut before the end", stream(frame(data)), "stopped after 10 bytes"},
		{"cut in the end", stream(frame(data), be32(0), be32(0)), "end is cut"},
		{"wrong size", stream(frame(data), be32(0), be64(11)), "says the copy has 11"},
		{"huge frame", stream(be32(maxFrame + 1)), "bad frame"},
		{"failure", stream(frame(data), be32(frameFailure), []byte{0, 4}, []byte("disk")), "server failed after 10 bytes: disk"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var buf bytes.Buffer
			n, err := Fetch(context.Background(), fakeServer(t, tc.reply), &buf)
			if tc.want == "" {
				if err != nil || n != 10 || buf.String() != string(data) {
					t.Errorf("Fetch = %d, %v; wrote %q", n, err, buf.Bytes())
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Fetch = %d, %v; want an error containing %q", n, err, tc.want)
			}
		})
	}
}

// TestFetchNoServer: no socket, or a socket nobody answers on, is an
// error at once.
func TestFetchNoServer(t *testing.T) {
	t.Parallel()
	dir := shortDir(t)
	if _, err := Fetch(context.Background(), filepath.Join(dir, "none.sock"), io.Discard); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Fetch with no socket file: %v", err)
	}
	path := filepath.Join(dir, "dead.sock")
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	ln.Close()
	if _, err := Fetch(context.Background(), path, io.Discard); err == nil {
		t.Error("Fetch from a dead socket succeeded")
	}
}

// failWriter fails after taking some bytes.
type failWriter struct{ left int }

var errFull = errors.New("disk full")

func (f *failWriter) Write(p []byte) (int, error) {
	if len(p) > f.left {
		n := f.left
		f.left = 0
		return n, errFull
	}
	f.left -= len(p)
	return len(p), nil
}

// TestFetchWriteError: a failure of Fetch's writer is returned as such,
// and the server goes on serving.
func TestFetchWriteError(t *testing.T) {
	t.Parallel()
	db := openDB(t)
	newGames(t, db, 1)
	s := serveDB(t, db)
	if _, err := Fetch(context.Background(), s.Path(), &failWriter{left: 5000}); !errors.Is(err, errFull) {
		t.Errorf("Fetch into a failing writer: %v", err)
	}
	if _, err := Fetch(context.Background(), s.Path(), io.Discard); err != nil {
		t.Errorf("Fetch after a failed one: %v", err)
	}
}

// TestSourceFailure: a copy that fails on the server's side reaches the
// client as an error with the server's reason.
func TestSourceFailure(t *testing.T) {
	t.Parallel()
	path := filepath.Join(shortDir(t), "x.sock")
	s, err := serve(context.Background(), path, func(w io.Writer) (int64, error) {
		n, err := w.Write([]byte("partial"))
		if err != nil {
			return int64(n), err
		}
		return int64(n), errors.New("read error on page 7")
	}, time.Minute, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var buf bytes.Buffer
	if _, err := Fetch(context.Background(), path, &buf); err == nil || !strings.Contains(err.Error(), "read error on page 7") {
		t.Errorf("Fetch from a failing server: %v", err)
	}
}

// bigSource writes size bytes in 32 KiB writes, as bbolt does.
func bigSource(size int) func(io.Writer) (int64, error) {
	return func(w io.Writer) (int64, error) {
		buf := make([]byte, 32<<10)
		var n int64
		for n < int64(size) {
			m, err := w.Write(buf[:min(len(buf), size-int(n))])
			n += int64(m)
			if err != nil {
				return n, err
			}
		}
		return n, nil
	}
}

// TestStalledClient: a client that stops reading is dropped after the
// idle time, and Close does not wait for it.
func TestStalledClient(t *testing.T) {
	t.Parallel()
	path := filepath.Join(shortDir(t), "x.sock")
	var copies atomic.Int32
	src := bigSource(64 << 20)
	s, err := serve(context.Background(), path, func(w io.Writer) (int64, error) {
		copies.Add(1)
		return src(w)
	}, 200*time.Millisecond, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for copies.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Error(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Close still waits for a client that reads nothing")
	}
}

// TestStalledClientLogged: a client that reads part of the copy and
// then stops is dropped after the idle time, and the log says how much it
// had taken before it stopped, not that it took nothing.
func TestStalledClientLogged(t *testing.T) {
	t.Parallel()
	path := filepath.Join(shortDir(t), "x.sock")
	var logs syncLog
	s, err := serve(context.Background(), path, bigSource(64<<20), 200*time.Millisecond, logs.logger())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	const taken = 300 << 10
	if _, err := io.CopyN(io.Discard, c, taken); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(20 * time.Second); !strings.Contains(logs.String(), "copy failed"); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the stalled client was not dropped; log: %s", logs.String())
		}
	}
	log := logs.String()
	if !strings.Contains(log, "took nothing for 200ms, after ") || strings.Contains(log, "sent=0 ") {
		t.Fatalf("log: %s", log)
	}
	var sent int64
	if _, err := fmt.Sscanf(log[strings.Index(log, "sent=")+len("sent="):], "%d", &sent); err != nil || sent < taken {
		t.Errorf("the log says %d bytes were sent, the client read %d: %s", sent, taken, log)
	}
}

// TestCloseEndsCopies: Close ends a copy in flight to a client that reads
// nothing, at once rather than after the idle time, and says so.
func TestCloseEndsCopies(t *testing.T) {
	t.Parallel()
	path := filepath.Join(shortDir(t), "x.sock")
	var logs syncLog
	started := make(chan struct{})
	src := bigSource(64 << 20)
	s, err := serve(context.Background(), path, func(w io.Writer) (int64, error) {
		close(started)
		return src(w)
	}, time.Hour, logs.logger())
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	<-started
	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Error(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Close waits for a client that reads nothing (the idle time is an hour)")
	}
	if log := logs.String(); !strings.Contains(log, "copy cut short: the database is closing") {
		t.Errorf("log: %s", log)
	}
}

// syncLog collects a text log, safe for concurrent use.
type syncLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *syncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func (l *syncLog) logger() *slog.Logger { return slog.New(slog.NewTextHandler(l, nil)) }

// TestCancel: when Serve's context is done, the socket goes away and the
// copies in flight stop; when Fetch's is, Fetch returns.
func TestCancel(t *testing.T) {
	t.Parallel()
	path := filepath.Join(shortDir(t), "x.sock")
	release := make(chan struct{})
	started := make(chan struct{}, 10)
	ctx, cancel := context.WithCancel(context.Background())
	s, err := serve(ctx, path, func(w io.Writer) (int64, error) {
		started <- struct{}{}
		if _, err := w.Write([]byte("begin")); err != nil {
			return 0, err
		}
		<-release
		return bigSource(8 << 20)(w)
	}, time.Minute, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	// Fetch's context ends while the server is slow.
	fctx, fcancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer fcancel()
	if _, err := Fetch(fctx, path, io.Discard); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Fetch past its deadline: %v", err)
	}

	// A copy in flight when Serve's context ends fails.
	fetched := make(chan error, 1)
	go func() {
		_, err := Fetch(context.Background(), path, io.Discard)
		fetched <- err
	}()
	<-started
	<-started
	cancel()
	for {
		if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	close(release)
	if err := <-fetched; err == nil {
		t.Error("a copy in flight when the server stopped succeeded")
	}
	if err := s.Close(); err != nil {
		t.Error(err)
	}
}

// BenchmarkFetch copies a database of 40 games of 50 moves through
// the socket; BenchmarkBackup writes the same copy directly.
func BenchmarkFetch(b *testing.B) {
	db := benchData(b)
	s := serveDB(b, db)
	for b.Loop() {
		n, err := Fetch(context.Background(), s.Path(), io.Discard)
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(n)
	}
}

func BenchmarkBackup(b *testing.B) {
	db := benchData(b)
	for b.Loop() {
		n, err := db.Backup(io.Discard)
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(n)
	}
}

// benchData returns a database of 40 games of 50 moves (2000 commits).
func benchData(b *testing.B) *storage.DB {
	db := openDB(b)
	gs := newGames(b, db, 40)
	for range 40 * 50 {
		if err := gs.move(); err != nil {
			b.Fatal(err)
		}
	}
	return db
}
