package console_test

import (
	"strings"
	"testing"

	"github.com/fairypost/fairypost/bot/analysis"
	"github.com/fairypost/fairypost/bot/command"
)

// TestAnalysisThroughTheConsole: /analysis of an ongoing game is refused
// with the reason; of the finished fool's mate it answers at once that
// it started, shows the progress, then the accuracies, the counts and
// g4 as a blunder with the better move; asked again (by the button) it
// is shown at once from storage.
func TestAnalysisThroughTheConsole(t *testing.T) {
	e := newEnv(t)
	an, err := analysis.New(e.svc, e.db, analysis.Config{Level: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer an.Close()
	e.handler = command.New(e.svc, e.prefs, command.Options{BoardSize: 320, Tournaments: e.tours, Ratings: e.rates, Analyses: an})
	out := e.run(t, `as alice /challenge @bob variant:chess days:3 color:white
as bob /accept
as alice /move f3
as alice /analysis game:1
as bob /move e5
as alice /move g4
as bob /move Qh4#
as alice /analysis game:1
as bob /analysis game:1
`)
	wantIn(t, "ongoing", section(t, out, "as alice /analysis game:1"), "still being played")
	i := strings.LastIndex(out, "> as alice /analysis game:1\n")
	j := strings.Index(out, "> as bob /analysis game:1\n")
	if i < 0 || j < i {
		t.Fatalf("the analyses are not echoed:\n%s", out)
	}
	ran := out[i:j]
	wantIn(t, "analysis", ran, "The analysis of game #1 started", "analysing: ", " of ", "positions",
		"Computer analysis of game #1", "White (@alice): accuracy", "Black (@bob): accuracy",
		"1 blunder", "White's g4 (move 3 of the game), a blunder", "was better", "analysis-1.png")
	files(t, ran) // the chart decodes
	again := section(t, out, "as bob /analysis game:1")
	wantIn(t, "stored", again, "Computer analysis of game #1", "White's g4 (move 3 of the game), a blunder")
	if strings.Contains(again, "started") {
		t.Errorf("a stored analysis ran again:\n%s", again)
	}
}
