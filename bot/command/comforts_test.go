package command

import (
	"strings"
	"testing"

	"github.com/fairypost/fairypost/bot/computer"
)

// TestHelpListsEveryCommand: /help names every command, in messages of
// at most maxReply characters (the rest in More), none cut short, and
// explains the computer player with its rule for offering draws.
func TestHelpListsEveryCommand(t *testing.T) {
	e := newEnv(t)
	r := e.ok("alice", "/help")
	all := strings.Join(append([]string{r.Text}, r.More...), "\n")
	for _, m := range append([]string{r.Text}, r.More...) {
		if len(m) > maxReply || strings.HasSuffix(m, "…") {
			t.Errorf("a help message of %d characters, cut: %v", len(m), strings.HasSuffix(m, "…"))
		}
	}
	for _, s := range e.h.Specs() {
		if !strings.Contains(all, "\n/"+s.Name+" ") {
			t.Errorf("/help does not list /%s", s.Name)
		}
	}
	if !strings.Contains(all, "**Playing the bot**") || !strings.Contains(all, computer.DefaultDrawOffers().Explain()) {
		t.Errorf("/help does not explain the computer player and its draw offers:\n%s", all)
	}
	if !strings.HasSuffix(all, "P@e4 or e2e4.") {
		t.Errorf("/help lacks its last line:\n%s", all)
	}
}
