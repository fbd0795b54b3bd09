package main

import (
	"log/slog"

	"github.com/fairypost/fairypost/bot"
	analyses "github.com/fairypost/fairypost/bot/analysis"
	"github.com/fairypost/fairypost/bot/gameplay"
)

// newAnalyses returns the game analyses (/analysis) of svc, kept with the
// games in st (both backends' game stores keep analyses), bounded by
// play; nil when st keeps none (then /analysis says the bot does not
// analyse games). Close it when the bot stops.
func newAnalyses(svc *gameplay.Service, st gameplay.Stores, play PlayConfig, log *slog.Logger) (*analyses.Service, error) {
	store, ok := st.Games.(bot.AnalysisStore)
	if !ok {
		return nil, nil
	}
	return analyses.New(svc, store, analyses.Config{AtOnce: play.AnalysisAtOnce, PerDay: play.AnalysisPerDay}, log)
}
