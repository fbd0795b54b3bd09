// Package storetest is the conformance suite of the stores of package
// bot (GameStore, ChallengeStore, UserStore, Outbox, NoteStore,
// FollowStore, RatingStore, TournamentStore): every contract
// their documentation states, as tests that any backend must pass. Each
// backend's tests call Run with a function opening a fresh, empty store:
// package storage (bbolt) and package storage/etcdstore (etcd) do.
package storetest

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
)

// T0 is the time the suite's records start from.
var T0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// Open returns the stores of a fresh, empty backend for test t, closed
// when t ends: every store of bot.Stores (a missing one fails the tests
// that need it). All may be one value.
type Open func(t *testing.T) gameplay.Stores

// Run runs every conformance test as a subtest of t, each on a store of
// its own from open.
func Run(t *testing.T, open Open) {
	tests := []struct {
		name string
		fn   func(*testing.T, gameplay.Stores)
	}{
		{"CreateChallenge", testCreateChallenge},
		{"ChallengeNotFound", testChallengeNotFound},
		{"UpdateChallenge", testUpdateChallenge},
		{"AcceptCreatesGame", testAcceptCreatesGame},
		{"GameCreatedOnce", testGameCreatedOnce},
		{"ChallengeListings", testChallengeListings},
		{"ChallengesExpiring", testChallengesExpiring},
		{"GameRoundTrip", testGameRoundTrip},
		{"UpdateGame", testUpdateGame},
		{"UpdateGameFailureChangesNothing", testUpdateGameFailure},
		{"GameListings", testGameListings},
		{"ActiveGameListings", testActiveGameListings},
		{"GamesDue", testGamesDue},
		{"GamesToRemind", testGamesToRemind},
		{"EarliestGameTimes", testEarliestGameTimes},
		{"AnnotateGame", testAnnotateGame},
		{"Outbox", testOutbox},
		{"OutboxRetry", testOutboxRetry},
		{"Preferences", testPreferences},
		{"OutboxSetAside", testOutboxSetAside},
		{"ConcurrentSameVersion", testConcurrentSameVersion},
		{"ConcurrentAnyVersion", testConcurrentAnyVersion},
		{"ConcurrentCreate", testConcurrentCreate},
		{"UpdateGameRated", testUpdateGameRated},
		{"RatingHistoryOrder", testRatingHistoryOrder},
		{"ConcurrentRatedEnds", testConcurrentRatedEnds},
		{"TournamentStore", testTournamentStore},
		{"ThreadClaimedOnce", testThreadClaimedOnce},
		{"NoteStore", testNoteStore},
		{"FollowStore", testFollowStore},
		{"FollowLimitHeld", testFollowLimitHeld},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, open(t)) })
	}
}

// ---- helpers ----

// challenge returns a pending challenge from challenger to challenged in
// channel, expiring at expires.
func challenge(challenger, challenged, channel string, expires time.Time) *bot.Challenge {
	return &bot.Challenge{Challenger: challenger, Challenged: challenged, GuildID: "g1", ChannelID: channel,
		Variant: "chess", DaysPerMove: 3, Color: bot.ColorRandom, Status: bot.ChallengePending,
		Expires: expires, Created: T0, Updated: T0}
}

// mustCreate stores c with no notifications.
func mustCreate(t *testing.T, s gameplay.Stores, c *bot.Challenge) *bot.Challenge {
	t.Helper()
	if err := s.Challenges.CreateChallenge(t.Context(), c, nil); err != nil {
		t.Fatal(err)
	}
	return c
}

// newGame is the game mustGame starts: white to move, a deadline 3 days
// on.
func newGame(white, black, channel string) *bot.Game {
	return &bot.Game{Variant: "chess", StartFEN: "start", FEN: "start", ToAct: white,
		White: white, Black: black, GuildID: "g1", ChannelID: channel, Status: bot.GameActive,
		DaysPerMove: 3, Deadline: T0.Add(72 * time.Hour), TurnStarted: T0, Created: T0, Updated: T0}
}

