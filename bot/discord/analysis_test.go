package discord_test

import (
	"bytes"
	"image/png"
	"strconv"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/bot/discordtest"
)

// TestAnalysisThroughDiscord: /analysis of a game in play is refused
// with the reason, privately; the Analyse button under the end of a
// fool's mate answers at once that the analysis started, edits that
// answer with the progress, then posts the result (accuracies, counts,
// g4 the blunder with a better move) pinging nobody; /analysis of the
// game afterwards answers from storage at once.
func TestAnalysisThroughDiscord(t *testing.T) {
	h := shared
	ch := h.channel(t)
	u := h.users(t, "alice", "bob")
	g, thread := h.start(t, ch, u[0], u[1], "chess")
	last := g
	_, last = h.move(t, last, thread, "f3")
	refused := h.slash(t, u[0], thread, "analysis", discordtest.Int("game", int64(g.ID)))
	if !refused.Ephemeral || !strings.Contains(refused.Content, "still being played") {
		t.Fatalf("analysis of a game in play: %+v", refused)
	}
	for _, mv := range []string{"e5", "g4"} {
		_, last = h.move(t, last, thread, mv)
	}
	mate, _ := h.move(t, last, thread, "Qh4#")
	ix, err := h.srv.Click(u[1], mate.ChannelID, mate.ID, buttonID(t, mate, "Analyse"))
	if err != nil {
		t.Fatal(err)
	}
	started := public(t, h.shown(t, ix))
	if !strings.Contains(started.Content, "The analysis of game #"+strconv.FormatUint(g.ID, 10)+" started") {
		t.Fatalf("the Analyse answer: %q", started.Content)
	}
	var result discordtest.Message
	if err := h.srv.WaitFor(ctxT(t), func() bool {
		for _, m := range ix.Followups() {
			if strings.Contains(m.Content, "Computer analysis") {
				result = m
				return true
			}
		}
		return false
	}); err != nil {
		t.Fatalf("no analysis posted: %v", err)
	}
	for _, want := range []string{"White (<@" + u[0] + ">): accuracy", "1 blunder", "White's g4 (move 3 of the game), a blunder", "was better"} {
		if !strings.Contains(result.Content, want) {
			t.Errorf("the analysis lacks %q:\n%s", want, result.Content)
		}
	}
	if len(result.Files) != 1 || result.Files[0].Name != "analysis-"+strconv.FormatUint(g.ID, 10)+".png" {
		t.Errorf("the analysis carries %d files, want its chart", len(result.Files))
	} else if _, err := png.Decode(bytes.NewReader(result.Files[0].Data)); err != nil {
		t.Errorf("the chart: %v", err)
	}
	if len(result.Mentions) != 0 || result.Ephemeral {
		t.Errorf("the analysis pings %v (ephemeral %v)", result.Mentions, result.Ephemeral)
	}
	edited, ok := h.srv.Message(started.ChannelID, started.ID)
	if !ok || edited.Edits == 0 || !strings.Contains(edited.Content, "analysing: 4 of 4 positions") {
		t.Errorf("the answer was not edited with the progress: %+v", edited)
	}
	again := public(t, h.slash(t, u[0], thread, "analysis", discordtest.Int("game", int64(g.ID))))
	if !strings.Contains(again.Content, "Computer analysis") || strings.Contains(again.Content, "started") {
		t.Errorf("asked again: %q, want the stored analysis at once", again.Content)
	}
}
