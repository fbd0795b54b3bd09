package command

import (
	"context"
	"fmt"

	"github.com/fairypost/fairypost/bot"
)

// cmdLink is the command giving a game's page address.
const cmdLink = "link"

// viewGameLabel is the label of the link button to a game's page.
const viewGameLabel = "View game"

// defineLink is /link [game:]: the address of the game's page.
func defineLink(catalogue) commandDef {
	return commandDef{Spec{Name: cmdLink, Description: "Get the address of a game's web page (its board, moves and replay)",
		Options: []OptionSpec{gameOption(" (or to watch)")}}, (*Handler).linkCommand}
}

// linkCommand answers /link with the page address of the game the
// request is about (found as /board finds it), shown to the requester
// alone: whoever has the address sees the page.
func (h *Handler) linkCommand(ctx context.Context, req Request) (Reply, error) {
	g, err := h.resolveGame(ctx, req, modeLook, yourTurn(req.UserID))
	if err != nil {
		return Reply{}, err
	}
	if h.link == nil {
		return Reply{}, bot.Errorf(bot.EINVALID, "This bot has no game pages: its operator has not set their public address (web.base_url).")
	}
	url, err := h.link(ctx, g.ID)
	if err != nil {
		// Logged by errorReply (EINTERNAL), the cause included.
		return Reply{}, fmt.Errorf("%w: %w", bot.Errorf(bot.EINTERNAL, "The address of game #%d's page could not be made just now: try again in a moment.", g.ID), err)
	}
	return Reply{Text: fmt.Sprintf("The page of game #%d (%s): %s\nAnyone with this address can watch the game there; nothing private to a player is shown.",
		g.ID, h.variantName(g.Variant, g.Options), url), Ephemeral: true}, nil
}

// addLink puts a "View game" link button to the game's page on rep when
// it shows a board of game rep.GameID and the bot gives page links. A
// failure to make the address is logged and leaves rep without it: the
// board is worth more than the link.
func (h *Handler) addLink(ctx context.Context, rep *Reply) {
	if h.link == nil || rep.GameID == 0 || len(rep.Files)+len(rep.PublicFiles) == 0 {
		return
	}
	for _, b := range rep.Buttons {
		if b.Style == ButtonLink {
			return
		}
	}
	url, err := h.link(ctx, rep.GameID)
	if err != nil {
		h.log.Warn("command: no page address for the board", "game", rep.GameID, "err", err)
		return
	}
	rep.Buttons = append(rep.Buttons, Button{Label: viewGameLabel, Style: ButtonLink, URL: url})
}
