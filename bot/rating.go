package bot

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/fairypost/fairypost/rating"
)

// Rated and casual games (issue 17).
//
// A challenge says whether its game is rated (Challenge.Rated, copied to
// Game.Rated when it is accepted; the command layer's default is rated,
// since every game is between people). A rated game changes its players'
// ratings once, when it ends with a result (GameFinished: a decisive
// result, a draw, a loss on time all count), in the store transaction that
// ends it; an aborted game (GameAborted) never counts. The game's record
// keeps the changes (Game.Ratings), so the announcement of the result
// shows them ("<@alice> 1523 → 1541 (+18)") however late it is delivered.
//
// Each game updates the pools rating.PoolsForGame names (the variant with
// the options that change the game, in the guild and globally; see
// package rating). A player's standing in a pool is one record
// (Standing) with its own version, read and written in the transaction
// that ends the game (RatingStore.UpdateGameRated), so two games ending
// at once for one player are rated one after the other, never from the
// same old rating.
//
// Takebacks: a takeback is always by consent (the opponent accepts it,
// Service.AnswerTakeback), rated game or not, so a rated game already
// allows them only when both players agree; a game's rating is computed
// from its result alone, once, at its end.

// Standing is one player's rating in one pool, as the stores keep it.
type Standing struct {
	Pool   string // rating.Pool.Key()
	UserID string
	// Version is incremented by every write; 0 for a player who has no
	// standing in the pool yet (the zero Player, a newcomer).
	Version uint64
	Player  rating.Player
}

// RatingEvent is one rated game in a player's history in one pool.
type RatingEvent struct {
	GameID uint64
	// Entry is when the game ended, the player's score and their rating
	// after it.
	Entry rating.HistoryEntry
}

// RatingChange is how one rated game moved one player's rating in one
// pool: Before is their rating when the game ended (deviation grown by
// inactivity, rating.System.Live), After the rating it left them with.
type RatingChange struct {
	UserID        string
	Pool          string // rating.Pool.Key()
	Before, After rating.Glicko
}

// RatingTx reads and writes standings inside the transaction of
// RatingStore.UpdateGameRated.
type RatingTx interface {
	// Standing returns userID's standing in pool as the transaction sees
	// it: Version 0 and the zero Player when there is none.
	Standing(pool, userID string) (Standing, error)
	// PutStanding stores st, whose Version must be the one Standing
	// returned (ECONFLICT otherwise), with Version incremented, and
	// appends ev to the player's history in st.Pool. Games are appended
	// in the order they end; an event for a game already in the history
	// replaces it.
	PutStanding(st Standing, ev RatingEvent) error
}

// RatingStore keeps ratings: standings per pool and player, and each
// player's history per pool. Implementations are safe for concurrent use.
// It is optional (Stores.Ratings): without one no game is rated.
//
// Implementations (storage.DB in bbolt; an etcd store must offer the same)
// keep standings so that a pool's standings and a user's standings are
// read without reading every record.
type RatingStore interface {
	// UpdateGameRated is GameStore.UpdateGame (same contract) with the
	// standings at hand: fn may read and write them through tx, and the
	// game, the standings, the history and the notifications are stored
	// atomically, or nothing is when fn fails.
	UpdateGameRated(ctx context.Context, id, expected uint64, fn func(*Game, RatingTx) ([]Notification, error)) (*Game, error)

	// PoolStandings returns every standing in pool, in no particular
	// order (a leaderboard ranks them).
	PoolStandings(ctx context.Context, pool string) ([]Standing, error)

	// UserStandings returns userID's standings in every pool they have
	// one in, ordered by pool key.
	UserStandings(ctx context.Context, userID string) ([]Standing, error)

	// RatingHistory returns userID's rated games in pool, in the order
	// they ended (games that ended at the same instant by game ID).
	RatingHistory(ctx context.Context, pool, userID string) ([]RatingEvent, error)
}

// RatingSystem returns the parameters the Service rates games with:
// always rating.Lichess(), so that every adapter shows a stored rating
// change (RatingLines) as it was computed.
func (s *Service) RatingSystem() rating.System { return s.rating }

// Rates reports whether the Service keeps ratings (it has a RatingStore).
func (s *Service) Rates() bool { return s.ratings != nil }

