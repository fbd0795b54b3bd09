package storetest

import (
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/rating"
	"github.com/fairypost/fairypost/tournament"
)

// ratingsOf returns s's RatingStore, failing the test when s has none:
// every backend keeps ratings.
func ratingsOf(t *testing.T, s gameplay.Stores) bot.RatingStore {
	t.Helper()
	if s.Ratings == nil {
		t.Fatal("the backend gives no RatingStore: every backend must keep ratings")
	}
	return s.Ratings
}

// tournamentsOf returns s's TournamentStore, failing the test when s has
// none: every backend keeps tournaments.
func tournamentsOf(t *testing.T, s gameplay.Stores) bot.TournamentStore {
	t.Helper()
	if s.Tournaments == nil {
		t.Fatal("the backend gives no TournamentStore: every backend must keep tournaments")
	}
	return s.Tournaments
}

// testUpdateGameRated: UpdateGameRated stores the game, the standings,
// the histories and the notifications together; a failing fn, or a
// standing written from a stale version, changes none of them. Rated
// fields of games and challenges round-trip.
func testUpdateGameRated(t *testing.T, s gameplay.Stores) {
	ctx := t.Context()
	db := ratingsOf(t, s)
	g := mustGame(t, s, "alice", "bob", "chan")
	const pool = "guild/g1/chess"
	newer := rating.Player{Glicko: rating.Glicko{Rating: 1600, Deviation: 80, Volatility: 0.06}, Games: 3, Last: T0}
	change := bot.RatingChange{UserID: "alice", Pool: pool, Before: rating.Glicko{Rating: 1500, Deviation: 90, Volatility: 0.06},
		After: newer.Glicko}

	boom := errors.New("boom")
	_, err := db.UpdateGameRated(ctx, g.ID, g.Version, func(g *bot.Game, tx bot.RatingTx) ([]bot.Notification, error) {
		st, err := tx.Standing(pool, "alice")
		if err != nil {
			return nil, err
		}
		st.Player = newer
		if err := tx.PutStanding(st, bot.RatingEvent{GameID: g.ID, Entry: rating.HistoryEntry{At: T0, Score: 1, After: newer.Glicko}}); err != nil {
			return nil, err
		}
		g.Status = bot.GameAborted
		return nil, boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("failing fn: %v", err)
	}
	if sts, _ := db.PoolStandings(ctx, pool); len(sts) != 0 {
		t.Fatalf("a failed update left standings: %+v", sts)
	}
	if h, _ := db.RatingHistory(ctx, pool, "alice"); len(h) != 0 {
		t.Fatalf("a failed update left history: %+v", h)
	}

	stale := bot.Standing{Pool: pool, UserID: "alice", Version: 7, Player: newer}
	_, err = db.UpdateGameRated(ctx, g.ID, g.Version, func(g *bot.Game, tx bot.RatingTx) ([]bot.Notification, error) {
		return nil, tx.PutStanding(stale, bot.RatingEvent{GameID: g.ID})
	})
	if bot.ErrorCode(err) != bot.ECONFLICT {
		t.Fatalf("stale standing: %v, want a conflict", err)
	}

	end := T0.Add(time.Hour)
	out, err := db.UpdateGameRated(ctx, g.ID, g.Version, func(g *bot.Game, tx bot.RatingTx) ([]bot.Notification, error) {
		for _, u := range []string{"alice", "bob"} {
			st, err := tx.Standing(pool, u)
			if err != nil || st.Version != 0 || st.Player != (rating.Player{}) {
				t.Errorf("fresh standing of %s: %+v, %v", u, st, err)
			}
			st.Player = newer
			if err := tx.PutStanding(st, bot.RatingEvent{GameID: g.ID, Entry: rating.HistoryEntry{At: end, Score: 0.5, After: newer.Glicko}}); err != nil {
				return nil, err
			}
		}
		g.Status, g.Result, g.Rated, g.Ratings, g.Updated = bot.GameFinished, bot.Draw, true, []bot.RatingChange{change}, end
		return []bot.Notification{{Kind: bot.NotifyGameOver, UserID: "alice", GameID: g.ID, Text: "over", Created: end}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	stored := mustGet(t, s, g.ID)
	if !reflect.DeepEqual(stored, out) || !stored.Rated || !reflect.DeepEqual(stored.Ratings, []bot.RatingChange{change}) {
		t.Fatalf("stored game %+v; returned %+v", stored, out)
	}
	sts, err := db.PoolStandings(ctx, pool)
	if err != nil || len(sts) != 2 || sts[0].UserID != "alice" || sts[1].UserID != "bob" || sts[0].Version != 1 ||
		sts[0].Player.Glicko != newer.Glicko || sts[0].Player.Games != newer.Games || !sts[0].Player.Last.Equal(newer.Last) {
		t.Fatalf("pool standings %+v, %v", sts, err)
	}
	if other, _ := db.PoolStandings(ctx, "global/chess"); len(other) != 0 {
		t.Errorf("another pool has standings: %+v", other)
	}
	if other, _ := db.PoolStandings(ctx, "guild/g1"); len(other) != 0 {
		t.Errorf("a pool whose key starts another's has its standings: %+v", other)
	}
	mine, err := db.UserStandings(ctx, "bob")
	if err != nil || len(mine) != 1 || mine[0].Pool != pool {
		t.Errorf("bob's standings %+v, %v", mine, err)
	}
	h, err := db.RatingHistory(ctx, pool, "alice")
	if err != nil || len(h) != 1 || h[0].GameID != g.ID || !h[0].Entry.At.Equal(end) || h[0].Entry.Score != 0.5 {
		t.Errorf("alice's history %+v, %v", h, err)
	}
	if ns := pending(t, s, end); len(ns) != 1 || ns[0].Text != "over" {
		t.Errorf("outbox %+v", ns)
	}

	// A challenge keeps its Rated flag.
	c := challenge("carol", "dan", "chan", T0.Add(time.Hour))
	c.Rated = true
	c = mustCreate(t, s, c)
	if got, err := s.Challenges.Challenge(ctx, c.ID); err != nil || !got.Rated {
		t.Errorf("challenge %+v, %v: Rated lost", got, err)
	}
}

// testRatingHistoryOrder: history is kept in the order games ended,
// whatever their IDs, and a standing's version counts its writes.
func testRatingHistoryOrder(t *testing.T, s gameplay.Stores) {
	ctx := t.Context()
	db := ratingsOf(t, s)
	g1 := mustGame(t, s, "alice", "bob", "chan")
	g2 := mustGame(t, s, "alice", "bob", "chan")
	const pool = "global/chess"
	put := func(g *bot.Game, at time.Time) {
		t.Helper()
		_, err := db.UpdateGameRated(ctx, g.ID, bot.AnyVersion, func(g *bot.Game, tx bot.RatingTx) ([]bot.Notification, error) {
			st, err := tx.Standing(pool, "alice")
			if err != nil {
				return nil, err
			}
			st.Player.Games++
			st.Player.Glicko = rating.Glicko{Rating: 1500, Deviation: 300, Volatility: 0.09}
			return nil, tx.PutStanding(st, bot.RatingEvent{GameID: g.ID, Entry: rating.HistoryEntry{At: at, Score: 1, After: st.Player.Glicko}})
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	put(g2, T0)
	put(g1, T0.Add(time.Minute))
	h, err := db.RatingHistory(ctx, pool, "alice")
	if err != nil || len(h) != 2 || h[0].GameID != g2.ID || h[1].GameID != g1.ID {
		t.Fatalf("history %+v, %v: want game %d then %d", h, err, g2.ID, g1.ID)
	}
	if sts, _ := db.UserStandings(ctx, "alice"); len(sts) != 1 || sts[0].Version != 2 || sts[0].Player.Games != 2 {
		t.Errorf("standings %+v", sts)
	}
}

// testTournamentStore: tournaments round-trip with their event, create
// their games in the same transaction with IDs from the shared sequence,
// and keep the channel, running and start-time indexes; a failing update
// changes nothing.
func testTournamentStore(t *testing.T, s gameplay.Stores) {
	ctx := t.Context()
	db := tournamentsOf(t, s)
	e, err := tournament.NewEvent(tournament.RoundRobinKind, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"a", "b", "c"} {
		if e, err = e.Join(p); err != nil {
			t.Fatal(err)
		}
	}
	tr := &bot.Tournament{GuildID: "g", ChannelID: "chan", Organizer: "a", Variant: "chess", Options: "x=1", DaysPerMove: 3,
		Rated: true, StartAt: T0.Add(time.Hour), Event: e, Created: T0, Updated: T0}
	if err := db.CreateTournament(ctx, tr, nil); err != nil {
		t.Fatal(err)
	}
	c := mustGame(t, s, "x", "y", "chan") // takes the next ID of the shared sequence
	if tr.ID == 0 || tr.Version != 1 || c.ID == tr.ID {
		t.Fatalf("tournament %d v%d, game %d", tr.ID, tr.Version, c.ID)
	}
	got, err := db.Tournament(ctx, tr.ID)
	if err != nil || !reflect.DeepEqual(got, tr) {
		t.Fatalf("stored %+v, %v; want %+v", got, err, tr)
	}
	if due, _ := db.TournamentsToStart(ctx, T0); len(due) != 0 {
		t.Errorf("due before its time: %+v", due)
	}
	if due, _ := db.TournamentsToStart(ctx, T0.Add(time.Hour)); len(due) != 1 {
		t.Errorf("due at its time: %+v", due)
	}
	if at, _ := db.EarliestTournamentStart(ctx); !at.Equal(T0.Add(time.Hour)) {
		t.Errorf("earliest start %v", at)
	}

	boom := errors.New("boom")
	_, err = db.UpdateTournament(ctx, tr.ID, tr.Version, func(tr *bot.Tournament, newID func() (uint64, error)) (bot.TournamentChange, error) {
		id, _ := newID()
		tr.Organizer = "z"
		return bot.TournamentChange{Games: []*bot.Game{{ID: id, Variant: "chess", White: "a", Black: "b"}}}, boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("failing update: %v", err)
	}
	if _, err := db.UpdateTournament(ctx, tr.ID, 7, func(*bot.Tournament, func() (uint64, error)) (bot.TournamentChange, error) {
		return bot.TournamentChange{}, nil
	}); bot.ErrorCode(err) != bot.ECONFLICT {
		t.Errorf("stale version: %v", err)
	}
	if _, err := db.UpdateTournament(ctx, tr.ID, bot.AnyVersion, func(*bot.Tournament, func() (uint64, error)) (bot.TournamentChange, error) {
		return bot.TournamentChange{Games: []*bot.Game{{ID: 999, Variant: "chess"}}}, nil
	}); bot.ErrorCode(err) != bot.EINTERNAL {
		t.Errorf("a game whose ID the update did not give: %v", err)
	}

	var gameID uint64
	out, err := db.UpdateTournament(ctx, tr.ID, tr.Version, func(tr *bot.Tournament, newID func() (uint64, error)) (bot.TournamentChange, error) {
		e, err := tr.Event.Start(tr.Event.Players)
		if err != nil {
			return bot.TournamentChange{}, err
		}
		tr.Event = e
		if gameID, err = newID(); err != nil {
			return bot.TournamentChange{}, err
		}
		p := e.Schedule[0].Games[0]
		tr.Games = append(tr.Games, bot.TournamentGame{Round: 1, White: p.White, Black: p.Black, GameID: gameID})
		return bot.TournamentChange{Games: []*bot.Game{{ID: gameID, Variant: "chess", White: p.White, Black: p.Black, ChannelID: "chan",
			Status: bot.GameActive, Tournament: tr.ID, Created: T0, Updated: T0}},
			Notifications: []bot.Notification{{Kind: bot.NotifyTournament, ChannelID: "chan", Text: "paired", Created: T0}}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if out.Version != 2 || out.Event.Status != tournament.Running || len(out.Event.Schedule) != 3 {
		t.Fatalf("started: %+v", out)
	}
	g := mustGet(t, s, gameID)
	if g.Version != 1 || g.Tournament != tr.ID || gameID <= c.ID {
		t.Fatalf("created game %+v", g)
	}
	if next := mustGame(t, s, "x", "y", "chan"); next.ID <= gameID {
		t.Errorf("the next game took ID %d, not after the tournament's game %d", next.ID, gameID)
	}
	if got, _ := db.Tournament(ctx, tr.ID); !reflect.DeepEqual(got, out) {
		t.Errorf("stored %+v, returned %+v", got, out)
	}
	if run, _ := db.RunningTournaments(ctx); len(run) != 1 || run[0].ID != tr.ID {
		t.Errorf("running: %+v", run)
	}
	if due, _ := db.TournamentsToStart(ctx, T0.Add(time.Hour)); len(due) != 0 {
		t.Errorf("a started tournament is still due to start: %+v", due)
	}
	if at, _ := db.EarliestTournamentStart(ctx); !at.IsZero() {
		t.Errorf("earliest start %v after the only one started", at)
	}
	if list, _ := db.TournamentsByChannel(ctx, "chan"); len(list) != 1 {
		t.Errorf("by channel: %+v", list)
	}
	if ns := pending(t, s, T0); len(ns) != 1 || ns[0].Text != "paired" {
		t.Errorf("outbox %+v", ns)
	}
}

// testConcurrentRatedEnds: rated games of one player ending at once, each
// reading and writing the player's standing, never lose a write: the
// standing counts every game, its version every write, and the history
// holds each game once.
func testConcurrentRatedEnds(t *testing.T, s gameplay.Stores) {
	ctx := t.Context()
	db := ratingsOf(t, s)
	const n, pool = 6, "global/chess"
	games := make([]*bot.Game, n)
	for i := range games {
		games[i] = mustGame(t, s, "alice", "bob", "chan")
	}
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i, g := range games {
		wg.Go(func() {
			_, errs[i] = db.UpdateGameRated(ctx, g.ID, bot.AnyVersion, func(g *bot.Game, tx bot.RatingTx) ([]bot.Notification, error) {
				st, err := tx.Standing(pool, "alice")
				if err != nil {
					return nil, err
				}
				st.Player.Games++
				g.Status, g.Result, g.Rated = bot.GameFinished, bot.WhiteWins, true
				at := T0.Add(time.Duration(i) * time.Minute)
				return nil, tx.PutStanding(st, bot.RatingEvent{GameID: g.ID, Entry: rating.HistoryEntry{At: at, Score: 1}})
			})
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("game %d: %v", games[i].ID, err)
		}
	}
	sts, err := db.UserStandings(ctx, "alice")
	if err != nil || len(sts) != 1 || sts[0].Player.Games != n || sts[0].Version != n {
		t.Fatalf("standings %+v, %v: want %d games and version %d", sts, err, n, n)
	}
	if h, err := db.RatingHistory(ctx, pool, "alice"); err != nil || len(h) != n {
		t.Errorf("history %+v, %v: want %d games", h, err, n)
	}
}
