package command

import (
	"fmt"
	"strconv"
)

// Command names.
const (
	cmdChallenge = "challenge"
	cmdAccept    = "accept"
	cmdDecline   = "decline"
	cmdCancel    = "cancel"
	cmdMove      = "move"
	cmdChoose    = "choose"
	cmdBoard     = "board"
	cmdMoves     = "moves"
	cmdGames     = "games"
	cmdResign    = "resign"
	cmdDraw      = "draw"
	cmdAbort     = "abort"
	cmdTakeback  = "takeback"
	cmdHistory   = "history"
	cmdExport    = "export"
	cmdRules     = "rules"
	cmdVariants  = "variants"
	cmdSettings  = "settings"
	cmdHelp      = "help"
)

// Option names.
const (
	optOpponent  = "opponent"
	optVariant   = "variant"
	optOptions   = "options"
	optDays      = "days"
	optColor     = "color"
	optChallenge = "challenge"
	optMove      = "move"
	optGame      = "game"
	optChoice    = "choice"
	optAction    = "action"
	optNotify    = "notify"
	optReminder  = "reminder"
	optChooser   = "chooser"
)

// defaultDays is the days per move of a challenge that does not say.
const defaultDays = 3

// gameOption is the optional game:ID option of the commands about a game.
func gameOption(what string) OptionSpec {
	return OptionSpec{Name: optGame, Kind: OptionInteger, Autocomplete: true,
		Description: "The game's ID: needed only when you have several games in this channel" + what}
}

func choices(values ...string) []Choice {
	out := make([]Choice, len(values))
	for i, v := range values {
		out[i] = Choice{Name: v, Value: v}
	}
	return out
}

// buildSpecs returns every command, in the order /help lists them.
func (h *Handler) buildSpecs() []Spec {
	var variants []Choice
	for _, k := range h.svc.Rules().Keys() {
		name := k
		if v := h.svc.Rules().Default(k); v != nil {
			name = fmt.Sprintf("%s (%s)", v.Name, k)
		}
		variants = append(variants, Choice{Name: name, Value: k})
	}
	var days []Choice
	for _, d := range []int{1, 2, 3, 5, 7, 14} {
		days = append(days, Choice{Name: daysText(d), Value: strconv.Itoa(d)})
	}
	days = append(days, Choice{Name: "no time limit", Value: "0"})
	challenge := OptionSpec{Name: optChallenge, Kind: OptionInteger, Autocomplete: true,
		Description: "The challenge's ID: needed only when several are waiting for you here"}
	return append([]Spec{
		{Name: cmdChallenge, Description: "Challenge someone (or anyone here) to a game", ServerOnly: true, Options: []OptionSpec{
			{Name: optVariant, Description: "The variant to play (see /variants)", Kind: OptionString, Required: true, Choices: variants},
			{Name: optOpponent, Description: "Who you challenge; leave out to challenge anyone in this channel", Kind: OptionUser},
			{Name: optOptions, Description: "Variant options as key=value,key=value (see /variants)", Kind: OptionString},
			{Name: optDays, Description: "Days per move (default 3)", Kind: OptionInteger, Choices: days},
			bankOption(),
			{Name: optColor, Description: "Your colour (default random; not for Crazyhouse Annihilation)", Kind: OptionString,
				Choices: choices("white", "black", "random")},
			{Name: optChooser, Description: "Crazyhouse Annihilation: who picks the army (default: the challenged player)", Kind: OptionString,
				Choices: choices("challenged", "challenger")},
		}},
		{Name: cmdAccept, Description: "Accept a challenge", Options: []OptionSpec{challenge}},
		{Name: cmdDecline, Description: "Decline a challenge made to you", Options: []OptionSpec{challenge}},
		{Name: cmdCancel, Description: "Withdraw a challenge you made", Options: []OptionSpec{
			{Name: optChallenge, Kind: OptionInteger, Required: true, Description: "The challenge's ID (shown when you made it)"}}},
		{Name: cmdMove, Description: "Play a move (e4, Nf3, O-O, P@e4 or e2e4; /moves lists the legal ones)", Options: []OptionSpec{
			{Name: optMove, Description: "Your move: start typing to see the legal ones", Kind: OptionString, Required: true, Autocomplete: true},
			gameOption(""),
		}},
		{Name: cmdChoose, Description: "Make the pre-game choice (Crazyhouse Annihilation)", Options: []OptionSpec{
			{Name: optChoice, Description: "Army: white or black; then who moves first: me or opponent", Kind: OptionString, Required: true,
				Choices: choices("white", "black", "me", "opponent")},
			gameOption(""),
		}},
		{Name: cmdBoard, Description: "Show a game's board, your side at the bottom", Options: []OptionSpec{gameOption(" (or to watch)")}},
		{Name: cmdMoves, Description: "List the legal moves of the player to act, written as /move takes them",
			Options: []OptionSpec{gameOption(" (or to watch)")}},
		{Name: cmdGames, Description: "List your games, those where it is your turn first"},
		{Name: cmdResign, Description: "Resign a game", Options: []OptionSpec{gameOption("")}},
		{Name: cmdDraw, Description: "Offer, accept, decline or claim a draw", Options: []OptionSpec{
			{Name: optAction, Description: "offer, accept, decline, or claim (repetition or move rule)", Kind: OptionString, Required: true,
				Choices: choices("offer", "accept", "decline", "claim")},
			gameOption(""),
		}},
		{Name: cmdAbort, Description: "Abort a game before both players have moved", Options: []OptionSpec{gameOption("")}},
		{Name: cmdTakeback, Description: "Ask to take back your last move, or answer such a request", Options: []OptionSpec{
			{Name: optAction, Description: "ask, accept or decline", Kind: OptionString, Required: true, Choices: choices("ask", "accept", "decline")},
			gameOption(""),
		}},
		forecastSpec(),
		{Name: cmdHistory, Description: "List a game's moves", Options: []OptionSpec{gameOption(" (or to watch)")}},
		{Name: cmdExport, Description: "Export a game as a PGN file", Options: []OptionSpec{gameOption(" (or to watch)")}},
		{Name: cmdRules, Description: "A variant's rules in short, how to write its special moves, its marks and pieces", Options: []OptionSpec{
			{Name: optVariant, Description: "The variant", Kind: OptionString, Required: true, Choices: variants}}},
		{Name: cmdVariants, Description: "List the variants with their board sizes and options"},
		{Name: cmdSettings, Description: "Show or change where you are notified and when you are reminded", Options: []OptionSpec{
			{Name: optNotify, Description: "Where your notifications go: dm, channel or off", Kind: OptionString, Choices: choices("dm", "channel", "off")},
			{Name: optReminder, Description: "Remind when this % of a turn's time is left (0 = never, up to 99)", Kind: OptionInteger},
			digestOption(), utcOption(),
		}},
	}, append(append(vacationSpecs(), append(followSpecs(), noteSpec())...), Spec{Name: cmdHelp, Description: "What fairypost's commands do"})...)
}
