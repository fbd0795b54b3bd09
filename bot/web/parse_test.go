package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/internal/testkit"
	"github.com/fairypost/fairypost/storage"
)

// FuzzParseRequest: whatever the path and query, parseRequest answers a
// status of 400 or 404, or a request within its bounds.
func FuzzParseRequest(f *testing.F) {
	tok := strings.Repeat("A", TokenLength)
	for _, s := range [][2]string{
		{"/g/1/" + tok, "ply=3&flip=1"}, {"/g/1/" + tok + "/board.png", "ply=0&v=7"}, {"/g/18446744073709551615/" + tok, ""},
		{"/g/-1/" + tok, ""}, {"/g/1/" + tok, "ply=-1"}, {"/g/1/" + tok, "ply=99999999999999999999"}, {"/assets/page.css", ""},
		{"/rules/chess", "x"}, {"/g/1/" + tok + "/state", ""}, {"//g/1", ";;"}, {"/g/1/" + tok, "%"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, path, query string) {
		req, status := parseRequest(path, query)
		switch status {
		case 400, 404:
			return
		case 0:
		default:
			t.Fatalf("status %d", status)
		}
		if len(path) > maxPath || len(query) > maxQuery {
			t.Fatalf("accepted a path of %d bytes and a query of %d", len(path), len(query))
		}
		switch req.kind {
		case kindAsset, kindRules:
			if !validName(req.name) {
				t.Fatalf("accepted name %q", req.name)
			}
		case kindPage, kindBoard, kindGIF, kindPGN, kindState, kindAlts:
			if req.id == 0 || len(req.token) != TokenLength || req.ply < -1 || req.ply > maxPly {
				t.Fatalf("accepted %+v", req)
			}
		default:
			t.Fatalf("accepted a request of kind %q", req.kind)
		}
	})
}

// FuzzServe: whatever the path and query of a GET, the Server answers
// with a plain status (no 5xx), never panics and changes nothing; a
// request with the right token for game 1 may succeed.
func FuzzServe(f *testing.F) {
	db := testkit.OpenDB(f)
	clock := testkit.NewClock(time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC))
	svc := testkit.Service(f, db, clock)
	ctx := context.Background()
	c, err := svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "alice", Challenged: "bob", Variant: "chess", DaysPerMove: 3})
	if err != nil {
		f.Fatal(err)
	}
	g, err := svc.Challenges().Accept(ctx, c.ID, c.Version, "bob", bot.Where{})
	if err != nil {
		f.Fatal(err)
	}
	testkit.Play(f, svc, g.ID, "alice e4", "bob e5")
	sec, err := db.EnsureSecret(ctx, storage.PageSecret)
	if err != nil {
		f.Fatal(err)
	}
	srv, err := New(svc, Options{Key: func(context.Context) ([]byte, error) { return sec.Key, nil }, Rate: 1e9, Burst: 1e9})
	if err != nil {
		f.Fatal(err)
	}
	tok := Token(sec.Key, g.ID)
	before, _ := svc.Views().Game(ctx, g.ID)
	f.Cleanup(func() {
		if after, _ := svc.Views().Game(ctx, g.ID); after.Version != before.Version {
			f.Errorf("the game changed: version %d, was %d", after.Version, before.Version)
		}
	})
	for _, s := range [][2]string{
		{"/g/1/" + tok, "ply=2"}, {"/g/1/" + tok + "/board.png", "ply=1&flip=1"}, {"/g/1/" + tok + "/alts.json", "v=3"},
		{"/g/1/" + tok, "ply=3"}, {"/g/1/" + tok + "/game.pgn", ""}, {"/g/1/" + tok + "/state", ""}, {"/rules/chess", ""},
		{"/g/1/" + tok[:21] + "B", ""}, {"/g/01/" + tok, ""}, {"/g/1/" + tok, "ply=00000"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, path, query string) {
		u := &url.URL{Scheme: "http", Host: "example.org", RawPath: path, Path: path, RawQuery: query}
		if p, err := url.PathUnescape(path); err == nil {
			u.Path = p
		} else {
			u.RawPath = ""
		}
		r := httptest.NewRequest(http.MethodGet, "http://example.org/", nil)
		r.URL = u
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		switch w.Code {
		case 200, 304, 400, 404:
		default:
			t.Fatalf("GET %q ? %q: status %d: %s", path, query, w.Code, w.Body.String())
		}
		if w.Header().Get("Content-Security-Policy") == "" {
			t.Fatal("an answer without its Content-Security-Policy")
		}
	})
}

// TestTokenOneText: a token is valid only as Token writes it; the texts
// that decode to the same bytes (the unused bits of the last character
// changed) are not, nor any change of one character.
func TestTokenOneText(t *testing.T) {
	key := []byte("a key")
	for id := uint64(1); id < 200; id++ {
		tok := Token(key, id)
		if !validToken(key, id, tok) || validToken(key, id+1, tok) || validToken([]byte("another"), id, tok) {
			t.Fatalf("game %d: the token %s is not valid for its game alone", id, tok)
		}
		const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
		for i := range tok {
			for _, c := range alphabet {
				if byte(c) == tok[i] {
					continue
				}
				forged := tok[:i] + string(c) + tok[i+1:]
				if validToken(key, id, forged) {
					t.Fatalf("game %d: %s is taken for %s", id, forged, tok)
				}
			}
		}
	}
}
