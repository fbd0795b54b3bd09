package storetest

import (
	"reflect"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
)

// OpenAnalyses returns the analysis store of a fresh, empty backend for
// test t, closed when t ends.
type OpenAnalyses func(t *testing.T) bot.AnalysisStore

// RunAnalyses runs the conformance tests of bot.AnalysisStore as
// subtests of t, each on a store of its own from open.
func RunAnalyses(t *testing.T, open OpenAnalyses) {
	tests := []struct {
		name string
		fn   func(*testing.T, bot.AnalysisStore)
	}{
		{"MissingIsNotFound", testAnalysisMissing},
		{"PutThenGet", testAnalysisPutGet},
		{"Replace", testAnalysisReplace},
		{"Invalid", testAnalysisInvalid},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, open(t)) })
	}
}

// SampleAnalysis returns a complete analysis of game id: two plies, a
// judged turn, both accuracies.
func SampleAnalysis(id uint64) *bot.GameAnalysis {
	return &bot.GameAnalysis{
		GameID: id, Variant: "chess", Level: 5, Seed: 7,
		Plies: []bot.AnalysedPly{
			{Move: "f3", White: true, Eval: "-0.40", WhiteWin: 46.3, Judgement: "inaccuracy", Best: "e4", Before: "+0.30", Loss: 7.5},
			{Move: "e5", Eval: "-0.35", WhiteWin: 46.9},
		},
		WhiteAccuracy: 71.25, BlackAccuracy: 100, WhiteOK: true, BlackOK: true,
		RequestedBy: "u1", Created: time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC),
	}
}

func testAnalysisMissing(t *testing.T, s bot.AnalysisStore) {
	if a, err := s.Analysis(t.Context(), 9); bot.ErrorCode(err) != bot.ENOTFOUND {
		t.Fatalf("Analysis of a game never analysed: %+v, %v; want ENOTFOUND", a, err)
	}
}

func testAnalysisPutGet(t *testing.T, s bot.AnalysisStore) {
	ctx := t.Context()
	want := SampleAnalysis(3)
	if err := s.PutAnalysis(ctx, want); err != nil {
		t.Fatal(err)
	}
	got, err := s.Analysis(ctx, 3)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("stored %+v, read back %+v", want, got)
	}
	if _, err := s.Analysis(ctx, 4); bot.ErrorCode(err) != bot.ENOTFOUND {
		t.Fatalf("another game: %v, want ENOTFOUND", err)
	}
}

func testAnalysisReplace(t *testing.T, s bot.AnalysisStore) {
	ctx := t.Context()
	if err := s.PutAnalysis(ctx, SampleAnalysis(3)); err != nil {
		t.Fatal(err)
	}
	again := SampleAnalysis(3)
	again.Level, again.WhiteAccuracy = 6, 80
	if err := s.PutAnalysis(ctx, again); err != nil {
		t.Fatal(err)
	}
	got, err := s.Analysis(ctx, 3)
	if err != nil || got.Level != 6 || got.WhiteAccuracy != 80 {
		t.Fatalf("after replacing: %+v, %v; want level 6, accuracy 80", got, err)
	}
}

func testAnalysisInvalid(t *testing.T, s bot.AnalysisStore) {
	ctx := t.Context()
	noID := SampleAnalysis(0)
	noPlies := SampleAnalysis(5)
	noPlies.Plies = nil
	for _, a := range []*bot.GameAnalysis{nil, noID, noPlies} {
		if err := s.PutAnalysis(ctx, a); bot.ErrorCode(err) != bot.EINVALID {
			t.Errorf("PutAnalysis(%+v): %v, want EINVALID", a, err)
		}
	}
	if _, err := s.Analysis(ctx, 5); bot.ErrorCode(err) != bot.ENOTFOUND {
		t.Fatalf("a refused analysis was stored: %v", err)
	}
}
