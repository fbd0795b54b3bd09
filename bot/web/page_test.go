package web_test

import (
	"bytes"
	"context"
	"image/png"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/bot/web"
)

// TestFinishedGamePage: the page of a finished Cold Fusion game names
// the players, the variant with its rules page, the time control and
// the result; lists every ply as a link to its position, grouped by
// turns; unfurls (og tags); and its boards are PNGs that differ by ply.
func TestFinishedGamePage(t *testing.T) {
	f := newFixture(t, web.Options{BaseURL: "https://games.example.org"})
	g := f.newGame(t, "coldfusion")
	f.playOn(t, g.ID, 40)
	if _, err := f.svc.Act(context.Background(), gameplay.ActionRequest{Action: gameplay.ActResign, GameID: g.ID, UserID: "bob"}); err != nil {
		t.Fatal(err)
	}
	status, h, body := get(t, f.url(g.ID, ""))
	if status != 200 {
		t.Fatalf("page: %d %s", status, body)
	}
	for _, want := range []string{
		"Alice A.", "Bob B.", `<a href="/rules/coldfusion">Cold Fusion Chess</a>`, "3 days per move",
		"Alice A. (White) won by resignation, 1-0.",
		`<meta property="og:title" content="Alice A. vs Bob B. · Cold Fusion Chess · move 21">`,
		`<meta property="og:image" content="https://games.example.org/g/`,
		`<meta name="theme-color"`, `data-poll="0"`, `href="?ply=40" data-ply="40" aria-current="step"`,
		`/game.pgn" download>PGN</a>`, `/game.gif">Animated GIF</a>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if n := len(regexp.MustCompile(`<a href="\?ply=\d+" data-ply=`).FindAllString(body, -1)); n != 40 {
		t.Errorf("the page links %d plies, want 40", n)
	}
	if n := strings.Count(body, "<li>"); n != 20 {
		t.Errorf("the move list has %d turns, want 20 (one move each)", n)
	}
	if csp := h.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || h.Get("Referrer-Policy") != "no-referrer" {
		t.Errorf("headers: CSP %q, Referrer-Policy %q", csp, h.Get("Referrer-Policy"))
	}
	if regexp.MustCompile(`(src|href)="(https?:)?//`).MatchString(strings.ReplaceAll(body, `content="https://games.example.org`, "")) {
		t.Error("the page loads something from another address")
	}
	boards := map[string]bool{}
	for _, q := range []string{"?ply=0", "?ply=1", "?ply=40", "?ply=40&flip=1"} {
		status, h, img := get(t, f.url(g.ID, "/board.png"+q))
		if status != 200 || h.Get("Content-Type") != "image/png" {
			t.Fatalf("board %s: %d %s", q, status, h.Get("Content-Type"))
		}
		cfg, err := png.DecodeConfig(bytes.NewReader([]byte(img)))
		if err != nil || cfg.Width != web.DefaultBoardSize {
			t.Fatalf("board %s: %v, width %d", q, err, cfg.Width)
		}
		boards[img] = true
	}
	if len(boards) != 4 {
		t.Errorf("4 boards asked for, %d different", len(boards))
	}
	status, h, pgn := get(t, f.url(g.ID, "/game.pgn"))
	if want, _ := f.svc.Views().PGN(context.Background(), g.ID); status != 200 || pgn != want || !strings.Contains(h.Get("Content-Disposition"), "attachment") {
		t.Errorf("PGN: %d, %q, as /export: %v", status, h.Get("Content-Disposition"), pgn == want)
	}
	status, h, gif := get(t, f.url(g.ID, "/game.gif"))
	if status != 200 || h.Get("Content-Type") != "image/gif" || !strings.HasPrefix(gif, "GIF89a") {
		t.Errorf("GIF: %d %s", status, h.Get("Content-Type"))
	}
	status, _, rulesPage := get(t, f.http.URL+"/rules/coldfusion")
	if status != 200 || !strings.Contains(rulesPage, "Cold Fusion Chess") {
		t.Errorf("rules page: %d", status)
	}
}

// TestAccessRefused: a page is seen with its token only; a game ID
// alone, a forged or malformed token, another game's token are 404;
// bad queries 400; nothing but GET and HEAD without a body is served.
func TestAccessRefused(t *testing.T) {
	f := newFixture(t, web.Options{})
	g := f.newGame(t, "chess")
	other := f.newGame(t, "chess")
	good := web.Token(f.key, g.ID)
	forged := []byte(good)
	forged[0] ^= 1
	if forged[0] == good[0] {
		t.Fatal("forging failed")
	}
	base := f.http.URL + "/g/" + itoa(g.ID)
	for path, want := range map[string]int{
		base:                                    404,
		base + "/":                              404,
		base + "/" + string(forged):             404,
		base + "/" + good[:21]:                  404,
		base + "/" + good + "x":                 404,
		base + "/" + web.Token(f.key, other.ID): 404,
		base + "/" + web.Token([]byte("another key"), g.ID): 404,
		f.url(g.ID, "?ply=-1"):                              400,
		f.url(g.ID, "?ply=1e3"):                             400,
		f.url(g.ID, "?ply=999999"):                          400,
		f.url(g.ID, "?ply=1"):                               404, // no move yet
		f.url(g.ID, "?ply=0&ply=0"):                         400,
		f.url(g.ID, "?flip=2"):                              400,
		f.url(g.ID, "?x=1"):                                 400,
		f.url(g.ID, "?ply=%zz"):                             400,
		f.url(g.ID, "?ply="+strings.Repeat("0", 300)):       400,
		f.url(g.ID, "/nothing"):                             404,
		f.url(999, ""):                                      404,
		f.http.URL + "/g/0/" + good:                         404,
		f.http.URL + "/":                                    404,
		f.http.URL + "/assets/x.css":                        404,
		f.http.URL + "/rules/nope":                          404,
		f.url(g.ID, ""):                                     200,
		f.url(g.ID, "?ply=0&flip=1"):                        200,
	} {
		status, _, body := get(t, path)
		if status != want {
			t.Errorf("GET %s: %d, want %d (%s)", strings.TrimPrefix(path, f.http.URL), status, want, strings.TrimSpace(body))
		}
	}
	req, _ := http.NewRequest(http.MethodPost, f.url(g.ID, ""), nil)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 405 {
		t.Errorf("POST: %v %v", resp.StatusCode, err)
	}
	req, _ = http.NewRequest(http.MethodGet, f.url(g.ID, ""), strings.NewReader("body"))
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 413 {
		t.Errorf("GET with a body: %v %v", resp.StatusCode, err)
	}
	after, err := f.svc.Views().Game(context.Background(), g.ID)
	if err != nil || after.Version != g.Version {
		t.Errorf("the game changed: version %d, was %d (%v)", after.Version, g.Version, err)
	}
}
