package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"

	analyser "github.com/fairypost/fairypost/ai/analysis"
	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/rules"
	"github.com/fairypost/fairypost/rules/notation"
)

// annotateCommand is "fairypost annotate".
func annotateCommand() command {
	return command{
		name:     "annotate",
		synopsis: "-db FILE -game ID [-level N] [-format pgn|json] [-workers N]",
		summary:  "analyse a finished game: evaluations, judged moves, better moves, accuracy",
		doc: fmt.Sprintf(`
Analyses game ID of the database, which must be over, with the computer
player: every position is searched at -level (1-%d, default %d: a node
budget, so the analysis is the same on every machine), each turn is judged
as lichess judges a move by the fall of its player's winning chances
(0.1, 0.2, 0.3 on the -1..1 scale make an inaccuracy, a mistake, a
blunder; letting the opponent force the end, or letting go of one's own,
by lichess's mate rules), on the variant's fitted curve
('fairypost fitcurve'). A multi-part turn (Train Wreck's two half-moves,
Winning Chess's steps and answers) is judged as one turn, from the position
before it to the position after it; a turn without choice (a single legal
move, a forced pass) is never judged nor counted in accuracy.
  -format pgn   the game in PGN with, after each move, {[%%eval E]} (pawns
                from White's point of view, #N for a forced end in N atomic
                moves, the result once the game is over); after a judged
                turn its glyph (?! inaccuracy, ? mistake, ?? blunder), a
                comment "(before → after) Blunder. BEST was best." and the
                engine's line as a variation (up to 20 atomic moves) in
                place of the turn.
  -format json  one JSON object: variant, options, level, scale (the
                curve's), accuracy {white, black} (lichess's game accuracy,
                null for a player without an unforced turn), and plies,
                one per atomic move: ply (from 1), move (friendly form),
                eval (pawns, White's point of view; null when mate or
                result says more), mate (a forced end in that many atomic
                moves, negative when Black wins; omitted when none), result
                (omitted unless the game ended there), white_win (White's
                winning percentage, 0-100), judgement ("", "inaccuracy",
                "mistake" or "blunder"), best (the engine's turn, its
                parts separated by spaces; "" when not judged). A turn's
                judgement and best are on its last ply.
A game still being played is refused (no help during play), as is a game
without moves. -workers searches that many positions at once (the result
does not change; default: one per processor). A progress line is drawn
on stderr when it is a terminal. The database is opened like export's.`, analyser.MaxLevel, analyser.DefaultLevel),
		setup: func(fs *flag.FlagSet) runFunc {
			db := fs.String("db", "", "the database `FILE` (required)")
			id := fs.Uint64("game", 0, "the game `ID` (required)")
			level := fs.Int("level", analyser.DefaultLevel, fmt.Sprintf("analysis level `N` (1-%d)", analyser.MaxLevel))
			format := fs.String("format", "pgn", "`pgn` or json")
			workers := fs.Int("workers", min(64, runtime.GOMAXPROCS(0)), "positions searched at once (`N`, 1-64; default: the processors)")
			return func(ctx context.Context, a *app) error {
				if *format != "pgn" && *format != "json" {
					return badInput("-format %s: want pgn or json", quote(*format))
				}
				if *id == 0 {
					return badInput("-game ID is required (a game number, as /games shows)")
				}
				if *level < 1 || *level > analyser.MaxLevel {
					return badInput("-level %d: want 1..%d", *level, analyser.MaxLevel)
				}
				if *workers < 1 || *workers > 64 {
					return badInput("-workers %d: want 1..64", *workers)
				}
				return a.annotate(ctx, *db, *id, *level, *workers, *format)
			}
		},
	}
}

