package command

import (
	"fmt"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
)

// The pre-game choice of Crazyhouse Annihilation (bot.ActChoose) by
// buttons or /choose: the army picker's buttons say which army they
// play, as it stands in the picture; the other player's say who moves
// first. The words are those of bot.ActChoose.

// choiceButtons are the buttons of g's pending pre-game choice, carrying
// g.Version; nil when g waits for none.
func choiceButtons(g *bot.Game) []Button {
	if g.Status != bot.GameSetup || g.Setup == nil {
		return nil
	}
	if g.Setup.Army == "" {
		return actionButtons(g, actArmyWhite, actArmyBlack)
	}
	return actionButtons(g, actFirstMe, actFirstOpponent)
}

// chosen answers userID's pre-game choice in g (bot.ActChoose), which
// made it ng: the next choice asked for, or the game that begins, saying
// which army each player now plays and whether the board was turned
// round.
func (h *Handler) chosen(userID string, _, ng *bot.Game) (Reply, error) {
	st := ng.Setup
	if ng.Status == bot.GameSetup {
		head := fmt.Sprintf("%s will play the army shown as %s in game #%d (%s in the picture).",
			mention(userID), colourName(st.Army), ng.ID, side(st.Army))
		return h.setupReply(ng, head)
	}
	rg, err := h.replay(ng)
	if err != nil {
		return Reply{}, err
	}
	first, second := ng.White, ng.Black
	var head string
	if first == userID {
		head = fmt.Sprintf("%s chose to move first in game #%d. The game begins.", mention(userID), ng.ID)
	} else {
		head = fmt.Sprintf("%s chose that %s moves first in game #%d. The game begins.", mention(userID), mention(first), ng.ID)
	}
	text := head + "\n" + startedText(ng) + "\n" + h.header(ng) + "\n" + orientationLine + "\n" + turnText(ng, rg)
	rep, err := h.boardReply(ng, rg, text)
	if err != nil {
		return Reply{}, err
	}
	rep.Mention = []string{first, second}
	return rep, nil
}

// startedText says, once g's pre-game choice is made, which army each
// player plays and why the board turned round when it did: the first
// mover plays White.
func startedText(g *bot.Game) string {
	st := g.Setup
	if st == nil {
		return ""
	}
	picker := st.ArmyPicker()
	army := st.Army // the picker's army, by its colour in the drawn position
	now := "White"
	if picker == g.Black {
		now = "Black"
	}
	if st.FirstMover == "white" {
		return fmt.Sprintf("The army drawn as White moves first, so the board stays as drawn: %s plays the army they chose, %s, "+
			"and %s plays %s.", mention(picker), now, mention(opponent(g, picker)), otherColour(now))
	}
	return fmt.Sprintf("The army drawn as Black moves first, and the first mover always plays White: the board was turned round "+
		"and the colours swapped. %s chose the army drawn as %s, which is now %s; %s plays %s.",
		mention(picker), colourName(army), now, mention(opponent(g, picker)), otherColour(now))
}

// colourName returns "White" or "Black" for the words "white" and "black".
func colourName(word string) string {
	if word == "black" {
		return "Black"
	}
	return "White"
}

// otherColour returns "Black" for "White" and "White" for "Black".
func otherColour(c string) string {
	if c == "White" {
		return "Black"
	}
	return "White"
}

// side says where the army of colour word stands in a picture of the
// drawn position, which shows White at the bottom.
func side(word string) string {
	if word == "black" {
		return "at the top"
	}
	return "at the bottom"
}

// defineChoose defines /choose: the game action bot.ActChoose.
func defineChoose(catalogue) commandDef {
	return commandDef{Spec{Name: cmdChoose, Description: "Make the pre-game choice (Crazyhouse Annihilation)", Options: []OptionSpec{
		{Name: optChoice, Description: "Army: white or black; then who moves first: me or opponent", Kind: OptionString, Required: true,
			Choices: choices("white", "black", "me", "opponent")},
		gameOption(""),
	}}, actWith(gameplay.ActChoose)}
}
