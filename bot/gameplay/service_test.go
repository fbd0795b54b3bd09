package gameplay_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/bot/prefs"
	"github.com/fairypost/fairypost/internal/testkit"
	"github.com/fairypost/fairypost/rules"
	"github.com/fairypost/fairypost/rules/notation"
	"github.com/fairypost/fairypost/storage"
)

// testSeed is the seed of every random start the tests' Services draw.
const testSeed = testkit.Seed

// t0 is the time tests start at.
var t0 = testkit.T0

// endOfTime is later than any notification's NotBefore: reading the
// outbox as of then lists every pending notification.
var endOfTime = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)

// registry returns the rules registry shared by the tests.
func registry(tb testing.TB) *rules.Registry { return testkit.Registry(tb) }

// env is a Service over a real database (checked when the test ends)
// with a settable clock.
type env struct {
	db    *storage.DB
	svc   *gameplay.Service
	prefs *prefs.Service // the players' settings, as cmd/fairypost wires them
	clock *testkit.Clock
}

func newEnv(tb testing.TB) *env {
	tb.Helper()
	db := testkit.OpenDB(tb)
	c := testkit.NewClock(t0)
	svc := testkit.Service(tb, db, c)
	return &env{db: db, clock: c, svc: svc, prefs: prefs.New(svc, db)}
}

var ctx = context.Background()

// inChan is where the tests' challenges are made and answered: channel
// "chan" of the console's server.
var inChan = bot.Where{ChannelID: "chan"}

// start has alice challenge bob (alice white, but for a variant with a
// pre-game choice, where no colour may be asked for) to variant and bob
// accept.
func (e *env) start(tb testing.TB, variant string) *bot.Game {
	tb.Helper()
	color := bot.ColorWhite
	if v := registry(tb).Default(variant); v != nil && v.PreGame != nil {
		color = bot.ColorRandom
	}
	c, err := e.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "alice", Challenged: "bob", ChannelID: "chan",
		Variant: variant, DaysPerMove: 3, Color: color})
	if err != nil {
		tb.Fatal(err)
	}
	g, err := e.svc.Challenges().Accept(ctx, c.ID, c.Version, "bob", inChan)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// play plays moves as "user:move" in game id, failing on any error.
func (e *env) play(tb testing.TB, id uint64, moves ...string) *gameplay.MoveResult {
	tb.Helper()
	return testkit.Play(tb, e.svc, id, moves...)
}

// outbox returns "kind user" for every pending notification.
func (e *env) outbox(tb testing.TB) []string {
	tb.Helper()
	ns, err := e.db.PendingNotifications(ctx, endOfTime, 0)
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	for _, n := range ns {
		out = append(out, n.Kind.String()+" "+n.UserID)
	}
	return out
}

// snapshot is everything a refused request must leave unchanged.
type snapshot struct {
	games  []*bot.Game
	chals  []*bot.Challenge
	outbox []bot.Notification
}

func (e *env) snapshot(tb testing.TB) snapshot {
	tb.Helper()
	var s snapshot
	var err error
	if s.games, err = e.db.GamesByChannel(ctx, "chan"); err != nil {
		tb.Fatal(err)
	}
	if s.chals, err = e.db.ChallengesByChannel(ctx, "chan"); err != nil {
		tb.Fatal(err)
	}
	if s.outbox, err = e.db.PendingNotifications(ctx, endOfTime, 0); err != nil {
		tb.Fatal(err)
	}
	return s
}

// wantUnchanged fails unless the store is as in before.
func (e *env) wantUnchanged(tb testing.TB, before snapshot) {
	tb.Helper()
	if after := e.snapshot(tb); !reflect.DeepEqual(before, after) {
		tb.Fatalf("the store changed:\nbefore %+v\nafter  %+v", before, after)
	}
}

