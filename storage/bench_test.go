package storage_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/rules"
	"github.com/fairypost/fairypost/storage"
)

// line is a game of legal chess moves: moves[i] played in the position
// fens[i] leads to fens[i+1].
type line struct {
	moves []string
	fens  []string
}

// randomLine returns a line of plies random legal chess moves from the
// start, drawn from seed (and the next seeds, if a game ends sooner).
func randomLine(tb testing.TB, v *rules.Variant, plies int, seed uint64) line {
	tb.Helper()
	for ; ; seed++ {
		rng := rand.New(rand.NewPCG(seed, 2))
		rg := rules.NewGame(v.Start())
		pos := rg.Position()
		l := line{fens: []string{pos.FEN()}}
		for len(l.moves) < plies {
			legal := rg.Legal()
			if len(legal) == 0 {
				break
			}
			m := legal[rng.IntN(len(legal))]
			pos := rg.Position()
			l.moves = append(l.moves, rules.FormatMove(&pos, m))
			if err := rg.Play(m); err != nil {
				tb.Fatal(err)
			}
			pos = rg.Position()
			l.fens = append(l.fens, pos.FEN())
		}
		if len(l.moves) == plies {
			return l
		}
	}
}

// BenchmarkCommitMove measures one move committed as package bot commits
// it: UpdateGame with a version check appending a legal move, the cached
// position, the clock and a your-turn notification, fsync included
// (bbolt's default). Moves go round a pool of games, each played up to
// 100 plies, so records have the sizes of real games.
func BenchmarkCommitMove(b *testing.B) {
	const plies = 100
	db := mustOpenDB(b, "")
	l := randomLine(b, chess(b), plies, 1)
	type state struct {
		id, version uint64
		ply         int
	}
	games := make([]state, b.N/plies+1)
	for i := range games {
		g := mustAddGame(b, db, fmt.Sprint("user", i%100), fmt.Sprint("user", (i+1)%100), "c1")
		games[i] = state{id: g.ID, version: g.Version}
	}
	now := t0
	b.ResetTimer()
	for i := range b.N {
		s := &games[i%len(games)]
		move, fen := l.moves[s.ply], l.fens[s.ply+1]
		now = now.Add(time.Second)
		g, err := db.UpdateGame(ctx, s.id, s.version, func(g *bot.Game) ([]bot.Notification, error) {
			g.Moves = append(g.Moves, move)
			g.FEN, g.ToAct = fen, g.Player(len(g.Moves)%2 == 0)
			g.Updated, g.TurnStarted, g.Deadline, g.Reminded = now, now, now.Add(72*time.Hour), false
			return []bot.Notification{{Kind: bot.NotifyYourTurn, UserID: g.ToAct, GameID: g.ID, Text: "Your move.", Created: now}}, nil
		})
		if err != nil {
			b.Fatal(err)
		}
		s.version, s.ply = g.Version, s.ply+1
	}
}

// Sizes of the large fixture: fixtureGames games between fixtureUsers
// users, so each user plays in 2*fixtureGames/fixtureUsers of them.
const (
	fixtureGames = 100_000
	fixtureUsers = 1_000
)

// buildFixture writes a store of fixtureGames games to a new file in
// tb's temporary directory and returns its path, closed. Game i is
// between users i and i*7+1 (mod fixtureUsers), in one of 50 channels,
// with the first i%81 plies of a legal line (40 on average); one in
// three is finished, the others have deadlines spread over a week.
func buildFixture(tb testing.TB) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "fixture.db")
	db, err := storage.Open(path, storage.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	l := randomLine(tb, chess(tb), 80, 3)
	games := make([]*bot.Game, fixtureGames)
	for i := range games {
		ply := i % 81
		g := &bot.Game{Variant: "chess", StartFEN: l.fens[0], Moves: l.moves[:ply:ply], FEN: l.fens[ply],
			White: fmt.Sprint("user", i%fixtureUsers), Black: fmt.Sprint("user", (i*7+1)%fixtureUsers),
			GuildID: "guild", ChannelID: fmt.Sprint("channel", i%50), DaysPerMove: 3,
			Created: t0, Updated: t0.Add(time.Duration(ply) * time.Hour)}
		if i%3 == 0 {
			g.Status, g.Result, g.Reason = bot.GameFinished, bot.Result(1+i/3%3), "checkmate"
		} else {
			g.Status, g.ToAct = bot.GameActive, g.Player(ply%2 == 0)
			g.TurnStarted = g.Updated
			g.Deadline = t0.Add(time.Duration(i%(7*24*60)) * time.Minute)
		}
		games[i] = g
	}
	if err := db.BulkLoadGames(games, 10_000); err != nil {
		tb.Fatal(err)
	}
	return path
}

