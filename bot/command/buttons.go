package command

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/fairypost/fairypost/bot"
)

// customIDPrefix starts every custom ID fairypost makes; the number is
// the format's version.
const customIDPrefix = "fp1"

// Button actions, the second field of a custom ID.
const (
	actAccept  = "accept"  // accept a challenge
	actDecline = "decline" // decline a challenge
	actCancel  = "cancel"  // cancel a challenge
	actResign  = "resign"  // ask to confirm resigning (the game actions' buttons: actions.go)
)

// buttonDef answers a click on one kind of button. other is set for the
// buttons of something else than a game (a challenge, a tournament: id is
// its ID); game for a game's, which press calls once it has checked that
// the clicker plays in g and that g is still at the version the button
// carried.
type buttonDef struct {
	other func(h *Handler, ctx context.Context, at Request, id, version uint64) (Reply, error)
	game  func(h *Handler, ctx context.Context, userID string, g *bot.Game, version uint64) (Reply, error)
}

// challengeButton is the buttonDef of a challenge's button: answer runs
// it, and a challenge changed since the button was shown is said so.
func challengeButton(answer func(h *Handler, ctx context.Context, at Request, id, version uint64) (Reply, error)) buttonDef {
	return buttonDef{other: func(h *Handler, ctx context.Context, at Request, id, version uint64) (Reply, error) {
		rep, err := answer(h, ctx, at, id, version)
		if bot.ErrorCode(err) == bot.ECONFLICT {
			err = bot.Errorf(bot.ECONFLICT, "This button is out of date: challenge #%d has changed since it was shown.", id)
		}
		return rep, err
	}}
}

// buttonTable returns every button action with what answers it: the one
// place a button is declared (besides the functions that show it); the
// game actions' buttons come from their table (gameActions).
func buttonTable() map[string]buttonDef {
	table := actionButtonDefs()
	for id, b := range map[string]buttonDef{
		actAccept: challengeButton(func(h *Handler, ctx context.Context, at Request, id, version uint64) (Reply, error) {
			return h.accept(ctx, at, id, version)
		}),
		actDecline: challengeButton(func(h *Handler, ctx context.Context, at Request, id, version uint64) (Reply, error) {
			return h.decline(ctx, at.UserID, id, version)
		}),
		actCancel: challengeButton(func(h *Handler, ctx context.Context, at Request, id, version uint64) (Reply, error) {
			return h.cancel(ctx, at.UserID, id, version)
		}),
		actTournamentJoin: {other: func(h *Handler, ctx context.Context, at Request, id, _ uint64) (Reply, error) {
			return h.pressJoin(ctx, at, id)
		}},
		actResign:  {game: (*Handler).confirmResign},
		actAnalyse: {game: (*Handler).pressAnalyse},
		actRematch: {game: func(h *Handler, ctx context.Context, userID string, g *bot.Game, _ uint64) (Reply, error) {
			return h.rematch(ctx, userID, g)
		}},
	} {
		if _, dup := table[id]; dup {
			panic("command: two buttons have the custom-ID action " + id)
		}
		table[id] = b
	}
	return table
}

// confirmResign answers Resign: a private question with the button that
// really resigns.
func (h *Handler) confirmResign(_ context.Context, _ string, g *bot.Game, _ uint64) (Reply, error) {
	return Reply{Ephemeral: true, GameID: g.ID, Game: g,
		Text:    fmt.Sprintf("Really resign game #%d? This cannot be undone.", g.ID),
		Buttons: actionButtons(g, actResignConfirm)}, nil
}

// customID returns "fp1:<action>:<id>:<version>".
func customID(action string, id, version uint64) string {
	return fmt.Sprintf("%s:%s:%d:%d", customIDPrefix, action, id, version)
}

// errBadButton is the answer to a custom ID fairypost did not make.
func errBadButton() error {
	return bot.Errorf(bot.EINVALID, "This button is not from fairypost or is damaged.")
}

