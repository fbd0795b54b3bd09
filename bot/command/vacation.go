package command

import (
	"context"
	"fmt"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/prefs"
)

// /vacation and /pause: time off (prefs.Service.StartVacation, gameplay.Service.Act).
const (
	cmdVacation = "vacation"
	cmdPause    = "pause"
)

// defineVacation defines /vacation.
func defineVacation(catalogue) commandDef {
	return commandDef{Spec{Name: cmdVacation, Description: "Go on vacation (your clocks stop in every game) or come back", Options: []OptionSpec{
		{Name: optAction, Description: "start or end your vacation", Kind: OptionString, Required: true, Choices: choices("start", "end")}}},
		(*Handler).vacation}
}

// definePause defines /pause: the game actions "pause-" + its action.
func definePause(catalogue) commandDef {
	return commandDef{Spec{Name: cmdPause, Description: "Pause a game by agreement of both players, or resume it", Options: []OptionSpec{
		{Name: optAction, Description: "ask (or agree to your opponent's request), decline their request, or resume", Kind: OptionString, Required: true,
			Choices: choices("ask", "decline", "resume")},
		gameOption(""),
	}}, actOption("pause-")}
}

// vacation runs /vacation.
func (h *Handler) vacation(ctx context.Context, req Request) (Reply, error) {
	var (
		v   prefs.VacationState
		err error
	)
	if req.Options[optAction] == "end" {
		v, err = h.prefs.EndVacation(ctx, req.UserID)
		if err != nil && v.Allowance == 0 {
			return Reply{}, err
		}
		text := fmt.Sprintf("Welcome back: your clocks run again in every game. %s", vacationText(v, h.svc.Now()))
		return Reply{Text: text + problem(err), Ephemeral: true}, nil
	}
	v, err = h.prefs.StartVacation(ctx, req.UserID)
	if err != nil && v.Allowance == 0 {
		return Reply{}, err
	}
	text := fmt.Sprintf("Enjoy your vacation: your clocks are stopped in every game until you come back (/vacation action:end), %s at the latest; your opponents are told. %s",
		v.Until.UTC().Format("2006-01-02 15:04 MST"), vacationText(v, h.svc.Now()))
	return Reply{Text: text + problem(err), Ephemeral: true}, nil
}

// problem tells a player that some games could not be updated, "" for
// no error.
func problem(err error) string {
	if err == nil {
		return ""
	}
	return "\nSome games could not be updated (" + bot.ErrorMessage(err) + "): try again later."
}

// vacationText says how many vacation days are used and left.
func vacationText(v prefs.VacationState, now time.Time) string {
	s := fmt.Sprintf("Vacation: %d of your %d days a year used in %d, %d left.", v.Used, v.Allowance, v.Year, v.Left)
	if v.OnVacation() {
		s += fmt.Sprintf(" On vacation since %s, until %s at the latest.", v.Since.UTC().Format("2006-01-02"), v.Until.UTC().Format("2006-01-02 15:04 MST"))
	}
	return s
}

// pauseButtons are the buttons that answer the request to pause game g
// while it stands: Agree to pause and Decline pause, carrying g.Version;
// none otherwise.
func pauseButtons(g *bot.Game) []Button {
	if g.Status != bot.GameActive || g.PauseOffer == "" || !g.PausedAt.IsZero() {
		return nil
	}
	return actionButtons(g, actPauseAgree, actPauseDecline)
}

// paused answers user's request to pause g (bot.ActPause), now ng: paused
// when the opponent had asked, else asked.
func (h *Handler) paused(user string, g, ng *bot.Game) (Reply, error) {
	opp := opponent(g, user)
	if !ng.PausedAt.IsZero() {
		return Reply{Text: fmt.Sprintf("%s agrees: game #%d is paused. No clock runs and no move is played until one of you resumes it (/pause action:resume).", mention(user), ng.ID),
			GameID: ng.ID, Mention: []string{opp}}, nil
	}
	return Reply{Text: fmt.Sprintf("%s asks to pause game #%d. %s: agree or decline with the buttons (/pause action:ask or action:decline); a move declines too.", mention(user), ng.ID, mention(opp)),
		GameID: ng.ID, Mention: []string{opp}, Buttons: pauseButtons(ng)}, nil
}

// pauseDeclined answers user's refusal to pause g (bot.ActDeclinePause),
// now ng.
func (h *Handler) pauseDeclined(user string, g, ng *bot.Game) (Reply, error) {
	return Reply{Text: fmt.Sprintf("%s declines to pause game #%d: the clocks run on. %s", mention(user), ng.ID, toActLine(ng)),
		GameID: ng.ID, Mention: []string{opponent(g, user)}, Buttons: gameButtons(ng)}, nil
}

// resumed answers user's resuming of g (bot.ActResume), now ng: resumed,
// or user's own request withdrawn.
func (h *Handler) resumed(user string, g, ng *bot.Game) (Reply, error) {
	if ng.PauseOffer == "" && g.PauseOffer == user && g.PausedAt.IsZero() {
		return Reply{Text: fmt.Sprintf("Your request to pause game #%d is withdrawn.", ng.ID), GameID: ng.ID}, nil
	}
	return Reply{Text: fmt.Sprintf("%s resumed game #%d: the clock runs again. %s", mention(user), ng.ID, toActLine(ng)),
		GameID: ng.ID, Mention: []string{opponent(g, user)}, Buttons: gameButtons(ng)}, nil
}

// toActLine names the player to act in g.
func toActLine(g *bot.Game) string {
	if g.ToAct == "" {
		return ""
	}
	return fmt.Sprintf("It is %s's turn.", mention(g.ToAct))
}

// timeOff says, for the status of active game g, who is on vacation and
// whether the game is paused; "" when neither.
func timeOff(g *bot.Game, now time.Time) string {
	var s string
	if !g.PausedAt.IsZero() {
		s += fmt.Sprintf(" The game is paused by agreement since %s: no clock runs.", g.PausedAt.UTC().Format("2006-01-02"))
	} else if g.PauseOffer != "" {
		s += fmt.Sprintf(" %s asks to pause the game.", mention(g.PauseOffer))
	}
	if g.BankDays > 0 {
		s += fmt.Sprintf(" Time bank left: %s %s, %s %s.", mention(g.White), duration(g.WhiteBank), mention(g.Black), duration(g.BlackBank))
	}
	for _, u := range []string{g.White, g.Black} {
		if until, away := g.OnVacation(u, now); away {
			s += fmt.Sprintf(" %s is on vacation until %s at the latest: their clock waits.", mention(u), until.UTC().Format("2006-01-02 15:04 MST"))
		}
	}
	return s
}