// rateEnded is the ratings' Finisher: a rated game that the update ended
// with a result (GameFinished) is rated in the update's transaction
// (rateGame), and the notifications of its end show the rating changes.
// A game already rated, aborted, casual or ended before is left alone.
func (s *Service) rateEnded(u *GameUpdate) error {
	g := u.Game
	if u.Ratings == nil || !u.Before.Ongoing || g.Status != GameFinished || !g.Rated || len(g.Ratings) > 0 {
		return nil
	}
	if err := rateGame(s.rating, g, u.Ratings); err != nil {
		return err
	}
	lines := RatingLines(s.rating, g)
	for i, n := range u.Notifications {
		if n.Kind == NotifyGameOver && n.GameID == g.ID && lines != "" {
			u.Notifications[i].Text += "\n" + lines
		}
	}
	return nil
}

// rateGame rates the finished game g in every pool it counts in, through
// tx, and records the changes in g.Ratings. A game between a player and
// themselves, or without a result, changes nothing. A stored rating that
// is not valid is an internal error (the game does not end).
func rateGame(sys rating.System, g *Game, tx RatingTx) error {
	var white float64
	switch g.Result {
	case WhiteWins:
		white = rating.Win
	case BlackWins:
		white = rating.Loss
	case Draw:
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
		if err := tx.PutStanding(ws, RatingEvent{GameID: g.ID, Entry: rating.HistoryEntry{At: at, Score: white, After: wAfter.Glicko}}); err != nil {
			return err
		}
		if err := tx.PutStanding(bs, RatingEvent{GameID: g.ID, Entry: rating.HistoryEntry{At: at, Score: 1 - white, After: bAfter.Glicko}}); err != nil {
			return err
		}
		g.Ratings = append(g.Ratings,
			RatingChange{UserID: g.White, Pool: key, Before: wBefore, After: wAfter.Glicko},
			RatingChange{UserID: g.Black, Pool: key, Before: bBefore, After: bAfter.Glicko})
	}
	return nil
}

// RatingLines returns the announcement of g's rating changes, one line
// per player in the first pool the game counted in (the server's, or the
// global one for a game outside a server): "<@alice> 1523 → 1541 (+18)".
// "" when g changed no rating.
func RatingLines(sys rating.System, g *Game) string {
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
	History []RatingEvent
}

// Ratings returns userID's standings in every pool of the scope guild
// ("" for the global pools), with their histories, ordered by pool key.
// EINVALID when the Service keeps no ratings.
func (s *Service) Ratings(ctx context.Context, userID, guild string) ([]PlayerRating, error) {
	if s.ratings == nil {
		return nil, Errorf(EINVALID, "This bot keeps no ratings.")
	}
	sts, err := s.ratings.UserStandings(ctx, userID)
	if err != nil {
		return nil, err
	}
	var out []PlayerRating
	for _, st := range sts {
		p, err := rating.ParsePool(st.Pool)
		if err != nil || p.Guild != guild {
			continue
		}
		h, err := s.ratings.RatingHistory(ctx, st.Pool, userID)
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
// and each shown row's trend over TrendWindow. EINVALID when the Service
// keeps no ratings.
func (s *Service) Leaderboard(ctx context.Context, pool rating.Pool, top int, caller string) (rating.Leaderboard, error) {
	if s.ratings == nil {
		return rating.Leaderboard{}, Errorf(EINVALID, "This bot keeps no ratings.")
	}
	sts, err := s.ratings.PoolStandings(ctx, pool.Key())
	if err != nil {
		return rating.Leaderboard{}, err
	}
	now := s.now()
	entries := make([]rating.Entry, 0, len(sts))
	for _, st := range sts {
		entries = append(entries, rating.Entry{ID: st.UserID, Now: st.Player, Before: st.Player})
	}
	lb, err := s.rating.Leaderboard(entries, now, top, caller)
	if err != nil {
		return rating.Leaderboard{}, fmt.Errorf("leaderboard of %s: %w", pool.Key(), err)
	}
	// The trend of the rows shown only: their rating before the window,
	// from their history (the initial rating for a player who had none).
	since := now.Add(-TrendWindow)
	trend := func(r *rating.Row) error {
		h, err := s.ratings.RatingHistory(ctx, pool.Key(), r.ID)
		if err != nil {
			return err
		}
		before := s.rating.Initial
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
