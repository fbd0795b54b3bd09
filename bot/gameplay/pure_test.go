package gameplay_test

import (
	"context"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/bot/prefs"
	"github.com/fairypost/fairypost/internal/testkit"
)

// TestUpdatesTouchNoStore: the function of every update the Service makes
// (UpdateGame, AnnotateGame, UpdateChallenge, UpdatePreferences,
// UpdateNote, UpdateFollow) touches
// no store, through every path that starts a turn or moves a reminder
// (accept, pre-game choices, moves, a takeback, a reminder setting) and
// the sweep's updates; the reminders are still scheduled from the
// players' settings, read before the updates.
func TestUpdatesTouchNoStore(t *testing.T) {
	db := testkit.OpenDB(t)
	clk := testkit.NewClock(t0)
	probe := testkit.NewProbe(testkit.Stores(db))
	svc := testkit.ServiceOver(t, probe.Stores(), clk)
	settings := prefs.New(svc, probe.Stores().Users)
	e := &env{db: db, svc: svc, prefs: settings, clock: clk}

	if _, err := settings.SetReminder(ctx, "alice", 10); err != nil {
		t.Fatal(err)
	}
	if _, err := settings.SetReminder(ctx, "bob", 50); err != nil {
		t.Fatal(err)
	}
	// A pre-game choice: accept, two choices, then moves.
	ann := e.start(t, "annihilation") // bob picks the army
	ann = must(t)(svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActChoose, GameID: ann.ID, Version: bot.AnyVersion, UserID: "bob", Choice: "white"}))
	if want := t0.Add(72*time.Hour - 72*time.Hour/10); !ann.RemindAt.Equal(want) {
		t.Errorf("alice's choice: RemindAt %v, want %v (her 10%%)", ann.RemindAt, want)
	}
	ann = must(t)(svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActChoose, GameID: ann.ID, Version: bot.AnyVersion, UserID: "alice", Choice: "opponent"}))
	if ann.Status != bot.GameActive || ann.ToAct != "bob" {
		t.Fatalf("after the choices: %s, %q to act", ann.Status, ann.ToAct)
	}
	// A game with moves, a takeback, a reminder setting that moves a
	// reminder.
	g := e.start(t, "chess")
	e.play(t, g.ID, "alice e4", "bob e5")
	clk.Advance(time.Hour)
	res := e.play(t, g.ID, "alice Nf3")
	if want := t0.Add(time.Hour + 72*time.Hour - 72*time.Hour/2); !res.Game.RemindAt.Equal(want) {
		t.Errorf("bob's turn: RemindAt %v, want %v (his 50%%)", res.Game.RemindAt, want)
	}
	must(t)(svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAskTakeback, GameID: g.ID, Version: bot.AnyVersion, UserID: "alice"}))
	g = must(t)(svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAcceptTakeback, GameID: g.ID, Version: bot.AnyVersion, UserID: "bob"}))
	if g.ToAct != "alice" || g.RemindAt.IsZero() {
		t.Fatalf("after the takeback: %q to act, RemindAt %v", g.ToAct, g.RemindAt)
	}
	if _, err := settings.SetReminder(ctx, "alice", 30); err != nil {
		t.Fatal(err)
	}
	if got := must(t)(svc.Views().Game(ctx, g.ID)); !got.RemindAt.Equal(got.Deadline.Add(-72 * time.Hour * 30 / 100)) {
		t.Errorf("after alice's new setting: RemindAt %v, deadline %v", got.RemindAt, got.Deadline)
	}
	// A note and a follower, who is told of the time-out below.
	if _, err := svc.Notes().Add(ctx, g.ID, "alice", "castle"); err != nil {
		t.Fatal(err)
	}
	must(t)(svc.Follow(ctx, g.ID, "carol"))
	// The sweep: a reminder, a time-out, an expired challenge.
	if _, err := svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "carol", Challenged: "dave", ChannelID: "chan", Variant: "chess", DaysPerMove: 3}); err != nil {
		t.Fatal(err)
	}
	clk.Advance(60 * time.Hour)
	if _, err := svc.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	clk.Advance(10 * 24 * time.Hour)
	rep, err := svc.Sweep(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if rep.TimedOut+rep.Aborted == 0 || rep.Expired == 0 {
		t.Errorf("the sweep did too little to be checked: %+v", rep)
	}
	if v := probe.Violations(); len(v) > 0 {
		t.Errorf("stores touched inside update functions: %q", v)
	}
	calls := probe.Calls()
	if calls["UpdateGame"]+calls["UpdateGameRated"] == 0 || calls["AnnotateGame"] == 0 || calls["UpdateChallenge"] == 0 || calls["UpdatePreferences"] == 0 ||
		calls["UpdateNote"] == 0 || calls["UpdateFollow"] == 0 {
		t.Errorf("not every kind of update was made: %v", calls)
	}
}

