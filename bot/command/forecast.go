package command

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
)

// /forecast: conditional moves (bot.Forecast).
const (
	cmdForecast = "forecast"
	optLine     = "line"
	optNumber   = "number"
)

// maxForecastLine is the most characters a /forecast line holds: room for
// bot.MaxForecastMoves moves of the longest notations, with spaces.
const maxForecastLine = 1000

// defineForecast defines /forecast.
func defineForecast(catalogue) commandDef {
	return commandDef{Spec{Name: cmdForecast, Description: "Answer your opponent's expected moves in advance (conditional moves)", Options: []OptionSpec{
		{Name: optAction, Description: "add a line, list yours, show one on a board, or clear them all", Kind: OptionString, Required: true,
			Choices: choices("add", "list", "show", "clear")},
		{Name: optLine, Description: "add: their move, your answer, their next, ... e.g. \"Bb5 a6 Ba4 Nf6\"", Kind: OptionString,
			MaxLength: maxForecastLine},
		{Name: optNumber, Description: "show: the line's number in /forecast list", Kind: OptionInteger},
		gameOption(""),
	}}, (*Handler).forecast}
}

// forecast runs /forecast. Every answer is ephemeral: lines are private
// to their owner until played.
func (h *Handler) forecast(ctx context.Context, req Request) (Reply, error) {
	user := req.UserID
	g, err := h.resolveGame(ctx, req, modePlay, func(g *bot.Game) bool { return g.Status == bot.GameActive && g.ToAct != user })
	if err != nil {
		return Reply{}, err
	}
	action := req.Options[optAction]
	if action != "add" && req.Options[optLine] != "" {
		return Reply{}, bot.Errorf(bot.EINVALID, "line: goes with /forecast add only.")
	}
	private := func(text string) (Reply, error) {
		return Reply{Text: text, Ephemeral: true, GameID: g.ID}, nil
	}
	switch action {
	case "add":
		text := strings.TrimSpace(req.Options[optLine])
		if text == "" {
			return Reply{}, bot.Errorf(bot.EINVALID, "/forecast add needs line: your opponent's expected moves and your answers in order, e.g. line:\"Bb5 a6 Ba4 Nf6\".")
		}
		l, err := h.svc.Forecasting().AddForecast(ctx, g.ID, user, text)
		if err != nil {
			return Reply{}, err
		}
		return private(fmt.Sprintf("Conditional line %d stored for game #%d: %s.\nOnly you see it until it is played; a line your opponent leaves is dropped. /forecast list shows your lines.",
			l.Number, g.ID, l))
	case "clear":
		n, err := h.svc.Forecasting().ClearForecasts(ctx, g.ID, user)
		if err != nil {
			return Reply{}, err
		}
		if n == 0 {
			return private(fmt.Sprintf("You had no conditional line in game #%d.", g.ID))
		}
		return private(fmt.Sprintf("Your %s in game #%d %s removed.", counted(n, "conditional line"), g.ID, map[bool]string{true: "was", false: "were"}[n == 1]))
	case "show":
		n, err := strconv.Atoi(req.Options[optNumber])
		if err != nil || n < 1 {
			return Reply{}, bot.Errorf(bot.EINVALID, "/forecast show needs number: the line's number in /forecast list.")
		}
		ng, fg, err := h.svc.Forecasting().ForecastEnd(ctx, g.ID, user, n)
		if err != nil {
			return Reply{}, err
		}
		_, lines, err := h.svc.Forecasting().Forecasts(ctx, g.ID, user)
		if err != nil {
			return Reply{}, err
		}
		f, err := h.privateBoardPNG(ng, fg, user)
		if err != nil {
			return Reply{}, err
		}
		text := fmt.Sprintf("Game #%d after your conditional line %d", g.ID, n)
		if n <= len(lines) {
			text += ": " + lines[n-1].String()
		}
		// Not GameID: the board is not the game's current position.
		return Reply{Text: text + ".", Ephemeral: true, Files: []File{f}}, nil
	}
	_, lines, err := h.svc.Forecasting().Forecasts(ctx, g.ID, user)
	if err != nil {
		return Reply{}, err
	}
	if len(lines) == 0 {
		return private(fmt.Sprintf("You have no conditional line in game #%d. While you wait for your opponent, /forecast add line:\"...\" stores one: their expected move, your answer, their next move, and so on.", g.ID))
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = fmt.Sprintf("%d. %s", l.Number, l)
	}
	return private(joinLines(fmt.Sprintf("Your conditional lines in game #%d (only you see them):", g.ID), out, maxReply))
}

// counted writes n and noun, with an s unless n is 1.
func counted(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// answersText tells the moves a move's reply led the bot to play from
// conditional lines, "" when none.
func answersText(answers []gameplay.ForecastAnswer) string {
	if len(answers) == 0 {
		return ""
	}
	var b strings.Builder
	for i := 0; i < len(answers); {
		j := i
		var sans []string
		for j < len(answers) && answers[j].UserID == answers[i].UserID {
			sans = append(sans, answers[j].SAN)
			j++
		}
		fmt.Fprintf(&b, "%s's %s came at once from a conditional line stored in advance.\n", mention(answers[i].UserID), strings.Join(sans, " "))
		i = j
	}
	return b.String()
}
