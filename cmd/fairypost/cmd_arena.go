package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/fairypost/fairypost/ai"
	"github.com/fairypost/fairypost/rules"
	"github.com/fairypost/fairypost/rules/notation"
)

// arenaMoveCap is the number of atomic moves after which an arena game is
// stopped and scored as a draw (reported apart from the real draws).
const arenaMoveCap = 600

// arenaOpeningTurns is the number of turns of each side that the opening
// plays (level 1, seeded) before the players take over.
const arenaOpeningTurns = 1

// arenaUCIMoveTime is an external engine's time per move unless its spec
// sets movetime.
const arenaUCIMoveTime = 200 * time.Millisecond

// arenaCommand is "fairypost arena".
func arenaCommand() command {
	return command{
		name:     "arena",
		synopsis: "-variant KEY [-ini FILE] [-options K=V,...] -a SPEC -b SPEC -games N [-seed S] [-pgn FILE]",
		summary:  "play engine-vs-engine games and measure the strength difference",
		doc: fmt.Sprintf(`
Plays -games games between two players, A and B, in the variant. Games come
in pairs: each pair starts from an opening of %d turn(s) a side, played by
level 1 with choices drawn from -seed, and is played once with A as White
and once with B as White. A game still going after %d moves (atomic
moves) is stopped and scored as a draw; such games are counted apart.
A SPEC is one of:
  random          a uniformly random legal move
  greedy          the move whose whole turn leaves the best material
  material:LEVEL  level LEVEL's search judging by material alone
  level:N         the computer player's level N (1-%d; %d searches by time)
  nodes:N         a search of N positions, always the best move
  movetime:MS     a search of MS milliseconds, always the best move
  uci:PATH[:NAME=VALUE,...]
                  an external UCI engine (chess, crazyhouse, grand), with
                  UCI options; movetime=MS sets its time per move (default
                  %d ms). For Fairy-Stockfish give UCI_Variant=KEY.
Prints the wins, draws and losses of A, the Elo difference A-B with its 95%%
interval (a score of 0 or 100%% is counted as half a game less), and as the
last line exactly "result a=W-D-L score=P%% elo=E±I". -pgn writes every game.
A progress line is drawn on stderr when it is a terminal.`,
			arenaOpeningTurns, arenaMoveCap, ai.TopLevel, ai.TopLevel, arenaUCIMoveTime.Milliseconds()),
		setup: func(fs *flag.FlagSet) runFunc {
			var cfg arenaConfig
			fs.StringVar(&cfg.variant, "variant", "", "variant `KEY` (required; see 'fairypost variants')")
			cfg.ini.register(fs)
			fs.StringVar(&cfg.options, "options", "", "variant options as `K=V,...`")
			fs.StringVar(&cfg.a, "a", "", "player A's `SPEC` (required)")
			fs.StringVar(&cfg.b, "b", "", "player B's `SPEC` (required)")
			fs.IntVar(&cfg.games, "games", 0, "number of games `N`, at least 1 (required)")
			fs.Uint64Var(&cfg.seed, "seed", 1, "`S` seeds the openings and the players' choices")
			fs.StringVar(&cfg.pgn, "pgn", "", "write the games to `FILE` in PGN")
			return func(ctx context.Context, a *app) error { return a.arena(ctx, cfg) }
		},
	}
}

// arenaConfig is the arena's command line.
type arenaConfig struct {
	ini                         iniFlag
	variant, options, a, b, pgn string
	games                       int
	seed                        uint64
}

// arenaSpec is a parsed player SPEC.
type arenaSpec struct {
	text    string
	random  bool
	uciPath string
	uciOpts [][2]string
	uciTime time.Duration
	engine  ai.Options
}

