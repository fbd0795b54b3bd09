package storage_test

import (
	"errors"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
)

// TestAnnotateGameKeepsVersion: what is not play (the thread, reminder
// bookkeeping) changes without a new version, survives a reopen, moves the
// reminder index and appends its notifications; nothing else can change.
func TestAnnotateGameKeepsVersion(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fairypost.db")
	db := mustOpenDB(t, path)
	g := mustAddGame(t, db, "alice", "bob", "c1", "e2e4")
	at := time.Date(2026, 3, 3, 9, 0, 0, 0, time.UTC)
	got, err := db.AnnotateGame(ctx, g.ID, func(g bot.Game, a *bot.Annotations) ([]bot.Notification, error) {
		a.ThreadID, a.Reminded, a.RemindAt = "thread-7", true, at
		return []bot.Notification{{Kind: bot.NotifyReminder, UserID: "bob", GameID: g.ID, Text: "hurry"}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := g.Clone()
	want.ThreadID, want.Reminded, want.RemindAt = "thread-7", true, at
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("AnnotateGame returned\n %+v\nwant\n %+v", got, want)
	}
	if due, err := db.GamesToRemind(ctx, at); err != nil || len(due) != 1 || due[0].ID != g.ID {
		t.Fatalf("games to remind at %v: %v, %v; want game %d", at, due, err, g.ID)
	}
	if notes, _ := db.PendingNotifications(ctx, at, 0); len(notes) == 0 || notes[len(notes)-1].Text != "hurry" {
		t.Fatalf("the annotation's notification is not in the outbox: %+v", notes)
	}

	// AnnotateGame cannot change play: fn reads a copy of the game, and
	// only its annotations are stored.
	for name, change := range map[string]func(*bot.Game){
		"moves":    func(g *bot.Game) { g.Moves = append(g.Moves, "e7e5") },
		"status":   func(g *bot.Game) { g.Status = bot.GameFinished },
		"deadline": func(g *bot.Game) { g.Deadline = g.Deadline.Add(time.Hour) },
		"version":  func(g *bot.Game) { g.Version++ },
	} {
		got, err := db.AnnotateGame(ctx, g.ID, func(g bot.Game, a *bot.Annotations) ([]bot.Notification, error) {
			change(&g)
			return nil, nil
		})
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("annotation changing its copy's %s: %+v, %v; want %+v", name, got, err, want)
		}
	}
	// An error from fn changes nothing and comes back as it is.
	errStop := errors.New("stop")
	if _, err := db.AnnotateGame(ctx, g.ID, func(_ bot.Game, a *bot.Annotations) ([]bot.Notification, error) {
		a.ThreadID = "other"
		return nil, errStop
	}); !errors.Is(err, errStop) {
		t.Errorf("fn's error: got %v", err)
	}
	if _, err := db.AnnotateGame(ctx, g.ID+1000, func(bot.Game, *bot.Annotations) ([]bot.Notification, error) { return nil, nil }); bot.ErrorCode(err) != bot.ENOTFOUND {
		t.Errorf("a missing game: %v, want ENOTFOUND", err)
	}
	db.Close()
	db = mustOpenDB(t, path)
	if again, err := db.Game(ctx, g.ID); err != nil || !reflect.DeepEqual(again, want) {
		t.Fatalf("after reopening: %+v, %v; want %+v", again, err, want)
	}
}