// annotate prints the analysis of game id of the database at dbPath.
func (a *app) annotate(ctx context.Context, dbPath string, id uint64, level, workers int, format string) error {
	db, err := openStore(dbPath, storeOpen{flag: "-db", readOnly: true})
	if err != nil {
		return err
	}
	defer db.Close()
	reg, err := a.registry()
	if err != nil {
		return err
	}
	svc := gameplay.NewService(db.Stores(), reg)
	g, rg, err := svc.Views().Replay(ctx, id)
	if err != nil {
		return serviceError(err)
	}
	// The database is not needed while the analysis runs.
	db.Close()
	if g.Ongoing() {
		return badInput("game %d is still being played: it can be analysed once it is over", id)
	}
	if len(rg.Moves()) == 0 {
		return badInput("game %d has no moves to analyse", id)
	}
	progress := isTerminalWriter(a.stderr)
	an, err := analyser.Analyse(ctx, rg, analyser.Options{Level: level, Workers: workers, Progress: func(done, total int) {
		if progress {
			fmt.Fprintf(a.stderr, "\ranalysing: %d of %d positions", done, total)
		}
	}})
	if progress {
		fmt.Fprint(a.stderr, "\r\033[K")
	}
	if err != nil {
		return err
	}
	if format == "json" {
		return a.writeJSON(annotationJSONOf(g, rg, an))
	}
	_, err = a.stdout.Write([]byte(annotatedPGN(g, rg, an)))
	return err
}

// annotatedPly is one ply of "fairypost annotate -format json".
type annotatedPly struct {
	Ply       int      `json:"ply"`
	Move      string   `json:"move"`
	Eval      *float64 `json:"eval"`
	Mate      int      `json:"mate,omitempty"`
	Result    string   `json:"result,omitempty"`
	WhiteWin  float64  `json:"white_win"`
	Judgement string   `json:"judgement"`
	Best      string   `json:"best"`
}

// annotationJSON is the stable shape of "fairypost annotate -format json".
type annotationJSON struct {
	ID       uint64  `json:"id"`
	Variant  string  `json:"variant"`
	Options  string  `json:"options"`
	Level    int     `json:"level"`
	Scale    float64 `json:"scale"`
	Accuracy struct {
		White *float64 `json:"white"`
		Black *float64 `json:"black"`
	} `json:"accuracy"`
	Plies []annotatedPly `json:"plies"`
}

// round2 rounds x to hundredths.
func round2(x float64) float64 { return math.Round(x*100) / 100 }

// annotationJSONOf builds the JSON object of analysis an of game g,
// replayed as rg.
func annotationJSONOf(g *bot.Game, rg *rules.Game, an *analyser.Analysis) annotationJSON {
	out := annotationJSON{ID: g.ID, Variant: an.Variant, Options: g.Options, Level: an.Level, Scale: an.Scale, Plies: []annotatedPly{}}
	if an.WhiteOK {
		w := round2(an.White)
		out.Accuracy.White = &w
	}
	if an.BlackOK {
		b := round2(an.Black)
		out.Accuracy.Black = &b
	}
	for i, p := range an.Plies {
		pos := rg.PositionAt(i)
		ply := annotatedPly{Ply: i + 1, Move: notation.SAN(&pos, p.Move), WhiteWin: round2(p.WhiteWin), Mate: p.Eval.Mate}
		switch {
		case p.Eval.Result != rules.Ongoing:
			ply.Result, ply.Mate = p.Eval.Result.String(), 0
		case p.Eval.Mate == 0:
			e := float64(p.Eval.CP) / 100
			ply.Eval = &e
		}
		if t := an.Turns[p.Turn]; t.To == i+1 {
			ply.Judgement = t.Judgement.String()
			ply.Best = strings.Join(notation.Line(rg.PositionAt(t.From), t.Best), " ")
		}
		out.Plies = append(out.Plies, ply)
	}
	return out
}

