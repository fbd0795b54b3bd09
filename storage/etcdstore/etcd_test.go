package etcdstore_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/storage"
	"github.com/fairypost/fairypost/storage/etcdstore"
	"github.com/fairypost/fairypost/storage/etcdstore/etcdtest"
	clientv3 "go.etcd.io/etcd/client/v3"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// addGame stores a challenge from white to black in channel and accepts
// it into an active game with a deadline.
func addGame(t *testing.T, s *etcdstore.Store, white, black, channel string) *bot.Game {
	t.Helper()
	ctx := t.Context()
	c := &bot.Challenge{Challenger: white, Challenged: black, ChannelID: channel, Variant: "chess",
		Color: bot.ColorWhite, Status: bot.ChallengePending, Expires: t0.Add(time.Hour), Created: t0, Updated: t0}
	if err := s.CreateChallenge(ctx, c, nil); err != nil {
		t.Fatal(err)
	}
	_, g, err := s.UpdateChallenge(ctx, c.ID, c.Version, func(c *bot.Challenge) (bot.ChallengeChange, error) {
		c.Status = bot.ChallengeAccepted
		return bot.ChallengeChange{Game: &bot.Game{Variant: "chess", White: white, Black: black, ChannelID: channel,
			Status: bot.GameActive, DaysPerMove: 3, Deadline: t0.Add(72 * time.Hour), Created: t0, Updated: t0}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestOneTransaction: a game update writes the record, its index entries
// and its notifications at one etcd revision, in the records of package
// storage, and removes the entries that no longer hold at that revision.
func TestOneTransaction(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	s := openStore(t, c)
	ctx := t.Context()
	g := addGame(t, s, "alice", "bob", "c1")
	_, err := s.UpdateGame(ctx, g.ID, g.Version, func(g *bot.Game) ([]bot.Notification, error) {
		g.Status, g.Result, g.Deadline, g.ChannelID = bot.GameFinished, bot.WhiteWins, time.Time{}, "c2"
		return []bot.Notification{{Text: "over"}, {Text: "over too"}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Client().Get(ctx, s.Prefix(), clientv3.WithPrefix())
	if err != nil {
		t.Fatal(err)
	}
	var gameRev int64
	keys := map[string]int64{}
	for _, kv := range r.Kvs {
		k := strings.TrimPrefix(string(kv.Key), s.Prefix())
		keys[k] = kv.ModRevision
		if strings.HasPrefix(k, "game/") {
			gameRev = kv.ModRevision
			stored, err := storage.DecodeGame(kv.Value)
			if err != nil || stored.Status != bot.GameFinished || stored.Version != 2 {
				t.Errorf("game record %s: %+v, %v", kv.Value, stored, err)
			}
		}
	}
	id := "\x00" + strings.Repeat("0", 15) + "1" // the game's ID, 1, as index keys end
	if rev, ok := keys["ix/games_by_channel/c2"+id]; !ok || rev != gameRev {
		t.Errorf("new index key: revision %d (present %v), want the game's %d", rev, ok, gameRev)
	}
	for _, k := range []string{"ix/games_by_user/alice" + id, "ix/games_by_user/bob" + id} {
		if rev, ok := keys[k]; !ok || rev >= gameRev {
			t.Errorf("index key %q: revision %d (present %v), want it kept from before %d", k, rev, ok, gameRev)
		}
	}
	notes := 0
	for k, rev := range keys {
		switch {
		case strings.HasPrefix(k, "outbox/"):
			notes++
			if rev != gameRev {
				t.Errorf("notification %s at revision %d, the game at %d", k, rev, gameRev)
			}
		case strings.HasPrefix(k, "ix/active_"), strings.HasPrefix(k, "ix/games_by_deadline/"), k == "ix/games_by_channel/c1"+id:
			t.Errorf("stale index key %q left", k)
		}
	}
	if notes != 2 {
		t.Errorf("%d notifications in etcd, want 2", notes)
	}
}

// TestPrefixesShareNothing: two stores on one cluster with different
// prefixes see nothing of each other, and IDs start afresh in each.
func TestPrefixesShareNothing(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	a, b := openStore(t, c), openStore(t, c)
	ga := addGame(t, a, "alice", "bob", "c1")
	gb := addGame(t, b, "alice", "bob", "c1")
	if ga.ID != 1 || gb.ID != 1 {
		t.Errorf("first IDs %d and %d, want 1 in each prefix", ga.ID, gb.ID)
	}
	addGame(t, a, "alice", "carol", "c1")
	if gs, _ := b.GamesByUser(t.Context(), "alice"); len(gs) != 1 {
		t.Errorf("b sees %d games of alice, want its 1", len(gs))
	}
	if ns, _ := b.PendingNotifications(t.Context(), t0, 0); len(ns) != 0 {
		t.Errorf("b sees a's notifications: %v", ns)
	}
}

// TestSchemaChecked: Open refuses a prefix written with another schema
// and says which.
func TestSchemaChecked(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	s := openStore(t, c)
	for value, want := range map[string]string{
		"99":  "schema version 99",
		"1":   "no migration",
		"two": "not a number",
	} {
		if _, err := s.Client().Put(t.Context(), s.Prefix()+"meta/schema", value); err != nil {
			t.Fatal(err)
		}
		_, err := etcdstore.Open(context.Background(), etcdstore.Options{Endpoints: c.Endpoints, Prefix: s.Prefix()})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("schema %q: Open error %v, want it to contain %q", value, err, want)
		}
	}
}

// TestOpenErrors: no endpoints, and endpoints nobody answers, are errors
// (the latter once the dial timeout has passed).
func TestOpenErrors(t *testing.T) {
	if _, err := etcdstore.Open(context.Background(), etcdstore.Options{}); err == nil {
		t.Error("Open with no endpoints succeeded")
	}
	_, err := etcdstore.Open(context.Background(), etcdstore.Options{Endpoints: []string{"http://127.0.0.1:9"}, DialTimeout: 200 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "127.0.0.1:9") || !strings.Contains(err.Error(), "no member answered within 200ms") {
		t.Errorf("Open on a closed port: %v", err)
	}
}

// TestMemberLost: on a three-member cluster, the store keeps working
// when one member stops, including the member it talked to first.
func TestMemberLost(t *testing.T) {
	c := etcdtest.Start(t, 3, etcdtest.Options{})
	s := openStore(t, c)
	g := addGame(t, s, "alice", "bob", "c1")
	c.Stop(0)
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	for i := range 10 {
		var err error
		if g, err = s.UpdateGame(ctx, g.ID, g.Version, func(g *bot.Game) ([]bot.Notification, error) {
			g.Moves = append(g.Moves, "m")
			return []bot.Notification{{Text: "n"}}, nil
		}); err != nil {
			t.Fatalf("update %d with a member down: %v", i, err)
		}
	}
	if ns, err := s.PendingNotifications(ctx, t0, 0); err != nil || len(ns) != 10 || g.Version != 11 {
		t.Errorf("version %d, %d notifications, %v", g.Version, len(ns), err)
	}
}

// TestListingAfterCompaction: a listing whose revision etcd compacted
// away before the records were read reads the index again.
func TestListingAfterCompaction(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	s := openStore(t, c)
	ctx := t.Context()
	g := addGame(t, s, "alice", "bob", "c1")
	old, err := s.Client().Get(ctx, "any")
	if err != nil {
		t.Fatal(err)
	}
	oldRev := old.Header.Revision
	g, err = s.UpdateGame(ctx, g.ID, g.Version, func(g *bot.Game) ([]bot.Notification, error) {
		g.Moves = append(g.Moves, "e2e4")
		return nil, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	now, _ := s.Client().Get(ctx, "any")
	if _, err := s.Client().Compact(ctx, now.Header.Revision); err != nil {
		t.Fatal(err)
	}
	calls := 0
	gs, err := s.ListGames(ctx, func() ([]uint64, int64, error) {
		calls++
		if calls == 1 {
			return []uint64{g.ID}, oldRev, nil // read before the compaction
		}
		return []uint64{g.ID}, now.Header.Revision, nil
	})
	if err != nil || len(gs) != 1 || gs[0].Version != g.Version || calls != 2 {
		t.Errorf("listing across a compaction: %v, %v after %d reads of the index; want the current game after 2", gs, err, calls)
	}
}
