package gameplay

import (
	"context"

	"github.com/fairypost/fairypost/bot"
)

// Action is a game action besides moves, as Service.Act takes it: its
// value is the action's name, the one transports use in their button IDs
// and logs ("draw-offer"), and never changes.
type Action string

// The game actions. What each does, and how it refuses, is said on the
// function that does it (offerDraw, ..., in service_actions.go,
// service_game.go, vacation.go and pregame.go).
const (
	ActResign          Action = "resign"           // resign: the game is lost
	ActAbort           Action = "abort"            // abort, while the players have not both moved
	ActOfferDraw       Action = "draw-offer"       // offer a draw (accepts the opponent's)
	ActAcceptDraw      Action = "draw-accept"      // accept the opponent's draw offer
	ActDeclineDraw     Action = "draw-decline"     // decline the opponent's draw offer
	ActClaimDraw       Action = "draw-claim"       // claim a draw the variant's rules allow
	ActAskTakeback     Action = "takeback-ask"     // ask to take back one's last move
	ActAcceptTakeback  Action = "takeback-accept"  // grant the opponent's takeback
	ActDeclineTakeback Action = "takeback-decline" // refuse the opponent's takeback
	ActPause           Action = "pause-ask"        // ask to pause the game, or agree to the opponent's request
	ActDeclinePause    Action = "pause-decline"    // decline the opponent's pause request
	ActResume          Action = "pause-resume"     // resume a paused game, or withdraw one's pause request
	ActChoose          Action = "choose"           // make the pre-game choice (ActionRequest.Choice)
)

// Actions returns every game action, in the order of the constants.
func Actions() []Action {
	return []Action{ActResign, ActAbort, ActOfferDraw, ActAcceptDraw, ActDeclineDraw, ActClaimDraw,
		ActAskTakeback, ActAcceptTakeback, ActDeclineTakeback, ActPause, ActDeclinePause, ActResume, ActChoose}
}

// ActionRequest is one game action of one player.
type ActionRequest struct {
	Action  Action
	GameID  uint64
	Version uint64 // the version of the game the player saw, or AnyVersion
	UserID  string // the player acting
	Choice  string // the word chosen, for ActChoose only ("white", "me", ...)
}

// Act does the game action r asks, in one store transaction with its
// notifications, and returns the game as it then is. It refuses with
// ECONFLICT when the game changed since r.Version, ENOTFOUND for an
// unknown game, EFORBIDDEN for a user who may not act so in it, and
// EINVALID for an unknown action or one the game's state does not allow,
// saying why; a refused action changes nothing.
func (s *Service) Act(ctx context.Context, r ActionRequest) (*bot.Game, error) {
	do := s.actionFunc(r.Action)
	if do == nil {
		return nil, bot.Errorf(bot.EINVALID, "Unknown game action %q.", r.Action)
	}
	return do(ctx, r)
}

// actionFunc returns what does action a, nil for an unknown action: the
// one place an Action meets its implementation.
func (s *Service) actionFunc(a Action) func(ctx context.Context, r ActionRequest) (*bot.Game, error) {
	plain := func(f func(ctx context.Context, gameID, version uint64, userID string) (*bot.Game, error)) func(context.Context, ActionRequest) (*bot.Game, error) {
		return func(ctx context.Context, r ActionRequest) (*bot.Game, error) {
			return f(ctx, r.GameID, r.Version, r.UserID)
		}
	}
	switch a {
	case ActResign:
		return plain(s.resign)
	case ActAbort:
		return plain(s.abort)
	case ActOfferDraw:
		return plain(s.offerDraw)
	case ActAcceptDraw:
		return plain(s.acceptDraw)
	case ActDeclineDraw:
		return plain(s.declineDraw)
	case ActClaimDraw:
		return plain(s.claimDraw)
	case ActAskTakeback:
		return plain(s.requestTakeback)
	case ActAcceptTakeback:
		return plain(s.acceptTakeback)
	case ActDeclineTakeback:
		return plain(s.declineTakeback)
	case ActPause:
		return plain(s.pause)
	case ActDeclinePause:
		return plain(s.declinePause)
	case ActResume:
		return plain(s.resume)
	case ActChoose:
		return func(ctx context.Context, r ActionRequest) (*bot.Game, error) {
			return s.choose(ctx, r.GameID, r.Version, r.UserID, r.Choice)
		}
	}
	return nil
}
