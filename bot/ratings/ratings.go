package ratings

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/rating"
)

// Register makes core rate its rated games: it registers with core the
// finisher that rates a rated game in the transaction of the update that
// ends it with a result (see the package documentation). core's stores
// must keep ratings (bot.Stores.Ratings: GameUpdate.Ratings is nil
// otherwise, and nothing is rated). Call it once, while core is built,
// before it serves.
func Register(core *gameplay.Service) {
	sys := core.RatingSystem()
	core.AddFinisher(func(u *bot.GameUpdate) error { return rateEnded(sys, u) })
}

// Service reads the ratings: a player's standings with their history,
// and leaderboards. A nil *Service, or one without a store, keeps no
// ratings: Rates is false and the reads refuse with EINVALID. It is safe
// for concurrent use.
type Service struct {
	core  *gameplay.Service
	store bot.RatingStore
	sys   rating.System
}

// New returns the ratings kept in store (nil: none) of the games of
// core, read at core's time with core's rating system. It registers
// nothing: Register makes games rated.
func New(core *gameplay.Service, store bot.RatingStore) *Service {
	return &Service{core: core, store: store, sys: core.RatingSystem()}
}

// Rates reports whether the Service keeps ratings (it has a store).
func (s *Service) Rates() bool { return s != nil && s.store != nil }

// rateEnded is the ratings' Finisher: a rated game that the update ended
// with a result (bot.GameFinished) is rated in the update's transaction
// (rateGame), and the notifications of its end show the rating changes.
// A game already rated, aborted, casual or ended before is left alone.
func rateEnded(sys rating.System, u *bot.GameUpdate) error {
	g := u.Game
	if u.Ratings == nil || !u.Before.Ongoing || g.Status != bot.GameFinished || !g.Rated || len(g.Ratings) > 0 {
		return nil
	}
	if err := rateGame(sys, g, u.Ratings); err != nil {
		return err
	}
	lines := Lines(sys, g)
	for i, n := range u.Notifications {
		if n.Kind == bot.NotifyGameOver && n.GameID == g.ID && lines != "" {
			u.Notifications[i].Text += "\n" + lines
		}
	}
	return nil
}

// rateGame rates the finished game g in every pool it counts in, through
// tx, and records the changes in g.Ratings. A game between a player and
// themselves, or without a result, changes nothing. A stored rating that
// is not valid is an internal error (the game does not end).
func rateGame(sys rating.System, g *bot.Game, tx bot.RatingTx) error {
	var white float64
	switch g.Result {
	case bot.WhiteWins:
		white = rating.Win
	case bot.BlackWins:
		white = rating.Loss
	case bot.Draw:
		white = rating.Draw
	default:
		return nil
	}
	if g.White == "" || g.Black == "" || g.White == g.Black {
		return nil
	}
	pools, err := rating.PoolsForGame(g.Variant, g.Options, g.GuildID)
	if err != nil {
		return fmt.Errorf("game %d: rating pools: %w", g.ID, err)
	}
	at := g.Updated
	for _, p := range pools {
		key := p.Key()
		ws, err := tx.Standing(key, g.White)
		if err != nil {
			return err
		}
		bs, err := tx.Standing(key, g.Black)
		if err != nil {
			return err
		}
		wBefore, err := sys.Live(ws.Player, at)
		if err != nil {
			return fmt.Errorf("game %d: white's rating in %s: %w", g.ID, key, err)
		}
		bBefore, err := sys.Live(bs.Player, at)
		if err != nil {
			return fmt.Errorf("game %d: black's rating in %s: %w", g.ID, key, err)
		}
		wAfter, bAfter, err := sys.Rate(ws.Player, bs.Player, white, at)
		if err != nil {
			return fmt.Errorf("game %d: rating in %s: %w", g.ID, key, err)
		}
		ws.Player, bs.Player = wAfter, bAfter
		if err := tx.PutStanding(ws, bot.RatingEvent{GameID: g.ID, Entry: rating.HistoryEntry{At: at, Score: white, After: wAfter.Glicko}}); err != nil {
			return err
		}
		if err := tx.PutStanding(bs, bot.RatingEvent{GameID: g.ID, Entry: rating.HistoryEntry{At: at, Score: 1 - white, After: bAfter.Glicko}}); err != nil {
			return err
		}
		g.Ratings = append(g.Ratings,
			bot.RatingChange{UserID: g.White, Pool: key, Before: wBefore, After: wAfter.Glicko},
			bot.RatingChange{UserID: g.Black, Pool: key, Before: bBefore, After: bAfter.Glicko})
	}
	return nil
}