// parseArenaSpec reads a SPEC (see the command's doc).
func parseArenaSpec(s string) (arenaSpec, error) {
	sp := arenaSpec{text: s}
	kind, arg, hasArg := strings.Cut(s, ":")
	number := func(lo, hi int64) (int64, error) {
		n, err := strconv.ParseInt(arg, 10, 64)
		if !hasArg || err != nil || n < lo || n > hi {
			return 0, fmt.Errorf("%q: %s wants a number %d..%d after the colon", s, kind, lo, hi)
		}
		return n, nil
	}
	switch kind {
	case "random", "greedy":
		if hasArg {
			return sp, fmt.Errorf("%q: %s takes no argument", s, kind)
		}
		sp.random = kind == "random"
		sp.engine = ai.Options{Greedy: kind == "greedy"}
	case "material", "level":
		n, err := number(1, ai.TopLevel)
		if err != nil {
			return sp, err
		}
		sp.engine = ai.Options{Level: int(n), MaterialOnly: kind == "material"}
	case "nodes":
		n, err := number(1, 1<<40)
		if err != nil {
			return sp, err
		}
		sp.engine = ai.Options{Nodes: n, Spread: -1}
	case "movetime":
		n, err := number(1, 3600*1000)
		if err != nil {
			return sp, err
		}
		sp.engine = ai.Options{Level: ai.TopLevel, MoveTime: time.Duration(n) * time.Millisecond, Spread: -1}
	case "uci":
		if !hasArg || arg == "" {
			return sp, fmt.Errorf("%q: uci wants the engine's path: uci:PATH[:NAME=VALUE,...]", s)
		}
		path, opts, _ := strings.Cut(arg, ":")
		sp.uciPath, sp.uciTime = path, arenaUCIMoveTime
		for _, kv := range strings.Split(opts, ",") {
			if kv == "" {
				continue
			}
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k == "" {
				return sp, fmt.Errorf("%q: UCI option %q is not NAME=VALUE", s, kv)
			}
			if strings.EqualFold(k, "movetime") {
				ms, err := strconv.Atoi(v)
				if err != nil || ms < 1 {
					return sp, fmt.Errorf("%q: movetime=%q is not a number of milliseconds", s, v)
				}
				sp.uciTime = time.Duration(ms) * time.Millisecond
				continue
			}
			sp.uciOpts = append(sp.uciOpts, [2]string{k, v})
		}
	default:
		return sp, fmt.Errorf("%q is not a player: want random, greedy, material:LEVEL, level:N, nodes:N, movetime:MS or uci:PATH[:NAME=VALUE,...]", s)
	}
	return sp, nil
}

// arenaPlayer chooses moves in arena games.
type arenaPlayer interface {
	// move returns the move to play now in g, which is not over.
	move(ctx context.Context, g *rules.Game) (rules.Move, error)
	close() error
}

// newArenaPlayer starts the player of spec for one game; seed makes its
// choices reproducible.
func newArenaPlayer(ctx context.Context, spec arenaSpec, seed uint64) (arenaPlayer, error) {
	switch {
	case spec.random:
		return &randomPlayer{state: seed}, nil
	case spec.uciPath != "":
		return startUCI(ctx, spec)
	}
	o := spec.engine
	o.Seed = seed
	return &enginePlayer{e: ai.NewEngine(o)}, nil
}

// randomPlayer plays a uniformly random legal move.
type randomPlayer struct{ state uint64 }

func (r *randomPlayer) move(_ context.Context, g *rules.Game) (rules.Move, error) {
	legal := g.Legal()
	if len(legal) == 0 {
		return rules.Move{}, ai.ErrNoMoves
	}
	return legal[splitmix64(&r.state)%uint64(len(legal))], nil
}

func (r *randomPlayer) close() error { return nil }

