package main

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	analyser "github.com/fairypost/fairypost/ai/analysis"
	"github.com/fairypost/fairypost/rules"
)

// The comparison of the analysis with Stockfish's runs only when asked:
//
//	go test ./cmd/fairypost -run TestAnalysisAgainstStockfish -stockfish /usr/games/stockfish -timeout 120m -v
var (
	stockfishPath    = flag.String("stockfish", "", "compare the analysis's blunders with this Stockfish's (TestAnalysisAgainstStockfish)")
	stockfishGames   = flag.Int("stockfish.games", 30, "arena games between levels 2 and 6 for TestAnalysisAgainstStockfish")
	stockfishDepth   = flag.Int("stockfish.depth", 16, "Stockfish's fixed depth for TestAnalysisAgainstStockfish")
	stockfishLevel   = flag.Int("stockfish.level", analyser.DefaultLevel, "the analysis level TestAnalysisAgainstStockfish checks")
	stockfishMinutes = flag.Float64("stockfish.minutes", 0, "TestAnalysisAgainstStockfish starts no game after this many minutes (0: no limit)")
)

// stockfishEval searches every position of g that goes on (all but the
// last when the game is over there) with the engine u at depth and
// returns the evaluations from White's point of view (the last one the
// result when the game is over).
func stockfishEval(u *uciPlayer, g *rules.Game, depth int) ([]analyser.Eval, error) {
	n := len(g.Moves())
	evals := make([]analyser.Eval, n+1)
	start := g.Start()
	for i := 0; i <= n; i++ {
		if i == n {
			if o := g.Outcome(); o.Over() {
				evals[n] = analyser.Eval{Result: o.Result}
				break
			}
		}
		var b strings.Builder
		b.WriteString("position fen " + start.FEN())
		if i > 0 {
			b.WriteString(" moves")
			for k := 0; k < i; k++ {
				q := g.PositionAt(k)
				b.WriteString(" " + rules.FormatMove(&q, g.Moves()[k]))
			}
		}
		if err := u.send(b.String()); err != nil {
			return nil, err
		}
		if err := u.send(fmt.Sprintf("go depth %d", depth)); err != nil {
			return nil, err
		}
		var ev analyser.Eval
		found := false
		for u.out.Scan() {
			line := u.out.Text()
			if strings.HasPrefix(line, "bestmove") {
				break
			}
			f := strings.Fields(line)
			for k := 0; k+2 < len(f); k++ {
				if f[k] != "score" {
					continue
				}
				v, err := strconv.Atoi(f[k+2])
				if err != nil {
					break
				}
				if k+3 < len(f) && (f[k+3] == "lowerbound" || f[k+3] == "upperbound") {
					break
				}
				switch f[k+1] {
				case "cp":
					ev, found = analyser.Eval{CP: v}, true
				case "mate":
					ev, found = analyser.Eval{Mate: v}, true
				}
			}
		}
		if err := u.out.Err(); err != nil {
			return nil, err
		}
		if !found {
			return nil, fmt.Errorf("no score for position %d", i)
		}
		if p := g.PositionAt(i); p.ToAct() == rules.Black {
			ev.CP, ev.Mate = -ev.CP, -ev.Mate
		}
		evals[i] = ev
	}
	return evals, nil
}

