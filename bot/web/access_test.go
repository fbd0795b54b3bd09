package web_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/bot/web"
	"github.com/fairypost/fairypost/internal/testkit"
	"github.com/fairypost/fairypost/storage"
)

// countingGames is a GameStore that counts the games read.
type countingGames struct {
	bot.GameStore
	reads atomic.Int64
}

func (c *countingGames) Game(ctx context.Context, id uint64) (*bot.Game, error) {
	c.reads.Add(1)
	return c.GameStore.Game(ctx, id)
}

// TestForgedTokensReadNothing: a flood of forged tokens is answered 404
// without reading a game or the key again (it is read once per KeyTTL);
// rotating the secret revokes the old links once the key is read again,
// and the new links work.
func TestForgedTokensReadNothing(t *testing.T) {
	db := testkit.OpenDB(t)
	clock := testkit.NewClock(t0)
	games := &countingGames{GameStore: db}
	st := db.Stores()
	st.Games = games
	svc := testkit.ServiceOver(t, st, clock)
	ctx := context.Background()
	c, err := svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "alice", Challenged: "bob", Variant: "chess"})
	if err != nil {
		t.Fatal(err)
	}
	g, err := svc.Challenges().Accept(ctx, c.ID, c.Version, "bob", bot.Where{})
	if err != nil {
		t.Fatal(err)
	}
	var keyReads atomic.Int64
	now := t0
	srv, err := web.New(svc, web.Options{Rate: 1e6, Burst: 1e6, Now: func() time.Time { return now },
		Key: func(ctx context.Context) ([]byte, error) {
			keyReads.Add(1)
			s, err := db.EnsureSecret(ctx, storage.PageSecret)
			return s.Key, err
		}})
	if err != nil {
		t.Fatal(err)
	}
	sec, err := db.EnsureSecret(ctx, storage.PageSecret)
	if err != nil {
		t.Fatal(err)
	}
	serve := func(path string) int {
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
		return w.Code
	}
	good := "/g/" + itoa(g.ID) + "/" + web.Token(sec.Key, g.ID)
	if code := serve(good); code != 200 {
		t.Fatalf("the good link: %d", code)
	}
	games.reads.Store(0)
	for i := range 1000 {
		forged := web.Token([]byte{byte(i), byte(i >> 8)}, g.ID)
		if code := serve("/g/" + itoa(g.ID) + "/" + forged); code != 404 {
			t.Fatalf("forged token %s: %d", forged, code)
		}
	}
	if n := games.reads.Load(); n != 0 {
		t.Errorf("1000 forged tokens read %d games, want none", n)
	}
	if n := keyReads.Load(); n != 1 {
		t.Errorf("the key was read %d times, want once", n)
	}
	if _, err := db.RotateSecret(ctx, storage.PageSecret); err != nil {
		t.Fatal(err)
	}
	if code := serve(good); code != 200 {
		t.Errorf("the old link within KeyTTL of the rotation: %d, want 200 (the key is not read again yet)", code)
	}
	now = now.Add(web.KeyTTL)
	if code := serve(good); code != 404 {
		t.Errorf("the old link after the rotation: %d, want 404", code)
	}
	link, err := srv.Link(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if code := serve(link); code != 200 {
		t.Errorf("the new link %s: %d, want 200", link, code)
	}
}