// interleaved is a GameStore that runs between(method) before each update
// reaches the store: what another request does meanwhile.
type interleaved struct {
	bot.GameStore
	between func(method string)
}

func (s interleaved) UpdateGame(ctx context.Context, id, expected uint64, fn func(*bot.Game) ([]bot.Notification, error)) (*bot.Game, error) {
	s.between("UpdateGame")
	return s.GameStore.UpdateGame(ctx, id, expected, fn)
}

func (s interleaved) AnnotateGame(ctx context.Context, id uint64, fn func(bot.Game, *bot.Annotations) ([]bot.Notification, error)) (*bot.Game, error) {
	s.between("AnnotateGame")
	return s.GameStore.AnnotateGame(ctx, id, fn)
}

// TestReminderSettingChangedDuringUpdate: the settings are read before an
// update, so a setting stored between that read and the update (by a
// SetReminder whose own rescheduling came too early to see the game) is
// applied all the same: the reminder follows the last setting stored,
// after a move and after a reschedule that raced with another.
func TestReminderSettingChangedDuringUpdate(t *testing.T) {
	db := testkit.OpenDB(t)
	clk := testkit.NewClock(t0)
	var between func(string)
	st := testkit.Stores(db)
	st.Ratings, st.Tournaments = nil, nil // rated updates would go round st.Games
	st.Games = interleaved{GameStore: db, between: func(m string) {
		if between != nil {
			f := between
			between = nil // once
			f(m)
		}
	}}
	svc := testkit.ServiceOver(t, st, clk)
	e := &env{db: db, svc: svc, prefs: prefs.New(svc, st.Users), clock: clk}
	setting := func(user string, percent int) {
		t.Helper()
		if _, err := db.UpdatePreferences(ctx, user, func(p *bot.Preferences) error { p.ReminderPercent = percent; return nil }); err != nil {
			t.Fatal(err)
		}
	}
	setting("bob", 50)
	g := e.start(t, "chess")

	// bob's setting changes after alice's move read it, before the move.
	between = func(string) { setting("bob", 10) }
	res := e.play(t, g.ID, "alice e4")
	if want := res.Game.Deadline.Add(-72 * time.Hour / 10); !res.Game.RemindAt.Equal(want) {
		t.Errorf("after the move: RemindAt %v, want %v (bob's 10%%, stored last)", res.Game.RemindAt, want)
	}
	if got := e.game(t, g.ID); !got.RemindAt.Equal(res.Game.RemindAt) {
		t.Errorf("stored RemindAt %v, the move returned %v", got.RemindAt, res.Game.RemindAt)
	}

	// bob sets 30%; another change (70%) is stored after this reschedule
	// read the setting, before it wrote the game.
	between = func(string) { setting("bob", 70) }
	if _, err := e.prefs.SetReminder(ctx, "bob", 30); err != nil {
		t.Fatal(err)
	}
	if got := e.game(t, g.ID); !got.RemindAt.Equal(got.Deadline.Add(-72 * time.Hour * 70 / 100)) {
		t.Errorf("after the reschedule: RemindAt %v, want bob's 70%% before %v", got.RemindAt, got.Deadline)
	}
}
