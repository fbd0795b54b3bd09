package gameplay_test

import (
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
)

// TestTimeBank: a turn may take its days plus what is left of the
// player's bank; only the time beyond the days is taken from the bank,
// and a player whose bank is spent loses on time when a turn takes
// longer than its days plus the rest.
func TestTimeBank(t *testing.T) {
	e := newEnv(t)
	for _, c := range []struct{ days, bank int }{{0, 2}, {1, 4}, {3, -1}} {
		if _, err := e.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "alice", Challenged: "bob", ChannelID: "chan",
			Variant: "chess", DaysPerMove: c.days, BankDays: c.bank}); bot.ErrorCode(err) != bot.EINVALID {
			t.Errorf("days %d, bank %d: %v", c.days, c.bank, err)
		}
	}
	c, err := e.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "alice", Challenged: "bob", ChannelID: "chan",
		Variant: "chess", DaysPerMove: 1, BankDays: 2, Color: bot.ColorWhite})
	if err != nil {
		t.Fatal(err)
	}
	g := must(t)(e.svc.Challenges().Accept(ctx, c.ID, c.Version, "bob", inChan))
	if g.BankDays != 2 || g.WhiteBank != 2*day || g.BlackBank != 2*day || !g.Deadline.Equal(t0.Add(3*day)) {
		t.Fatalf("start: bank %d (%v, %v), deadline %v", g.BankDays, g.WhiteBank, g.BlackBank, g.Deadline)
	}
	e.clock.Advance(12 * time.Hour) // within the day: nothing spent
	g = e.play(t, g.ID, "alice e4").Game
	if g.WhiteBank != 2*day || !g.Deadline.Equal(e.clock.Now().Add(3*day)) {
		t.Fatalf("after a move within its day: white bank %v, deadline %v", g.WhiteBank, g.Deadline)
	}
	e.clock.Advance(day + 6*time.Hour) // 6 hours past the day
	g = e.play(t, g.ID, "bob e5").Game
	if g.BlackBank != 2*day-6*time.Hour || g.WhiteBank != 2*day {
		t.Fatalf("after 30 hours: banks %v, %v", g.WhiteBank, g.BlackBank)
	}
	e.clock.Advance(2 * day) // a day from the bank
	g = e.play(t, g.ID, "alice Nf3").Game
	if g.WhiteBank != day || !g.Deadline.Equal(e.clock.Now().Add(day+2*day-6*time.Hour)) {
		t.Fatalf("after 2 days: white bank %v, bob's deadline %v", g.WhiteBank, g.Deadline)
	}
	e.play(t, g.ID, "bob Nc6")
	// Alice has her day and one in the bank: 2 days and a minute is too long.
	e.clock.Advance(2*day - time.Minute)
	if rep, _ := e.svc.Sweep(ctx); rep.TimedOut != 0 {
		t.Fatalf("timed out within the bank: %+v", rep)
	}
	e.clock.Advance(time.Minute)
	if rep, _ := e.svc.Sweep(ctx); rep.TimedOut != 1 {
		t.Fatalf("not timed out after the bank: %+v", rep)
	}
	if g := e.game(t, g.ID); g.Result != bot.BlackWins {
		t.Errorf("result %v", g.Result)
	}
}