// BenchmarkGamesByUser100k lists one user's games (200 of them, every
// record decoded with its moves) in a store of 100,000 games. The store
// is built once per run of the benchmark, outside the timing.
func BenchmarkGamesByUser100k(b *testing.B) {
	db := mustOpenDB(b, buildFixture(b))
	want := 2 * fixtureGames / fixtureUsers
	i := 0
	for b.Loop() {
		user := fmt.Sprint("user", i*37%fixtureUsers)
		i++
		gs, err := db.GamesByUser(ctx, user)
		if err != nil {
			b.Fatal(err)
		}
		if len(gs) != want {
			b.Fatalf("%s has %d games, want %d", user, len(gs), want)
		}
	}
	b.ReportMetric(float64(want), "games/op")
}

// BenchmarkActiveGamesByUser100k lists the ongoing games of a veteran
// who has 20 of them and 2,000 finished ones, in a store of 102,020
// games: only the 20 are read and decoded. BenchmarkAllGamesOfVeteran
// reads all 2,020 the old way, for comparison.
func BenchmarkActiveGamesByUser100k(b *testing.B) {
	db := veteranFixture(b)
	for b.Loop() {
		gs, err := db.ActiveGamesByUser(ctx, "veteran")
		if err != nil {
			b.Fatal(err)
		}
		if len(gs) != 20 {
			b.Fatalf("veteran has %d active games, want 20", len(gs))
		}
	}
}

func BenchmarkAllGamesOfVeteran(b *testing.B) {
	db := veteranFixture(b)
	for b.Loop() {
		gs, err := db.GamesByUser(ctx, "veteran")
		if err != nil {
			b.Fatal(err)
		}
		if len(gs) != 2020 {
			b.Fatalf("veteran has %d games, want 2020", len(gs))
		}
	}
}

// veteranFixture is the large fixture plus 2,000 finished and 20 ongoing
// 40-ply games of the user "veteran".
func veteranFixture(b *testing.B) *storage.DB {
	path := buildFixture(b)
	db, err := storage.Open(path, storage.Options{})
	if err != nil {
		b.Fatal(err)
	}
	l := randomLine(b, chess(b), 40, 5)
	var games []*bot.Game
	for i := range 2020 {
		g := &bot.Game{Variant: "chess", StartFEN: l.fens[0], Moves: l.moves[:40:40], FEN: l.fens[40],
			White: "veteran", Black: fmt.Sprint("user", i%fixtureUsers), GuildID: "guild", ChannelID: "channel0",
			DaysPerMove: 3, Created: t0, Updated: t0}
		if i < 2000 {
			g.Status, g.Result, g.Reason = bot.GameFinished, bot.WhiteWins, "checkmate"
		} else {
			g.Status, g.ToAct, g.TurnStarted, g.Deadline = bot.GameActive, g.White, t0, t0.Add(72*time.Hour)
		}
		games = append(games, g)
	}
	if err := db.BulkLoadGames(games, 10_000); err != nil {
		b.Fatal(err)
	}
	db.Close()
	return mustOpenDB(b, path)
}

// BenchmarkOpen100k opens (and closes) a store of 100,000 games, built
// once per run of the benchmark and reopened each time: the consistency
// check of every page, the schema check and its one write transaction
// included.
func BenchmarkOpen100k(b *testing.B) {
	path := buildFixture(b)
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		db, err := storage.Open(path, storage.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if err := db.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(fi.Size())/1e6, "file-MB")
}

// BenchmarkCheckStructure100k and BenchmarkCheckConsistency100k measure
// the two checks Open makes of a file, on the store of 100,000 games:
// the reading of every page in use for pointers outside the file, and
// bbolt's consistency check.
func BenchmarkCheckStructure100k(b *testing.B) {
	path := buildFixture(b)
	for b.Loop() {
		if err := storage.CheckStructure(path); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCheckConsistency100k(b *testing.B) {
	path := buildFixture(b)
	for b.Loop() {
		if err := storage.CheckConsistency(path); err != nil {
			b.Fatal(err)
		}
	}
}