func TestFoolsMate(t *testing.T) {
	e := newEnv(t)
	g := e.start(t, "chess")
	if g.White != "alice" || g.Black != "bob" || g.ToAct != "alice" || g.Version != 1 || g.Status != bot.GameActive {
		t.Fatalf("started game %+v", g)
	}
	if want := t0.Add(3 * 24 * time.Hour); !g.Deadline.Equal(want) {
		t.Errorf("deadline %v, want %v", g.Deadline, want)
	}
	e.clock.Advance(time.Hour)
	res := e.play(t, g.ID, "alice f3")
	if want := t0.Add(time.Hour + 3*24*time.Hour); !res.Game.Deadline.Equal(want) || res.Game.ToAct != "bob" {
		t.Errorf("after f3: deadline %v, to act %q; want %v, bob", res.Game.Deadline, res.Game.ToAct, want)
	}
	res = e.play(t, g.ID, "bob e7e5", "alice g4", "bob Qh4#")
	g = res.Game
	if g.Status != bot.GameFinished || g.Result != bot.BlackWins || g.Reason != "checkmate" || g.ToAct != "" || !g.Deadline.IsZero() {
		t.Fatalf("after mate: %+v", g)
	}
	if want := []string{"f2f3", "e7e5", "g2g4", "d8h4"}; !reflect.DeepEqual(g.Moves, want) {
		t.Errorf("moves %q, want %q", g.Moves, want)
	}
	if res.SAN != "Qh4#" || res.Played != "d8h4" {
		t.Errorf("last move %q %q", res.Played, res.SAN)
	}
	if g.Version != 5 {
		t.Errorf("version %d, want 5", g.Version)
	}
	if due, err := e.db.GamesDue(ctx, t0.Add(1000*time.Hour)); err != nil || len(due) != 0 {
		t.Errorf("a finished game is still due: %v %v", due, err)
	}
	want := []string{
		"challenge-received bob", "challenge-accepted alice", "your-turn alice",
		"your-turn bob", "your-turn alice", "your-turn bob",
		"game-over alice", "game-over bob",
	}
	if got := e.outbox(t); !reflect.DeepEqual(got, want) {
		t.Errorf("outbox\n got %q\nwant %q", got, want)
	}
	_, err := e.svc.Move(ctx, gameplay.MoveRequest{GameID: g.ID, UserID: "alice", Move: "e4"})
	if bot.ErrorCode(err) != bot.EINVALID {
		t.Errorf("move after the end: %v, want EINVALID", err)
	}
	// The stored game replays to its cached FEN.
	v, _ := registry(t).Variant(g.Variant, g.Options)
	p, _ := rules.ParseFEN(v, g.StartFEN)
	rg := rules.NewGame(p)
	for _, s := range g.Moves {
		q := rg.Position()
		m, err := rules.ParseMove(&q, s)
		if err != nil {
			t.Fatal(err)
		}
		if err := rg.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	if q := rg.Position(); q.FEN() != g.FEN {
		t.Errorf("replayed FEN %s, cached %s", q.FEN(), g.FEN)
	}
}

// TestTrainWreckSamePlayerTwice: in Train Wreck the player to act moves
// twice in a row (docs/variants/trainwreck.md); the opponent is told only when the turn
// passes to them, and cannot move in between.
func TestTrainWreckSamePlayerTwice(t *testing.T) {
	e := newEnv(t)
	g := e.start(t, "trainwreck")
	before := len(e.outbox(t))

	res := e.play(t, g.ID, "alice g1f3")
	if !res.SameTurn || res.Game.ToAct != "alice" {
		t.Fatalf("after alice's first part: same turn %v, to act %q", res.SameTurn, res.Game.ToAct)
	}
	if n := len(e.outbox(t)); n != before {
		t.Errorf("outbox grew by %d in the middle of a turn", n-before)
	}
	snap := e.snapshot(t)
	_, err := e.svc.Move(ctx, gameplay.MoveRequest{GameID: g.ID, UserID: "bob", Move: "g8f6"})
	if bot.ErrorCode(err) != bot.EFORBIDDEN {
		t.Fatalf("bob moving in alice's turn: %v, want EFORBIDDEN", err)
	}
	e.wantUnchanged(t, snap)

	res = e.play(t, g.ID, "alice g8f6") // alice moves one of bob's pieces
	if res.SameTurn || res.Game.ToAct != "bob" {
		t.Fatalf("after alice's second part: same turn %v, to act %q", res.SameTurn, res.Game.ToAct)
	}
	res = e.play(t, g.ID, "bob b8c6", "bob b1c3")
	if res.Game.ToAct != "alice" || len(res.Game.Moves) != 4 {
		t.Fatalf("after bob's turn: to act %q, moves %q", res.Game.ToAct, res.Game.Moves)
	}
	got := e.outbox(t)[before:]
	if want := []string{"your-turn bob", "your-turn alice"}; !reflect.DeepEqual(got, want) {
		t.Errorf("outbox %q, want %q", got, want)
	}
}

// TestRefused: requests that must change nothing, with their codes.
func TestRefused(t *testing.T) {
	illegal := func() string {
		v := registry(t).Default("chess")
		p := v.Start()
		_, err := notation.ParseMove(&p, "e2e5")
		return err.Error()
	}()
	for _, tc := range []struct {
		name    string
		do      func(e *env, g *bot.Game, open *bot.Challenge) error
		code    string
		message string // when not empty, the exact message
	}{
		{"stale version", func(e *env, g *bot.Game, _ *bot.Challenge) error {
			_, err := e.svc.Move(ctx, gameplay.MoveRequest{GameID: g.ID, UserID: "bob", Move: "e5", Version: g.Version - 1})
			return err
		}, bot.ECONFLICT, ""},
		{"stranger moves", func(e *env, g *bot.Game, _ *bot.Challenge) error {
			_, err := e.svc.Move(ctx, gameplay.MoveRequest{GameID: g.ID, UserID: "carol", Move: "e5"})
			return err
		}, bot.EFORBIDDEN, "You are not playing in game 1."},
		{"not your turn", func(e *env, g *bot.Game, _ *bot.Challenge) error {
			_, err := e.svc.Move(ctx, gameplay.MoveRequest{GameID: g.ID, UserID: "alice", Move: "d4"})
			return err
		}, bot.EFORBIDDEN, ""},
		{"illegal move", func(e *env, g *bot.Game, _ *bot.Challenge) error {
			_, err := e.svc.Move(ctx, gameplay.MoveRequest{GameID: g.ID, UserID: "bob", Move: "e7e4"})
			return err
		}, bot.EINVALID, ""},
		{"unreadable move", func(e *env, g *bot.Game, _ *bot.Challenge) error {
			_, err := e.svc.Move(ctx, gameplay.MoveRequest{GameID: g.ID, UserID: "bob", Move: "hello"})
			return err
		}, bot.EINVALID, ""},
		{"unknown game", func(e *env, g *bot.Game, _ *bot.Challenge) error {
			_, err := e.svc.Move(ctx, gameplay.MoveRequest{GameID: 99, UserID: "bob", Move: "e5"})
			return err
		}, bot.ENOTFOUND, "There is no game 99."},
		{"stranger resigns", func(e *env, g *bot.Game, _ *bot.Challenge) error {
			_, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActResign, GameID: g.ID, Version: bot.AnyVersion, UserID: "carol"})
			return err
		}, bot.EFORBIDDEN, ""},
		{"stranger accepts a directed challenge", func(e *env, _ *bot.Game, _ *bot.Challenge) error {
			c, err := e.db.ChallengesByUser(ctx, "bob")
			if err != nil {
				return err
			}
			_, err = e.svc.Challenges().Accept(ctx, c[len(c)-1].ID, bot.AnyVersion, "carol", inChan)
			return err
		}, bot.EFORBIDDEN, ""},
		{"challenger accepts own open challenge", func(e *env, _ *bot.Game, open *bot.Challenge) error {
			_, err := e.svc.Challenges().Accept(ctx, open.ID, bot.AnyVersion, "alice", inChan)
			return err
		}, bot.EFORBIDDEN, ""},
		{"open challenge accepted from a DM", func(e *env, _ *bot.Game, open *bot.Challenge) error {
			_, err := e.svc.Challenges().Accept(ctx, open.ID, bot.AnyVersion, "carol", bot.Where{ChannelID: "dm-carol", DM: true})
			return err
		}, bot.EFORBIDDEN, "Open challenge 2 can be accepted only in the channel where it was made."},
		{"open challenge accepted from another server", func(e *env, _ *bot.Game, open *bot.Challenge) error {
			_, err := e.svc.Challenges().Accept(ctx, open.ID, bot.AnyVersion, "carol", bot.Where{GuildID: "other", ChannelID: "chan"})
			return err
		}, bot.EFORBIDDEN, "Open challenge 2 can be accepted only in the channel where it was made."},
		{"open challenge accepted from another channel", func(e *env, _ *bot.Game, open *bot.Challenge) error {
			_, err := e.svc.Challenges().Accept(ctx, open.ID, bot.AnyVersion, "carol", bot.Where{ChannelID: "elsewhere"})
			return err
		}, bot.EFORBIDDEN, "Open challenge 2 can be accepted only in the channel where it was made."},
		{"accept accepted challenge", func(e *env, g *bot.Game, _ *bot.Challenge) error {
			_, err := e.svc.Challenges().Accept(ctx, g.ID, bot.AnyVersion, "bob", inChan)
			return err
		}, bot.EINVALID, ""},
		{"accept expired challenge", func(e *env, _ *bot.Game, open *bot.Challenge) error {
			e.clock.Advance(gameplay.ChallengeTTL)
			_, err := e.svc.Challenges().Accept(ctx, open.ID, bot.AnyVersion, "carol", inChan)
			return err
		}, bot.EINVALID, ""},
		{"stranger cancels", func(e *env, _ *bot.Game, open *bot.Challenge) error {
			_, err := e.svc.Challenges().Cancel(ctx, open.ID, bot.AnyVersion, "carol")
			return err
		}, bot.EFORBIDDEN, ""},
		{"decline open challenge", func(e *env, _ *bot.Game, open *bot.Challenge) error {
			_, err := e.svc.Challenges().Decline(ctx, open.ID, bot.AnyVersion, "carol")
			return err
		}, bot.EFORBIDDEN, ""},
		{"unknown variant", func(e *env, _ *bot.Game, _ *bot.Challenge) error {
			_, err := e.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "alice", ChannelID: "chan", Variant: "checkers"})
			return err
		}, bot.EINVALID, ""},
		{"bad days", func(e *env, _ *bot.Game, _ *bot.Challenge) error {
			_, err := e.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "alice", ChannelID: "chan", Variant: "chess", DaysPerMove: 4})
			return err
		}, bot.EINVALID, ""},
		{"bad option", func(e *env, _ *bot.Game, _ *bot.Challenge) error {
			_, err := e.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "alice", ChannelID: "chan", Variant: "chess", Options: "x=y"})
			return err
		}, bot.EINVALID, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			g := e.start(t, "chess")
			g = e.play(t, g.ID, "alice e4").Game
			open, err := e.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "alice", ChannelID: "chan", Variant: "chess"})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := e.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "alice", Challenged: "bob", ChannelID: "chan", Variant: "chess"}); err != nil {
				t.Fatal(err)
			}
			snap := e.snapshot(t)
			err = tc.do(e, g, open)
			if got := bot.ErrorCode(err); got != tc.code {
				t.Fatalf("error %v: code %q, want %q", err, got, tc.code)
			}
			if tc.message != "" && bot.ErrorMessage(err) != tc.message {
				t.Errorf("message %q, want %q", bot.ErrorMessage(err), tc.message)
			}
			e.wantUnchanged(t, snap)
		})
	}
	t.Run("illegal move gives the rules' reason", func(t *testing.T) {
		e := newEnv(t)
		g := e.start(t, "chess")
		_, err := e.svc.Move(ctx, gameplay.MoveRequest{GameID: g.ID, UserID: "alice", Move: "e2e5"})
		if bot.ErrorMessage(err) != illegal {
			t.Errorf("message %q, want the rules' %q", bot.ErrorMessage(err), illegal)
		}
	})
}

