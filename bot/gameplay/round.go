package gameplay

import (
	"context"

	"github.com/fairypost/fairypost/bot"
)

// The life of one game owns its write path. Every change of a game in
// play (a move, an action, a time-out, a pre-game choice, a vacation's
// clock) goes through Service.updateGame, and features take part in it
// only where they registered when the Service was built:
//
//   - finishers (Finisher) run inside the store transaction of the
//     update, after the change itself: what they do is stored atomically
//     with it, or nothing is (ratings: a game's result and its rating
//     change; the computer player: its posts, and leaving out the
//     notifications addressed to it);
//   - events (GameEvent) run after the update is committed: work that may
//     be lost in a crash because it is re-derived from the stores
//     (tournament progress, redone by the sweep) or is a wake-up for
//     something that scans the stores when it starts (the computer's
//     runner). Whatever must reach a person is a notification in the
//     outbox, written by the update's transaction, never an event.
//
// Annotations (GameStore.AnnotateGame) change no play and pass neither;
// notes and follows (NoteStore, FollowStore) are kept apart from games.

// AddFinisher registers f to run in every game update, after the
// finishers registered before it. Features register while the Service is
// built, before it serves: it is not safe to call concurrently with
// updates.
func (s *Service) AddFinisher(f bot.Finisher) { s.finishers = append(s.finishers, f) }

// OnGameCommitted registers e to run after every committed game update,
// after the events registered before it; as AddFinisher, before the
// Service serves.
func (s *Service) OnGameCommitted(e bot.GameEvent) { s.events = append(s.events, e) }

// updateGame is the only way a game in play changes: GameStore.UpdateGame
// (same contract, fn pure) with the finishers run in the transaction after
// fn, and the events run after the commit. With a RatingStore the
// transaction is RatingStore.UpdateGameRated, so that finishers have the
// standings at hand (GameUpdate.Ratings).
func (s *Service) updateGame(ctx context.Context, id, expected uint64, fn func(*bot.Game) ([]bot.Notification, error)) (*bot.Game, error) {
	followers, err := s.followersOf(ctx, id)
	if err != nil {
		return nil, err
	}
	return s.updateFollowed(ctx, id, expected, followers, fn)
}

// updateFollowed is updateGame with the game's followers read by the
// caller before the update (followersOf): the result of a game the
// update ends is told to them too (resultToFollowers), in the same
// transaction.
func (s *Service) updateFollowed(ctx context.Context, id, expected uint64, followers []string, fn func(*bot.Game) ([]bot.Notification, error)) (*bot.Game, error) {
	change := func(g *bot.Game, tx bot.RatingTx) ([]bot.Notification, error) {
		u := bot.GameUpdate{Game: g, Before: bot.NewGameBefore(g), Ratings: tx}
		told, err := fn(g)
		if err != nil {
			return nil, err
		}
		u.Notifications = append(told, resultToFollowers(u.Before, g, told, followers)...)
		for _, f := range s.finishers {
			if err := f(&u); err != nil {
				return nil, err
			}
		}
		return u.Notifications, nil
	}
	var g *bot.Game
	var err error
	if s.ratings != nil {
		g, err = s.ratings.UpdateGameRated(ctx, id, expected, change)
	} else {
		g, err = s.games.UpdateGame(ctx, id, expected, func(g *bot.Game) ([]bot.Notification, error) { return change(g, nil) })
	}
	if err != nil {
		return g, err
	}
	s.gameCommitted(ctx, g)
	return g, nil
}

// gameCommitted runs the registered events for g, just stored: by an
// update, or created by an accepted challenge.
func (s *Service) gameCommitted(ctx context.Context, g *bot.Game) {
	for _, e := range s.events {
		e(ctx, g)
	}
}