// Lines returns the announcement of g's rating changes, one line
// per player in the first pool the game counted in (the server's, or the
// global one for a game outside a server): "<@alice> 1523 → 1541 (+18)".
// "" when g changed no rating.
func Lines(sys rating.System, g *bot.Game) string {
	if len(g.Ratings) == 0 {
		return ""
	}
	first := g.Ratings[0].Pool
	var lines []string
	for _, c := range g.Ratings {
		if c.Pool == first {
			lines = append(lines, fmt.Sprintf("<@%s> %s", c.UserID, sys.Change(c.Before, c.After)))
		}
	}
	return strings.Join(lines, "\n")
}

// PlayerRating is a player's standing in one pool with what a player card
// shows of it.
type PlayerRating struct {
	Pool    rating.Pool
	Player  rating.Player
	History []bot.RatingEvent
}

// Player returns userID's standings in every pool of the scope guild
// ("" for the global pools), with their histories, ordered by pool key.
// bot.EINVALID when the Service keeps no ratings.
func (s *Service) Player(ctx context.Context, userID, guild string) ([]PlayerRating, error) {
	if !s.Rates() {
		return nil, bot.Errorf(bot.EINVALID, "This bot keeps no ratings.")
	}
	sts, err := s.store.UserStandings(ctx, userID)
	if err != nil {
		return nil, err
	}
	var out []PlayerRating
	for _, st := range sts {
		p, err := rating.ParsePool(st.Pool)
		if err != nil || p.Guild != guild {
			continue
		}
		h, err := s.store.RatingHistory(ctx, st.Pool, userID)
		if err != nil {
			return nil, err
		}
		out = append(out, PlayerRating{Pool: p, Player: st.Player, History: h})
	}
	return out, nil
}

// TrendWindow is how far back a leaderboard's trend looks.
const TrendWindow = 30 * 24 * time.Hour

// Leaderboard returns the top players of pool (at most top) at the
// Service's time, with caller's own line when they are not among them,
// and each shown row's trend over TrendWindow. bot.EINVALID when the Service
// keeps no ratings.
func (s *Service) Leaderboard(ctx context.Context, pool rating.Pool, top int, caller string) (rating.Leaderboard, error) {
	if !s.Rates() {
		return rating.Leaderboard{}, bot.Errorf(bot.EINVALID, "This bot keeps no ratings.")
	}
	sts, err := s.store.PoolStandings(ctx, pool.Key())
	if err != nil {
		return rating.Leaderboard{}, err
	}
	now := s.core.Now()
	entries := make([]rating.Entry, 0, len(sts))
	for _, st := range sts {
		entries = append(entries, rating.Entry{ID: st.UserID, Now: st.Player, Before: st.Player})
	}
	lb, err := s.sys.Leaderboard(entries, now, top, caller)
	if err != nil {
		return rating.Leaderboard{}, fmt.Errorf("leaderboard of %s: %w", pool.Key(), err)
	}
	// The trend of the rows shown only: their rating before the window,
	// from their history (the initial rating for a player who had none).
	since := now.Add(-TrendWindow)
	trend := func(r *rating.Row) error {
		h, err := s.store.RatingHistory(ctx, pool.Key(), r.ID)
		if err != nil {
			return err
		}
		before := s.sys.Initial
		for _, ev := range h {
			if !ev.Entry.At.After(since) {
				before = ev.Entry.After
			}
		}
		r.Trend = r.Rating - rating.Round(before.Rating)
		return nil
	}
	for i := range lb.Top {
		if err := trend(&lb.Top[i]); err != nil {
			return rating.Leaderboard{}, err
		}
	}
	if lb.Own != nil {
		if err := trend(lb.Own); err != nil {
			return rating.Leaderboard{}, err
		}
	}
	return lb, nil
}
