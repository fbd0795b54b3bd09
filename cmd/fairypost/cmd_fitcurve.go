package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/fairypost/fairypost/ai"
	analyser "github.com/fairypost/fairypost/ai/analysis"
	"github.com/fairypost/fairypost/rules"
)

// fitSkipTurns is how many turns of each side a fitting game plays before
// its evaluations are recorded: the seeded opening, whose positions are
// alike in every game.
const fitSkipTurns = 2

// fitcurveCommand is "fairypost fitcurve".
func fitcurveCommand() command {
	return command{
		name:     "fitcurve",
		synopsis: "-variant KEY [-options K=V,...] [-games N] [-level N] [-seed S] [-samples FILE]",
		summary:  "fit a variant's winning-chances curve for the post-game analysis",
		doc: fmt.Sprintf(`
Plays -games self-play games of the computer player at -level (openings as
the arena's: one turn a side by level 1, drawn from -seed), records at
every turn after the first %d of each side the player's evaluation
(hundredths of a pawn, White's point of view) with White's final score
(1, 1/2 or 0; games stopped at the arena's cap of %d moves and forced ends
are left out), and fits the scale k of the curve 2/(1+exp(-k*cp))-1 that
best predicts the scores (maximum likelihood). Prints the counts, then as
the last line exactly "scale K": the value to record as the variant's
Strategy.WinScale in rules/variant_KEY.go. -samples writes the pairs, one
"CP SCORE" a line, which 'fitcurve -samples FILE -games 0' fits again.
A progress line is drawn on stderr when it is a terminal.`, fitSkipTurns, arenaMoveCap),
		setup: func(fs *flag.FlagSet) runFunc {
			var cfg fitConfig
			fs.StringVar(&cfg.variant, "variant", "", "variant `KEY` (required unless -games 0)")
			fs.StringVar(&cfg.options, "options", "", "variant options as `K=V,...`")
			fs.IntVar(&cfg.games, "games", 40, "number of self-play games `N`; 0 fits the -samples FILE instead")
			fs.IntVar(&cfg.level, "level", 3, fmt.Sprintf("the players' level `N` (1-%d)", ai.TopLevel-1))
			fs.Uint64Var(&cfg.seed, "seed", 1, "`S` seeds the openings and the players' choices")
			fs.StringVar(&cfg.samples, "samples", "", "write the pairs to `FILE` (with -games 0: read them)")
			return func(ctx context.Context, a *app) error { return a.fitcurve(ctx, cfg) }
		},
	}
}

// fitConfig is fitcurve's command line.
type fitConfig struct {
	variant, options, samples string
	games, level              int
	seed                      uint64
}

// fitcurve runs "fairypost fitcurve".
func (a *app) fitcurve(ctx context.Context, cfg fitConfig) error {
	if cfg.games < 0 {
		return badInput("-games must be 0 (fit -samples FILE) or more, got %d", cfg.games)
	}
	if cfg.games == 0 {
		if cfg.samples == "" {
			return badInput("-games 0 fits the pairs of -samples FILE: give -samples")
		}
		samples, err := readSamples(cfg.samples)
		if err != nil {
			return badInput("-samples: %w", err)
		}
		return a.printFit(samples, fmt.Sprintf("%d pairs from %s", len(samples), cfg.samples))
	}
	if cfg.level < 1 || cfg.level >= ai.TopLevel {
		return badInput("-level must be 1..%d (a node level), got %d", ai.TopLevel-1, cfg.level)
	}
	reg, err := a.registry()
	if err != nil {
		return fmt.Errorf("variant registry: %w", err)
	}
	if cfg.variant == "" {
		return badInput("-variant is required (one of: %s)", strings.Join(reg.Keys(), ", "))
	}
	v, err := reg.Variant(cfg.variant, cfg.options)
	if err != nil {
		return badInput("%w", err)
	}
	progress := isTerminalWriter(a.stderr)
	var samples []analyser.Sample
	wins, draws, losses, capped := 0, 0, 0, 0
	for i := 0; i < cfg.games; i++ {
		if progress {
			fmt.Fprintf(a.stderr, "\rgame %d/%d", i+1, cfg.games)
		}
		got, result, err := fitGame(ctx, v, cfg.level, cfg.seed, i)
		if err != nil {
			return err
		}
		switch result {
		case rules.WhiteWins:
			wins++
		case rules.BlackWins:
			losses++
		case rules.Draw:
			draws++
		default:
			capped++
		}
		samples = append(samples, got...)
	}
	if progress {
		fmt.Fprint(a.stderr, "\r\033[K")
	}
	if cfg.samples != "" {
		if err := writeSamples(cfg.samples, samples); err != nil {
			return fmt.Errorf("-samples: %w", err)
		}
	}
	return a.printFit(samples, fmt.Sprintf("%s: %d games at level %d, seed %d: White won %d, drew %d, lost %d, %d stopped at the cap (left out); %d pairs",
		v.Key, cfg.games, cfg.level, cfg.seed, wins, draws, losses, capped, len(samples)))
}

