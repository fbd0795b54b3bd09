package rules

import (
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// playoutConfig sizes TestRandomPlayouts for one variant.
type playoutConfig struct {
	key   string
	games int // games in the default run (-short: playoutShortGames)
	// fullEvery: every fullEvery-th game plays every legal move of every
	// position through Position.Play; the other games play a few at
	// random (Play re-generates the moves, so all of them costs n² work).
	fullEvery int
}

// Sizes measured on the 2-core reference machine: 1000 games of each
// variant cost about 50 CPU seconds (about 36 s of wall time with the
// three variants in parallel). -short plays 100 games of each (about 4 s).
var playoutConfigs = []playoutConfig{
	{key: "chess", games: 1000, fullEvery: 20},
	{key: "crazyhouse", games: 1000, fullEvery: 20},
	{key: "grand", games: 1000, fullEvery: 20},
}

// playoutGames overrides the number of games of the random play-outs
// (TestRandomPlayouts per variant, TestAnnihilationRandomPlayouts and
// TestLegalityShortcutsMatchFullPlay per run), for a longer run than the
// default's, which is sized for CI on two cores:
// go test ./rules -run 'Playouts|Shortcuts' -playout.games 1000
var playoutGames = flag.Int("playout.games", 0, "games of the random play-outs (0: the default sizes)")

const (
	playoutMaxPlies   = 300
	playoutShortGames = 100
	playoutSampled    = 2 // legal moves played per position in the sampled games
)

// TestRandomPlayouts plays seeded random legal games (math/rand/v2 PCG,
// deterministic) of chess, crazyhouse and Grand Chess with a Game, up to
// 300 plies each, and checks after every move: the FEN round trip (same
// FEN, same hash), one king per side, conservation of material (32
// pieces on the board and in pockets in crazyhouse; never more material
// except by promotion in chess and Grand Chess, and a capture removes
// exactly one enemy piece), that Play accepts the listed legal moves and
// refuses moves not listed, that the outcome is consistent (over exactly
// when there is no legal move, the position repeated five times or a draw
// by rule applies: 75 moves, insufficient material), and
// at the end that replaying the game's moves through their canonical text
// from the start gives the same positions.
func TestRandomPlayouts(t *testing.T) {
	for vi, cfg := range playoutConfigs {
		t.Run(cfg.key, func(t *testing.T) {
			t.Parallel()
			v := mustVariant(t, cfg.key)
			games := cfg.games
			switch {
			case *playoutGames > 0:
				games = *playoutGames
			case testing.Short():
				games = playoutShortGames
			}
			start := time.Now()
			plies, ends := 0, map[Reason]int{}
			for i := 0; i < games; i++ {
				rng := rand.New(rand.NewPCG(uint64(vi+1), uint64(i)))
				pl := playout{t: t, v: v, rng: rng, full: i%cfg.fullEvery == 0, name: fmt.Sprintf("%s game %d", cfg.key, i)}
				o := pl.run()
				if t.Failed() {
					return // the first failing game is the one to look at
				}
				plies += len(pl.g.Moves())
				ends[o.Reason]++
			}
			t.Logf("%d games, %d plies in %v; ends: %v", games, plies, time.Since(start).Round(time.Millisecond), ends)
		})
	}
}

// playout is one random game and its checks.
type playout struct {
	t    *testing.T
	v    *Variant
	rng  *rand.Rand
	full bool // play every legal move through Position.Play, not a sample
	name string
	g    *Game
}

// fail reports a broken invariant with the game's moves so far, which
// reproduce it.
func (pl *playout) fail(format string, args ...any) {
	pl.t.Helper()
	var moves []string
	for i, m := range pl.g.Moves() {
		p := pl.g.PositionAt(i)
		moves = append(moves, FormatMove(&p, m))
	}
	p := pl.g.Position()
	pl.t.Fatalf("%s, ply %d, position %s: %s\nmoves from the start: %v", pl.name, len(moves), p.FEN(), fmt.Sprintf(format, args...), moves)
}

// run plays the game and returns its outcome (the zero Outcome when it
// was cut at playoutMaxPlies).
func (pl *playout) run() Outcome {
	pl.t.Helper()
	pl.g = NewGame(pl.v.Start())
	var texts []string
	for len(texts) < playoutMaxPlies {
		p := pl.g.Position()
		moves := p.Legal(nil)
		over := pl.checkOutcome(&p, moves)
		if over || len(texts)%16 == 0 {
			// Game.Legal: the position's moves while the game goes on,
			// none once it is over (repetition included).
			gm := pl.g.Legal()
			if want := map[bool]int{true: 0, false: len(moves)}[over]; len(gm) != want {
				pl.fail("Game.Legal lists %d moves, want %d (over: %v)", len(gm), want, over)
			}
		}
		if over {
			break
		}
		pl.checkPlay(&p, moves)
		m := moves[pl.rng.IntN(len(moves))]
		texts = append(texts, FormatMove(&p, m))
		if err := pl.g.Play(m); err != nil {
			pl.fail("Game.Play(%s): %v", texts[len(texts)-1], err)
		}
		after := pl.g.Position()
		pl.checkPosition(&after)
		pl.checkMaterial(&p, &after, m)
	}
	pl.checkReplay(texts)
	return pl.g.Outcome()
}

// checkOutcome checks that the game is over exactly when the position
// (whose legal moves are moves) has no legal move or has occurred
// RepetitionAuto times, and reports whether it is over.
func (pl *playout) checkOutcome(p *Position, moves []Move) bool {
	pl.t.Helper()
	o := pl.g.Outcome()
	noMoves := len(moves) == 0
	repeated := pl.v.RepetitionAuto > 0 && pl.g.Repetitions() >= pl.v.RepetitionAuto
	// Draws by rule end the game while the position still has moves.
	moveCount := pl.v.DrawAutoPlies > 0 && p.HalfmoveClock() >= pl.v.DrawAutoPlies
	material := pl.v.InsufficientMaterial != nil && pl.v.InsufficientMaterial(p)
	if o.Over() != (noMoves || repeated || moveCount || material) {
		pl.fail("Outcome %+v, but no legal moves: %v, repetitions: %d, halfmove clock %d, insufficient material %v",
			o, noMoves, pl.g.Repetitions(), p.HalfmoveClock(), material)
	}
	if o.Over() && !noMoves && o.Result != Draw {
		pl.fail("Outcome %+v with legal moves left", o)
	}
	if o.Over() && o.Reason == "" {
		pl.fail("Outcome %+v has no reason", o)
	}
	if o.Reason == "checkmate" && (!p.InCheck() || o.Result != WinFor(p.ToAct().Other())) {
		pl.fail("checkmate %+v, but InCheck %v with %s to act", o, p.InCheck(), p.ToAct())
	}
	if o.Reason == "stalemate" && p.InCheck() {
		pl.fail("stalemate while in check")
	}
	return o.Over()
}

// checkPlay checks that Play accepts the listed moves (all of them, or a
// sample) and refuses a move that is not listed.
func (pl *playout) checkPlay(p *Position, moves []Move) {
	pl.t.Helper()
	fen := p.FEN()
	try := moves
	if !pl.full && len(moves) > playoutSampled {
		try = nil
		for range playoutSampled {
			try = append(try, moves[pl.rng.IntN(len(moves))])
		}
	}
	for _, m := range try {
		if _, err := p.Play(m); err != nil {
			pl.fail("Play(%s) of a listed move: %v", FormatMove(p, m), err)
		}
	}
	listed := make(map[Move]bool, len(moves))
	for _, m := range moves {
		listed[m] = true
	}
	// A pseudo-legal move that is not legal (it would leave the king in
	// check), else a made-up move: a random from-to pair or drop.
	var bad []Move
	for _, m := range p.pseudoLegal(nil) {
		if !listed[m] {
			bad = append(bad, m)
		}
	}
	var m Move
	if len(bad) > 0 {
		m = bad[pl.rng.IntN(len(bad))]
	} else {
		sq := pl.v.Squares()
		for {
			m = Move{From: sq[pl.rng.IntN(len(sq))], To: sq[pl.rng.IntN(len(sq))]}
			if pl.rng.IntN(4) == 0 {
				m = Move{To: m.To, Kind: KindDrop, Drop: PieceType(1 + pl.rng.IntN(len(pl.v.Pieces)))}
			}
			if !listed[m] {
				break
			}
		}
	}
	if _, err := p.Play(m); !errors.Is(err, ErrIllegalMove) {
		pl.fail("Play(%s) of a move not listed (%+v): %v, want ErrIllegalMove", FormatMove(p, m), m, err)
	}
	if p.FEN() != fen {
		pl.fail("a refused Play changed the position to %s", p.FEN())
	}
}

// checkPosition checks the FEN round trip and the kings.
func (pl *playout) checkPosition(p *Position) {
	pl.t.Helper()
	fen := p.FEN()
	q, err := ParseFEN(pl.v, fen)
	switch {
	case err != nil:
		pl.fail("ParseFEN(%q): %v", fen, err)
	case q.FEN() != fen:
		pl.fail("FEN round trip: %q became %q", fen, q.FEN())
	case q.Hash() != p.Hash():
		pl.fail("FEN round trip: hash %x became %x", p.Hash(), q.Hash())
	}
	king := pl.v.Type('K')
	for _, c := range []Color{White, Black} {
		if n := p.Count(c, king); n != 1 {
			pl.fail("%s has %d kings", c, n)
		}
		if k := p.royal[c.index()]; k == NoSquare || p.At(k) != NewPiece(c, king) {
			pl.fail("%s's royal square %s does not hold its king", c, k)
		}
	}
	if pl.v.Drops.Enabled {
		total := 0
		for _, c := range []Color{White, Black} {
			for t := 1; t <= len(pl.v.Pieces); t++ {
				total += p.Count(c, PieceType(t)) + p.Pocket(c, PieceType(t))
			}
		}
		if total != 32 {
			pl.fail("%d pieces on the board and in the pockets, want 32", total)
		}
	}
	// The counts agree with the board.
	var counted [2][maxPieceTypes + 1]int
	for _, s := range pl.v.Squares() {
		if pc := p.At(s); pc != NoPiece {
			counted[pc.Color().index()][pc.Type()]++
		}
	}
	for _, c := range []Color{White, Black} {
		for t := 1; t <= len(pl.v.Pieces); t++ {
			if n := p.Count(c, PieceType(t)); n != counted[c.index()][t] {
				pl.fail("Count(%s, %s) = %d, the board has %d", c, pl.v.Pieces[t-1].Name, n, counted[c.index()][t])
			}
		}
	}
}

// checkMaterial checks what move m did to the material of both sides.
func (pl *playout) checkMaterial(before, after *Position, m Move) {
	pl.t.Helper()
	us, them := before.ToAct(), before.ToAct().Other()
	pawn := pl.v.Type('P')
	text := FormatMove(before, m)
	capture := before.IsCapture(m)
	var lost int // the opponent's pieces removed from the board
	for t := 1; t <= len(pl.v.Pieces); t++ {
		pt := PieceType(t)
		d := after.Count(them, pt) - before.Count(them, pt)
		if d > 0 {
			pl.fail("%s: %s gained a %s", text, them, pl.v.Pieces[t-1].Name)
		}
		lost -= d
		want := 0
		switch {
		case m.Kind == KindDrop && pt == m.Drop:
			want = 1
		case m.Promotion == pt:
			want = 1
		case m.Promotion != NoPieceType && pt == pawn:
			want = -1
		}
		if d := after.Count(us, pt) - before.Count(us, pt); d != want {
			pl.fail("%s: %s's %s count changed by %d, want %d", text, us, pl.v.Pieces[t-1].Name, d, want)
		}
	}
	if wantLost := map[bool]int{true: 1, false: 0}[capture]; lost != wantLost {
		pl.fail("%s (capture: %v): %s lost %d pieces", text, capture, them, lost)
	}
	if !pl.v.Drops.Enabled {
		return
	}
	for t := 1; t <= len(pl.v.Pieces); t++ {
		pt := PieceType(t)
		want := 0
		if m.Kind == KindDrop && pt == m.Drop {
			want = -1
		}
		if capture {
			victim := before.At(m.To)
			if m.Kind == KindEnPassant {
				victim = NewPiece(them, pawn)
			}
			vt := victim.Type()
			if victim.Promoted() {
				vt = pawn
			}
			if vt == pt {
				want++
			}
		}
		if d := after.Pocket(us, pt) - before.Pocket(us, pt); d != want {
			pl.fail("%s: %s's pocket of %s changed by %d, want %d", text, us, pl.v.Pieces[t-1].Name, d, want)
		}
		if after.Pocket(them, pt) != before.Pocket(them, pt) {
			pl.fail("%s: %s's pocket changed on the opponent's move", text, them)
		}
	}
}

// checkReplay replays the moves' canonical text from the start and
// compares every position with the game's.
func (pl *playout) checkReplay(texts []string) {
	pl.t.Helper()
	p := pl.v.Start()
	for i, s := range texts {
		m, err := ParseMove(&p, s)
		if err != nil {
			pl.fail("replay ply %d: ParseMove(%q): %v", i+1, s, err)
		}
		if m != pl.g.Moves()[i] {
			pl.fail("replay ply %d: %q read as %+v, played %+v", i+1, s, m, pl.g.Moves()[i])
		}
		if p, err = p.Play(m); err != nil {
			pl.fail("replay ply %d: Play(%s): %v", i+1, s, err)
		}
		if want := pl.g.PositionAt(i + 1); p.Hash() != want.Hash() {
			pl.fail("replay ply %d: %s, the game had %s", i+1, p.FEN(), want.FEN())
		}
	}
	final := pl.g.Position()
	if p.FEN() != final.FEN() || p.Hash() != final.Hash() {
		pl.fail("replay ends in %s, the game in %s", p.FEN(), final.FEN())
	}
}
