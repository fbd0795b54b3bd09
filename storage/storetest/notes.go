package storetest

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
)

// testNoteStore: a note is kept per game and user, returned as stored,
// listed by user, removed by an empty text; fn's error changes nothing
// and comes back as it is; the game's record and version do not change.
func testNoteStore(t *testing.T, s gameplay.Stores) {
	ctx := t.Context()
	if s.Notes == nil {
		t.Fatal("the backend keeps no notes (bot.Stores.Notes)")
	}
	g := mustGame(t, s, "alice", "bob", "c1")
	other := mustGame(t, s, "alice", "carol", "c1")
	if n, err := s.Notes.Note(ctx, g.ID, "alice"); err != nil || n != "" {
		t.Errorf("no note yet: %q, %v", n, err)
	}
	update := func(id uint64, user string, fn func(string) (string, error)) (string, error) {
		t.Helper()
		return s.Notes.UpdateNote(ctx, id, user, fn)
	}
	set := func(text string) func(string) (string, error) {
		return func(string) (string, error) { return text, nil }
	}
	if got, err := update(g.ID, "bob", set("trade queens")); err != nil || got != "trade queens" {
		t.Fatalf("bob's note: %q, %v", got, err)
	}
	if got, err := update(g.ID, "alice", set("castle long")); err != nil || got != "castle long" {
		t.Fatalf("alice's note: %q, %v", got, err)
	}
	if _, err := update(other.ID, "alice", set("other game")); err != nil {
		t.Fatal(err)
	}
	// fn gets the note as stored.
	got, err := update(g.ID, "alice", func(old string) (string, error) { return old + "\nthen h4", nil })
	if err != nil || got != "castle long\nthen h4" {
		t.Errorf("appending: %q, %v", got, err)
	}
	want := []bot.Note{{GameID: g.ID, UserID: "alice", Text: "castle long\nthen h4"}, {GameID: g.ID, UserID: "bob", Text: "trade queens"}}
	if ns, err := s.Notes.Notes(ctx, g.ID); err != nil || !reflect.DeepEqual(ns, want) {
		t.Errorf("Notes(%d) = %+v, %v; want %+v", g.ID, ns, err, want)
	}
	// An error changes nothing and comes back as it is.
	if _, err := update(g.ID, "alice", func(string) (string, error) { return "lost", errRefused }); err != errRefused {
		t.Errorf("fn's error came back as %v", err)
	}
	if n, _ := s.Notes.Note(ctx, g.ID, "alice"); n != "castle long\nthen h4" {
		t.Errorf("after a refused update: %q", n)
	}
	// An empty text removes the note, and only that one.
	if got, err := update(g.ID, "alice", set("")); err != nil || got != "" {
		t.Errorf("removing: %q, %v", got, err)
	}
	if ns, err := s.Notes.Notes(ctx, g.ID); err != nil || !reflect.DeepEqual(ns, want[1:]) {
		t.Errorf("after removing alice's: %+v, %v", ns, err)
	}
	if n, _ := s.Notes.Note(ctx, other.ID, "alice"); n != "other game" {
		t.Errorf("the note on the other game: %q", n)
	}
	if _, err := update(g.ID, "", set("x")); bot.ErrorCode(err) != bot.EINVALID {
		t.Errorf("a note without a user: %v, want EINVALID", err)
	}
	if after := mustGet(t, s, g.ID); !reflect.DeepEqual(after, g) {
		t.Errorf("notes changed the game:\n%+v\nwant\n%+v", after, g)
	}
}

// testFollowStore: following is kept per game and user, listed by user;
// fn sees whether the user follows and how many do; its error changes
// nothing; the game does not change.
func testFollowStore(t *testing.T, s gameplay.Stores) {
	ctx := t.Context()
	if s.Follows == nil {
		t.Fatal("the backend keeps no follows (bot.Stores.Follows)")
	}
	g := mustGame(t, s, "alice", "bob", "c1")
	other := mustGame(t, s, "alice", "bob", "c1")
	follow := func(id uint64, user string, to bool) (seen bool, count int, err error) {
		t.Helper()
		err = s.Follows.UpdateFollow(ctx, id, user, func(follows bool, n int) (bool, error) {
			seen, count = follows, n
			return to, nil
		})
		return seen, count, err
	}
	for i, u := range []string{"dave", "carol", "erin"} {
		if seen, n, err := follow(g.ID, u, true); err != nil || seen || n != i {
			t.Errorf("%s follows: saw %v, %d; %v; want false, %d", u, seen, n, err, i)
		}
	}
	if _, _, err := follow(other.ID, "carol", true); err != nil {
		t.Fatal(err)
	}
	if fs, err := s.Follows.Followers(ctx, g.ID); err != nil || !slices.Equal(fs, []string{"carol", "dave", "erin"}) {
		t.Errorf("Followers(%d) = %v, %v", g.ID, fs, err)
	}
	if seen, n, err := follow(g.ID, "carol", true); err != nil || !seen || n != 3 {
		t.Errorf("carol again: saw %v, %d; %v", seen, n, err)
	}
	if _, _, err := follow(g.ID, "dave", false); err != nil {
		t.Fatal(err)
	}
	if fs, _ := s.Follows.Followers(ctx, g.ID); !slices.Equal(fs, []string{"carol", "erin"}) {
		t.Errorf("after dave stopped: %v", fs)
	}
	if fs, _ := s.Follows.Followers(ctx, other.ID); !slices.Equal(fs, []string{"carol"}) {
		t.Errorf("the other game: %v", fs)
	}
	err := s.Follows.UpdateFollow(ctx, g.ID, "frank", func(bool, int) (bool, error) { return true, errRefused })
	if err != errRefused {
		t.Errorf("fn's error came back as %v", err)
	}
	if fs, _ := s.Follows.Followers(ctx, g.ID); !slices.Equal(fs, []string{"carol", "erin"}) {
		t.Errorf("after a refused follow: %v", fs)
	}
	if err := s.Follows.UpdateFollow(ctx, g.ID, "", func(bool, int) (bool, error) { return true, nil }); bot.ErrorCode(err) != bot.EINVALID {
		t.Errorf("a follow without a user: %v, want EINVALID", err)
	}
	if fs, err := s.Follows.Followers(ctx, 999); err != nil || fs != nil {
		t.Errorf("followers of a game nobody follows: %v, %v", fs, err)
	}
	if after := mustGet(t, s, g.ID); !reflect.DeepEqual(after, g) {
		t.Errorf("follows changed the game:\n%+v\nwant\n%+v", after, g)
	}
}

// testFollowLimitHeld: many users following at once, each allowed only
// while fewer than limit follow, leave exactly limit followers: the
// count fn sees and the write are one transaction.
func testFollowLimitHeld(t *testing.T, s gameplay.Stores) {
	ctx := t.Context()
	g := mustGame(t, s, "alice", "bob", "c1")
	const workers, limit = 12, 5
	errFull := errors.New("full")
	var wg sync.WaitGroup
	start := make(chan struct{})
	for w := range workers {
		wg.Go(func() {
			<-start
			err := s.Follows.UpdateFollow(ctx, g.ID, fmt.Sprint("fan", w), func(follows bool, n int) (bool, error) {
				if n >= limit {
					return follows, errFull
				}
				return true, nil
			})
			if err != nil && err != errFull {
				t.Errorf("fan %d: %v", w, err)
			}
		})
	}
	close(start)
	wg.Wait()
	if fs, err := s.Follows.Followers(ctx, g.ID); err != nil || len(fs) != limit {
		t.Errorf("%d followers (%v, %v), want exactly %d", len(fs), fs, err, limit)
	}
}
