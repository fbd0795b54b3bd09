package storage

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
)

// verifyRatings checks that st.Ratings holds exactly d's standings and
// rating histories, through its own listings: every pool's standings,
// every user's standings, every player's history. A store without
// ratings matches only a dump without any.
func verifyRatings(ctx context.Context, d *Dump, st gameplay.Stores) error {
	if st.Ratings == nil {
		if len(d.Standings) > 0 || len(d.RatingHistory) > 0 {
			return fmt.Errorf("the store keeps no ratings, and the copy holds %d standings", len(d.Standings))
		}
		return nil
	}
	byPool, byUser := map[string][]bot.Standing{}, map[string][]bot.Standing{}
	for _, s := range d.Standings {
		byPool[s.Pool] = append(byPool[s.Pool], s)
		byUser[s.UserID] = append(byUser[s.UserID], s)
	}
	pools := slices.Sorted(maps.Keys(byPool))
	if err := each(len(pools), func(i int) error {
		want := slices.SortedFunc(slices.Values(byPool[pools[i]]), func(a, b bot.Standing) int { return cmp.Compare(a.UserID, b.UserID) })
		got, err := st.Ratings.PoolStandings(ctx, pools[i])
		if err != nil {
			return fmt.Errorf("PoolStandings(%s): %w", pools[i], err)
		}
		if !sameStandings(got, want) {
			return fmt.Errorf("PoolStandings(%s) = %+v, want %+v", pools[i], got, want)
		}
		return nil
	}); err != nil {
		return err
	}
	users := slices.Sorted(maps.Keys(byUser))
	if err := each(len(users), func(i int) error {
		want := slices.SortedFunc(slices.Values(byUser[users[i]]), func(a, b bot.Standing) int { return cmp.Compare(a.Pool, b.Pool) })
		got, err := st.Ratings.UserStandings(ctx, users[i])
		if err != nil {
			return fmt.Errorf("UserStandings(%s): %w", users[i], err)
		}
		if !sameStandings(got, want) {
			return fmt.Errorf("UserStandings(%s) = %+v, want %+v", users[i], got, want)
		}
		return nil
	}); err != nil {
		return err
	}
	type player struct{ pool, user string }
	histories := map[player][]bot.RatingEvent{}
	var players []player
	for _, h := range d.RatingHistory {
		p := player{h.Pool, h.UserID}
		if _, ok := histories[p]; !ok {
			players = append(players, p)
		}
		histories[p] = append(histories[p], h.Event)
	}
	return each(len(players), func(i int) error {
		p := players[i]
		got, err := st.Ratings.RatingHistory(ctx, p.pool, p.user)
		if err != nil {
			return fmt.Errorf("RatingHistory(%s, %s): %w", p.pool, p.user, err)
		}
		if want := histories[p]; !sameEvents(got, want) {
			return fmt.Errorf("RatingHistory(%s, %s) = %+v, want %+v", p.pool, p.user, got, want)
		}
		return nil
	})
}

// verifyTournaments checks that st.Tournaments holds exactly d's
// tournaments: each record equal, and the listings by channel, of the
// running ones and of those to start, with the IDs d implies.
func verifyTournaments(ctx context.Context, d *Dump, st gameplay.Stores) error {
	if st.Tournaments == nil {
		if len(d.Tournaments) > 0 {
			return fmt.Errorf("the store keeps no tournaments, and the copy holds %d", len(d.Tournaments))
		}
		return nil
	}
	channels := map[string][]uint64{} // d.Tournaments is in ID order
	var running []uint64
	var starting []*bot.Tournament
	for _, t := range d.Tournaments {
		channels[t.ChannelID] = append(channels[t.ChannelID], t.ID)
		if TournamentRunning(t) {
			running = append(running, t.ID)
		}
		if !TournamentStart(t).IsZero() {
			starting = append(starting, t)
		}
	}
	if err := sameRecords(d.Tournaments, func(t *bot.Tournament) string { return fmt.Sprintf("tournament %d", t.ID) },
		func(t *bot.Tournament) (*bot.Tournament, error) { return st.Tournaments.Tournament(ctx, t.ID) }); err != nil {
		return err
	}
	// list checks that a listing holds the IDs want, in that order.
	list := func(what string, ts []*bot.Tournament, err error, want []uint64) error {
		if err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		got := make([]uint64, len(ts))
		for i, t := range ts {
			got[i] = t.ID
		}
		if !slices.Equal(got, want) {
			return fmt.Errorf("%s = %v, want %v", what, got, want)
		}
		return nil
	}
	for _, ch := range slices.Sorted(maps.Keys(channels)) {
		ts, err := st.Tournaments.TournamentsByChannel(ctx, ch)
		if err := list("TournamentsByChannel("+ch+")", ts, err, channels[ch]); err != nil {
			return err
		}
	}
	ts, err := st.Tournaments.RunningTournaments(ctx)
	if err := list("RunningTournaments", ts, err, running); err != nil {
		return err
	}
	ts, err = st.Tournaments.TournamentsToStart(ctx, time.Unix(0, math.MaxInt64))
	if err := list("TournamentsToStart", ts, err, idsByStart(starting)); err != nil {
		return err
	}
	at, err := st.Tournaments.EarliestTournamentStart(ctx)
	if err != nil {
		return fmt.Errorf("EarliestTournamentStart: %w", err)
	}
	var want time.Time
	if len(starting) > 0 {
		want = TournamentStart(slices.MinFunc(starting, byStart))
	}
	if at.IsZero() != want.IsZero() || !want.IsZero() && compareKeys(at, want) != 0 {
		return fmt.Errorf("EarliestTournamentStart = %v, want %v", at, want)
	}
	return nil
}

// byStart orders tournaments as the start index keys them.
func byStart(a, b *bot.Tournament) int {
	if c := compareKeys(TournamentStart(a), TournamentStart(b)); c != 0 {
		return c
	}
	return cmpID(a.ID, b.ID)
}

// idsByStart returns the IDs of ts in the order of the start index.
func idsByStart(ts []*bot.Tournament) []uint64 {
	ts = slices.SortedFunc(slices.Values(ts), byStart)
	ids := make([]uint64, len(ts))
	for i, t := range ts {
		ids[i] = t.ID
	}
	return ids
}

// sameStandings compares standings as stored (times by instant).
func sameStandings(a, b []bot.Standing) bool {
	return slices.EqualFunc(a, b, func(x, y bot.Standing) bool {
		return x.Pool == y.Pool && x.UserID == y.UserID && x.Version == y.Version && x.Player.Glicko == y.Player.Glicko &&
			x.Player.Games == y.Player.Games && x.Player.Last.Equal(y.Player.Last)
	})
}

// sameEvents compares rating events as stored (times by instant).
func sameEvents(a, b []bot.RatingEvent) bool {
	return slices.EqualFunc(a, b, func(x, y bot.RatingEvent) bool {
		return x.GameID == y.GameID && x.Entry.At.Equal(y.Entry.At) && x.Entry.Score == y.Entry.Score && x.Entry.After == y.Entry.After
	})
}
