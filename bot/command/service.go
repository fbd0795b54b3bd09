package command

import (
	"context"

	"github.com/fairypost/fairypost/bot"
)

// gameActor is the shape of the Service's game actions.
type gameActor func(ctx context.Context, gameID, version uint64, userID string) (*bot.Game, error)

// Game action names, as /draw and /takeback options map to them
// ("draw-" + action, "takeback-" + action).
const (
	doResign          = "resign"
	doDrawOffer       = "draw-offer"
	doDrawAccept      = "draw-accept"
	doDrawDecline     = "draw-decline"
	doDrawClaim       = "draw-claim"
	doAbort           = "abort"
	doTakebackAsk     = "takeback-ask"
	doTakebackAccept  = "takeback-accept"
	doTakebackDecline = "takeback-decline"
)

// actor returns the Service method for a game action, nil for an unknown
// name.
func (h *Handler) actor(name string) gameActor {
	switch name {
	case doResign:
		return h.svc.Resign
	case doDrawOffer:
		return h.svc.OfferDraw
	case doDrawAccept:
		return h.svc.AcceptDraw
	case doDrawDecline:
		return h.svc.DeclineDraw
	case doDrawClaim:
		return h.svc.ClaimDraw
	case doAbort:
		return h.svc.Abort
	case doTakebackAsk:
		return h.svc.RequestTakeback
	case doTakebackAccept:
		return h.svc.AcceptTakeback
	case doTakebackDecline:
		return h.svc.DeclineTakeback
	}
	return nil
}