// splitmix64 is a small deterministic generator for the arena's draws.
func splitmix64(x *uint64) uint64 {
	*x += 0x9e3779b97f4a7c15
	z := *x
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// enginePlayer is fairypost's own engine.
type enginePlayer struct{ e *ai.Engine }

func (p *enginePlayer) move(ctx context.Context, g *rules.Game) (rules.Move, error) {
	past := make([]uint64, 0, len(g.Moves()))
	for i := range g.Moves() {
		q := g.PositionAt(i)
		past = append(past, q.Hash())
	}
	r, err := p.e.Search(ctx, g.Position(), past)
	return r.Move, err
}

func (p *enginePlayer) close() error { return nil }

// uciPlayer is an external engine speaking UCI on its stdin and stdout.
type uciPlayer struct {
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Scanner
	time time.Duration
}

// startUCI starts the engine of spec and sets its options.
func startUCI(ctx context.Context, spec arenaSpec) (*uciPlayer, error) {
	cmd := exec.CommandContext(ctx, spec.uciPath)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, badInput("uci engine %q: %w", spec.uciPath, err)
	}
	u := &uciPlayer{cmd: cmd, in: in, out: bufio.NewScanner(out), time: spec.uciTime}
	u.out.Buffer(make([]byte, 64*1024), 1024*1024)
	if err := u.send("uci"); err != nil {
		return nil, u.fail(err)
	}
	if _, err := u.waitFor("uciok"); err != nil {
		return nil, u.fail(err)
	}
	for _, o := range spec.uciOpts {
		if err := u.send("setoption name " + o[0] + " value " + o[1]); err != nil {
			return nil, u.fail(err)
		}
	}
	if err := u.send("ucinewgame"); err != nil {
		return nil, u.fail(err)
	}
	if err := u.send("isready"); err != nil {
		return nil, u.fail(err)
	}
	if _, err := u.waitFor("readyok"); err != nil {
		return nil, u.fail(err)
	}
	return u, nil
}

// fail stops the engine after err.
func (u *uciPlayer) fail(err error) error {
	u.close()
	return fmt.Errorf("uci engine %s: %w", u.cmd.Path, err)
}

func (u *uciPlayer) send(line string) error {
	_, err := io.WriteString(u.in, line+"\n")
	return err
}

// waitFor reads lines until one starts with prefix and returns it.
func (u *uciPlayer) waitFor(prefix string) (string, error) {
	for u.out.Scan() {
		if l := u.out.Text(); strings.HasPrefix(l, prefix) {
			return l, nil
		}
	}
	if err := u.out.Err(); err != nil {
		return "", err
	}
	return "", errors.New("the engine stopped before answering " + prefix)
}

func (u *uciPlayer) move(_ context.Context, g *rules.Game) (rules.Move, error) {
	var b strings.Builder
	start := g.Start()
	b.WriteString("position fen " + start.FEN())
	if len(g.Moves()) > 0 {
		b.WriteString(" moves")
		for i, m := range g.Moves() {
			q := g.PositionAt(i)
			b.WriteString(" " + strings.TrimSuffix(rules.FormatMove(&q, m), ">"))
		}
	}
	if err := u.send(b.String()); err != nil {
		return rules.Move{}, u.fail(err)
	}
	if err := u.send(fmt.Sprintf("go movetime %d", u.time.Milliseconds())); err != nil {
		return rules.Move{}, u.fail(err)
	}
	line, err := u.waitFor("bestmove")
	if err != nil {
		return rules.Move{}, u.fail(err)
	}
	f := strings.Fields(line)
	if len(f) < 2 {
		return rules.Move{}, u.fail(fmt.Errorf("unreadable answer %q", line))
	}
	p := g.Position()
	m, err := rules.ParseMove(&p, f[1])
	if err != nil {
		return rules.Move{}, u.fail(fmt.Errorf("answer %q: %w", line, err))
	}
	return m, nil
}

func (u *uciPlayer) close() error {
	u.send("quit")
	u.in.Close()
	done := make(chan error, 1)
	go func() { done <- u.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(2 * time.Second):
		u.cmd.Process.Kill()
		return <-done
	}
}

// arenaGame is one finished arena game.
type arenaGame struct {
	game   *rules.Game
	aWhite bool
	result rules.Result
	reason string
	capped bool
}

// aScore is A's points in the game: 1, 0.5 or 0.
func (g arenaGame) aScore() float64 {
	switch g.result {
	case rules.WhiteWins:
		if g.aWhite {
			return 1
		}
		return 0
	case rules.BlackWins:
		if g.aWhite {
			return 0
		}
		return 1
	}
	return 0.5
}

