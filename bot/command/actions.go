package command

import (
	"context"
	"fmt"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/rules"
)

// The game actions besides moves (gameplay.Service.Act), in one table: what
// /resign, /abort, /draw, /takeback, /pause and /choose do, what the
// buttons under a game do, and what the bot answers, all come from
// gameActions. A command names a row by bot.Action (its option word
// prefixed: /draw action:offer is "draw-offer"); a button by its custom
// ID's action.

// gameActionDef is one row of the table of game actions.
type gameActionDef struct {
	// act is the action, its name, and the service call: gameplay.Service.Act
	// with it.
	act gameplay.Action
	// prefer, when set, says which of user's games a command means when
	// it names none and user plays several in the channel (resolveGame):
	// those where prefer holds come first.
	prefer func(g *bot.Game, user string) bool
	// reply is the answer once user did the action on before, which is
	// now after.
	reply func(h *Handler, user string, before, after *bot.Game) (Reply, error)
	// buttons are the buttons that do the action, under a board or a
	// message (shown by gameButtons, pauseButtons and choiceButtons).
	buttons []actionButton
}

// actionButton is a button that does its row's action.
type actionButton struct {
	id     string // the custom ID's action (customID); never changes, old messages carry it
	label  string
	style  ButtonStyle
	choice string // the word chosen, for bot.ActChoose
}

// Custom-ID actions of the game actions' buttons.
const (
	actResignConfirm   = "resign-confirm"
	actDrawOffer       = "draw-offer"
	actDrawAccept      = "draw-accept"
	actDrawDecline     = "draw-decline"
	actTakebackAccept  = "takeback-accept"
	actTakebackDecline = "takeback-decline"
	actPauseAgree      = "pause-agree"
	actPauseDecline    = "pause-decline"
	actArmyWhite       = "army-white"
	actArmyBlack       = "army-black"
	actFirstMe         = "first-me"
	actFirstOpponent   = "first-opponent"
)

// gameActions is the table of game actions, one row per bot.Action.
func gameActions() []gameActionDef {
	offerFromOpponent := func(offer func(*bot.Game) string) func(*bot.Game, string) bool {
		return func(g *bot.Game, user string) bool { return offer(g) != "" && offer(g) != user }
	}
	drawOffer := func(g *bot.Game) string { return g.DrawOffer }
	takeback := func(g *bot.Game) string { return g.Takeback }
	pauseOffer := func(g *bot.Game) string { return g.PauseOffer }
	return []gameActionDef{
		{act: gameplay.ActResign,
			reply: shows(func(h *Handler, who string, g *bot.Game, _ *rules.Game) string {
				return fmt.Sprintf("%s resigns game #%d.\n%s", who, g.ID, h.resultText(g))
			}),
			buttons: []actionButton{{id: actResignConfirm, label: "Yes, resign", style: ButtonDanger}}},
		{act: gameplay.ActAbort, reply: shows(nil)},
		{act: gameplay.ActOfferDraw,
			reply:   says("%[1]s offers a draw in game #%[2]d. %[3]s: accept or decline with the buttons or /draw."),
			buttons: []actionButton{{id: actDrawOffer, label: "Offer draw", style: ButtonSecondary}}},
		{act: gameplay.ActAcceptDraw, prefer: offerFromOpponent(drawOffer),
			reply: shows(func(h *Handler, who string, g *bot.Game, _ *rules.Game) string {
				return fmt.Sprintf("%s accepts the draw.\n%s", who, h.resultText(g))
			}),
			buttons: []actionButton{{id: actDrawAccept, label: "Accept draw", style: ButtonSuccess}}},
		{act: gameplay.ActDeclineDraw, prefer: offerFromOpponent(drawOffer),
			reply:   says("%[1]s declines the draw offer in game #%[2]d."),
			buttons: []actionButton{{id: actDrawDecline, label: "Decline draw", style: ButtonSecondary}}},
		{act: gameplay.ActClaimDraw,
			reply: shows(func(h *Handler, who string, g *bot.Game, _ *rules.Game) string {
				return fmt.Sprintf("%s claims a draw.\n%s", who, h.resultText(g))
			})},
		{act: gameplay.ActAskTakeback,
			reply: says("%[1]s asks to take back their last move in game #%[2]d. %[3]s: accept or decline with the buttons or /takeback.")},
		{act: gameplay.ActAcceptTakeback, prefer: offerFromOpponent(takeback),
			reply: shows(func(h *Handler, who string, g *bot.Game, rg *rules.Game) string {
				return fmt.Sprintf("%s accepts: the last move of game #%d is taken back.\n%s", who, g.ID, turnText(g, rg))
			}),
			buttons: []actionButton{{id: actTakebackAccept, label: "Accept takeback", style: ButtonPrimary}}},
		{act: gameplay.ActDeclineTakeback, prefer: offerFromOpponent(takeback),
			reply:   says("%[1]s declines to take back the last move in game #%[2]d."),
			buttons: []actionButton{{id: actTakebackDecline, label: "Decline takeback", style: ButtonSecondary}}},
		{act: gameplay.ActPause, prefer: offerFromOpponent(pauseOffer), reply: (*Handler).paused,
			buttons: []actionButton{{id: actPauseAgree, label: "Agree to pause", style: ButtonPrimary}}},
		{act: gameplay.ActDeclinePause, prefer: offerFromOpponent(pauseOffer), reply: (*Handler).pauseDeclined,
			buttons: []actionButton{{id: actPauseDecline, label: "Decline pause", style: ButtonSecondary}}},
		{act: gameplay.ActResume, prefer: func(g *bot.Game, _ string) bool { return !g.PausedAt.IsZero() }, reply: (*Handler).resumed},
		{act: gameplay.ActChoose, prefer: func(g *bot.Game, user string) bool { return yourTurn(user)(g) }, reply: (*Handler).chosen,
			buttons: []actionButton{
				{id: actArmyWhite, label: "I play White", style: ButtonSecondary, choice: "white"},
				{id: actArmyBlack, label: "I play Black", style: ButtonSecondary, choice: "black"},
				{id: actFirstMe, label: "I move first", style: ButtonPrimary, choice: "me"},
				{id: actFirstOpponent, label: "Opponent moves first", style: ButtonSecondary, choice: "opponent"},
			}},
	}
}

