package gameplay

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/fairypost/fairypost/bot"
)

// Time off, the game's side. A player on vacation (package bot/prefs
// keeps their allowance and starts and ends it) is recorded in each game
// they play (Game.WhiteAway, Game.BlackAway: when the vacation ends at
// the latest). A player on vacation whose turn runs has it moved later by
// what is left of the vacation (Deadline, TurnStarted and RemindAt all
// move together: Game.ShiftClock), so the clock resumes, with the time it
// had, when the vacation ends; ending it early moves them back by what
// was not used. A turn that starts while its player is away starts when
// the vacation ends (holdClock). No scheduler is needed for the end of a
// vacation, and the stores' deadline index stays true throughout.
//
// A pause by consent (Game.PausedAt) stops the clock of the player to
// act until either player resumes the game: its Deadline and RemindAt
// are set aside (PausedDeadline, PausedRemindAt), so the game cannot time
// out, and come back moved by the time paused. Moves wait for the resume.

// UpdatePlayerGames changes every game userID plays that is not over,
// one update each through the game's write path (the finishers run in
// its transaction, the events after its commit): change edits the game,
// whose Updated is already now, and returns the notifications of the
// change, or false to leave that game as it is. It is how a feature
// changes all of a player's games at once (package bot/prefs: a vacation
// holds their clocks); change is pure as an update's function is. The
// errors of the updates are joined, each naming its game.
func (s *Service) UpdatePlayerGames(ctx context.Context, userID string, change func(g *bot.Game) ([]bot.Notification, bool)) error {
	games, err := s.games.ActiveGamesByUser(ctx, userID)
	if err != nil {
		return err
	}
	var errs []error
	for _, g := range games {
		_, err := s.updateGame(ctx, g.ID, bot.AnyVersion, func(g *bot.Game) ([]bot.Notification, error) {
			if !g.Ongoing() {
				return nil, sweepSkip{}
			}
			g.Updated = s.now()
			told, changed := change(g)
			if !changed {
				return nil, sweepSkip{}
			}
			return told, nil
		})
		if err != nil && !errors.Is(err, sweepSkip{}) {
			errs = append(errs, fmt.Errorf("game %d: %w", g.ID, err))
		}
	}
	return errors.Join(errs...)
}

// Pause asks, on behalf of userID, to pause game gameID, or agrees when
// the opponent asked: the game is then paused (Game.PausedAt), the clock
// of the player to act set aside so that it cannot run out, and both
// players told (NotifyPause). A request is told to the opponent
// (NotifyPause) and lapses with the next move. version as for Move.
// EINVALID for a game not being played, one paused already, and while
// userID's own request stands.
func (s *Service) pause(ctx context.Context, gameID, version uint64, userID string) (*bot.Game, error) {
	return s.updatePlaying(ctx, gameID, version, userID, func(g *bot.Game) ([]bot.Notification, error) {
		now := s.now()
		switch {
		case !g.PausedAt.IsZero():
			return nil, bot.Errorf(bot.EINVALID, "Game %d is paused already: either player may resume it.", g.ID)
		case g.PauseOffer == userID:
			return nil, bot.Errorf(bot.EINVALID, "Your request to pause game %d stands already: your opponent may agree to it.", g.ID)
		case g.PauseOffer == opponent(g, userID):
			g.PauseOffer, g.PausedAt, g.Updated = "", now, now
			bot.SetClockAside(g)
			return toBoth(g, bot.NotifyPause, fmt.Sprintf("Game %d is paused by agreement: no clock runs and no move is played until one of you resumes it (/pause action:resume).", g.ID), now), nil
		}
		g.PauseOffer, g.Updated = userID, now
		return []bot.Notification{gameNotification(g, bot.NotifyPause, opponent(g, userID), fmt.Sprintf(
			"<@%s> asks to pause game %d (%s): the clocks stop until either of you resumes it. Agree (/pause action:ask) or decline (/pause action:decline); a move declines too.",
			userID, g.ID, s.VariantName(g.Variant, g.Options)), now)}, nil
	})
}

// declinePause declines, on behalf of userID, the opponent's standing
// request to pause game gameID: the request is dropped, the clocks run on
// as they did, and the opponent is told (NotifyPause). Either player may
// answer a request this way, the one not to move too (the one to move
// may also decline by moving). version as for Move. EINVALID for a game
// not being played, one paused already (resume it instead), and when no
// request of the opponent's stands (userID's own is withdrawn with
// Resume).
func (s *Service) declinePause(ctx context.Context, gameID, version uint64, userID string) (*bot.Game, error) {
	return s.updatePlaying(ctx, gameID, version, userID, func(g *bot.Game) ([]bot.Notification, error) {
		now := s.now()
		opp := opponent(g, userID)
		switch {
		case !g.PausedAt.IsZero():
			return nil, bot.Errorf(bot.EINVALID, "Game %d is paused already: resume it to play on (/pause action:resume).", g.ID)
		case g.PauseOffer == userID:
			return nil, bot.Errorf(bot.EINVALID, "The request to pause game %d is yours: withdraw it with /pause action:resume.", g.ID)
		case g.PauseOffer != opp:
			return nil, bot.Errorf(bot.EINVALID, "Nobody asks to pause game %d: there is nothing to decline.", g.ID)
		}
		g.PauseOffer, g.Updated = "", now
		return []bot.Notification{gameNotification(g, bot.NotifyPause, opp, fmt.Sprintf(
			"<@%s> declines to pause game %d (%s): the clocks run on. It is <@%s>'s turn.",
			userID, g.ID, s.VariantName(g.Variant, g.Options), g.ToAct), now)}, nil
	})
}

// resume ends the pause of game gameID on behalf of userID, either
// player: the clock set aside comes back moved by the time paused, and
// both players are told (NotifyPause). A standing pause request of
// userID's is withdrawn instead. version as for Move. EINVALID for a game
// not being played and one neither paused nor asked by userID to pause.
func (s *Service) resume(ctx context.Context, gameID, version uint64, userID string) (*bot.Game, error) {
	return s.updatePlaying(ctx, gameID, version, userID, func(g *bot.Game) ([]bot.Notification, error) {
		now := s.now()
		if g.PausedAt.IsZero() {
			if g.PauseOffer == userID {
				g.PauseOffer, g.Updated = "", now
				return nil, nil
			}
			return nil, bot.Errorf(bot.EINVALID, "Game %d is not paused.", g.ID)
		}
		d := now.Sub(g.PausedAt)
		g.Deadline, g.RemindAt = g.PausedDeadline, g.PausedRemindAt
		g.PausedAt, g.PausedDeadline, g.PausedRemindAt = time.Time{}, time.Time{}, time.Time{}
		bot.ShiftClock(g, d)
		g.Updated = now
		return toBoth(g, bot.NotifyPause, fmt.Sprintf("Game %d was resumed by <@%s>: the clock runs again. It is <@%s>'s turn.", g.ID, userID, g.ToAct), now), nil
	})
}

// notPaused refuses, with EINVALID, a move in a paused game.
func notPaused(g *bot.Game) error {
	if !g.PausedAt.IsZero() {
		return bot.Errorf(bot.EINVALID, "Game %d is paused: resume it first (/pause action:resume).", g.ID)
	}
	return nil
}
