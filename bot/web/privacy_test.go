package web_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/web"
	"github.com/fairypost/fairypost/internal/testkit"
)

// TestNothingPrivate: a player's note and conditional line, and the
// game's followers, change nothing of its page, its alt texts or its
// boards: a fresh server over the same store after they are added gives
// the same bytes as before.
func TestNothingPrivate(t *testing.T) {
	opts := web.Options{BaseURL: "https://g.example.org"}
	f := newFixture(t, opts)
	g := f.newGame(t, "chess")
	testkit.Play(t, f.svc, g.ID, "alice e4", "bob e5", "alice Nf3")
	ctx := context.Background()
	paths := []string{"", "?ply=1", "/alts.json", "/board.png", "/game.pgn"}
	before := map[string]string{}
	for _, p := range paths {
		_, _, before[p] = get(t, f.url(g.ID, p))
	}
	if _, err := f.svc.Notes().Add(ctx, g.ID, "bob", "SECRET-PLAN: trade the queens"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Forecasting().AddForecast(ctx, g.ID, "alice", "Nc6 Bb5"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Follow(ctx, g.ID, "carol"); err != nil {
		t.Fatal(err)
	}
	fresh := newFixtureOver(t, f, opts)
	for _, p := range paths {
		_, _, after := get(t, fresh.url(g.ID, p))
		if after != before[p] {
			t.Errorf("%q changed once a note, a conditional line and a follower were added", p)
		}
		for _, secret := range []string{"SECRET-PLAN", "carol", "Bb5"} {
			if strings.Contains(after, secret) {
				t.Errorf("%q shows %q", p, secret)
			}
		}
	}
}

// TestPreGamePage: the page of a game waiting for its pre-game choice
// says who chooses what, names no colours, shows the drawn position as
// the thread does, and never the seed it was drawn from.
func TestPreGamePage(t *testing.T) {
	f := newFixture(t, web.Options{})
	g := f.newGame(t, "annihilation")
	if g.Status != bot.GameSetup || g.Setup == nil {
		t.Fatalf("an annihilation game starts in %v", g.Status)
	}
	status, _, body := get(t, f.url(g.ID, ""))
	if status != 200 {
		t.Fatalf("page: %d", status)
	}
	for _, want := range []string{"Before the game: Bob B. chooses the army they play", "<dt>Challenger</dt>", "No move yet."} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	_, _, alts := get(t, f.url(g.ID, "/alts.json"))
	for _, s := range []string{body, alts} {
		if strings.Contains(s, strconv.FormatUint(g.Setup.Seed, 10)) || strings.Contains(s, strconv.FormatUint(g.Setup.Seed, 16)) {
			t.Error("the page shows the seed of the random start")
		}
	}
	if !strings.Contains(alts, "choosing their armies") {
		t.Errorf("the alt text of the drawn position: %s", alts)
	}
	if status, h, _ := get(t, f.url(g.ID, "/board.png")); status != 200 || h.Get("Content-Type") != "image/png" {
		t.Errorf("the drawn position's board: %d", status)
	}
}
