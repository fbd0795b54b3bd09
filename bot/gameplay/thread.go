package gameplay

import (
	"context"
	"errors"

	"github.com/fairypost/fairypost/bot"
)

// SetThread records threadID as the place where game gameID is posted
// (Game.ThreadID), so an adapter finds it again after a restart. The
// game's version does not change: the thread is not part of play, and
// buttons already posted stay valid. Errors: ENOTFOUND for an unknown
// game, EINVALID for an empty or absurdly long ID.
func (s *Service) SetThread(ctx context.Context, gameID uint64, threadID string) error {
	if err := checkThreadID(threadID); err != nil {
		return err
	}
	_, err := s.games.AnnotateGame(ctx, gameID, func(_ bot.Game, a *bot.Annotations) ([]bot.Notification, error) {
		a.ThreadID = threadID
		return nil, nil
	})
	return err
}

// ClaimThread records threadID as the place where game gameID is posted
// unless the game names one already, and returns the one the game names
// afterwards: threadID when this call claimed the slot, the earlier one
// when another claim came first. The check and the write are one store
// transaction (GameStore.AnnotateGame), so of processes sharing a store
// that each created a thread for the same game exactly one wins; the
// others should use the winner's thread and remove their own. A game
// already naming a thread is not written. Errors as SetThread's.
func (s *Service) ClaimThread(ctx context.Context, gameID uint64, threadID string) (string, error) {
	if err := checkThreadID(threadID); err != nil {
		return "", err
	}
	winner := ""
	_, err := s.games.AnnotateGame(ctx, gameID, func(_ bot.Game, a *bot.Annotations) ([]bot.Notification, error) {
		if a.ThreadID != "" {
			winner = a.ThreadID
			return nil, errThreadTaken
		}
		winner = threadID
		a.ThreadID = threadID
		return nil, nil
	})
	if err != nil && !errors.Is(err, errThreadTaken) {
		return "", err
	}
	return winner, nil
}

// errThreadTaken stops ClaimThread's annotation when the game names a
// thread already, so that nothing is written.
var errThreadTaken = errors.New("the game names a thread already")

// checkThreadID refuses an empty or absurdly long thread ID.
func checkThreadID(threadID string) error {
	if threadID == "" || len(threadID) > 64 {
		return bot.Errorf(bot.EINVALID, "A thread ID must have 1 to 64 characters.")
	}
	return nil
}