// TestRateLimit: a client over its burst is answered 429 until its
// tokens come back; another client is not held back.
func TestRateLimit(t *testing.T) {
	now := t0
	f := newFixture(t, web.Options{Rate: 2, Burst: 5, Now: func() time.Time { return now }})
	serve := func(addr string, forwarded ...string) int {
		w := httptest.NewRecorder()
		r := httptest.NewRequest(http.MethodGet, "/rules/chess", nil)
		r.RemoteAddr = addr
		for _, f := range forwarded {
			r.Header.Add("X-Forwarded-For", f)
		}
		f.srv.ServeHTTP(w, r)
		return w.Code
	}
	for i := range 5 {
		if code := serve("10.0.0.1:1000"); code != 200 {
			t.Fatalf("request %d: %d", i+1, code)
		}
	}
	if code := serve("10.0.0.1:2000"); code != 429 {
		t.Errorf("the 6th request at once from one address: %d, want 429", code)
	}
	if code := serve("10.0.0.2:1000"); code != 200 {
		t.Errorf("another address: %d, want 200", code)
	}
	now = now.Add(time.Second)
	for i := range 2 {
		if code := serve("10.0.0.1:1000"); code != 200 {
			t.Errorf("a second later, request %d: %d, want 200 (2 a second)", i+1, code)
		}
	}
	if code := serve("10.0.0.1:1000"); code != 429 {
		t.Errorf("a third request in that second: %d, want 429", code)
	}
	// Behind a reverse proxy on this host: the address it forwards counts
	// (the last one: a client cannot choose it), not the proxy's.
	if code := serve("127.0.0.1:5000", "10.0.0.1"); code != 429 {
		t.Errorf("10.0.0.1 through the proxy: %d, want 429", code)
	}
	if code := serve("127.0.0.1:5000", "10.0.0.1, 10.0.0.3"); code != 200 {
		t.Errorf("10.0.0.3 through the proxy, claiming 10.0.0.1 first: %d, want 200", code)
	}
	if code := serve("10.0.0.4:5000", "10.0.0.1"); code != 200 {
		t.Errorf("X-Forwarded-For from a peer that is not on this host counted: %d", code)
	}
}

// TestHTTPServerTimeouts: the http.Server the pages are served with has
// a time limit on every stage of a connection and a bound on headers.
func TestHTTPServerTimeouts(t *testing.T) {
	hs := web.NewHTTPServer(http.NotFoundHandler())
	if hs.ReadHeaderTimeout <= 0 || hs.ReadTimeout <= 0 || hs.WriteTimeout <= 0 || hs.IdleTimeout <= 0 || hs.MaxHeaderBytes <= 0 || hs.MaxHeaderBytes > 64<<10 {
		t.Errorf("timeouts: header %v, read %v, write %v, idle %v; headers at most %d bytes",
			hs.ReadHeaderTimeout, hs.ReadTimeout, hs.WriteTimeout, hs.IdleTimeout, hs.MaxHeaderBytes)
	}
}

// TestHead: HEAD is answered as GET, without the body.
func TestHead(t *testing.T) {
	f := newFixture(t, web.Options{})
	g := f.newGame(t, "chess")
	resp, err := http.Head(f.url(g.ID, "/board.png"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/png" || resp.ContentLength <= 0 {
		t.Errorf("HEAD of a board: %d %s, length %d", resp.StatusCode, resp.Header.Get("Content-Type"), resp.ContentLength)
	}
}

// TestLinker: a Linker, made where no Server runs, gives the addresses
// the server answers (the token checked by the server), reading the key
// once for many links; a key it cannot read is an error, not a link.
func TestLinker(t *testing.T) {
	f := newFixture(t, web.Options{})
	g := f.newGame(t, "chess")
	var reads atomic.Int64
	l := web.NewLinker(f.http.URL+"/", func(ctx context.Context) ([]byte, error) {
		reads.Add(1)
		s, err := f.db.Secret(ctx, storage.PageSecret)
		return s.Key, err
	})
	ctx := context.Background()
	for range 3 {
		link, err := l.Link(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if link != f.url(g.ID, "") {
			t.Fatalf("link %s, want %s", link, f.url(g.ID, ""))
		}
		if code, _, _ := get(t, link); code != 200 {
			t.Fatalf("GET %s: %d", link, code)
		}
	}
	other, err := l.Link(ctx, g.ID+1)
	if err != nil {
		t.Fatal(err)
	}
	if code, _, _ := get(t, strings.Replace(other, "/g/"+itoa(g.ID+1)+"/", "/g/"+itoa(g.ID)+"/", 1)); code != 404 {
		t.Errorf("another game's token on game %d: %d, want 404", g.ID, code)
	}
	if n := reads.Load(); n != 1 {
		t.Errorf("the key was read %d times for 4 links, want once", n)
	}
	broken := web.NewLinker("https://games.example.org", func(context.Context) ([]byte, error) {
		return nil, errors.New("the store is down")
	})
	if link, err := broken.Link(ctx, g.ID); err == nil {
		t.Errorf("a key that cannot be read gave the link %q", link)
	}
}