// TestChallengeAcceptedFromItsServer: a challenge to one user is accepted
// in its server or from a DM (its buttons reach the challenged user by
// DM), never from another server; the game is played where the challenge
// was made.
func TestChallengeAcceptedFromItsServer(t *testing.T) {
	e := newEnv(t)
	c, err := e.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "alice", Challenged: "bob", GuildID: "g1", ChannelID: "chan", Variant: "chess"})
	if err != nil {
		t.Fatal(err)
	}
	snap := e.snapshot(t)
	_, err = e.svc.Challenges().Accept(ctx, c.ID, bot.AnyVersion, "bob", bot.Where{GuildID: "g2", ChannelID: "chan"})
	if bot.ErrorCode(err) != bot.EFORBIDDEN || !strings.Contains(bot.ErrorMessage(err), "made in another server") {
		t.Fatalf("accept from another server: %v", err)
	}
	e.wantUnchanged(t, snap)
	g, err := e.svc.Challenges().Accept(ctx, c.ID, bot.AnyVersion, "bob", bot.Where{ChannelID: "dm-bob", DM: true})
	if err != nil {
		t.Fatalf("accept from a DM: %v", err)
	}
	if g.GuildID != "g1" || g.ChannelID != "chan" {
		t.Errorf("game played in %q/%q, want g1/chan", g.GuildID, g.ChannelID)
	}
}