// arena runs "fairypost arena".
func (a *app) arena(ctx context.Context, cfg arenaConfig) error {
	if _, err := cfg.ini.apply(a); err != nil {
		return err
	}
	reg, err := a.registry()
	if err != nil {
		return fmt.Errorf("variant registry: %w", err)
	}
	if cfg.variant == "" {
		return badInput("-variant is required (one of: %s)", strings.Join(reg.Keys(), ", "))
	}
	v, canonical, err := reg.Resolve(cfg.variant, cfg.options)
	if err != nil {
		return badInput("%w", err)
	}
	cfg.options = canonical
	if cfg.a == "" || cfg.b == "" {
		return badInput("-a and -b are required: the two players' SPECs (see 'fairypost help arena')")
	}
	specA, err := parseArenaSpec(cfg.a)
	if err != nil {
		return badInput("-a %w", err)
	}
	specB, err := parseArenaSpec(cfg.b)
	if err != nil {
		return badInput("-b %w", err)
	}
	if cfg.games < 1 {
		return badInput("-games must be at least 1, got %d", cfg.games)
	}
	var pgn *os.File
	if cfg.pgn != "" {
		if pgn, err = os.Create(cfg.pgn); err != nil {
			return badInput("-pgn: %w", err)
		}
		defer pgn.Close()
	}
	progress := isTerminalWriter(a.stderr)
	var games []arenaGame
	for i := 0; i < cfg.games; i++ {
		if progress {
			fmt.Fprintf(a.stderr, "\rgame %d/%d", i+1, cfg.games)
		}
		g, err := playArenaGame(ctx, v, specA, specB, cfg.seed, i)
		if err != nil {
			return err
		}
		games = append(games, g)
		if pgn != nil {
			if _, err := io.WriteString(pgn, arenaPGN(g, cfg, i)); err != nil {
				return fmt.Errorf("-pgn: %w", err)
			}
		}
	}
	if progress {
		fmt.Fprint(a.stderr, "\r\033[K")
	}
	return a.writeLines(arenaReport(cfg, v, games))
}

