package gameplay

import (
	"context"
	"slices"
	"testing"

	"github.com/fairypost/fairypost/bot"
)

// TestHoldComputer: under HoldComputer's context an update of a game the
// computer plays does not wake it; the release wakes it once per game
// held, and after it wakes happen at once again. Games it does not play
// never wake it.
func TestHoldComputer(t *testing.T) {
	s := &Service{}
	s.SetComputer("bot")
	var woken []uint64
	wake := func(id uint64) { woken = append(woken, id) }
	event := s.wakeComputer(wake)
	mine := &bot.Game{ID: 7, White: "alice", Black: "bot", Status: bot.GameActive}
	other := &bot.Game{ID: 8, White: "bot", Black: "carol", Status: bot.GameFinished}
	people := &bot.Game{ID: 9, White: "alice", Black: "carol", Status: bot.GameActive}

	held, release := s.HoldComputer(context.Background())
	event(held, mine)
	event(held, mine)
	event(held, other)
	event(held, people)
	if len(woken) != 0 {
		t.Fatalf("woken while held: %v", woken)
	}
	release()
	if !slices.Equal(woken, []uint64{7, 8}) {
		t.Fatalf("woken by the release: %v, want 7 and 8 once each", woken)
	}
	release()
	event(held, mine)
	event(context.Background(), people)
	if !slices.Equal(woken, []uint64{7, 8, 7}) {
		t.Errorf("after the release: woken %v, want 7 again at once", woken)
	}
}