// turnWords writes moves played from p turn by turn as PGN movetext
// words: a number before each turn ("12." before White's, "12..." before
// Black's), then its parts. The first turn is numbered even when it is
// Black's (a variation, a game starting with Black).
func turnWords(p rules.Position, moves []rules.Move) []string {
	var words []string
	for i, m := range moves {
		if i == 0 || p.BeginsTurn() {
			num := strconv.Itoa(p.Fullmove()) + "."
			if p.ToAct() == rules.Black {
				num += ".."
			}
			words = append(words, num)
		}
		words = append(words, notation.SAN(&p, m))
		next, ok := p.After(m)
		if !ok {
			break
		}
		p = next
	}
	return words
}

// annotatedPGN writes game g, replayed as rg, with the analysis an: tags
// as export's (with Annotator), then each turn numbered once, each ply
// followed by its {[%eval]}, each judged turn by its glyph, lichess's
// comment and the engine's line as a variation.
func annotatedPGN(g *bot.Game, rg *rules.Game, an *analyser.Analysis) string {
	var b strings.Builder
	tag := func(name, value string) {
		fmt.Fprintf(&b, "[%s \"%s\"]\n", name, strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", " ").Replace(value))
	}
	v := rg.Variant()
	tag("Event", "fairypost correspondence game")
	tag("Site", "?")
	date := "????.??.??"
	if !g.Created.IsZero() {
		date = g.Created.UTC().Format("2006.01.02")
	}
	tag("Date", date)
	tag("Round", "-")
	tag("White", g.White)
	tag("Black", g.Black)
	tag("Result", g.Result.String())
	tag("GameId", strconv.FormatUint(g.ID, 10))
	tag("Variant", v.Name)
	tag("VariantKey", v.Key)
	if g.Options != "" {
		tag("Options", g.Options)
	}
	start, def := rg.Start(), v.Start()
	if start.FEN() != def.FEN() {
		tag("SetUp", "1")
		tag("FEN", start.FEN())
	}
	tag("Annotator", fmt.Sprintf("fairypost analysis, level %d (%d positions a search), curve scale %g", an.Level, an.Nodes, an.Scale))
	if an.WhiteOK {
		tag("WhiteAccuracy", fmt.Sprintf("%.1f", an.White))
	}
	if an.BlackOK {
		tag("BlackAccuracy", fmt.Sprintf("%.1f", an.Black))
	}
	tag("PlyCount", strconv.Itoa(len(rg.Moves())))
	b.WriteString("\n")
	var words []string
	for _, t := range an.Turns {
		pos := rg.PositionAt(t.From)
		num := strconv.Itoa(pos.Fullmove()) + "."
		if t.Player == rules.Black {
			num += ".."
		}
		words = append(words, num)
		for i := t.From; i < t.To; i++ {
			p := rg.PositionAt(i)
			w := notation.SAN(&p, an.Plies[i].Move)
			if i == t.To-1 {
				w += t.Judgement.Glyph()
			}
			words = append(words, w)
			comment := "[%eval " + an.Plies[i].Eval.String() + "]"
			if i == t.To-1 && t.Judgement != analyser.Good {
				why := t.Judgement.Title()
				if t.Why != "" {
					why = t.Why
				}
				comment += fmt.Sprintf(" (%s → %s) %s. %s was best.", t.Before, t.After, why,
					strings.Join(notation.Line(rg.PositionAt(t.From), t.Best), " "))
			}
			words = append(words, strings.Fields("{"+comment+"}")...)
		}
		if t.Judgement != analyser.Good && len(t.Line) > 0 {
			line := turnWords(rg.PositionAt(t.From), t.Line)
			line[0] = "(" + line[0]
			line[len(line)-1] += ")"
			words = append(words, line...)
		}
	}
	words = append(words, g.Result.String())
	n := 0
	for i, w := range words {
		switch {
		case i == 0:
		case n+1+len(w) > 80:
			b.WriteString("\n")
			n = 0
		default:
			b.WriteString(" ")
			n++
		}
		b.WriteString(w)
		n += len(w)
	}
	b.WriteString("\n")
	return b.String()
}