func TestOpenChallengeAcceptedByAnyone(t *testing.T) {
	e := newEnv(t)
	c, err := e.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "alice", ChannelID: "chan", Variant: "chess", Color: bot.ColorBlack, DaysPerMove: 0})
	if err != nil {
		t.Fatal(err)
	}
	g, err := e.svc.Challenges().Accept(ctx, c.ID, c.Version, "carol", inChan)
	if err != nil {
		t.Fatal(err)
	}
	if g.ID != c.ID || g.White != "carol" || g.Black != "alice" || g.ToAct != "carol" || !g.Deadline.IsZero() {
		t.Errorf("game %+v", g)
	}
	if _, err := e.svc.Challenges().Accept(ctx, c.ID, c.Version, "dave", inChan); bot.ErrorCode(err) != bot.ECONFLICT {
		t.Errorf("second accept with the old version: %v, want ECONFLICT", err)
	}
	gs, _ := e.db.GamesByUser(ctx, "carol")
	if len(gs) != 1 || gs[0].ID != g.ID {
		t.Errorf("carol's games %+v", gs)
	}
}

func TestDeclineAndCancel(t *testing.T) {
	e := newEnv(t)
	c1, _ := e.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "alice", Challenged: "bob", ChannelID: "chan", Variant: "chess"})
	c2, _ := e.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "alice", Challenged: "bob", ChannelID: "chan", Variant: "tank"})
	if c, err := e.svc.Challenges().Decline(ctx, c1.ID, c1.Version, "bob"); err != nil || c.Status != bot.ChallengeDeclined {
		t.Fatalf("decline: %+v %v", c, err)
	}
	if c, err := e.svc.Challenges().Cancel(ctx, c2.ID, c2.Version, "alice"); err != nil || c.Status != bot.ChallengeCancelled {
		t.Fatalf("cancel: %+v %v", c, err)
	}
	if _, err := e.svc.Challenges().Accept(ctx, c2.ID, bot.AnyVersion, "bob", inChan); bot.ErrorCode(err) != bot.EINVALID {
		t.Errorf("accepting a cancelled challenge: %v", err)
	}
	want := []string{"challenge-received bob", "challenge-received bob", "challenge-declined alice"}
	if got := e.outbox(t); !reflect.DeepEqual(got, want) {
		t.Errorf("outbox %q, want %q", got, want)
	}
}

