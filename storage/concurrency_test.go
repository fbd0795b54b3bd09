package storage_test

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/storage"
)

// TestConcurrentUpdatesCAS: goroutines append unique tokens to the moves
// of the same few games, each reading the game and updating it with the
// version it read, retrying on ECONFLICT. Every token ends up in its game
// exactly once (no lost update, no double apply) and the version counts
// the writes. Run with -race.
func TestConcurrentUpdatesCAS(t *testing.T) {
	const workers, tokens, games = 8, 30, 3
	db := mustOpenDB(t, "")
	var ids []uint64
	for i := range games {
		ids = append(ids, mustAddGame(t, db, "alice", fmt.Sprint("user", i), "c1").ID)
	}
	var conflicts atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range tokens {
				id, token := ids[(w+i)%games], fmt.Sprintf("w%d-%d", w, i)
				for {
					g, err := db.Game(ctx, id)
					if err != nil {
						t.Error(err)
						return
					}
					calls := 0
					_, err = db.UpdateGame(ctx, id, g.Version, func(g *bot.Game) ([]bot.Notification, error) {
						calls++
						g.Moves = append(g.Moves, token)
						return nil, nil
					})
					if calls > 1 {
						t.Errorf("fn called %d times for one update", calls)
					}
					if bot.ErrorCode(err) == bot.ECONFLICT {
						conflicts.Add(1)
						continue
					}
					if err != nil {
						t.Error(err)
						return
					}
					break
				}
			}
		})
	}
	wg.Wait()
	seen := map[string]int{}
	for _, id := range ids {
		g, err := db.Game(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if g.Version != uint64(1+len(g.Moves)) {
			t.Errorf("game %d: version %d after %d appends", id, g.Version, len(g.Moves))
		}
		for _, m := range g.Moves {
			seen[m]++
		}
	}
	for w := range workers {
		for i := range tokens {
			if n := seen[fmt.Sprintf("w%d-%d", w, i)]; n != 1 {
				t.Errorf("token w%d-%d applied %d times", w, i, n)
			}
		}
	}
	if len(seen) != workers*tokens {
		t.Errorf("%d distinct tokens stored, want %d", len(seen), workers*tokens)
	}
	t.Logf("%d updates, %d refused as stale and retried", workers*tokens, conflicts.Load())
}

// TestBackupWhileCommitting takes a backup while another goroutine keeps
// committing legal moves, then opens the copy: every game in it replays
// to its cached position, is a prefix of the live game, and the outbox in
// the copy holds exactly one notification per move copied (the game and
// outbox buckets come from one moment).
func TestBackupWhileCommitting(t *testing.T) {
	db := mustOpenDB(t, "")
	v := chess(t)
	p := newPlayer(db, v, 11)
	var ids []uint64
	version := map[uint64]uint64{}
	for i := range 6 {
		g, err := p.start(fmt.Sprint("user", i), fmt.Sprint("user", i+1), "c1")
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, g.ID)
		version[g.ID] = g.Version
	}
	var commits atomic.Int64
	stop := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		for {
			for _, id := range ids {
				select {
				case <-stop:
					done <- nil
					return
				default:
				}
				g, err := p.move(id, version[id])
				if err != nil {
					done <- err
					return
				}
				if g != nil {
					version[id] = g.Version
					commits.Add(1)
				}
			}
		}
	}()
	waitFor := func(n int64) {
		for deadline := time.Now().Add(10 * time.Second); commits.Load() < n; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("only %d commits", commits.Load())
			}
		}
	}
	waitFor(50)
	f, err := os.Create(filepath.Join(t.TempDir(), "backup.db"))
	if err != nil {
		t.Fatal(err)
	}
	before := commits.Load()
	// The copy's first write waits for more commits, so that they happen
	// while the backup's read transaction is open. (It waits at most a
	// 300ms: a commit that must grow the file's memory map waits for
	// open read transactions to end in bbolt.)
	w := &waitingWriter{w: f, wait: func() {
		for deadline := time.Now().Add(300 * time.Millisecond); commits.Load() < before+5 && time.Now().Before(deadline); {
			time.Sleep(time.Millisecond)
		}
	}}
	if _, err := db.Backup(w); err != nil {
		t.Fatal(err)
	}
	during := commits.Load() - before
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	waitFor(commits.Load() + 20)
	close(stop)
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	backup, err := storage.Open(f.Name(), storage.Options{Timeout: time.Second})
	if err != nil {
		t.Fatalf("opening the backup: %v", err)
	}
	defer backup.Close()
	notes, err := backup.PendingNotifications(ctx, t0.Add(1000*time.Hour), 0)
	if err != nil {
		t.Fatal(err)
	}
	perGame := map[uint64]int{}
	for _, n := range notes {
		perGame[n.GameID]++
	}
	copied, live := 0, 0
	for _, id := range ids {
		bg, err := backup.Game(ctx, id)
		if err != nil {
			t.Fatalf("game %d missing from the backup: %v", id, err)
		}
		lg, err := db.Game(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if err := replay(v, bg); err != nil {
			t.Errorf("backup: %v", err)
		}
		if len(bg.Moves) > len(lg.Moves) || !slices.Equal(bg.Moves, lg.Moves[:len(bg.Moves)]) {
			t.Errorf("game %d in the backup %v is not a prefix of the live game %v", id, bg.Moves, lg.Moves)
		}
		if perGame[id] != len(bg.Moves) {
			t.Errorf("game %d: %d moves but %d notifications in the backup", id, len(bg.Moves), perGame[id])
		}
		copied += len(bg.Moves)
		live += len(lg.Moves)
	}
	if copied < 50 || copied >= live {
		t.Errorf("backup holds %d moves, live %d: want a snapshot taken in the middle", copied, live)
	}
	t.Logf("backup holds %d of %d moves; %d commits while it was written", copied, live, during)
}

// waitingWriter calls wait before its first write to w.
type waitingWriter struct {
	w      io.Writer
	wait   func()
	waited bool
}

func (w *waitingWriter) Write(b []byte) (int, error) {
	if !w.waited {
		w.waited = true
		w.wait()
	}
	return w.w.Write(b)
}
