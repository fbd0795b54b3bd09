package command

import (
	"strings"
	"testing"
)

// /tournament refuses what does not make sense with a message and changes
// nothing; a Swiss is paired round by round.
func TestTournamentCommand(t *testing.T) {
	e := newEnv(t)
	e.refused("alice", "/tournament action:create", "needs variant:")
	e.refused("alice", "/tournament action:create variant:chess system:swiss", "rounds:")
	e.refused("alice", "/tournament action:create variant:chess rounds:3", "rounds: is for a Swiss")
	e.refused("alice", "/tournament action:create variant:annihilation", "pre-game choice")
	e.refused("alice", "/tournament action:create variant:chess options:bogus=1", "bogus")
	e.refused("alice", "/tournament action:join", "No tournament in this channel")
	e.refused("alice", "/tournament action:create variant:chess start:tomorrow", "start: write the date")
	e.refused("alice", "/tournament action:create variant:chess start:2020-01-01_10:00", "start: write the date")
	if list, _ := e.tours.InChannel(e.ctx, "c1"); len(list) != 0 {
		t.Fatalf("refusals made tournaments: %+v", list)
	}
	made := e.ok("alice", "/tournament action:create variant:chess system:swiss rounds:2 days:7 rated:no")
	for _, want := range []string{"Swiss of 2 rounds", "7 days per move", "casual (not rated)"} {
		if !strings.Contains(made.Text, want) {
			t.Errorf("create reply %q lacks %q", made.Text, want)
		}
	}
	join := button(t, made, "Join")
	e.refused("bob", "/tournament action:join variant:chess", "action:create only")
	if r := e.h.Press(e.ctx, clickIn("bob"), join); r.Ephemeral || !strings.Contains(r.Text, "2 players so far") {
		t.Fatalf("join button: %s", show(r))
	}
	e.refused("bob", "/tournament action:join", "already joined")
	e.refused("bob", "/tournament action:start", "Only the organiser")
	e.refused("alice", "/tournament action:start", "at least 3 players")
	e.ok("carol", "/tournament action:join")
	e.ok("dan", "/tournament action:join")
	other := parse("erin", "c1", "/tournament action:join id:1")
	other.GuildID = "g2"
	if r := e.h.Execute(e.ctx, other); !r.Ephemeral || !strings.Contains(r.Text, "no tournament 1") {
		t.Errorf("joining from another server: %s", show(r))
	}
	st := e.ok("erin", "/tournament action:standings")
	if len(st.Files) != 1 || !strings.Contains(st.Text, "open: 4 joined so far") {
		t.Errorf("standings of an open tournament: %s", show(st))
	}
	start := e.ok("alice", "/tournament action:start")
	if !strings.Contains(start.Text, "Swiss, 4 players") || !strings.Contains(start.Text, "2 games") {
		t.Fatalf("start: %q", start.Text)
	}
	tr, err := e.tours.Get(e.ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, tg := range tr.Games {
		e.ok(tg.White, "/resign game:"+itoa(tg.GameID))
	}
	if tr, _ = e.tours.Get(e.ctx, 1); len(tr.Games) != 4 || len(tr.Event.Schedule) != 2 {
		t.Fatalf("after round 1: %d games, %d rounds", len(tr.Games), len(tr.Event.Schedule))
	}
	e.refused("alice", "/tournament action:remove", "needs player:")
	e.refused("alice", "/tournament action:join player:bob", "player: is for remove only")
	e.refused("bob", "/tournament action:pause", "Only the organiser")
	if r := e.ok("alice", "/tournament action:pause"); !strings.Contains(r.Text, "is paused") {
		t.Errorf("pause: %q", r.Text)
	}
	if r := e.ok("alice", "/tournament action:resume"); !strings.Contains(r.Text, "goes on (running)") {
		t.Errorf("resume: %q", r.Text)
	}
	e.refused("bob", "/tournament action:remove player:dan", "Only the organiser")
	if r := e.ok("alice", "/tournament action:remove player:dan"); !strings.Contains(r.Text, "took <@dan> out") {
		t.Errorf("remove: %q", r.Text)
	}
	e.refused("bob", "/tournament action:cancel", "Only the organiser")
	manager := parse("erin", "c1", "/tournament action:pause")
	manager.Manager = true
	if r := e.h.Execute(e.ctx, manager); r.Ephemeral || !strings.Contains(r.Text, "is paused") {
		t.Errorf("a server manager pausing: %s", show(r))
	}
	e.ok("alice", "/tournament action:resume")
	for _, tg := range tr.Games[2:] {
		if g := e.game(tg.GameID); g.Ongoing() {
			e.ok(tg.White, "/resign game:"+itoa(tg.GameID))
		}
	}
	end := e.ok("alice", "/tournament action:standings")
	if !strings.Contains(end.Text, "finished") || len(end.Files) != 2 {
		t.Errorf("final standings: %s", show(end))
	}
	e.refused("alice", "/tournament action:cancel id:1", "finished")

	timed := parse("erin", "c1", "/tournament action:create variant:chess")
	timed.Options[optStart] = "2026-03-03 18:00"
	if r := e.h.Execute(e.ctx, timed); r.Ephemeral || !strings.Contains(r.Text, "starts by itself on 2026-03-03 18:00 UTC") {
		t.Errorf("a tournament with a start time: %s", show(r))
	}
}