func TestResign(t *testing.T) {
	e := newEnv(t)
	g := e.start(t, "chess")
	g, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActResign, GameID: g.ID, Version: g.Version, UserID: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	if g.Status != bot.GameFinished || g.Result != bot.BlackWins || g.Reason != "resignation" {
		t.Errorf("after resigning: %+v", g)
	}
}

// TestConcurrentSameMove: N goroutines submit the same move; exactly one
// is applied, with the version they saw and without it.
func TestConcurrentSameMove(t *testing.T) {
	for _, withVersion := range []bool{true, false} {
		t.Run(fmt.Sprintf("version=%v", withVersion), func(t *testing.T) {
			e := newEnv(t)
			g := e.start(t, "chess")
			const n = 16
			var wg sync.WaitGroup
			errs := make([]error, n)
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					req := gameplay.MoveRequest{GameID: g.ID, UserID: "alice", Move: "e4"}
					if withVersion {
						req.Version = g.Version
					}
					_, errs[i] = e.svc.Move(ctx, req)
				}()
			}
			wg.Wait()
			ok := 0
			for _, err := range errs {
				switch {
				case err == nil:
					ok++
				case withVersion && bot.ErrorCode(err) != bot.ECONFLICT,
					!withVersion && bot.ErrorCode(err) != bot.EFORBIDDEN:
					t.Errorf("unexpected error %v", err)
				}
			}
			got, _ := e.db.Game(ctx, g.ID)
			if ok != 1 || len(got.Moves) != 1 || got.Version != 2 {
				t.Fatalf("%d succeeded; game has moves %q, version %d", ok, got.Moves, got.Version)
			}
		})
	}
}