// mustGame stores a challenge from white to black and accepts it into a
// game (newGame), returning the game as stored.
func mustGame(t *testing.T, s gameplay.Stores, white, black, channel string) *bot.Game {
	t.Helper()
	c := mustCreate(t, s, challenge(white, black, channel, T0.Add(time.Hour)))
	_, g, err := s.Challenges.UpdateChallenge(t.Context(), c.ID, c.Version, func(c *bot.Challenge) (bot.ChallengeChange, error) {
		c.Status = bot.ChallengeAccepted
		return bot.ChallengeChange{Game: newGame(white, black, channel)}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// mustUpdate changes game id with AnyVersion.
func mustUpdate(t *testing.T, s gameplay.Stores, id uint64, fn func(*bot.Game)) *bot.Game {
	t.Helper()
	g, err := s.Games.UpdateGame(t.Context(), id, bot.AnyVersion, func(g *bot.Game) ([]bot.Notification, error) {
		fn(g)
		return nil, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// mustGet returns game id.
func mustGet(t *testing.T, s gameplay.Stores, id uint64) *bot.Game {
	t.Helper()
	g, err := s.Games.Game(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// pending returns the whole outbox as it is deliverable at now.
func pending(t *testing.T, s gameplay.Stores, now time.Time) []bot.Notification {
	t.Helper()
	ns, err := s.Outbox.PendingNotifications(t.Context(), now, 0)
	if err != nil {
		t.Fatal(err)
	}
	return ns
}

// texts returns the Text of each notification.
func texts(ns []bot.Notification) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = n.Text
	}
	return out
}

// gameIDs and challengeIDs return the IDs of a listing, in order.
func gameIDs(gs []*bot.Game) []uint64 {
	out := []uint64{}
	for _, g := range gs {
		out = append(out, g.ID)
	}
	return out
}

func challengeIDs(cs []*bot.Challenge) []uint64 {
	out := []uint64{}
	for _, c := range cs {
		out = append(out, c.ID)
	}
	return out
}

// wantCode fails t unless err has the error code want.
func wantCode(t *testing.T, what string, err error, want string) {
	t.Helper()
	if got := bot.ErrorCode(err); got != want {
		t.Errorf("%s: error %v (code %q), want code %q", what, err, got, want)
	}
}

// wantIDs fails t unless got equals want.
func wantIDs(t *testing.T, what string, got, want []uint64) {
	t.Helper()
	if want == nil {
		want = []uint64{}
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// errRefused is the error the suite's functions return to change nothing.
var errRefused = fmt.Errorf("refused by the test")

// ---- challenges ----

func testCreateChallenge(t *testing.T, s gameplay.Stores) {
	ctx := t.Context()
	c := challenge("alice", "bob", "c1", T0.Add(time.Hour))
	notes := []bot.Notification{
		{Kind: bot.NotifyChallengeReceived, UserID: "bob", Text: "new", Created: T0},
		{Kind: bot.NotifyChallengeReceived, UserID: "carol", ChallengeID: 999, Text: "other", Created: T0},
	}
	if err := s.Challenges.CreateChallenge(ctx, c, notes); err != nil {
		t.Fatal(err)
	}
	if c.ID == 0 || c.Version != 1 {
		t.Fatalf("created challenge has ID %d, version %d: want a new ID and version 1", c.ID, c.Version)
	}
	got, err := s.Challenges.Challenge(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, c) {
		t.Errorf("stored challenge\n%+v\nwant\n%+v", got, c)
	}
	ns := pending(t, s, T0)
	if len(ns) != 2 || ns[0].ChallengeID != c.ID || ns[1].ChallengeID != 999 {
		t.Errorf("outbox %+v: want the new challenge's ID given to the note without one, the other kept", ns)
	}
	c2 := mustCreate(t, s, challenge("alice", "bob", "c1", T0.Add(time.Hour)))
	if c2.ID <= c.ID {
		t.Errorf("second challenge ID %d, first %d: want a new, larger ID", c2.ID, c.ID)
	}
}

func testChallengeNotFound(t *testing.T, s gameplay.Stores) {
	ctx := t.Context()
	_, err := s.Challenges.Challenge(ctx, 42)
	wantCode(t, "Challenge(42)", err, bot.ENOTFOUND)
	_, _, err = s.Challenges.UpdateChallenge(ctx, 42, bot.AnyVersion, func(*bot.Challenge) (bot.ChallengeChange, error) {
		t.Error("fn called for a missing challenge")
		return bot.ChallengeChange{}, nil
	})
	wantCode(t, "UpdateChallenge(42)", err, bot.ENOTFOUND)
}

func testUpdateChallenge(t *testing.T, s gameplay.Stores) {
	ctx := t.Context()
	c := mustCreate(t, s, challenge("alice", "bob", "c1", T0.Add(time.Hour)))
	_, _, err := s.Challenges.UpdateChallenge(ctx, c.ID, c.Version+1, func(*bot.Challenge) (bot.ChallengeChange, error) {
		t.Error("fn called despite a stale version")
		return bot.ChallengeChange{}, nil
	})
	wantCode(t, "UpdateChallenge with a wrong version", err, bot.ECONFLICT)

	_, _, err = s.Challenges.UpdateChallenge(ctx, c.ID, c.Version, func(c *bot.Challenge) (bot.ChallengeChange, error) {
		c.Status = bot.ChallengeDeclined
		return bot.ChallengeChange{Notifications: []bot.Notification{{Text: "lost"}}}, errRefused
	})
	if err != errRefused {
		t.Errorf("fn's error came back as %v, want it as it is", err)
	}
	if got, _ := s.Challenges.Challenge(ctx, c.ID); got.Version != 1 || got.Status != bot.ChallengePending {
		t.Errorf("after a refused update: %+v, want it unchanged", got)
	}
	if ns := pending(t, s, T0); len(ns) != 0 {
		t.Errorf("a refused update appended %v", texts(ns))
	}

	got, g, err := s.Challenges.UpdateChallenge(ctx, c.ID, c.Version, func(c *bot.Challenge) (bot.ChallengeChange, error) {
		c.Status, c.Updated = bot.ChallengeDeclined, T0.Add(time.Minute)
		c.ID, c.Version = 777, 777 // the store keeps both
		return bot.ChallengeChange{Notifications: []bot.Notification{{Kind: bot.NotifyChallengeDeclined, UserID: "alice", Text: "declined"}}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if g != nil || got.ID != c.ID || got.Version != 2 || got.Status != bot.ChallengeDeclined || !got.Updated.Equal(T0.Add(time.Minute)) {
		t.Errorf("UpdateChallenge returned %+v, game %v", got, g)
	}
	if stored, _ := s.Challenges.Challenge(ctx, c.ID); !reflect.DeepEqual(stored, got) {
		t.Errorf("stored %+v, returned %+v", stored, got)
	}
	if ns := texts(pending(t, s, T0)); !slices.Equal(ns, []string{"declined"}) {
		t.Errorf("outbox %v, want [declined]", ns)
	}
	// AnyVersion skips the check.
	if got, _, err = s.Challenges.UpdateChallenge(ctx, c.ID, bot.AnyVersion, func(*bot.Challenge) (bot.ChallengeChange, error) {
		return bot.ChallengeChange{}, nil
	}); err != nil || got.Version != 3 {
		t.Errorf("AnyVersion update: %+v, %v; want version 3", got, err)
	}
}

func testAcceptCreatesGame(t *testing.T, s gameplay.Stores) {
	ctx := t.Context()
	c := mustCreate(t, s, challenge("alice", "bob", "c1", T0.Add(time.Hour)))
	want := newGame("alice", "bob", "c1")
	gotC, g, err := s.Challenges.UpdateChallenge(ctx, c.ID, c.Version, func(c *bot.Challenge) (bot.ChallengeChange, error) {
		c.Status = bot.ChallengeAccepted
		return bot.ChallengeChange{Game: want,
			Notifications: []bot.Notification{{Kind: bot.NotifyChallengeAccepted, UserID: "alice", Text: "accepted"}}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if gotC.Status != bot.ChallengeAccepted || g == nil || g.ID != c.ID || g.Version != 1 {
		t.Fatalf("accept returned %+v and game %+v: want the game with the challenge's ID, version 1", gotC, g)
	}
	want = want.Clone()
	want.ID, want.Version = c.ID, 1
	if !reflect.DeepEqual(g, want) {
		t.Errorf("game returned\n%+v\nwant\n%+v", g, want)
	}
	if stored := mustGet(t, s, c.ID); !reflect.DeepEqual(stored, g) {
		t.Errorf("game stored\n%+v\nreturned\n%+v", stored, g)
	}
	if gs, _ := s.Games.ActiveGamesByUser(ctx, "bob"); !slices.Equal(gameIDs(gs), []uint64{c.ID}) {
		t.Errorf("the new game is not indexed: ActiveGamesByUser(bob) = %v", gameIDs(gs))
	}
	if got := expiringIDs(t, s, T0.Add(24*time.Hour)); len(got) != 0 {
		t.Errorf("an accepted challenge is still expiring: %v", got)
	}
	next := mustCreate(t, s, challenge("carol", "dave", "c1", T0))
	if next.ID <= g.ID {
		t.Errorf("challenge after game %d got ID %d: IDs are shared and never reused", g.ID, next.ID)
	}
}

func testGameCreatedOnce(t *testing.T, s gameplay.Stores) {
	ctx := t.Context()
	g := mustGame(t, s, "alice", "bob", "c1")
	c, _ := s.Challenges.Challenge(ctx, g.ID)
	_, _, err := s.Challenges.UpdateChallenge(ctx, g.ID, bot.AnyVersion, func(c *bot.Challenge) (bot.ChallengeChange, error) {
		c.Updated = T0.Add(time.Hour)
		return bot.ChallengeChange{Game: newGame("x", "y", "c9"),
			Notifications: []bot.Notification{{Text: "must not appear"}}}, nil
	})
	wantCode(t, "creating the game a second time", err, bot.ECONFLICT)
	after, _ := s.Challenges.Challenge(ctx, g.ID)
	if !reflect.DeepEqual(after, c) {
		t.Errorf("the challenge changed although its game could not be created: %+v", after)
	}
	if got := mustGet(t, s, g.ID); !reflect.DeepEqual(got, g) {
		t.Errorf("the existing game changed: %+v", got)
	}
	if gs, _ := s.Games.GamesByUser(ctx, "x"); len(gs) != 0 {
		t.Errorf("index entries of the refused game: %v", gameIDs(gs))
	}
	if ns := pending(t, s, T0); len(ns) != 0 {
		t.Errorf("notes of a refused change appended: %v", texts(ns))
	}
}

func testChallengeListings(t *testing.T, s gameplay.Stores) {
	ctx := t.Context()
	c1 := mustCreate(t, s, challenge("alice", "bob", "c1", T0))
	c2 := mustCreate(t, s, challenge("bob", "", "c2", T0))
	c3 := mustCreate(t, s, challenge("carol", "alice", "c1", T0))
	c4 := mustCreate(t, s, challenge("alice", "alice", "c1", T0)) // listed once
	if _, _, err := s.Challenges.UpdateChallenge(ctx, c3.ID, bot.AnyVersion, func(c *bot.Challenge) (bot.ChallengeChange, error) {
		c.Status = bot.ChallengeCancelled // any status is listed
		return bot.ChallengeChange{}, nil
	}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		user string
		want []uint64
	}{{"alice", []uint64{c1.ID, c3.ID, c4.ID}}, {"bob", []uint64{c1.ID, c2.ID}}, {"carol", []uint64{c3.ID}}, {"zed", nil}, {"", nil}} {
		cs, err := s.Challenges.ChallengesByUser(ctx, tc.user)
		if err != nil {
			t.Fatal(err)
		}
		wantIDs(t, "ChallengesByUser("+tc.user+")", challengeIDs(cs), tc.want)
	}
	for _, tc := range []struct {
		channel string
		want    []uint64
	}{{"c1", []uint64{c1.ID, c3.ID, c4.ID}}, {"c2", []uint64{c2.ID}}, {"c", nil}, {"", nil}} {
		cs, err := s.Challenges.ChallengesByChannel(ctx, tc.channel)
		if err != nil {
			t.Fatal(err)
		}
		wantIDs(t, "ChallengesByChannel("+tc.channel+")", challengeIDs(cs), tc.want)
	}
}

// expiringIDs returns the IDs ChallengesExpiring lists at at.
func expiringIDs(t *testing.T, s gameplay.Stores, at time.Time) []uint64 {
	t.Helper()
	cs, err := s.Challenges.ChallengesExpiring(t.Context(), at)
	if err != nil {
		t.Fatal(err)
	}
	return challengeIDs(cs)
}

func testChallengesExpiring(t *testing.T, s gameplay.Stores) {
	ctx := t.Context()
	if e, err := s.Challenges.EarliestExpiry(ctx); err != nil || !e.IsZero() {
		t.Errorf("EarliestExpiry of an empty store = %v, %v; want the zero time", e, err)
	}
	c1 := mustCreate(t, s, challenge("a", "b", "c1", T0.Add(3*time.Hour)))
	c2 := mustCreate(t, s, challenge("c", "", "c1", T0.Add(time.Hour)))
	c3 := mustCreate(t, s, challenge("d", "e", "c1", T0.Add(3*time.Hour))) // same time as c1: after it by ID
	c4 := mustCreate(t, s, challenge("e", "a", "c1", T0.Add(5*time.Hour)))
	wantIDs(t, "expiring before all", expiringIDs(t, s, T0), nil)
	wantIDs(t, "expiring just before c2", expiringIDs(t, s, T0.Add(time.Hour-1)), nil)
	wantIDs(t, "expiring at c2's time", expiringIDs(t, s, T0.Add(time.Hour)), []uint64{c2.ID})
	wantIDs(t, "expiring at 3h", expiringIDs(t, s, T0.Add(3*time.Hour)), []uint64{c2.ID, c1.ID, c3.ID})
	wantIDs(t, "expiring at 9h", expiringIDs(t, s, T0.Add(9*time.Hour)), []uint64{c2.ID, c1.ID, c3.ID, c4.ID})
	if e, _ := s.Challenges.EarliestExpiry(ctx); !e.Equal(T0.Add(time.Hour)) {
		t.Errorf("EarliestExpiry = %v, want %v", e, T0.Add(time.Hour))
	}
	// c2 stops being pending, c4's expiry moves before c1's.
	for id, fn := range map[uint64]func(*bot.Challenge){
		c2.ID: func(c *bot.Challenge) { c.Status = bot.ChallengeExpired },
		c4.ID: func(c *bot.Challenge) { c.Expires = T0.Add(2 * time.Hour) },
	} {
		if _, _, err := s.Challenges.UpdateChallenge(ctx, id, bot.AnyVersion, func(c *bot.Challenge) (bot.ChallengeChange, error) {
			fn(c)
			return bot.ChallengeChange{}, nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	wantIDs(t, "expiring at 9h after the changes", expiringIDs(t, s, T0.Add(9*time.Hour)), []uint64{c4.ID, c1.ID, c3.ID})
	if e, _ := s.Challenges.EarliestExpiry(ctx); !e.Equal(T0.Add(2 * time.Hour)) {
		t.Errorf("EarliestExpiry after the changes = %v, want %v", e, T0.Add(2*time.Hour))
	}
	for _, c := range []*bot.Challenge{c1, c3, c4} {
		if _, _, err := s.Challenges.UpdateChallenge(ctx, c.ID, bot.AnyVersion, func(c *bot.Challenge) (bot.ChallengeChange, error) {
			c.Status = bot.ChallengeDeclined
			return bot.ChallengeChange{}, nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	if e, _ := s.Challenges.EarliestExpiry(ctx); !e.IsZero() {
		t.Errorf("EarliestExpiry with nothing pending = %v, want the zero time", e)
	}
}

// ---- games ----

func testGameRoundTrip(t *testing.T, s gameplay.Stores) {
	g := mustGame(t, s, "alice", "bob", "c1")
	want := g.Clone()
	full := func(g *bot.Game) {
		g.Variant, g.Options, g.StartFEN = "crazyhouse", "a=1,b=2", "startfen"
		g.Moves, g.FEN, g.ToAct = []string{"e2e4", "P@d4"}, "fen after", "bob"
		g.GuildID, g.ThreadID = "g2", "t1"
		g.Status, g.Result, g.Reason = bot.GameFinished, bot.Draw, "agreement"
		g.DaysPerMove, g.Deadline, g.TurnStarted = 7, T0.Add(time.Nanosecond), T0.Add(-time.Hour)
		g.Reminded, g.RemindAt = true, T0.Add(time.Minute)
		g.DrawOffer, g.Takeback = "alice", "bob"
		g.Setup = &bot.Setup{Seed: 1<<64 - 1, Challenger: "alice", Challenged: "bob", Chooser: bot.ChooserChallenger, Army: "black", FirstMover: "white"}
		g.Updated = T0.Add(2 * time.Minute)
	}
	full(want)
	want.Version = 2
	got := mustUpdate(t, s, g.ID, full)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("returned\n%+v\nwant\n%+v", got, want)
	}
	if stored := mustGet(t, s, g.ID); !reflect.DeepEqual(stored, want) {
		t.Errorf("stored\n%+v\nwant\n%+v", stored, want)
	}
}

func testUpdateGame(t *testing.T, s gameplay.Stores) {
	ctx := t.Context()
	_, err := s.Games.Game(ctx, 99)
	wantCode(t, "Game(99)", err, bot.ENOTFOUND)
	_, err = s.Games.UpdateGame(ctx, 99, bot.AnyVersion, func(*bot.Game) ([]bot.Notification, error) {
		t.Error("fn called for a missing game")
		return nil, nil
	})
	wantCode(t, "UpdateGame(99)", err, bot.ENOTFOUND)

	g := mustGame(t, s, "alice", "bob", "c1")
	_, err = s.Games.UpdateGame(ctx, g.ID, g.Version+1, func(*bot.Game) ([]bot.Notification, error) {
		t.Error("fn called despite a wrong version")
		return nil, nil
	})
	wantCode(t, "UpdateGame with a wrong version", err, bot.ECONFLICT)

	got, err := s.Games.UpdateGame(ctx, g.ID, g.Version, func(g *bot.Game) ([]bot.Notification, error) {
		g.Moves = append(g.Moves, "e2e4")
		g.ToAct, g.Updated = "bob", T0.Add(time.Minute)
		g.ID, g.Version = 5000, 5000 // the store keeps both
		return []bot.Notification{
			{Kind: bot.NotifyYourTurn, UserID: "bob", GameID: g.ID, Text: "your turn", Created: T0},
			{Kind: bot.NotifyYourTurn, UserID: "alice", Text: "second", Created: T0},
		}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != g.ID || got.Version != g.Version+1 || !slices.Equal(got.Moves, []string{"e2e4"}) || !got.Updated.Equal(T0.Add(time.Minute)) {
		t.Errorf("UpdateGame returned %+v", got)
	}
	if stored := mustGet(t, s, g.ID); !reflect.DeepEqual(stored, got) {
		t.Errorf("stored\n%+v\nreturned\n%+v", stored, got)
	}
	if ns := texts(pending(t, s, T0)); !slices.Equal(ns, []string{"your turn", "second"}) {
		t.Errorf("outbox %v, want the notes in the order given", ns)
	}
	// The version seen before is stale now.
	_, err = s.Games.UpdateGame(ctx, g.ID, g.Version, func(*bot.Game) ([]bot.Notification, error) { return nil, nil })
	wantCode(t, "UpdateGame with the old version", err, bot.ECONFLICT)
	// AnyVersion applies to whatever is current.
	if got = mustUpdate(t, s, g.ID, func(g *bot.Game) { g.Moves = append(g.Moves, "e7e5") }); got.Version != g.Version+2 || len(got.Moves) != 2 {
		t.Errorf("AnyVersion update: %+v", got)
	}
}

func testUpdateGameFailure(t *testing.T, s gameplay.Stores) {
	ctx := t.Context()
	g := mustGame(t, s, "alice", "bob", "c1")
	_, err := s.Games.UpdateGame(ctx, g.ID, g.Version, func(g *bot.Game) ([]bot.Notification, error) {
		g.Moves = append(g.Moves, "e2e4")
		g.Status, g.ChannelID, g.Deadline, g.RemindAt = bot.GameFinished, "c2", time.Time{}, T0
		return []bot.Notification{{Text: "must not appear"}}, errRefused
	})
	if err != errRefused {
		t.Errorf("fn's error came back as %v, want it as it is", err)
	}
	if got := mustGet(t, s, g.ID); !reflect.DeepEqual(got, g) {
		t.Errorf("a refused update changed the game:\n%+v\nwant\n%+v", got, g)
	}
	if ns := pending(t, s, T0); len(ns) != 0 {
		t.Errorf("a refused update appended %v", texts(ns))
	}
	if gs, _ := s.Games.ActiveGamesByChannel(ctx, "c1"); !slices.Equal(gameIDs(gs), []uint64{g.ID}) {
		t.Errorf("a refused update moved the indexes: ActiveGamesByChannel(c1) = %v", gameIDs(gs))
	}
	if gs, _ := s.Games.GamesByChannel(ctx, "c2"); len(gs) != 0 {
		t.Errorf("a refused update moved the indexes: GamesByChannel(c2) = %v", gameIDs(gs))
	}
	if gs, _ := s.Games.GamesDue(ctx, T0.Add(100*time.Hour)); !slices.Equal(gameIDs(gs), []uint64{g.ID}) {
		t.Errorf("a refused update moved the deadline index: %v", gameIDs(gs))
	}
	if gs, _ := s.Games.GamesToRemind(ctx, T0.Add(100*time.Hour)); len(gs) != 0 {
		t.Errorf("a refused update moved the reminder index: %v", gameIDs(gs))
	}
}

// listing is one of the game listings of a GameStore.
type listing struct {
	name string
	fn   func(bot.GameStore, context.Context, string) ([]*bot.Game, error)
}

var (
	byUser         = listing{"GamesByUser", bot.GameStore.GamesByUser}
	byChannel      = listing{"GamesByChannel", bot.GameStore.GamesByChannel}
	activeByUser   = listing{"ActiveGamesByUser", bot.GameStore.ActiveGamesByUser}
	activeByChanel = listing{"ActiveGamesByChannel", bot.GameStore.ActiveGamesByChannel}
)

// list returns the IDs l lists for key.
func (l listing) list(t *testing.T, s gameplay.Stores, key string) []uint64 {
	t.Helper()
	gs, err := l.fn(s.Games, t.Context(), key)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range gs {
		if stored := mustGet(t, s, g.ID); !reflect.DeepEqual(stored, g) {
			t.Errorf("%s(%s) lists a game other than stored: %+v", l.name, key, g)
		}
	}
	return gameIDs(gs)
}

func (l listing) want(t *testing.T, s gameplay.Stores, key string, want ...uint64) {
	t.Helper()
	wantIDs(t, l.name+"("+key+")", l.list(t, s, key), want)
}

func testGameListings(t *testing.T, s gameplay.Stores) {
	g1 := mustGame(t, s, "alice", "bob", "c1")
	g2 := mustGame(t, s, "bob", "carol", "c2")
	g3 := mustGame(t, s, "carol", "alice", "c1")
	g4 := mustGame(t, s, "dave", "dave", "c1") // listed once
	mustCreate(t, s, challenge("alice", "zed", "c1", T0))
	byUser.want(t, s, "alice", g1.ID, g3.ID)
	byUser.want(t, s, "bob", g1.ID, g2.ID)
	byUser.want(t, s, "dave", g4.ID)
	byUser.want(t, s, "zed")
	byUser.want(t, s, "")
	byChannel.want(t, s, "c1", g1.ID, g3.ID, g4.ID)
	byChannel.want(t, s, "c2", g2.ID)
	byChannel.want(t, s, "")
	// The indexes follow a change of players and channel.
	mustUpdate(t, s, g1.ID, func(g *bot.Game) { g.Black, g.ChannelID = "erin", "c2" })
	byUser.want(t, s, "bob", g2.ID)
	byUser.want(t, s, "erin", g1.ID)
	byChannel.want(t, s, "c1", g3.ID, g4.ID)
	byChannel.want(t, s, "c2", g1.ID, g2.ID)
	activeByUser.want(t, s, "bob", g2.ID)
	activeByUser.want(t, s, "erin", g1.ID)
	activeByChanel.want(t, s, "c2", g1.ID, g2.ID)
}

func testActiveGameListings(t *testing.T, s gameplay.Stores) {
	g1 := mustGame(t, s, "alice", "bob", "c1")
	g2 := mustGame(t, s, "alice", "carol", "c1")
	g3 := mustGame(t, s, "bob", "alice", "c2")
	mustUpdate(t, s, g2.ID, func(g *bot.Game) { g.Status = bot.GameSetup }) // ongoing too
	activeByUser.want(t, s, "alice", g1.ID, g2.ID, g3.ID)
	activeByChanel.want(t, s, "c1", g1.ID, g2.ID)
	mustUpdate(t, s, g1.ID, func(g *bot.Game) { g.Status, g.Result, g.Reason = bot.GameFinished, bot.WhiteWins, "checkmate" })
	mustUpdate(t, s, g3.ID, func(g *bot.Game) { g.Status = bot.GameAborted })
	activeByUser.want(t, s, "alice", g2.ID)
	activeByUser.want(t, s, "bob")
	activeByChanel.want(t, s, "c1", g2.ID)
	activeByChanel.want(t, s, "c2")
	activeByUser.want(t, s, "")
	activeByChanel.want(t, s, "")
	// Finished games stay in the full listings.
	byUser.want(t, s, "alice", g1.ID, g2.ID, g3.ID)
	byChannel.want(t, s, "c2", g3.ID)
}

// timeListing returns the IDs of GamesDue or GamesToRemind at at.
func timeListing(t *testing.T, s gameplay.Stores, remind bool, at time.Time) []uint64 {
	t.Helper()
	fn := s.Games.GamesDue
	if remind {
		fn = s.Games.GamesToRemind
	}
	gs, err := fn(t.Context(), at)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range gs {
		when := g.Deadline
		if remind {
			when = g.RemindAt
		}
		if when.IsZero() || when.After(at) {
			t.Errorf("listed at %v: game %d at %v", at, g.ID, when)
		}
	}
	return gameIDs(gs)
}

func testGamesDue(t *testing.T, s gameplay.Stores) { testTimeIndex(t, s, false) }

func testGamesToRemind(t *testing.T, s gameplay.Stores) { testTimeIndex(t, s, true) }

// testTimeIndex checks GamesDue (remind false: Deadline) or GamesToRemind
// (RemindAt): games whose time is set and not after the time asked,
// earliest first then by ID, following every change.
func testTimeIndex(t *testing.T, s gameplay.Stores, remind bool) {
	set := func(id uint64, at time.Time) {
		t.Helper()
		if remind {
			if _, err := s.Games.AnnotateGame(t.Context(), id, func(_ bot.Game, a *bot.Annotations) ([]bot.Notification, error) {
				a.RemindAt = at
				return nil, nil
			}); err != nil {
				t.Fatal(err)
			}
			return
		}
		mustUpdate(t, s, id, func(g *bot.Game) { g.Deadline = at })
	}
	var ids []uint64
	for range 5 {
		ids = append(ids, mustGame(t, s, "alice", "bob", "c1").ID)
	}
	set(ids[0], T0.Add(3*time.Hour))
	set(ids[1], T0.Add(time.Hour))
	set(ids[2], T0.Add(3*time.Hour))
	set(ids[3], time.Time{}) // none
	set(ids[4], T0.Add(5*time.Hour))
	wantIDs(t, "at T0", timeListing(t, s, remind, T0), nil)
	wantIDs(t, "just before 1h", timeListing(t, s, remind, T0.Add(time.Hour-time.Nanosecond)), nil)
	wantIDs(t, "at 1h", timeListing(t, s, remind, T0.Add(time.Hour)), []uint64{ids[1]})
	wantIDs(t, "at 3h", timeListing(t, s, remind, T0.Add(3*time.Hour)), []uint64{ids[1], ids[0], ids[2]})
	wantIDs(t, "far on", timeListing(t, s, remind, T0.Add(1000*time.Hour)), []uint64{ids[1], ids[0], ids[2], ids[4]})
	set(ids[4], T0.Add(30*time.Minute)) // moves to the front
	set(ids[1], time.Time{})            // leaves
	wantIDs(t, "after the moves", timeListing(t, s, remind, T0.Add(1000*time.Hour)), []uint64{ids[4], ids[0], ids[2]})
	// A time before 1970 is due at any time.
	set(ids[3], time.Date(1960, 1, 1, 0, 0, 0, 0, time.UTC))
	wantIDs(t, "with a time before 1970", timeListing(t, s, remind, time.Date(1969, 1, 1, 0, 0, 0, 0, time.UTC)), []uint64{ids[3]})
}

func testEarliestGameTimes(t *testing.T, s gameplay.Stores) {
	ctx := t.Context()
	earliest := func() (time.Time, time.Time) {
		t.Helper()
		d, r, err := s.Games.EarliestGameTimes(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return d, r
	}
	if d, r := earliest(); !d.IsZero() || !r.IsZero() {
		t.Errorf("empty store: %v, %v; want zero times", d, r)
	}
	g1 := mustGame(t, s, "alice", "bob", "c1") // deadline T0+72h
	g2 := mustGame(t, s, "alice", "bob", "c1")
	mustUpdate(t, s, g2.ID, func(g *bot.Game) { g.Deadline = T0.Add(5 * time.Hour) })
	if d, r := earliest(); !d.Equal(T0.Add(5*time.Hour)) || !r.IsZero() {
		t.Errorf("got %v, %v; want %v and the zero time", d, r, T0.Add(5*time.Hour))
	}
	if _, err := s.Games.AnnotateGame(ctx, g1.ID, func(_ bot.Game, a *bot.Annotations) ([]bot.Notification, error) {
		a.RemindAt = T0.Add(70 * time.Hour)
		return nil, nil
	}); err != nil {
		t.Fatal(err)
	}
	mustUpdate(t, s, g2.ID, func(g *bot.Game) { g.Deadline = time.Time{} })
	if d, r := earliest(); !d.Equal(T0.Add(72*time.Hour)) || !r.Equal(T0.Add(70*time.Hour)) {
		t.Errorf("got %v, %v; want %v, %v", d, r, T0.Add(72*time.Hour), T0.Add(70*time.Hour))
	}
}

func testAnnotateGame(t *testing.T, s gameplay.Stores) {
	ctx := t.Context()
	_, err := s.Games.AnnotateGame(ctx, 99, func(bot.Game, *bot.Annotations) ([]bot.Notification, error) {
		t.Error("fn called for a missing game")
		return nil, nil
	})
	wantCode(t, "AnnotateGame(99)", err, bot.ENOTFOUND)
	g := mustGame(t, s, "alice", "bob", "c1")
	got, err := s.Games.AnnotateGame(ctx, g.ID, func(g bot.Game, a *bot.Annotations) ([]bot.Notification, error) {
		a.ThreadID, a.Reminded, a.RemindAt = "t1", true, T0.Add(time.Hour)
		return []bot.Notification{{Kind: bot.NotifyReminder, UserID: "alice", GameID: g.ID, Text: "hurry"}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got.Version != g.Version || got.ThreadID != "t1" || !got.Reminded || !got.RemindAt.Equal(T0.Add(time.Hour)) {
		t.Errorf("AnnotateGame returned %+v: want the annotations and the same version", got)
	}
	if stored := mustGet(t, s, g.ID); !reflect.DeepEqual(stored, got) {
		t.Errorf("stored %+v, returned %+v", stored, got)
	}
	if ns := texts(pending(t, s, T0)); !slices.Equal(ns, []string{"hurry"}) {
		t.Errorf("outbox %v, want [hurry]", ns)
	}
	wantIDs(t, "GamesToRemind after annotation", timeListing(t, s, true, T0.Add(time.Hour)), []uint64{g.ID})
	// A button showing the version keeps working.
	if _, err := s.Games.UpdateGame(ctx, g.ID, g.Version, func(*bot.Game) ([]bot.Notification, error) { return nil, nil }); err != nil {
		t.Errorf("update with the version seen before the annotation: %v", err)
	}
	// The function reads a copy of the game: what it changes there is
	// not stored, only its annotations are.
	for name, fn := range map[string]func(*bot.Game){
		"moves":    func(g *bot.Game) { g.Moves = append(g.Moves, "e2e4") },
		"status":   func(g *bot.Game) { g.Status = bot.GameFinished },
		"deadline": func(g *bot.Game) { g.Deadline = T0 },
		"version":  func(g *bot.Game) { g.Version++ },
		"setup":    func(g *bot.Game) { g.Setup = &bot.Setup{Seed: 1} },
	} {
		before := mustGet(t, s, g.ID)
		got, err := s.Games.AnnotateGame(ctx, g.ID, func(g bot.Game, a *bot.Annotations) ([]bot.Notification, error) {
			fn(&g)
			a.ThreadID = "t2-" + name
			return nil, nil
		})
		want := before.Clone()
		want.ThreadID = "t2-" + name
		if err != nil || !reflect.DeepEqual(got, want) || !reflect.DeepEqual(mustGet(t, s, g.ID), want) {
			t.Errorf("an annotation changing its copy's %s: returned %+v, %v; want %+v", name, got, err, want)
		}
	}
	before := mustGet(t, s, g.ID)
	_, err = s.Games.AnnotateGame(ctx, g.ID, func(g bot.Game, a *bot.Annotations) ([]bot.Notification, error) {
		a.ThreadID = "t3"
		return []bot.Notification{{Text: "must not appear"}}, errRefused
	})
	if err != errRefused {
		t.Errorf("fn's error came back as %v, want it as it is", err)
	}
	if after := mustGet(t, s, g.ID); !reflect.DeepEqual(after, before) {
		t.Errorf("refused annotations changed the game:\n%+v\nwant\n%+v", after, before)
	}
	if ns := texts(pending(t, s, T0)); !slices.Equal(ns, []string{"hurry"}) {
		t.Errorf("refused annotations appended notes: %v", ns)
	}
}

// ---- outbox ----

func testOutbox(t *testing.T, s gameplay.Stores) {
	ctx := t.Context()
	if ns := pending(t, s, T0); len(ns) != 0 {
		t.Errorf("empty outbox lists %v", ns)
	}
	// Notes from the three kinds of change, in order.
	c := challenge("alice", "bob", "c1", T0)
	if err := s.Challenges.CreateChallenge(ctx, c, []bot.Notification{{Kind: bot.NotifyChallengeReceived, Text: "n1"}, {Text: "n2"}}); err != nil {
		t.Fatal(err)
	}
	_, g, err := s.Challenges.UpdateChallenge(ctx, c.ID, c.Version, func(c *bot.Challenge) (bot.ChallengeChange, error) {
		c.Status = bot.ChallengeAccepted
		return bot.ChallengeChange{Game: newGame("alice", "bob", "c1"), Notifications: []bot.Notification{{Text: "n3"}}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Games.UpdateGame(ctx, g.ID, g.Version, func(*bot.Game) ([]bot.Notification, error) {
		return []bot.Notification{{Text: "n4"}, {Text: "n5"}}, nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Games.AnnotateGame(ctx, g.ID, func(bot.Game, *bot.Annotations) ([]bot.Notification, error) {
		return []bot.Notification{{Text: "n6"}}, nil
	}); err != nil {
		t.Fatal(err)
	}
	want := &bot.Notification{Kind: bot.NotifyGameOver, UserID: "bob", GuildID: "g1", ChannelID: "c1", GameID: g.ID, ChallengeID: 5,
		Text: "n7", Created: T0.Add(time.Second), Attempts: 0, NotBefore: T0.Add(-time.Second)}
	if _, err := s.Games.UpdateGame(ctx, g.ID, bot.AnyVersion, func(*bot.Game) ([]bot.Notification, error) {
		return []bot.Notification{*want}, nil
	}); err != nil {
		t.Fatal(err)
	}
	all := pending(t, s, T0)
	if got := texts(all); !slices.Equal(got, []string{"n1", "n2", "n3", "n4", "n5", "n6", "n7"}) {
		t.Fatalf("outbox %v, want n1..n7 in the order appended", got)
	}
	for i := 1; i < len(all); i++ {
		if all[i].ID <= all[i-1].ID {
			t.Errorf("IDs not increasing in the order of appending: %d then %d", all[i-1].ID, all[i].ID)
		}
	}
	last := all[6]
	want.ID = last.ID
	if !reflect.DeepEqual(&last, want) {
		t.Errorf("notification stored\n%+v\nwant\n%+v", last, *want)
	}
	if got := texts(mustPending(t, s, T0, 3)); !slices.Equal(got, []string{"n1", "n2", "n3"}) {
		t.Errorf("limit 3: %v", got)
	}
	// Ack removes one; twice, or an unknown ID, is no error.
	for _, id := range []uint64{all[1].ID, all[1].ID, all[6].ID + 1000, 0} {
		if err := s.Outbox.AckNotification(ctx, id); err != nil {
			t.Errorf("AckNotification(%d): %v", id, err)
		}
	}
	if got := texts(pending(t, s, T0)); !slices.Equal(got, []string{"n1", "n3", "n4", "n5", "n6", "n7"}) {
		t.Errorf("after an ack: %v", got)
	}
	// IDs are never reused: the next notes sort after every earlier one.
	mustUpdate(t, s, g.ID, func(*bot.Game) {})
	if _, err := s.Games.UpdateGame(ctx, g.ID, bot.AnyVersion, func(*bot.Game) ([]bot.Notification, error) {
		return []bot.Notification{{Text: "n8"}}, nil
	}); err != nil {
		t.Fatal(err)
	}
	after := pending(t, s, T0)
	if n8 := after[len(after)-1]; n8.Text != "n8" || n8.ID <= all[6].ID {
		t.Errorf("a later note %+v: want it last, with an ID above %d", n8, all[6].ID)
	}
}

// mustPending returns up to limit deliverable notes.
func mustPending(t *testing.T, s gameplay.Stores, now time.Time, limit int) []bot.Notification {
	t.Helper()
	ns, err := s.Outbox.PendingNotifications(t.Context(), now, limit)
	if err != nil {
		t.Fatal(err)
	}
	return ns
}

func testOutboxRetry(t *testing.T, s gameplay.Stores) {
	ctx := t.Context()
	c := challenge("alice", "bob", "c1", T0)
	if err := s.Challenges.CreateChallenge(ctx, c, []bot.Notification{{Text: "a"}, {Text: "b"}, {Text: "c"}}); err != nil {
		t.Fatal(err)
	}
	ns := pending(t, s, T0)
	if err := s.Outbox.RetryNotification(ctx, ns[0].ID, T0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := s.Outbox.RetryNotification(ctx, ns[0].ID, T0.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if got := texts(pending(t, s, T0)); !slices.Equal(got, []string{"b", "c"}) {
		t.Errorf("while a waits: %v", got)
	}
	// The limit counts deliverable notes only.
	if got := texts(mustPending(t, s, T0, 1)); !slices.Equal(got, []string{"b"}) {
		t.Errorf("limit 1 while a waits: %v", got)
	}
	if got := pending(t, s, T0.Add(2*time.Minute)); len(got) != 3 || got[0].Text != "a" || got[0].Attempts != 2 ||
		!got[0].NotBefore.Equal(T0.Add(2*time.Minute)) || got[0].ID != ns[0].ID {
		t.Errorf("at NotBefore: %+v; want a first, with 2 attempts, its NotBefore and ID kept", got)
	}
	if err := s.Outbox.AckNotification(ctx, ns[0].ID); err != nil {
		t.Fatal(err)
	}
	if err := s.Outbox.RetryNotification(ctx, ns[0].ID, T0); err != nil {
		t.Errorf("retrying an acknowledged note: %v, want no error", err)
	}
	if got := texts(pending(t, s, T0.Add(time.Hour))); !slices.Equal(got, []string{"b", "c"}) {
		t.Errorf("a retry after the ack brought it back: %v", got)
	}
}

// ---- users ----

func testPreferences(t *testing.T, s gameplay.Stores) {
	ctx := t.Context()
	p, err := s.Users.Preferences(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p, bot.DefaultPreferences("alice")) || p.Version != 0 {
		t.Errorf("preferences never stored: %+v, want the defaults with version 0", p)
	}
	got, err := s.Users.UpdatePreferences(ctx, "alice", func(p *bot.Preferences) error {
		p.Delivery, p.ReminderPercent, p.DMBlocked = bot.DeliverChannel, 35, true
		p.UserID, p.Version = "mallory", 99 // the store keeps both
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := &bot.Preferences{UserID: "alice", Version: 1, Delivery: bot.DeliverChannel, ReminderPercent: 35, DMBlocked: true}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("UpdatePreferences returned %+v, want %+v", got, want)
	}
	if stored, _ := s.Users.Preferences(ctx, "alice"); !reflect.DeepEqual(stored, want) {
		t.Errorf("stored %+v, want %+v", stored, want)
	}
	if _, err := s.Users.UpdatePreferences(ctx, "alice", func(p *bot.Preferences) error {
		p.ReminderPercent = 1
		return errRefused
	}); err != errRefused {
		t.Errorf("fn's error came back as %v", err)
	}
	if stored, _ := s.Users.Preferences(ctx, "alice"); !reflect.DeepEqual(stored, want) {
		t.Errorf("a refused update changed %+v", stored)
	}
	if got, err := s.Users.UpdatePreferences(ctx, "alice", func(p *bot.Preferences) error { return nil }); err != nil || got.Version != 2 {
		t.Errorf("second update: %+v, %v; want version 2", got, err)
	}
	if other, _ := s.Users.Preferences(ctx, "bob"); !reflect.DeepEqual(other, bot.DefaultPreferences("bob")) {
		t.Errorf("another user's preferences: %+v", other)
	}
	_, err = s.Users.Preferences(ctx, "")
	wantCode(t, "Preferences of no user", err, bot.EINVALID)
	_, err = s.Users.UpdatePreferences(ctx, "", func(*bot.Preferences) error { return nil })
	wantCode(t, "UpdatePreferences of no user", err, bot.EINVALID)
}

// testOutboxSetAside: a notification set aside is no longer pending, the
// others are; setting aside one that is not there is not an error.
func testOutboxSetAside(t *testing.T, s gameplay.Stores) {
	ctx := t.Context()
	c := challenge("alice", "bob", "c1", T0)
	if err := s.Challenges.CreateChallenge(ctx, c, []bot.Notification{{Text: "a"}, {Text: "b"}}); err != nil {
		t.Fatal(err)
	}
	ns := pending(t, s, T0)
	if err := s.Outbox.SetAsideNotification(ctx, ns[0].ID, "crashed delivery 3 times"); err != nil {
		t.Fatal(err)
	}
	if got := texts(pending(t, s, T0.Add(time.Hour))); !slices.Equal(got, []string{"b"}) {
		t.Errorf("after setting a aside: %v, want [b]", got)
	}
	if err := s.Outbox.SetAsideNotification(ctx, ns[0].ID, ""); err != nil {
		t.Errorf("setting aside again: %v, want no error", err)
	}
}

// ---- concurrency ----

// testConcurrentSameVersion: N goroutines update one game, each with
// the version they all saw; exactly one succeeds each round, the others
// get ECONFLICT, and the game holds exactly the winners' moves.
func testConcurrentSameVersion(t *testing.T, s gameplay.Stores) {
	const workers, rounds = 8, 5
	ctx := t.Context()
	g := mustGame(t, s, "alice", "bob", "c1")
	var winners []string
	for round := range rounds {
		seen := mustGet(t, s, g.ID).Version
		start := make(chan struct{})
		results := make([]error, workers)
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				<-start
				_, results[w] = s.Games.UpdateGame(ctx, g.ID, seen, func(g *bot.Game) ([]bot.Notification, error) {
					g.Moves = append(g.Moves, fmt.Sprintf("r%dw%d", round, w))
					return []bot.Notification{{Text: fmt.Sprintf("r%dw%d", round, w)}}, nil
				})
			})
		}
		close(start)
		wg.Wait()
		won := 0
		for w, err := range results {
			switch bot.ErrorCode(err) {
			case "":
				won++
				winners = append(winners, fmt.Sprintf("r%dw%d", round, w))
			case bot.ECONFLICT:
			default:
				t.Errorf("round %d worker %d: %v", round, w, err)
			}
		}
		if won != 1 {
			t.Errorf("round %d: %d updates succeeded with version %d, want exactly 1", round, won, seen)
		}
	}
	final := mustGet(t, s, g.ID)
	if final.Version != g.Version+rounds || !slices.Equal(final.Moves, winners) {
		t.Errorf("final version %d, moves %v; want version %d and the winners %v", final.Version, final.Moves, g.Version+rounds, winners)
	}
	if got := texts(pending(t, s, T0)); !slices.Equal(got, winners) {
		t.Errorf("outbox %v, want exactly the winners' notes %v", got, winners)
	}
}

// testConcurrentAnyVersion: N goroutines update one game with
// AnyVersion; every update applies once, none is lost.
func testConcurrentAnyVersion(t *testing.T, s gameplay.Stores) {
	const workers, each = 6, 5
	ctx := t.Context()
	g := mustGame(t, s, "alice", "bob", "c1")
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				if _, err := s.Games.UpdateGame(ctx, g.ID, bot.AnyVersion, func(g *bot.Game) ([]bot.Notification, error) {
					g.Moves = append(g.Moves, fmt.Sprintf("w%d-%d", w, i))
					return []bot.Notification{{Text: fmt.Sprintf("w%d-%d", w, i)}}, nil
				}); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	final := mustGet(t, s, g.ID)
	if final.Version != g.Version+workers*each || len(final.Moves) != workers*each {
		t.Errorf("version %d with %d moves after %d updates", final.Version, len(final.Moves), workers*each)
	}
	sorted := slices.Sorted(slices.Values(final.Moves))
	if len(slices.Compact(sorted)) != workers*each {
		t.Errorf("moves applied twice: %v", final.Moves)
	}
	if got := texts(pending(t, s, T0)); !slices.Equal(got, final.Moves) {
		t.Errorf("outbox %v, want one note per update in commit order %v", got, final.Moves)
	}
}

// testConcurrentCreate: challenges created at once all get distinct IDs
// and are all listed.
func testConcurrentCreate(t *testing.T, s gameplay.Stores) {
	const workers, each = 6, 5
	ctx := t.Context()
	ids := make([][]uint64, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for range each {
				c := challenge("alice", fmt.Sprint("u", w), "c1", T0)
				if err := s.Challenges.CreateChallenge(ctx, c, []bot.Notification{{Text: "x"}}); err != nil {
					t.Error(err)
					return
				}
				ids[w] = append(ids[w], c.ID)
			}
		})
	}
	wg.Wait()
	all := slices.Sorted(slices.Values(slices.Concat(ids...)))
	if len(slices.Compact(slices.Clone(all))) != workers*each {
		t.Errorf("IDs given twice: %v", all)
	}
	cs, err := s.Challenges.ChallengesByUser(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	wantIDs(t, "ChallengesByUser(alice)", challengeIDs(cs), all)
	if ns := pending(t, s, T0); len(ns) != workers*each {
		t.Errorf("%d notes for %d creations", len(ns), workers*each)
	}
	for _, id := range ids {
		if !slices.IsSorted(id) {
			t.Errorf("one goroutine's IDs not increasing: %v", id)
		}
	}
}

// testThreadClaimedOnce: AnnotateGame is a compare-and-set of the
// record, so a claim of an empty slot that several writers make at once
// (each process that made a thread for a new game, gameplay.Service.
// ClaimThread) is won by exactly one: every claimer reads the winner's
// value back, and losing claims write nothing.
func testThreadClaimedOnce(t *testing.T, s gameplay.Stores) {
	ctx := t.Context()
	g := mustGame(t, s, "alice", "bob", "c1")
	errTaken := fmt.Errorf("taken")
	const workers = 8
	seen := make([]string, workers)
	won := make([]bool, workers)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			<-start
			mine := fmt.Sprint("thread-", w)
			_, err := s.Games.AnnotateGame(ctx, g.ID, func(_ bot.Game, a *bot.Annotations) ([]bot.Notification, error) {
				if a.ThreadID != "" {
					seen[w], won[w] = a.ThreadID, false
					return nil, errTaken
				}
				a.ThreadID = mine
				seen[w], won[w] = mine, true
				return []bot.Notification{{UserID: "alice", Text: mine}}, nil
			})
			if err != nil && err != errTaken {
				t.Errorf("claim %d: %v", w, err)
			}
		})
	}
	close(start)
	wg.Wait()
	stored := mustGet(t, s, g.ID)
	winners := 0
	for w := range workers {
		if seen[w] != stored.ThreadID {
			t.Errorf("claim %d saw %q, the game names %q", w, seen[w], stored.ThreadID)
		}
		if won[w] {
			winners++
		}
	}
	if winners != 1 {
		t.Errorf("%d claims won, want 1", winners)
	}
	if stored.Version != g.Version {
		t.Errorf("the claim changed the version: %d, was %d", stored.Version, g.Version)
	}
	if ns := pending(t, s, T0.Add(time.Hour)); len(ns) != 1 || ns[0].Text != stored.ThreadID {
		t.Errorf("notifications %v, want only the winner's (%q)", texts(ns), stored.ThreadID)
	}
}
