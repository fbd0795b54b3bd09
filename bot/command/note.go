package command

import (
	"context"
	"fmt"
	"strings"

	"github.com/fairypost/fairypost/bot"
)

// /note: a player's private notes on a game (gameplay.Service.Notes).
const (
	cmdNote = "note"
	optText = "text"
)

// maxNoteLine is the most characters one /note action:add line holds
// (the whole note holds bot.MaxNoteLen).
const maxNoteLine = 1000

// defineNote defines /note.
func defineNote(catalogue) commandDef {
	return commandDef{Spec{Name: cmdNote, Description: "Keep private notes on a game: add a line, show them with the board, or clear them", Options: []OptionSpec{
		{Name: optAction, Description: "add a line, show your notes with the board, or clear them", Kind: OptionString, Required: true,
			Choices: choices("add", "show", "clear")},
		{Name: optText, Description: "add: the line to add, up to 1000 characters (only you will see it)", Kind: OptionString, MaxLength: maxNoteLine},
		gameOption(""),
	}}, (*Handler).note}
}

// note runs /note; every answer is private.
func (h *Handler) note(ctx context.Context, req Request) (Reply, error) {
	g, err := h.resolveGame(ctx, req, modePlay, nil)
	if err != nil {
		return Reply{}, err
	}
	user := req.UserID
	switch req.Options[optAction] {
	case "add":
		text, err := h.svc.Notes().Add(ctx, g.ID, user, req.Options[optText])
		if err != nil {
			return Reply{}, err
		}
		msgs := noteMessages(fmt.Sprintf("Your private note on game #%d (only you see it; /note action:show shows it with the board):", g.ID), text)
		return Reply{Text: msgs[0], More: msgs[1:], Ephemeral: true}, nil
	case "clear":
		if err := h.svc.Notes().Clear(ctx, g.ID, user); err != nil {
			return Reply{}, err
		}
		return Reply{Text: fmt.Sprintf("Your note on game #%d is cleared.", g.ID), Ephemeral: true}, nil
	}
	if !g.IsPlayer(user) {
		return Reply{}, bot.Errorf(bot.EFORBIDDEN, "You are not playing in game %d.", g.ID)
	}
	rg, err := h.replay(g)
	if err != nil {
		return Reply{}, err
	}
	text, err := h.svc.Notes().Read(ctx, g.ID, user)
	if err != nil {
		return Reply{}, err
	}
	if text == "" {
		text = "(none yet: /note action:add text:... keeps one)"
	}
	msgs := noteMessages(fmt.Sprintf("%s\n%s\nYour private note:", h.header(g), h.status(g, rg)), text)
	rep, err := h.boardReplyFrom(g, rg, user, msgs[0])
	if err != nil {
		return Reply{}, err
	}
	rep.Ephemeral, rep.Mention, rep.Buttons, rep.More = true, nil, nil, msgs[1:]
	return rep, nil
}

// noteMessages returns head and then note, line by line, as messages of at
// most maxReply bytes: a long note (bot.MaxNoteLen characters may take
// four bytes each) goes on in further messages rather than being cut.
func noteMessages(head, note string) []string {
	return splitMessages(append([]string{head}, strings.Split(note, "\n")...), maxReply)
}
