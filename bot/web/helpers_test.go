package web_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/bot/web"
	"github.com/fairypost/fairypost/internal/testkit"
	"github.com/fairypost/fairypost/rules"
	"github.com/fairypost/fairypost/storage"
)

// t0 is when the tests' games start.
var t0 = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

// fixture is a database with a Service and a page Server over it.
type fixture struct {
	db    *storage.DB
	clock *testkit.Clock
	svc   *gameplay.Service
	srv   *web.Server
	http  *httptest.Server
	key   []byte
}

// newFixture opens a database with its page secret, a Service and a
// Server (options opts, whose Key is set here) served by httptest.
func newFixture(tb testing.TB, opts web.Options) *fixture {
	tb.Helper()
	f := &fixture{db: testkit.OpenDB(tb), clock: testkit.NewClock(t0)}
	f.svc = testkit.Service(tb, f.db, f.clock)
	sec, err := f.db.EnsureSecret(context.Background(), storage.PageSecret)
	if err != nil {
		tb.Fatal(err)
	}
	f.key = sec.Key
	opts.Key = func(ctx context.Context) ([]byte, error) {
		s, err := f.db.Secret(ctx, storage.PageSecret)
		return s.Key, err
	}
	if opts.Names == nil {
		opts.Names = func(_ context.Context, _, id string) string {
			return map[string]string{"alice": "Alice A.", "bob": "Bob B."}[id]
		}
	}
	if f.srv, err = web.New(f.svc, opts); err != nil {
		tb.Fatal(err)
	}
	f.http = httptest.NewServer(f.srv)
	tb.Cleanup(f.http.Close)
	return f
}

// newFixtureOver returns a fixture with a new Server (nothing cached)
// over the database, Service and secret of f, with options opts (whose
// Key and Names are set here).
func newFixtureOver(tb testing.TB, f *fixture, opts web.Options) *fixture {
	tb.Helper()
	g := *f
	opts.Key = func(context.Context) ([]byte, error) { return f.key, nil }
	opts.Names = func(_ context.Context, _, id string) string {
		return map[string]string{"alice": "Alice A.", "bob": "Bob B."}[id]
	}
	srv, err := web.New(f.svc, opts)
	if err != nil {
		tb.Fatal(err)
	}
	g.srv = srv
	g.http = httptest.NewServer(srv)
	tb.Cleanup(g.http.Close)
	return &g
}

// newGame starts a game of variant between alice (White) and bob.
func (f *fixture) newGame(tb testing.TB, variant string) *bot.Game {
	tb.Helper()
	ctx := context.Background()
	c, err := f.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "alice", Challenged: "bob", Variant: variant, DaysPerMove: 3, ChannelID: "chan"})
	if err != nil {
		tb.Fatal(err)
	}
	g, err := f.svc.Challenges().Accept(ctx, c.ID, c.Version, "bob", bot.Where{ChannelID: "chan"})
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// playOn plays n more plies in game id through the Service, each the
// legal move a fixed sequence picks among those that do not end the
// game; it fails tb when no such move is left.
func (f *fixture) playOn(tb testing.TB, id uint64, n int) *bot.Game {
	tb.Helper()
	ctx := context.Background()
	var g *bot.Game
	for i := range n {
		var rg *rules.Game
		var err error
		g, rg, err = f.svc.Views().Replay(ctx, id)
		if err != nil {
			tb.Fatal(err)
		}
		p := rg.Position()
		legal := rg.Legal()
		pick := -1
		for j := range legal {
			k := (j + 7*len(rg.Moves()) + 3*i) % len(legal)
			try := rg.Fork()
			if try.Play(legal[k]) == nil && !try.Outcome().Over() && len(try.Legal()) > 0 {
				pick = k
				break
			}
		}
		if pick < 0 {
			tb.Fatalf("game %d: no move at ply %d keeps the game going", id, len(rg.Moves()))
		}
		f.clock.Advance(time.Hour)
		res, err := f.svc.Move(ctx, gameplay.MoveRequest{GameID: id, UserID: g.ToAct, Move: rules.FormatMove(&p, legal[pick])})
		if err != nil {
			tb.Fatalf("ply %d: %v", len(rg.Moves())+1, err)
		}
		g = res.Game
	}
	return g
}

// url is the address of game id's page (path: what follows it).
func (f *fixture) url(id uint64, path string) string {
	return f.http.URL + "/g/" + itoa(id) + "/" + web.Token(f.key, id) + path
}

// get fetches url and returns the status, the headers and the body.
func get(tb testing.TB, url string, header ...string) (int, http.Header, string) {
	tb.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		tb.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatal(err)
	}
	return resp.StatusCode, resp.Header, string(b)
}

func itoa(n uint64) string { return strconv.FormatUint(n, 10) }
