package discord_test

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/command"
	"github.com/fairypost/fairypost/bot/discord"
	"github.com/fairypost/fairypost/bot/discordtest"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/bot/prefs"
	"github.com/fairypost/fairypost/bot/ratings"
	"github.com/fairypost/fairypost/internal/testkit"
	"github.com/fairypost/fairypost/rules"
	"github.com/fairypost/fairypost/storage"
)

// failingGuard is a bot.ReplayGuard that fails while down is set (a
// store that cannot be reached) and asks guard otherwise.
type failingGuard struct {
	guard bot.ReplayGuard
	down  atomic.Bool
	calls atomic.Int64
}

func (g *failingGuard) FirstSeen(ctx context.Context, key string, until time.Time) (bool, error) {
	g.calls.Add(1)
	if g.down.Load() {
		return false, errors.New("the store is unreachable")
	}
	return g.guard.FirstSeen(ctx, key, until)
}

// startWorker starts an HTTP-only bot (OpenHTTP) on db, as one worker
// behind Discord's load balancer, with its own interactions endpoint
// (an httptest server) and guard as its replay guard; it returns the
// bot and the endpoint's URL. Both stop when t ends.
func startWorker(t *testing.T, srv *discordtest.Server, db *storage.DB, guard bot.ReplayGuard) (*harness, string) {
	t.Helper()
	reg, err := rules.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	logs := &testkit.Buffer{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	clk := newClock()
	st := testkit.Stores(db)
	svc := gameplay.NewService(st, reg, gameplay.Clock(clk.Now))
	ratings.Register(svc) // as cmd/fairypost wires it
	settings := prefs.New(svc, st.Users)
	cmds := &slowCommands{Commands: command.New(svc, settings, command.Options{BoardSize: boardSize, Logger: log})}
	b, err := discord.New(svc, settings, cmds, discord.Options{Token: "test-token", APIURL: srv.URL(), GuildID: guildID,
		DeferAfter: deferAfter, ShutdownTimeout: 5 * time.Second, Logger: log,
		PublicKey: srv.PublicKey(), ReplayGuard: guard})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.OpenHTTP(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	handler, err := b.InteractionsHandler()
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(handler)
	t.Cleanup(ts.Close)
	h := &harness{srv: srv, db: db, svc: svc, prefs: settings, cmds: cmds, b: b, clk: clk, logs: logs}
	return h, ts.URL + "/interactions"
}

// TestHTTPReplayToAnotherWorker: two workers serve the interactions
// endpoint on one bbolt database (one process, two endpoints, each with
// its own memory of signatures), sharing the database's replay guard. A
// signed /challenge answered by worker A and then replayed, byte for
// byte, to worker B is refused by B with 401 and makes no second
// challenge. While the guard fails, a request is refused with 503 and
// changes nothing, and is not taken for a replay once the guard works
// again.
func TestHTTPReplayToAnotherWorker(t *testing.T) {
	srv := newFake()
	t.Cleanup(srv.Close)
	db := testkit.OpenDBAt(t, filepath.Join(t.TempDir(), "bot.db"))
	guard := &failingGuard{guard: db}
	a, urlA := startWorker(t, srv, db, guard)
	_, urlB := startWorker(t, srv, db, guard)
	ctx := ctxT(t)
	ch := a.channel(t)
	u := a.users(t, "alice", "bob")
	challenge := []discordtest.Arg{discordtest.String("variant", "chess"), discordtest.User("opponent", u[1]),
		discordtest.Int("days", 0)}

	srv.SetInteractionsEndpoint(urlA)
	before := dump(t, a)
	ix, err := srv.Slash(u[0], ch, "challenge", challenge...)
	if err != nil {
		t.Fatal(err)
	}
	public(t, a.shown(t, ix))
	if d, err := ix.Delivery(ctx); err != nil || d.Status != http.StatusOK || d.Endpoint != urlA {
		t.Fatalf("the challenge was answered %d by %s, err %v; want 200 by worker A", d.Status, d.Endpoint, err)
	}
	made := dump(t, a)
	if len(made.Challenges) != len(before.Challenges)+1 {
		t.Fatalf("%d challenges after one /challenge, want %d", len(made.Challenges), len(before.Challenges)+1)
	}
	d, err := srv.ReplayTo(ctx, ix, urlB)
	if err != nil || d.Status != http.StatusUnauthorized {
		t.Errorf("the challenge replayed to worker B answered %d %q, err %v; want 401", d.Status, d.Body, err)
	}
	if after := dump(t, a); !reflect.DeepEqual(made, after) {
		t.Errorf("the replay to worker B changed the database: %d challenges, want %d", len(after.Challenges), len(made.Challenges))
	}
	if n := len(srv.Messages(ch)); n != 1 {
		t.Errorf("%d messages after one challenge and its replay, want 1", n)
	}

	// The guard fails: the request is refused with 503 and changes
	// nothing; once the guard works, the same bytes are served once.
	guard.down.Store(true)
	srv.SetInteractionsEndpoint(urlB)
	ix2, err := srv.Slash(u[1], ch, "challenge", discordtest.String("variant", "chess"), discordtest.User("opponent", u[0]))
	if err != nil {
		t.Fatal(err)
	}
	if d, err := ix2.Delivery(ctx); err != nil || d.Status != http.StatusServiceUnavailable {
		t.Errorf("with the guard failing: answered %d %q, err %v; want 503", d.Status, d.Body, err)
	}
	if after := dump(t, a); !reflect.DeepEqual(made, after) {
		t.Errorf("a request refused with 503 changed the database")
	}
	guard.down.Store(false)
	if d, err := srv.ReplayTo(ctx, ix2, urlB); err != nil || d.Status != http.StatusOK {
		t.Errorf("the same request once the guard works: answered %d %q, err %v; want 200 (it was never served)", d.Status, d.Body, err)
	}
	if n := len(dump(t, a).Challenges); n != len(made.Challenges)+1 {
		t.Errorf("%d challenges after the request was served, want %d", n, len(made.Challenges)+1)
	}
	if d, err := srv.ReplayTo(ctx, ix2, urlA); err != nil || d.Status != http.StatusUnauthorized {
		t.Errorf("that request replayed to worker A: answered %d %q, err %v; want 401", d.Status, d.Body, err)
	}
	if n := len(dump(t, a).Challenges); n != len(made.Challenges)+1 {
		t.Errorf("%d challenges after the replay, want %d", n, len(made.Challenges)+1)
	}
}
