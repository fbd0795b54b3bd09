package storage_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/rules"
	"github.com/fairypost/fairypost/storage"
	bolt "go.etcd.io/bbolt"
)

// sweepFixtureGames is the number of running games of the sweep
// benchmark's store.
const sweepFixtureGames = 100_000

// buildSweepFixture writes a store of sweepFixtureGames running games with
// deadlines to a new file in tb's temporary directory and returns its
// path, closed. As of now, nothing is due: game i, between users i and
// i*7+1 (mod fixtureUsers), has the first i%81 plies of a legal line and
// one of the allowed turn lengths, started up to 75% of it ago, so the
// deadlines are spread over the next 14 days and no reminder (at the
// default 20% left) has come yet; one game in four was reminded already
// (more than 80% of its turn gone, still before its deadline). RemindAt
// is what package bot gives it (nobody changed the default setting).
func buildSweepFixture(tb testing.TB, now time.Time) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "sweep.db")
	db, err := storage.Open(path, storage.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	l := randomLine(tb, chess(tb), 80, 3)
	days := []int{1, 2, 3, 5, 7, 14}
	games := make([]*bot.Game, sweepFixtureGames)
	for i := range games {
		ply := i % 81
		d := days[i%len(days)]
		turn := time.Duration(d) * 24 * time.Hour
		// The share of the turn gone, in 1/1000: below 750, or 800 to 989
		// for a game already reminded.
		gone := time.Duration(i * 7919 % 750)
		reminded := i%4 == 0
		if reminded {
			gone = 800 + time.Duration(i*7919%190)
		}
		started := now.Add(-turn / 1000 * gone)
		g := &bot.Game{Variant: "chess", StartFEN: l.fens[0], Moves: l.moves[:ply:ply], FEN: l.fens[ply],
			White: fmt.Sprint("user", i%fixtureUsers), Black: fmt.Sprint("user", (i*7+1)%fixtureUsers),
			GuildID: "guild", ChannelID: fmt.Sprint("channel", i%50), Status: bot.GameActive, DaysPerMove: d,
			TurnStarted: started, Deadline: started.Add(turn), Annotations: bot.Annotations{Reminded: reminded},
			Created: t0, Updated: started}
		g.ToAct = g.Player(ply%2 == 0)
		g.RemindAt = gameplay.RemindTime(g, bot.DefaultReminderPercent) // as the Service sets it
		games[i] = g
	}
	if err := db.BulkLoadGames(games, 10_000); err != nil {
		tb.Fatal(err)
	}
	return path
}

// BenchmarkSweepNothingDue100k measures one wake-up of the scheduler
// (gameplay.Service.Sweep) over a store of 100,000 running games with
// deadlines, none of which has anything due: the cost of finding that
// there is nothing to do and when to wake next. The store is built once
// per run of the benchmark, outside the timing.
func BenchmarkSweepNothingDue100k(b *testing.B) {
	now := t0.Add(30 * 24 * time.Hour)
	db := mustOpenDB(b, buildSweepFixture(b, now))
	reg, err := rules.NewRegistry()
	if err != nil {
		b.Fatal(err)
	}
	svc := gameplay.NewService(gameplay.Stores{Games: db, Challenges: db, Users: db, Outbox: db}, reg,
		gameplay.Clock(func() time.Time { return now }))
	for b.Loop() {
		rep, err := svc.Sweep(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if rep.Total() != 0 || !rep.Next.After(now) || rep.Next.After(now.Add(14*24*time.Hour)) {
			b.Fatalf("sweep with nothing due: %+v", rep)
		}
	}
}

// BenchmarkMigrate100k opens a schema-1 store of 100,000 games (the
// fixture of BenchmarkOpen100k, two in three running with deadlines),
// which migrates it to schema 2: every running game decoded, given its
// RemindAt and rewritten, in one transaction. Each run opens a fresh copy
// of the file, made outside the timing.
func BenchmarkMigrate100k(b *testing.B) {
	src := buildFixture(b)
	old, err := bolt.Open(src, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		b.Fatal(err)
	}
	err = old.Update(func(tx *bolt.Tx) error {
		if err := tx.DeleteBucket([]byte("games_by_remind")); err != nil {
			return err
		}
		return tx.Bucket([]byte("meta")).Put([]byte("schema"), []byte{0, 0, 0, 0, 0, 0, 0, 1})
	})
	old.Close()
	if err != nil {
		b.Fatal(err)
	}
	data, err := os.ReadFile(src)
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		path := filepath.Join(dir, fmt.Sprint(i, ".db"))
		if err := os.WriteFile(path, data, 0o600); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		db, err := storage.Open(path, storage.Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if _, r, err := db.EarliestGameTimes(ctx); err != nil || r.IsZero() {
			b.Fatalf("migrated store: first reminder %v, %v", r, err)
		}
		db.Close()
		os.Remove(path)
		b.StartTimer()
	}
	b.ReportMetric(float64(len(data))/1e6, "file-MB")
}