// gameActionOf returns the row of action a; false for an action the
// table does not have.
func gameActionOf(a gameplay.Action) (gameActionDef, bool) {
	for _, d := range gameActions() {
		if d.act == a {
			return d, true
		}
	}
	return gameActionDef{}, false
}

// actionButtons returns the buttons of the table whose custom-ID
// actions are ids, in that order, carrying g's ID and version. An id
// the table does not have is a programming error: it panics.
func actionButtons(g *bot.Game, ids ...string) []Button {
	out := make([]Button, 0, len(ids))
	for _, id := range ids {
		b, ok := findActionButton(id)
		if !ok {
			panic("command: no game action has the button " + id)
		}
		out = append(out, Button{Label: b.label, CustomID: customID(b.id, g.ID, g.Version), Style: b.style})
	}
	return out
}

// findActionButton returns the button of the table with custom-ID
// action id, and its row.
func findActionButton(id string) (actionButton, bool) {
	for _, d := range gameActions() {
		for _, b := range d.buttons {
			if b.id == id {
				return b, true
			}
		}
	}
	return actionButton{}, false
}

// actionButtonDefs returns what answers each button of the table.
func actionButtonDefs() map[string]buttonDef {
	out := map[string]buttonDef{}
	for _, d := range gameActions() {
		for _, b := range d.buttons {
			out[b.id] = buttonDef{game: func(h *Handler, ctx context.Context, userID string, g *bot.Game, version uint64) (Reply, error) {
				return h.doAction(ctx, userID, d, g, version, b.choice)
			}}
		}
	}
	return out
}

// act runs a command that is a game action, a (/resign, /abort, /choose,
// and /draw, /takeback, /pause with the option word appended, as
// actOption does): on the game req names, or the one of the user's in
// the channel the row prefers.
func (h *Handler) act(ctx context.Context, req Request, a gameplay.Action) (Reply, error) {
	d, ok := gameActionOf(a)
	if !ok {
		return Reply{}, bot.Errorf(bot.EINVALID, "Unknown game action %q.", string(a))
	}
	user := req.UserID
	var prefer func(*bot.Game) bool
	if d.prefer != nil {
		prefer = func(g *bot.Game) bool { return d.prefer(g, user) }
	}
	g, err := h.resolveGame(ctx, req, modePlay, prefer)
	if err != nil {
		return Reply{}, err
	}
	return h.doAction(ctx, user, d, g, bot.AnyVersion, req.Options[optChoice])
}

