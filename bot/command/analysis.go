package command

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/render"
)

// /analysis and the Analyse button: the computer analysis of a finished
// game (package bot/analysis), started at once, its progress shown by
// editing the first answer, its result posted when ready; a game
// analysed before is shown again at once.
const (
	cmdAnalysis = "analysis"
	actAnalyse  = "analyse"
)

// worstShown is how many of the worst moves the result lists.
const worstShown = 3

// progressSteps is how many progress edits an analysis makes at most
// (one each tenth of the positions), so that a long game does not flood
// the transport with edits.
const progressSteps = 10

// defineAnalysis defines /analysis.
func defineAnalysis(catalogue) commandDef {
	return commandDef{Spec{Name: cmdAnalysis, Description: "Computer analysis of a finished game: accuracy, mistakes and the better moves", Options: []OptionSpec{
		{Name: optGame, Kind: OptionInteger, Required: true, Autocomplete: true, Description: "The finished game's ID"},
	}}, (*Handler).analysis}
}

// analysis runs /analysis.
func (h *Handler) analysis(ctx context.Context, req Request) (Reply, error) {
	g, err := h.resolveGame(ctx, req, modeLook, nil)
	if err != nil {
		return Reply{}, err
	}
	return h.startAnalysis(ctx, req.UserID, g)
}

// analyseButtons is the Analyse button under a finished game.
func analyseButtons(g *bot.Game) []Button {
	return []Button{{Label: "Analyse", CustomID: customID(actAnalyse, g.ID, g.Version), Style: ButtonSecondary}}
}

// pressAnalyse answers a click on Analyse under finished game g.
func (h *Handler) pressAnalyse(ctx context.Context, userID string, g *bot.Game, _ uint64) (Reply, error) {
	return h.startAnalysis(ctx, userID, g)
}

// startAnalysis asks for the analysis of g for userID: the stored one at
// once, or an answer that it started whose Later shows the progress and
// posts the result.
func (h *Handler) startAnalysis(ctx context.Context, userID string, g *bot.Game) (Reply, error) {
	if h.analyses == nil {
		return Reply{}, bot.Errorf(bot.EUNAVAILABLE, "This bot does not analyse games.")
	}
	w := &analysisWatch{signal: make(chan struct{}, 1), result: make(chan analysisResult, 1)}
	stored, err := h.analyses.Request(ctx, g.ID, userID, w.progress, func(a *bot.GameAnalysis, err error) {
		w.result <- analysisResult{a, err}
	})
	if err != nil {
		return Reply{}, err
	}
	if stored != nil {
		return h.analysisReply(g, stored), nil
	}
	return Reply{GameID: g.ID, Text: fmt.Sprintf("The analysis of game #%d started: the result will be posted here when it is ready.", g.ID),
		Later: func(ctx context.Context, edit func(string), post func(Reply)) {
			w.follow(ctx, g.ID, edit, func(a *bot.GameAnalysis, err error) {
				if err != nil {
					post(Reply{GameID: g.ID, Text: fmt.Sprintf("The analysis of game #%d failed: %s", g.ID, userMessage(err))})
					return
				}
				post(h.analysisReply(g, a))
			})
		}}, nil
}

// analysisResult is what an analysis ended with.
type analysisResult struct {
	a   *bot.GameAnalysis
	err error
}

// analysisWatch carries an analysis's progress and result from its
// goroutine to the adapter's Later, never blocking the analysis: only
// the latest progress is kept.
type analysisWatch struct {
	mu          sync.Mutex
	done, total int
	signal      chan struct{}
	result      chan analysisResult
}

// progress records done of total; it never blocks.
func (w *analysisWatch) progress(done, total int) {
	w.mu.Lock()
	w.done, w.total = done, total
	w.mu.Unlock()
	select {
	case w.signal <- struct{}{}:
	default:
	}
}

// follow edits the answer with the progress, a tenth at a time, until the
// result comes, then hands it to finish; it returns early when ctx ends.
func (w *analysisWatch) follow(ctx context.Context, gameID uint64, edit func(string), finish func(*bot.GameAnalysis, error)) {
	shown := -1
	show := func() {
		w.mu.Lock()
		done, total := w.done, w.total
		w.mu.Unlock()
		if step := done * progressSteps / max(total, 1); total > 0 && step > shown {
			shown = step
			edit(fmt.Sprintf("The analysis of game #%d started: analysing: %d of %d positions.", gameID, done, total))
		}
	}
	for {
		select {
		case r := <-w.result:
			show() // the last progress, told before the result, is shown first
			finish(r.a, r.err)
			return
		case <-w.signal:
			show()
		case <-ctx.Done():
			return
		}
	}
}

