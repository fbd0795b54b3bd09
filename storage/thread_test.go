package storage_test

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/fairypost/fairypost/bot"
)

// TestSetGameThreadKeepsVersion: recording where a game is posted changes
// ThreadID only, survives a reopen, and leaves the version (which buttons
// carry) as it was.
func TestSetGameThreadKeepsVersion(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fairypost.db")
	db := mustOpenDB(t, path)
	g := mustAddGame(t, db, "alice", "bob", "c1", "e2e4")
	if err := db.SetGameThread(ctx, g.ID, "thread-7"); err != nil {
		t.Fatal(err)
	}
	got, err := db.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.ThreadID != "thread-7" || got.Version != g.Version {
		t.Fatalf("after SetGameThread: thread %q version %d, want thread-7 version %d", got.ThreadID, got.Version, g.Version)
	}
	want := g.Clone()
	want.ThreadID = "thread-7"
	if !reflect.DeepEqual(want, got) {
		t.Fatalf("SetGameThread changed more than the thread:\n got %+v\nwant %+v", got, want)
	}
	if err := db.SetGameThread(ctx, g.ID+1000, "x"); bot.ErrorCode(err) != bot.ENOTFOUND {
		t.Fatalf("SetGameThread on a missing game: %v, want ENOTFOUND", err)
	}
	db.Close()
	db = mustOpenDB(t, path)
	if got, _ := db.Game(ctx, g.ID); got == nil || got.ThreadID != "thread-7" {
		t.Fatalf("thread lost on reopen: %+v", got)
	}
	if gs, err := db.GamesByUser(ctx, "alice"); err != nil || len(gs) != 1 {
		t.Fatalf("games by user after SetGameThread: %v, %v, want one", gs, err)
	}
}