// doAction does d's action for userID in g, expecting version (a
// button's) or bot.AnyVersion, with choice for bot.ActChoose, and
// answers with d's reply. A button's action refused because the game
// changed meanwhile is said to be out of date.
func (h *Handler) doAction(ctx context.Context, userID string, d gameActionDef, g *bot.Game, version uint64, choice string) (Reply, error) {
	ng, err := h.svc.Act(ctx, gameplay.ActionRequest{Action: d.act, GameID: g.ID, Version: version, UserID: userID, Choice: choice})
	if err != nil {
		if version != bot.AnyVersion && bot.ErrorCode(err) == bot.ECONFLICT {
			return Reply{}, stale(g)
		}
		return Reply{}, err
	}
	return d.reply(h, userID, g, ng)
}

// over reports whether g has ended, with a result or aborted.
func over(g *bot.Game) bool { return g.Status == bot.GameFinished || g.Status == bot.GameAborted }

// says is the reply of an action after which the game goes on: a line
// from format, given who acted (%[1]s, a mention), the game's ID (%[2]d)
// and the opponent (%[3]s, a mention), with the game's buttons. Should
// the action have ended the game (an offer that accepts the opponent's),
// the reply is shows(nil)'s.
func says(format string) func(h *Handler, user string, before, after *bot.Game) (Reply, error) {
	return func(h *Handler, user string, before, g *bot.Game) (Reply, error) {
		if over(g) {
			return shows(nil)(h, user, before, g)
		}
		opp := opponent(g, user)
		return Reply{Text: fmt.Sprintf(format, mention(user), g.ID, mention(opp)), GameID: g.ID, Game: g,
			Mention: []string{opp}, Buttons: gameButtons(g)}, nil
	}
}

// shows is the reply of an action that changes the board or ends the
// game: the board under head's line (given who acted, as a mention), or
// under the game's status when head is nil. An aborted game is told
// without a board, to both players.
func shows(head func(h *Handler, who string, g *bot.Game, rg *rules.Game) string) func(h *Handler, user string, before, after *bot.Game) (Reply, error) {
	return func(h *Handler, user string, _, g *bot.Game) (Reply, error) {
		if g.Status == bot.GameAborted {
			return Reply{Text: h.resultText(g), GameID: g.ID, Game: g, Mention: []string{g.White, g.Black}}, nil
		}
		rg, err := h.replay(g)
		if err != nil {
			return Reply{}, err
		}
		var msg string
		if head != nil {
			msg = head(h, mention(user), g, rg)
		} else {
			msg = h.status(g, rg)
		}
		return h.boardReply(g, rg, msg)
	}
}

// defineResign defines /resign: the game action bot.ActResign.
func defineResign(catalogue) commandDef {
	return commandDef{Spec{Name: cmdResign, Description: "Resign a game", Options: []OptionSpec{gameOption("")}}, actWith(gameplay.ActResign)}
}

// defineDraw defines /draw: the game actions "draw-" + its action.
func defineDraw(catalogue) commandDef {
	return commandDef{Spec{Name: cmdDraw, Description: "Offer, accept, decline or claim a draw", Options: []OptionSpec{
		{Name: optAction, Description: "offer, accept, decline, or claim (repetition or move rule)", Kind: OptionString, Required: true,
			Choices: choices("offer", "accept", "decline", "claim")},
		gameOption(""),
	}}, actOption("draw-")}
}

// defineAbort defines /abort: the game action bot.ActAbort.
func defineAbort(catalogue) commandDef {
	return commandDef{Spec{Name: cmdAbort, Description: "Abort a game before both players have moved", Options: []OptionSpec{gameOption("")}}, actWith(gameplay.ActAbort)}
}

// defineTakeback defines /takeback: the game actions "takeback-" + its
// action.
func defineTakeback(catalogue) commandDef {
	return commandDef{Spec{Name: cmdTakeback, Description: "Ask to take back your last move, or answer such a request", Options: []OptionSpec{
		{Name: optAction, Description: "ask, accept or decline", Kind: OptionString, Required: true, Choices: choices("ask", "accept", "decline")},
		gameOption(""),
	}}, actOption("takeback-")}
}

// actWith runs a command that is one game action (act).
func actWith(action gameplay.Action) func(h *Handler, ctx context.Context, req Request) (Reply, error) {
	return func(h *Handler, ctx context.Context, req Request) (Reply, error) { return h.act(ctx, req, action) }
}

// actOption runs a command whose action: option completes the game
// action's name (/draw action:offer is "draw-offer").
func actOption(prefix string) func(h *Handler, ctx context.Context, req Request) (Reply, error) {
	return func(h *Handler, ctx context.Context, req Request) (Reply, error) {
		return h.act(ctx, req, gameplay.Action(prefix+req.Options[optAction]))
	}
}
