package storage_test

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/rating"
)

// UpdateGameRated stores the game, the standings, the histories and the
// notifications together; a failing fn, or a standing written from a
// stale version, changes none of them. Rated fields of games and
// challenges round-trip.
func TestUpdateGameRated(t *testing.T) {
	db := mustOpenDB(t, "")
	g := mustAddGame(t, db, "alice", "bob", "chan")
	const pool = "guild/g1/chess"
	newer := rating.Player{Glicko: rating.Glicko{Rating: 1600, Deviation: 80, Volatility: 0.06}, Games: 3, Last: t0}
	change := bot.RatingChange{UserID: "alice", Pool: pool, Before: rating.Glicko{Rating: 1500, Deviation: 90, Volatility: 0.06},
		After: newer.Glicko}

	boom := errors.New("boom")
	_, err := db.UpdateGameRated(ctx, g.ID, g.Version, func(g *bot.Game, tx bot.RatingTx) ([]bot.Notification, error) {
		st, err := tx.Standing(pool, "alice")
		if err != nil {
			return nil, err
		}
		st.Player = newer
		if err := tx.PutStanding(st, bot.RatingEvent{GameID: g.ID, Entry: rating.HistoryEntry{At: t0, Score: 1, After: newer.Glicko}}); err != nil {
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

	end := t0.Add(time.Hour)
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
	stored, err := db.Game(ctx, g.ID)
	if err != nil || !reflect.DeepEqual(stored, out) || !stored.Rated || !reflect.DeepEqual(stored.Ratings, []bot.RatingChange{change}) {
		t.Fatalf("stored game %+v, %v; returned %+v", stored, err, out)
	}
	sts, err := db.PoolStandings(ctx, pool)
	if err != nil || len(sts) != 2 || sts[0].UserID != "alice" || sts[1].UserID != "bob" || sts[0].Version != 1 || sts[0].Player != newer {
		t.Fatalf("pool standings %+v, %v", sts, err)
	}
	if other, _ := db.PoolStandings(ctx, "global/chess"); len(other) != 0 {
		t.Errorf("another pool has standings: %+v", other)
	}
	mine, err := db.UserStandings(ctx, "bob")
	if err != nil || len(mine) != 1 || mine[0].Pool != pool {
		t.Errorf("bob's standings %+v, %v", mine, err)
	}
	h, err := db.RatingHistory(ctx, pool, "alice")
	if err != nil || len(h) != 1 || h[0].GameID != g.ID || !h[0].Entry.At.Equal(end) || h[0].Entry.Score != 0.5 {
		t.Errorf("alice's history %+v, %v", h, err)
	}
	if ns, _ := db.PendingNotifications(ctx, end, 0); len(ns) != 2 || ns[1].Text != "over" {
		t.Errorf("outbox %+v", ns)
	}

	// A challenge keeps its Rated flag.
	c := &bot.Challenge{Challenger: "carol", Challenged: "dan", ChannelID: "chan", Variant: "chess", Rated: true,
		Color: bot.ColorWhite, Status: bot.ChallengePending, Expires: t0.Add(time.Hour), Created: t0, Updated: t0}
	if err := db.CreateChallenge(ctx, c, nil); err != nil {
		t.Fatal(err)
	}
	if got, err := db.Challenge(ctx, c.ID); err != nil || !got.Rated {
		t.Errorf("challenge %+v, %v: Rated lost", got, err)
	}
}

// History is kept in the order games ended, whatever their IDs.
func TestRatingHistoryOrder(t *testing.T) {
	db := mustOpenDB(t, "")
	g1 := mustAddGame(t, db, "alice", "bob", "chan")
	g2 := mustAddGame(t, db, "alice", "bob", "chan")
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
	put(g2, t0)
	put(g1, t0.Add(time.Minute))
	h, err := db.RatingHistory(ctx, pool, "alice")
	if err != nil || len(h) != 2 || h[0].GameID != g2.ID || h[1].GameID != g1.ID {
		t.Fatalf("history %+v, %v: want game %d then %d", h, err, g2.ID, g1.ID)
	}
	if sts, _ := db.UserStandings(ctx, "alice"); len(sts) != 1 || sts[0].Version != 2 || sts[0].Player.Games != 2 {
		t.Errorf("standings %+v", sts)
	}
}