// parseCustomID reads a custom ID in the form customID makes; whether
// its action is one is press's to check (Handler.buttons).
func parseCustomID(s string) (action string, id, version uint64, err error) {
	if len(s) > 100 {
		return "", 0, 0, errBadButton()
	}
	parts := strings.Split(s, ":")
	if len(parts) != 4 || parts[0] != customIDPrefix || parts[1] == "" {
		return "", 0, 0, errBadButton()
	}
	id, err1 := strconv.ParseUint(parts[2], 10, 64)
	version, err2 := strconv.ParseUint(parts[3], 10, 64)
	if err1 != nil || err2 != nil || id == 0 || version == 0 ||
		strconv.FormatUint(id, 10) != parts[2] || strconv.FormatUint(version, 10) != parts[3] {
		return "", 0, 0, errBadButton()
	}
	return parts[1], id, version, nil
}

// challengeButtons are the buttons under a pending challenge: Accept
// and, for a challenge to someone, Decline; Cancel for the challenger.
func challengeButtons(c *bot.Challenge) []Button {
	b := []Button{{Label: "Accept", CustomID: customID(actAccept, c.ID, c.Version), Style: ButtonSuccess}}
	if !c.Open() {
		b = append(b, Button{Label: "Decline", CustomID: customID(actDecline, c.ID, c.Version), Style: ButtonDanger})
	}
	return append(b, Button{Label: "Cancel", CustomID: customID(actCancel, c.ID, c.Version), Style: ButtonSecondary})
}

// gameButtons are the buttons under a game's board while it is played:
// Resign and Offer draw, Accept/Decline draw when an offer stands,
// Accept/Decline takeback when one is asked; Rematch and Analyse once it
// is finished (rematchButtons, analyseButtons). They carry g.Version.
func gameButtons(g *bot.Game) []Button {
	if g.Status == bot.GameFinished {
		return append(rematchButtons(g), analyseButtons(g)...)
	}
	if g.Status != bot.GameActive {
		return nil
	}
	var b []Button
	switch {
	case g.DrawOffer != "":
		b = actionButtons(g, actDrawAccept, actDrawDecline)
	default:
		b = actionButtons(g, actDrawOffer)
	}
	if g.Takeback != "" {
		b = append(b, actionButtons(g, actTakebackAccept, actTakebackDecline)...)
	}
	return append(b, Button{Label: "Resign", CustomID: customID(actResign, g.ID, g.Version), Style: ButtonDanger})
}

// Press handles a click on a button whose custom ID is customID by
// at.UserID, in at's place (at's Name and Options are not used). Stale clicks (the game or challenge changed since the button was
// shown) are refused with a clear ECONFLICT message, clicks by someone who
// may not act with EFORBIDDEN's, and custom IDs that fairypost did not
// make with EINVALID's ("This button is not from fairypost or is
// damaged."); nothing changes then. Never panics.
func (h *Handler) Press(ctx context.Context, at Request, customID string) (rep Reply) {
	defer h.recover("press", &rep)
	rep, err := h.press(ctx, at, customID)
	if err != nil {
		return h.errorReply(err)
	}
	h.addLink(ctx, &rep)
	rep.Text = truncate(rep.Text, maxReply)
	return rep
}

func (h *Handler) press(ctx context.Context, at Request, cid string) (Reply, error) {
	userID := at.UserID
	if userID == "" || !cleanText(userID) || len(userID) > 64 {
		return Reply{}, bot.Errorf(bot.EINVALID, "Who pressed the button? No user given.")
	}
	action, id, version, err := parseCustomID(cid)
	if err != nil {
		return Reply{}, err
	}
	b, ok := h.buttons[action]
	if !ok {
		return Reply{}, errBadButton()
	}
	if b.other != nil {
		return b.other(h, ctx, at, id, version)
	}
	g, err := h.svc.Views().Game(ctx, id)
	if err != nil {
		return Reply{}, err
	}
	if !g.IsPlayer(userID) {
		return Reply{}, bot.Errorf(bot.EFORBIDDEN, "Only the players of game #%d can use its buttons.", g.ID)
	}
	if g.Version != version {
		return Reply{}, stale(g)
	}
	return b.game(h, ctx, userID, g, version)
}

// stale is the answer to a button shown before g last changed.
func stale(g *bot.Game) error {
	return bot.Errorf(bot.ECONFLICT, "This button is out of date: game #%d has changed since it was shown. Use /board game:%d for the current position.", g.ID, g.ID)
}