// TestAnalysisAgainstStockfish plays -stockfish.games arena games of chess
// between levels 2 and 6, analyses them at -stockfish.level and with
// Stockfish at -stockfish.depth (every position, judged by lichess's rules
// on lichess's curve), prints the confusion table of the two judgements of
// every unforced move, and checks the goals: at least 80% of Stockfish's
// blunders are our blunders or mistakes, and at least 70% of our blunders
// are Stockfish's mistakes or blunders.
func TestAnalysisAgainstStockfish(t *testing.T) {
	if *stockfishPath == "" {
		t.Skip("needs -stockfish PATH (the comparison with Stockfish is not part of the default run)")
	}
	ctx := context.Background()
	reg, err := rules.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	v := reg.Default("chess")
	a, err := parseArenaSpec("level:2")
	if err != nil {
		t.Fatal(err)
	}
	b, err := parseArenaSpec("level:6")
	if err != nil {
		t.Fatal(err)
	}
	// The games are played one after the other; Stockfish and our
	// analysis take each as soon as it is played. Past -stockfish.minutes
	// no new game is started, and the table covers the games both
	// analysed.
	var deadline time.Time
	if *stockfishMinutes > 0 {
		deadline = time.Now().Add(time.Duration(*stockfishMinutes * float64(time.Minute)))
	}
	late := func() bool { return !deadline.IsZero() && time.Now().After(deadline) }
	n := *stockfishGames
	games := make([]*rules.Game, n)
	sfEvals := make([][]analyser.Eval, n)
	ours := make([]*analyser.Analysis, n)
	toSF, toOurs := make(chan int, n), make(chan int, n)
	var sfErr, ourErr error
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		u, err := startUCI(ctx, arenaSpec{uciPath: *stockfishPath, uciOpts: [][2]string{{"Threads", "1"}, {"Hash", "64"}}})
		if err != nil {
			sfErr = err
			for range toSF {
			}
			return
		}
		defer u.close()
		for i := range toSF {
			if sfErr != nil || late() {
				continue
			}
			ev, err := stockfishEval(u, games[i], *stockfishDepth)
			if err != nil {
				sfErr = fmt.Errorf("game %d: %w", i, err)
				continue
			}
			sfEvals[i] = ev
		}
	}()
	go func() {
		defer wg.Done()
		for i := range toOurs {
			if ourErr != nil || late() {
				continue
			}
			an, err := analyser.Analyse(ctx, games[i], analyser.Options{Level: *stockfishLevel})
			if err != nil {
				ourErr = err
				continue
			}
			ours[i] = an
		}
	}()
	plies := 0
	for i := 0; i < n && !late(); i++ {
		g, err := playArenaGame(ctx, v, a, b, 1, i)
		if err != nil {
			t.Fatal(err)
		}
		games[i] = g.game
		plies += len(g.game.Moves())
		toSF <- i
		toOurs <- i
	}
	close(toSF)
	close(toOurs)
	wg.Wait()
	if sfErr != nil {
		t.Fatal(sfErr)
	}
	if ourErr != nil {
		t.Fatal(ourErr)
	}
	compared, comparedPlies := 0, 0
	for i := range games {
		if ours[i] != nil && sfEvals[i] != nil {
			compared++
			comparedPlies += len(games[i].Moves())
		}
	}
	t.Logf("%d games played (%d plies); %d analysed by both (%d plies)", len(games), plies, compared, comparedPlies)
	var table [4][4]int // [Stockfish's][ours]
	for i, an := range ours {
		if an == nil || sfEvals[i] == nil {
			continue
		}
		for _, turn := range an.Turns {
			if turn.Forced {
				continue
			}
			sf := analyser.Judge(sfEvals[i][turn.From], sfEvals[i][turn.To], turn.Player, analyser.LichessScale)
			table[sf][turn.Judgement]++
		}
	}
	names := []string{"good", "inaccuracy", "mistake", "blunder"}
	var sb strings.Builder
	fmt.Fprintf(&sb, "rows Stockfish depth %d, columns ours (level %d):\n%-12s", *stockfishDepth, *stockfishLevel, "")
	for _, n := range names {
		fmt.Fprintf(&sb, "%12s", n)
	}
	for r := range table {
		fmt.Fprintf(&sb, "\n%-12s", names[r])
		for c := range table[r] {
			fmt.Fprintf(&sb, "%12d", table[r][c])
		}
	}
	sfBlunders := table[3][0] + table[3][1] + table[3][2] + table[3][3]
	caught := table[3][2] + table[3][3]
	ourBlunders := table[0][3] + table[1][3] + table[2][3] + table[3][3]
	confirmed := table[2][3] + table[3][3]
	fmt.Fprintf(&sb, "\nStockfish's blunders that are our blunders or mistakes: %d of %d", caught, sfBlunders)
	fmt.Fprintf(&sb, "\nour blunders that are Stockfish's mistakes or blunders: %d of %d", confirmed, ourBlunders)
	t.Log(sb.String())
	if sfBlunders == 0 || ourBlunders == 0 {
		t.Fatalf("no blunders to compare (Stockfish %d, ours %d)", sfBlunders, ourBlunders)
	}
	if 100*caught < 80*sfBlunders {
		t.Errorf("%d%% of Stockfish's blunders are our blunders or mistakes, want at least 80%%", 100*caught/sfBlunders)
	}
	if 100*confirmed < 70*ourBlunders {
		t.Errorf("%d%% of our blunders are Stockfish's mistakes or blunders, want at least 70%%", 100*confirmed/ourBlunders)
	}
}
