package command

import (
	"context"
	"fmt"

	"github.com/fairypost/fairypost/bot"
)

// actRematch is the button under a finished game that challenges the
// opponent to the same game with the colours swapped (gameplay.Challenges.Rematch).
const actRematch = "rematch"

// rematchButtons are the buttons under a finished game's board: Rematch.
func rematchButtons(g *bot.Game) []Button {
	return []Button{{Label: "Rematch", CustomID: customID(actRematch, g.ID, g.Version), Style: ButtonPrimary}}
}

// rematch answers a click on Rematch under finished game g by userID: the
// challenge it made (saying whether it is rated, as g was), with the buttons to answer it, pinging the opponent.
func (h *Handler) rematch(ctx context.Context, userID string, g *bot.Game) (Reply, error) {
	c, err := h.svc.Challenges().Rematch(ctx, g.ID, userID)
	if err != nil {
		return Reply{}, err
	}
	colour := fmt.Sprintf("%s plays %s", mention(c.Challenger), c.Color)
	if c.Chooser != 0 {
		colour = choosersText(c)
	}
	text := fmt.Sprintf("%s asks %s for a rematch of game #%d: %s, %s, %s, %s. Challenge #%d: answer with the buttons or /accept challenge:%d or /decline challenge:%d.",
		mention(c.Challenger), mention(c.Challenged), g.ID, h.variantName(c.Variant, c.Options), daysText(c.DaysPerMove)+bankText(c.BankDays), colour, ratedText(c), c.ID, c.ID, c.ID)
	return Reply{Text: text, Buttons: challengeButtons(c), Mention: []string{c.Challenged}}, nil
}