// printFit fits samples and prints head, the comparison with lichess's
// curve and the scale.
func (a *app) printFit(samples []analyser.Sample, head string) error {
	k, err := analyser.Fit(samples)
	if err != nil {
		return err
	}
	return a.writeLines([]string{
		head,
		fmt.Sprintf("one pawn up is %.1f%% to win (lichess's chess curve: %.1f%%); the curve's 50%% chances at %.0f hundredths of a pawn (lichess: %.0f)",
			analyser.WinPercent(100, k), analyser.WinPercent(100, analyser.LichessScale),
			halfChances(k), halfChances(analyser.LichessScale)),
		"scale " + strconv.FormatFloat(k, 'g', -1, 64),
	})
}

// halfChances is the evaluation at which the curve of scale k gives
// winning chances 0.5 (a Win% of 75): ln(3)/k.
func halfChances(k float64) float64 { return 1.0986122886681098 / k }

// fitGame plays self-play game i at level from the arena's opening of
// seed and returns its pairs (none for a game stopped at the cap, whose
// result is rules.Ongoing).
func fitGame(ctx context.Context, v *rules.Variant, level int, seed uint64, i int) ([]analyser.Sample, rules.Result, error) {
	openSeed := seed*0x9e3779b97f4a7c15 + uint64(i)
	g := rules.NewGame(arenaStart(v, splitmix64(&openSeed)))
	opener := ai.NewEngine(ai.Options{Level: 1, Seed: openSeed})
	playerSeed := seed ^ uint64(i)*0xbf58476d1ce4e5b9
	player := ai.NewEngine(ai.Options{Level: level, Seed: splitmix64(&playerSeed)})
	var points []int // White's evaluations, turn by turn
	turns := 0
	for !g.Outcome().Over() {
		if len(g.Moves()) >= arenaMoveCap {
			return nil, rules.Ongoing, nil
		}
		p := g.Position()
		e := player
		if turns < 2 {
			e = opener
		}
		past := make([]uint64, 0, len(g.Moves()))
		for k := range g.Moves() {
			q := g.PositionAt(k)
			past = append(past, q.Hash())
		}
		r, err := e.Search(ctx, p, past)
		if err != nil {
			return nil, rules.Ongoing, err
		}
		if p.BeginsTurn() {
			turns++
			if turns > 2*fitSkipTurns && ai.MateIn(r.Score) == 0 {
				cp := r.Score
				if p.ToAct() == rules.Black {
					cp = -cp
				}
				points = append(points, cp)
			}
		}
		if err := g.Play(r.Move); err != nil {
			return nil, rules.Ongoing, fmt.Errorf("fitcurve: the engine chose an illegal move: %w", err)
		}
	}
	res := g.Outcome().Result
	score := map[rules.Result]float64{rules.WhiteWins: 1, rules.Draw: 0.5, rules.BlackWins: 0}[res]
	out := make([]analyser.Sample, 0, len(points))
	for _, cp := range points {
		out = append(out, analyser.Sample{CP: cp, Score: score})
	}
	return out, res, nil
}

// writeSamples writes samples to path, one "CP SCORE" a line.
func writeSamples(path string, samples []analyser.Sample) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	if err := analyser.WriteSamples(w, samples); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// readSamples reads what writeSamples wrote.
func readSamples(path string) ([]analyser.Sample, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return analyser.ReadSamples(bufio.NewReader(f))
}
