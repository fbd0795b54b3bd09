package storage_test

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/tournament"
)

// Tournaments round-trip with their event, create their games in the
// same transaction with IDs from the shared sequence, and keep the
// channel, running and start-time indexes; a failing update changes
// nothing.
func TestTournamentStore(t *testing.T) {
	db := mustOpenDB(t, "")
	e, err := tournament.NewEvent(tournament.RoundRobinKind, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"a", "b", "c"} {
		if e, err = e.Join(p); err != nil {
			t.Fatal(err)
		}
	}
	tr := &bot.Tournament{GuildID: "g", ChannelID: "chan", Organizer: "a", Variant: "chess", Options: "x=1", DaysPerMove: 3,
		Rated: true, StartAt: t0.Add(time.Hour), Event: e, Created: t0, Updated: t0}
	if err := db.CreateTournament(ctx, tr, nil); err != nil {
		t.Fatal(err)
	}
	c := mustAddGame(t, db, "x", "y", "chan") // takes the next ID of the shared sequence
	if tr.ID == 0 || tr.Version != 1 || c.ID == tr.ID {
		t.Fatalf("tournament %d v%d, game %d", tr.ID, tr.Version, c.ID)
	}
	got, err := db.Tournament(ctx, tr.ID)
	if err != nil || !reflect.DeepEqual(got, tr) {
		t.Fatalf("stored %+v, %v; want %+v", got, err, tr)
	}
	if due, _ := db.TournamentsToStart(ctx, t0); len(due) != 0 {
		t.Errorf("due before its time: %+v", due)
	}
	if due, _ := db.TournamentsToStart(ctx, t0.Add(time.Hour)); len(due) != 1 {
		t.Errorf("due at its time: %+v", due)
	}
	if at, _ := db.EarliestTournamentStart(ctx); !at.Equal(t0.Add(time.Hour)) {
		t.Errorf("earliest start %v", at)
	}

	boom := errors.New("boom")
	_, err = db.UpdateTournament(ctx, tr.ID, tr.Version, func(tr *bot.Tournament, newID func() (uint64, error)) (bot.TournamentChange, error) {
		id, _ := newID()
		tr.Organizer = "z"
		return bot.TournamentChange{Games: []*bot.Game{{ID: id, Variant: "chess", White: "a", Black: "b"}}}, boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("failing update: %v", err)
	}
	if _, err := db.UpdateTournament(ctx, tr.ID, 7, func(*bot.Tournament, func() (uint64, error)) (bot.TournamentChange, error) {
		return bot.TournamentChange{}, nil
	}); bot.ErrorCode(err) != bot.ECONFLICT {
		t.Errorf("stale version: %v", err)
	}
	if _, err := db.UpdateTournament(ctx, tr.ID, bot.AnyVersion, func(*bot.Tournament, func() (uint64, error)) (bot.TournamentChange, error) {
		return bot.TournamentChange{Games: []*bot.Game{{ID: 999, Variant: "chess"}}}, nil
	}); bot.ErrorCode(err) != bot.EINTERNAL {
		t.Errorf("a game whose ID the update did not give: %v", err)
	}

	var gameID uint64
	out, err := db.UpdateTournament(ctx, tr.ID, tr.Version, func(tr *bot.Tournament, newID func() (uint64, error)) (bot.TournamentChange, error) {
		e, err := tr.Event.Start(tr.Event.Players)
		if err != nil {
			return bot.TournamentChange{}, err
		}
		tr.Event = e
		if gameID, err = newID(); err != nil {
			return bot.TournamentChange{}, err
		}
		p := e.Schedule[0].Games[0]
		tr.Games = append(tr.Games, bot.TournamentGame{Round: 1, White: p.White, Black: p.Black, GameID: gameID})
		return bot.TournamentChange{Games: []*bot.Game{{ID: gameID, Variant: "chess", White: p.White, Black: p.Black, ChannelID: "chan",
			Status: bot.GameActive, Tournament: tr.ID, Created: t0, Updated: t0}},
			Notifications: []bot.Notification{{Kind: bot.NotifyTournament, ChannelID: "chan", Text: "paired", Created: t0}}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if out.Version != 2 || out.Event.Status != tournament.Running || len(out.Event.Schedule) != 3 {
		t.Fatalf("started: %+v", out)
	}
	g, err := db.Game(ctx, gameID)
	if err != nil || g.Version != 1 || g.Tournament != tr.ID || gameID <= c.ID {
		t.Fatalf("created game %+v, %v", g, err)
	}
	if got, _ := db.Tournament(ctx, tr.ID); !reflect.DeepEqual(got, out) {
		t.Errorf("stored %+v, returned %+v", got, out)
	}
	if run, _ := db.RunningTournaments(ctx); len(run) != 1 || run[0].ID != tr.ID {
		t.Errorf("running: %+v", run)
	}
	if due, _ := db.TournamentsToStart(ctx, t0.Add(time.Hour)); len(due) != 0 {
		t.Errorf("a started tournament is still due to start: %+v", due)
	}
	if list, _ := db.TournamentsByChannel(ctx, "chan"); len(list) != 1 {
		t.Errorf("by channel: %+v", list)
	}
	if ns, _ := db.PendingNotifications(ctx, t0, 0); len(ns) != 2 || ns[1].Text != "paired" {
		t.Errorf("outbox %+v", ns)
	}
}