func TestErrorHelpers(t *testing.T) {
	if bot.ErrorCode(nil) != "" || bot.ErrorMessage(nil) != "" {
		t.Error("nil error")
	}
	other := errors.New("disk on fire")
	if bot.ErrorCode(other) != bot.EINTERNAL || bot.ErrorMessage(other) != "Internal error." {
		t.Error("a non-domain error must be internal and hidden")
	}
	wrapped := fmt.Errorf("x: %w", bot.Errorf(bot.ENOTFOUND, "No %s.", "game"))
	if bot.ErrorCode(wrapped) != bot.ENOTFOUND || bot.ErrorMessage(wrapped) != "No game." {
		t.Error("wrapped domain error")
	}
}

// TestMoveResultReplayed: the rules game a move hands back is the stored
// game, automatic moves included.
func TestMoveResultReplayed(t *testing.T) {
	e := newEnv(t)
	g := e.start(t, "trainwreck")
	for _, mv := range []string{"alice e4", "alice e5"} {
		res := e.play(t, g.ID, mv)
		if res.Replayed == nil {
			t.Fatalf("%s: no replayed game", mv)
		}
		p := res.Replayed.Position()
		if p.FEN() != res.Game.FEN || len(res.Replayed.Moves()) != len(res.Game.Moves) {
			t.Fatalf("%s: replayed %s after %d moves, stored %s after %d", mv, p.FEN(),
				len(res.Replayed.Moves()), res.Game.FEN, len(res.Game.Moves))
		}
	}
}

// TestMoveReplaysNothingAfterAMove: the replay cache answers a move on a
// game just played and the board shown after it; a record replays in
// full only when its version is new to the cache.
func TestMoveReplaysNothingAfterAMove(t *testing.T) {
	e := newEnv(t)
	g := e.start(t, "chess")
	e.play(t, g.ID, "alice e4", "bob e5", "alice Nf3")
	_, missesBefore := e.svc.Views().ReplayStats()
	res := e.play(t, g.ID, "bob Nc6")
	if _, err := e.svc.Views().ReplayRecord(res.Game); err != nil {
		t.Fatal(err)
	}
	e.play(t, g.ID, "alice Bb5")
	if _, misses := e.svc.Views().ReplayStats(); misses != missesBefore {
		t.Errorf("%d full replays for two moves and a view of a game just played, want 0", misses-missesBefore)
	}
	// A record changed elsewhere (a new version the cache never saw)
	// replays in full.
	h, err := e.svc.Views().Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	h.Version += 100
	if _, err := e.svc.Views().ReplayRecord(h); err != nil {
		t.Fatal(err)
	}
	if _, misses := e.svc.Views().ReplayStats(); misses != missesBefore+1 {
		t.Errorf("an unseen version: %d full replays, want 1", misses-missesBefore)
	}
}

// TestReplayCacheHammered: many goroutines move in and look at one game
// through the cache at once (run with -race); every move is applied at
// most once and the final record replays to the cached game.
func TestReplayCacheHammered(t *testing.T) {
	e := newEnv(t)
	g := e.start(t, "chess")
	line := []string{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7"}
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := 0; i < 200; i++ {
				cur, err := e.svc.Views().Game(ctx, g.ID)
				if err != nil {
					t.Error(err)
					return
				}
				rg, err := e.svc.Views().ReplayRecord(cur)
				if err != nil || len(rg.Moves()) != len(cur.Moves) {
					t.Errorf("replay of version %d: %v", cur.Version, err)
					return
				}
				n := len(cur.Moves)
				if n == len(line) {
					return
				}
				user := cur.White
				if n%2 == 1 {
					user = cur.Black
				}
				if w%2 == 0 { // half the workers also play on what they got
					p := rg.Position()
					if m, err := notation.ParseMove(&p, line[n]); err == nil {
						_ = rg.Play(m)
					}
				}
				_, err = e.svc.Move(ctx, gameplay.MoveRequest{GameID: g.ID, UserID: user, Move: line[n], Version: cur.Version})
				if err != nil && bot.ErrorCode(err) != bot.ECONFLICT {
					t.Errorf("move %d: %v", n+1, err)
					return
				}
			}
		})
	}
	wg.Wait()
	final, err := e.svc.Views().Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(final.Moves) != len(line) {
		t.Fatalf("%d moves stored, want %d", len(final.Moves), len(line))
	}
	rg, err := e.svc.Views().ReplayRecord(final)
	if err != nil {
		t.Fatal(err)
	}
	if p := rg.Position(); p.FEN() != final.FEN {
		t.Errorf("cached replay %s, record %s", p.FEN(), final.FEN)
	}
}
