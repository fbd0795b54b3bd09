package web_test

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/web"
)

// TestOngoingWinningGame: the page of a Winning Chess game in play says
// whose turn it is with the time left and polls; its move list groups
// the parts of a turn on one line as /history does; /state answers 304
// to the version the page has until a move is played, then the new
// version; the board of the old version's address is not cached for
// ever.
func TestOngoingWinningGame(t *testing.T) {
	f := newFixture(t, web.Options{PollInterval: 2 * time.Second})
	g := f.newGame(t, "winning")
	g = f.playOn(t, g.ID, 30)
	f.clock.Advance(25 * time.Hour)
	status, _, body := get(t, f.url(g.ID, ""))
	if status != 200 {
		t.Fatalf("page: %d", status)
	}
	who := map[string]string{"alice": "Alice A.", "bob": "Bob B."}[g.ToAct]
	if !regexp.MustCompile(regexp.QuoteMeta(who) + ` \((White|Black)\) to move, 1 day 23 hours left\.`).MatchString(body) {
		t.Errorf("the page does not say %s is to move with the time left:\n%s", who, between(body, `<p id="state"`, "</p>"))
	}
	if !strings.Contains(body, `data-poll="2000"`) {
		t.Error("the page of a game in play does not poll")
	}
	turns, err := f.svc.Views().Turns(context.Background(), g.ID)
	if err != nil {
		t.Fatal(err)
	}
	multi := 0
	for _, tn := range turns {
		if len(tn.Moves) > 1 {
			multi++
		}
	}
	if multi == 0 {
		t.Fatal("the game has no turn of several moves: the test shows nothing")
	}
	list := between(body, `<ol class="turns">`, "</ol>")
	if n := strings.Count(list, "<li>"); n != (len(turns)+1)/2 && n != len(turns)/2+1 {
		t.Errorf("%d lines for %d turns: want one line per full move", n, len(turns))
	}
	if !strings.Contains(list, "</a>, ") {
		t.Error("no line of the move list has several moves of one turn")
	}

	state := f.url(g.ID, "/state")
	status, h, st := get(t, state)
	etag := h.Get("ETag")
	if status != 200 || etag == "" {
		t.Fatalf("state: %d, ETag %q", status, etag)
	}
	var s struct {
		Version uint64
		Plies   int
	}
	if err := json.Unmarshal([]byte(st), &s); err != nil || s.Version != g.Version || s.Plies != len(g.Moves) {
		t.Fatalf("state %s (%v), want version %d and %d plies", st, err, g.Version, len(g.Moves))
	}
	if status, _, _ := get(t, state, "If-None-Match", etag); status != 304 {
		t.Errorf("state with the current ETag: %d, want 304", status)
	}
	old := f.url(g.ID, "/board.png?ply=3&v="+itoa(g.Version))
	_, h, _ = get(t, old)
	if !strings.Contains(h.Get("Cache-Control"), "immutable") {
		t.Errorf("the board of the current version: Cache-Control %q, want immutable", h.Get("Cache-Control"))
	}
	g2 := f.playOn(t, g.ID, 1)
	status, h, _ = get(t, state, "If-None-Match", etag)
	if status != 200 || h.Get("ETag") == etag {
		t.Errorf("state after a move: %d, ETag %q (was %q)", status, h.Get("ETag"), etag)
	}
	_, h, _ = get(t, old)
	if strings.Contains(h.Get("Cache-Control"), "immutable") {
		t.Error("the board of an old version's address is cached for ever")
	}
	_, _, body = get(t, f.url(g.ID, "?ply=3"))
	if !strings.Contains(body, `data-ply="3"`) || !strings.Contains(body, `data-plies="`+itoa(uint64(len(g2.Moves)))+`"`) {
		t.Error("the page at ply 3 after the move does not keep ply 3 with the new move count")
	}
}

// between returns what s holds between the first from and the to after
// it.
func between(s, from, to string) string {
	_, rest, ok := strings.Cut(s, from)
	if !ok {
		return ""
	}
	in, _, _ := strings.Cut(rest, to)
	return in
}

var _ = bot.AnyVersion