// isTerminalWriter reports whether w is a terminal.
func isTerminalWriter(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// arenaStart returns the start of the variant's games: its start position,
// or for a variant with a pre-game choice the start drawn for seed with
// White's army moving first.
func arenaStart(v *rules.Variant, seed uint64) rules.Position {
	if v.PreGame != nil {
		return v.PreGame.Normalize(v.PreGame.Start(seed), rules.White)
	}
	return v.Start()
}

// playArenaGame plays game i of the match: pair i/2's opening, A as White
// in even games.
func playArenaGame(ctx context.Context, v *rules.Variant, specA, specB arenaSpec, seed uint64, i int) (arenaGame, error) {
	pair := uint64(i / 2)
	openSeed := seed*0x9e3779b97f4a7c15 + pair
	g := rules.NewGame(arenaStart(v, splitmix64(&openSeed)))
	// The opening: arenaOpeningTurns turns of each side by the weakest
	// level, which draws among the moves that are not blunders, so
	// openings are varied but neither side is lost from the start (a
	// random turn of several moves often is).
	opener := &enginePlayer{e: ai.NewEngine(ai.Options{Level: 1, Seed: openSeed})}
	for changes := 0; changes < 2*arenaOpeningTurns && !g.Outcome().Over(); {
		now := g.Position()
		before := now.ToAct()
		m, err := opener.move(ctx, g)
		if err != nil {
			break
		}
		if err := g.Play(m); err != nil {
			return arenaGame{}, err
		}
		if p := g.Position(); p.ToAct() != before && p.Phase() == 0 {
			changes++
		}
	}
	res := arenaGame{game: g, aWhite: i%2 == 0}
	playerSeed := seed ^ uint64(i)*0xbf58476d1ce4e5b9
	pa, err := newArenaPlayer(ctx, specA, splitmix64(&playerSeed))
	if err != nil {
		return res, err
	}
	defer pa.close()
	pb, err := newArenaPlayer(ctx, specB, splitmix64(&playerSeed))
	if err != nil {
		return res, err
	}
	defer pb.close()
	for {
		if o := g.Outcome(); o.Over() {
			res.result, res.reason = o.Result, string(o.Reason)
			return res, nil
		}
		if len(g.Moves()) >= arenaMoveCap {
			res.result, res.reason, res.capped = rules.Draw, "move cap", true
			return res, nil
		}
		pl, now := pa, g.Position()
		if (now.ToAct() == rules.White) != res.aWhite {
			pl = pb
		}
		m, err := pl.move(ctx, g)
		if err != nil {
			return res, err
		}
		if err := g.Play(m); err != nil {
			return res, fmt.Errorf("a player chose an illegal move: %w", err)
		}
	}
}

// arenaElo returns the Elo difference for A's score and the half-width
// of its 95% interval: a Wilson interval of the score fraction, with the
// games' observed variance (draws narrow it) in place of the binomial
// one, so it stays honest at 0 and 100%; both ends are turned into Elo.
// Scores of 0 and 100% count as half a game less, so the figures stay
// finite.
func arenaElo(games []arenaGame) (elo, half float64) {
	n := float64(len(games))
	sum := 0.0
	for _, g := range games {
		sum += g.aScore()
	}
	p := sum / n
	variance := 0.0
	for _, g := range games {
		d := g.aScore() - p
		variance += d * d
	}
	variance /= n
	const z = 1.96
	centre := (p + z*z/(2*n)) / (1 + z*z/n)
	margin := z * math.Sqrt(variance/n+z*z/(4*n*n)) / (1 + z*z/n)
	toElo := func(x float64) float64 {
		x = math.Min(math.Max(x, 0.5/n), 1-0.5/n)
		return -400 * math.Log10(1/x-1)
	}
	return toElo(p), (toElo(centre+margin) - toElo(centre-margin)) / 2
}

// arenaReport returns the arena's output lines.
func arenaReport(cfg arenaConfig, v *rules.Variant, games []arenaGame) []string {
	var w, d, l, capped, whiteW, whiteD, whiteL int
	for _, g := range games {
		switch s := g.aScore(); {
		case s == 1:
			w++
		case s == 0:
			l++
		default:
			d++
		}
		if g.capped {
			capped++
		}
		switch g.result {
		case rules.WhiteWins:
			whiteW++
		case rules.BlackWins:
			whiteL++
		default:
			whiteD++
		}
	}
	n := len(games)
	score := 100 * (float64(w) + float64(d)/2) / float64(n)
	elo, half := arenaElo(games)
	name := v.Key
	if cfg.options != "" { // canonical (arena: Registry.Resolve)
		name += " (" + cfg.options + ")"
	}
	return []string{
		fmt.Sprintf("arena %s: A=%s B=%s, %d games, seed %d", name, cfg.a, cfg.b, n, cfg.seed),
		fmt.Sprintf("A won %d, drew %d (%d of them stopped at the cap of %d moves), lost %d", w, d, capped, arenaMoveCap, l),
		fmt.Sprintf("White won %d, drew %d, lost %d", whiteW, whiteD, whiteL),
		fmt.Sprintf("result a=%d-%d-%d score=%.1f%% elo=%+.0f±%.0f", w, d, l, score, elo, half),
	}
}

// arenaPGN returns game i in PGN.
func arenaPGN(g arenaGame, cfg arenaConfig, i int) string {
	white, black := cfg.a, cfg.b
	if !g.aWhite {
		white, black = black, white
	}
	start := g.game.Start()
	var b strings.Builder
	tag := func(k, v string) { fmt.Fprintf(&b, "[%s %q]\n", k, v) }
	tag("Event", "fairypost arena")
	tag("Round", strconv.Itoa(i+1))
	tag("White", white)
	tag("Black", black)
	tag("Result", g.result.String())
	tag("Variant", start.Variant().Key)
	tag("FEN", start.FEN())
	tag("SetUp", "1")
	tag("Termination", g.reason)
	b.WriteString("\n")
	line := 0
	for k, m := range g.game.Moves() {
		p := g.game.PositionAt(k)
		tok := notation.SAN(&p, m)
		prev := g.game.PositionAt(max(k-1, 0))
		if k == 0 || p.ToAct() != prev.ToAct() {
			switch {
			case p.ToAct() == rules.White:
				tok = strconv.Itoa(p.Fullmove()) + ". " + tok
			case k == 0:
				tok = strconv.Itoa(p.Fullmove()) + "... " + tok
			}
		}
		if line+len(tok) > 78 {
			b.WriteString("\n")
			line = 0
		} else if line > 0 {
			b.WriteString(" ")
			line++
		}
		b.WriteString(tok)
		line += len(tok)
	}
	fmt.Fprintf(&b, " %s\n\n", g.result)
	return b.String()
}
