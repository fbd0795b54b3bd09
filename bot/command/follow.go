package command

import (
	"context"
	"fmt"

	"github.com/fairypost/fairypost/bot"
)

// /follow and /unfollow: spectators told of a game's moves
// (gameplay.Service.Follow).
const (
	cmdFollow   = "follow"
	cmdUnfollow = "unfollow"
)

// defineFollow defines /follow.
func defineFollow(catalogue) commandDef {
	return commandDef{Spec{Name: cmdFollow, Description: "Be sent the moves of a game you watch as they are played", Options: []OptionSpec{
		{Name: optGame, Kind: OptionInteger, Autocomplete: true, Description: "The game's ID (leave out for the only game played in this channel)"}}},
		func(h *Handler, ctx context.Context, req Request) (Reply, error) { return h.follow(ctx, req, false) }}
}

// defineUnfollow defines /unfollow.
func defineUnfollow(catalogue) commandDef {
	return commandDef{Spec{Name: cmdUnfollow, Description: "Stop following a game", Options: []OptionSpec{gameOption("")}},
		func(h *Handler, ctx context.Context, req Request) (Reply, error) { return h.follow(ctx, req, true) }}
}

// follow runs /follow and /unfollow: the game is game:ID (one the
// requester may see) or the only one played in this channel.
func (h *Handler) follow(ctx context.Context, req Request, stop bool) (Reply, error) {
	var g *bot.Game
	var err error
	if req.Options[optGame] == "" {
		here, err := h.svc.Views().ChannelGames(ctx, req.ChannelID)
		if err != nil {
			return Reply{}, err
		}
		var ok bool
		if g, ok = pick(here, req.ChannelID, nil); !ok {
			if len(here) > 1 {
				return Reply{}, ambiguous(here, "There are")
			}
			return Reply{}, bot.Errorf(bot.EINVALID, "No game is being played in this channel: add game:ID.")
		}
	} else if g, err = h.resolveGame(ctx, req, modeLook, nil); err != nil {
		return Reply{}, err
	}
	if stop {
		if _, err := h.svc.Unfollow(ctx, g.ID, req.UserID); err != nil {
			return Reply{}, err
		}
		return Reply{Text: fmt.Sprintf("You no longer follow game #%d.", g.ID), Ephemeral: true}, nil
	}
	if _, err := h.svc.Follow(ctx, g.ID, req.UserID); err != nil {
		return Reply{}, err
	}
	return Reply{Text: fmt.Sprintf("You follow %s.\nIts moves and its result will be sent to you as they come, where your notifications go (/settings). /unfollow game:%d stops it.",
		h.header(g), g.ID), Ephemeral: true}, nil
}