// userMessage is err as a player reads it.
func userMessage(err error) string {
	if m := bot.ErrorMessage(err); m != "" && bot.ErrorCode(err) != bot.EINTERNAL {
		return m
	}
	return "something went wrong on our side. Please try again later."
}

// analysisReply is the result of analysis a of game g: accuracies,
// judgement counts and the worst moves, in plain sentences (what a screen
// reader reads), and the evaluation chart as a picture (render.EvalChart:
// White's chances per ply, judged moves coloured, the worst labelled).
func (h *Handler) analysisReply(g *bot.Game, a *bot.GameAnalysis) Reply {
	lines := []string{fmt.Sprintf("Computer analysis of game #%d (%s, level %d):", g.ID, h.variantName(g.Variant, g.Options), a.Level)}
	for _, side := range []struct {
		name, user string
		white      bool
		acc        float64
		ok         bool
	}{{"White", g.White, true, a.WhiteAccuracy, a.WhiteOK}, {"Black", g.Black, false, a.BlackAccuracy, a.BlackOK}} {
		acc := "no accuracy (no move with a choice)"
		if side.ok {
			acc = fmt.Sprintf("accuracy %.0f%%", side.acc)
		}
		counts := map[string]int{}
		for _, p := range a.Plies {
			if p.White == side.white {
				counts[p.Judgement]++
			}
		}
		lines = append(lines, fmt.Sprintf("%s (%s): %s; %s, %s, %s.", side.name, mention(side.user), acc,
			count(counts["inaccuracy"], "inaccuracy", "inaccuracies"), count(counts["mistake"], "mistake", "mistakes"), count(counts["blunder"], "blunder", "blunders")))
	}
	type worst struct {
		n int
		p bot.AnalysedPly
	}
	var judged []worst
	for i, p := range a.Plies {
		if p.Judgement != "" {
			judged = append(judged, worst{i + 1, p})
		}
	}
	slices.SortStableFunc(judged, func(x, y worst) int {
		switch {
		case x.p.Loss > y.p.Loss:
			return -1
		case x.p.Loss < y.p.Loss:
			return 1
		}
		return 0
	})
	if len(judged) == 0 {
		lines = append(lines, "No inaccuracy, mistake or blunder.")
	} else {
		lines = append(lines, "The worst moves:")
	}
	for _, w := range judged[:min(len(judged), worstShown)] {
		side := "Black"
		if w.p.White {
			side = "White"
		}
		article := "a"
		if strings.HasPrefix(w.p.Judgement, "i") {
			article = "an"
		}
		lines = append(lines, fmt.Sprintf("- %s's %s (move %d of the game), %s %s: the evaluation went from %s to %s; %s was better.",
			side, w.p.Move, w.n, article, w.p.Judgement, w.p.Before, w.p.Eval, w.p.Best))
	}
	lines = append(lines, "Evaluations are in pawns from White's side (#N: a forced end in N moves). A multi-part turn is judged as a whole.")
	rep := Reply{GameID: g.ID, Text: truncate(strings.Join(lines, "\n"), maxReply)}
	labels := map[int]string{}
	for _, w := range judged[:min(len(judged), worstShown)] {
		labels[w.n-1] = w.p.Move + map[string]string{"inaccuracy": "?!", "mistake": "?", "blunder": "??"}[w.p.Judgement]
	}
	chart := render.EvalChart{Title: fmt.Sprintf("Game #%d: White's winning chances", g.ID)}
	for i, p := range a.Plies {
		chart.Points = append(chart.Points, render.EvalPoint{WhiteWin: max(0, min(100, p.WhiteWin)), Mark: p.Judgement, Label: labels[i]})
	}
	var png bytes.Buffer
	if err := h.renderer.EvalChartPNG(&png, chart, h.size); err != nil {
		// The text says everything the chart shows.
		h.log.Warn("command: the evaluation chart was not drawn", "game", g.ID, "err", err)
		return rep
	}
	rep.Files = []File{{Name: fmt.Sprintf("analysis-%d.png", g.ID), Data: png.Bytes(), Key: fmt.Sprintf("analysis-%d-%d", g.ID, a.Created.UnixNano())}}
	return rep
}

// count writes n with the singular or plural noun.
func count(n int, one, many string) string { return fmt.Sprintf("%d %s", n, plural(n, one, many)) }
