package command

import (
	"context"
	"fmt"
	"strconv"

	"github.com/fairypost/fairypost/bot"
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
	optRated     = "rated"
	optLevel     = "level"
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

// commandDef is one command: its spec and what runs it, together. run
// gets a request check has accepted against the spec.
type commandDef struct {
	Spec
	run func(h *Handler, ctx context.Context, req Request) (Reply, error)
}

// buildCommands returns every command, in the order /help lists them.
func (h *Handler) buildCommands() []commandDef {
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
	cmds := []commandDef{
		{Spec{Name: cmdChallenge, Description: "Challenge someone (or anyone here) to a game", ServerOnly: true, Options: []OptionSpec{
			{Name: optVariant, Description: "The variant to play (see /variants)", Kind: OptionString, Required: true, Choices: variants},
			{Name: optOpponent, Description: "Who you challenge; leave out to challenge anyone in this channel", Kind: OptionUser},
			{Name: optOptions, Description: "Variant options as key=value,key=value (see /variants)", Kind: OptionString},
			{Name: optDays, Description: "Days per move (default 3)", Kind: OptionInteger, Choices: days},
			bankOption(),
			{Name: optColor, Description: "Your colour (default random; not for Crazyhouse Annihilation)", Kind: OptionString,
				Choices: choices("white", "black", "random")},
			{Name: optChooser, Description: "Crazyhouse Annihilation: who picks the army (default: the challenged player)", Kind: OptionString,
				Choices: choices("challenged", "challenger")},
			{Name: optRated, Description: "Whether the game changes your ratings (default yes; games against the bot are casual)", Kind: OptionString, Choices: choices("yes", "no")},
			{Name: optLevel, Description: "Against the bot (opponent: the bot itself): 1 weakest to 9 strongest (2 s a move); default 4", Kind: OptionInteger,
				Choices: levelChoices()},
		}}, (*Handler).challenge},
		{Spec{Name: cmdAccept, Description: "Accept a challenge", Options: []OptionSpec{challenge}}, answerChallenge(cmdAccept)},
		{Spec{Name: cmdDecline, Description: "Decline a challenge made to you", Options: []OptionSpec{challenge}}, answerChallenge(cmdDecline)},
		{Spec{Name: cmdCancel, Description: "Withdraw a challenge you made", Options: []OptionSpec{
			{Name: optChallenge, Kind: OptionInteger, Required: true, Description: "The challenge's ID (shown when you made it)"}}}, answerChallenge(cmdCancel)},
		{Spec{Name: cmdMove, Description: "Play a move (e4, Nf3, O-O, P@e4 or e2e4; /moves lists the legal ones)", Options: []OptionSpec{
			{Name: optMove, Description: "Your move: start typing to see the legal ones", Kind: OptionString, Required: true, Autocomplete: true},
			gameOption(""),
		}}, (*Handler).move},
		{Spec{Name: cmdChoose, Description: "Make the pre-game choice (Crazyhouse Annihilation)", Options: []OptionSpec{
			{Name: optChoice, Description: "Army: white or black; then who moves first: me or opponent", Kind: OptionString, Required: true,
				Choices: choices("white", "black", "me", "opponent")},
			gameOption(""),
		}}, actWith(bot.ActChoose)},
		{Spec{Name: cmdBoard, Description: "Show a game's board, your side at the bottom", Options: []OptionSpec{gameOption(" (or to watch)")}}, (*Handler).board},
		{Spec{Name: cmdMoves, Description: "List the legal moves of the player to act, written as /move takes them",
			Options: []OptionSpec{gameOption(" (or to watch)")}}, (*Handler).movesCmd},
		{Spec{Name: cmdGames, Description: "List your games, those where it is your turn first"}, (*Handler).games},
		{Spec{Name: cmdResign, Description: "Resign a game", Options: []OptionSpec{gameOption("")}}, actWith(bot.ActResign)},
		{Spec{Name: cmdDraw, Description: "Offer, accept, decline or claim a draw", Options: []OptionSpec{
			{Name: optAction, Description: "offer, accept, decline, or claim (repetition or move rule)", Kind: OptionString, Required: true,
				Choices: choices("offer", "accept", "decline", "claim")},
			gameOption(""),
		}}, actOption("draw-")},
		{Spec{Name: cmdAbort, Description: "Abort a game before both players have moved", Options: []OptionSpec{gameOption("")}}, actWith(bot.ActAbort)},
		{Spec{Name: cmdTakeback, Description: "Ask to take back your last move, or answer such a request", Options: []OptionSpec{
			{Name: optAction, Description: "ask, accept or decline", Kind: OptionString, Required: true, Choices: choices("ask", "accept", "decline")},
			gameOption(""),
		}}, actOption("takeback-")},
		{forecastSpec(), (*Handler).forecast},
		{Spec{Name: cmdHistory, Description: "List a game's moves", Options: []OptionSpec{gameOption(" (or to watch)")}}, (*Handler).history},
		{Spec{Name: cmdExport, Description: "Export a game as a PGN file", Options: []OptionSpec{gameOption(" (or to watch)")}}, (*Handler).export},
		{Spec{Name: cmdRules, Description: "A variant's rules in short, how to write its special moves, its marks and pieces", Options: []OptionSpec{
			{Name: optVariant, Description: "The variant", Kind: OptionString, Required: true, Choices: variants}}}, (*Handler).rulesOption},
		{Spec{Name: cmdVariants, Description: "List the variants with their board sizes and options"}, (*Handler).variantsCmd},
		{Spec{Name: cmdSettings, Description: "Show or change where you are notified and when you are reminded", Options: []OptionSpec{
			{Name: optNotify, Description: "Where your notifications go: dm, channel or off", Kind: OptionString, Choices: choices("dm", "channel", "off")},
			{Name: optReminder, Description: "Remind when this % of a turn's time is left (0 = never, up to 99)", Kind: OptionInteger},
			digestOption(), utcOption(),
		}}, (*Handler).settings},
	}
	comforts := map[string]func(h *Handler, ctx context.Context, req Request) (Reply, error){
		cmdVacation: (*Handler).vacation,
		cmdPause:    actOption("pause-"),
		cmdFollow: func(h *Handler, ctx context.Context, req Request) (Reply, error) {
			return h.follow(ctx, req, false)
		},
		cmdUnfollow: func(h *Handler, ctx context.Context, req Request) (Reply, error) {
			return h.follow(ctx, req, true)
		},
		cmdNote: (*Handler).note,
	}
	for _, s := range append(append(vacationSpecs(), followSpecs()...), noteSpec()) {
		cmds = append(cmds, commandDef{s, comforts[s.Name]})
	}
	for _, s := range ratingSpecs(variants) {
		name := s.Name
		cmds = append(cmds, commandDef{s, func(h *Handler, ctx context.Context, req Request) (Reply, error) {
			return h.ratingCommand(ctx, req, name)
		}})
	}
	return append(cmds, commandDef{tournamentSpec(variants, days), (*Handler).tournamentCommand},
		commandDef{Spec{Name: cmdHelp, Description: "What fairypost's commands do"}, (*Handler).helpCmd})
}

// answerChallenge runs /accept, /decline or /cancel (name): on the
// challenge given, or the one the user may answer here (findChallenge).
func answerChallenge(name string) func(h *Handler, ctx context.Context, req Request) (Reply, error) {
	return func(h *Handler, ctx context.Context, req Request) (Reply, error) {
		id, err := parseID(optChallenge, req.Options[optChallenge])
		if err != nil {
			return Reply{}, err
		}
		if id == 0 {
			if id, err = h.findChallenge(ctx, req, name); err != nil {
				return Reply{}, err
			}
		}
		switch name {
		case cmdAccept:
			return h.accept(ctx, req, id, bot.AnyVersion)
		case cmdDecline:
			return h.decline(ctx, req.UserID, id, bot.AnyVersion)
		}
		return h.cancel(ctx, req.UserID, id, bot.AnyVersion)
	}
}

// actWith runs a command that is one game action (act).
func actWith(action bot.Action) func(h *Handler, ctx context.Context, req Request) (Reply, error) {
	return func(h *Handler, ctx context.Context, req Request) (Reply, error) { return h.act(ctx, req, action) }
}

// actOption runs a command whose action: option completes the game
// action's name (/draw action:offer is "draw-offer").
func actOption(prefix string) func(h *Handler, ctx context.Context, req Request) (Reply, error) {
	return func(h *Handler, ctx context.Context, req Request) (Reply, error) {
		return h.act(ctx, req, bot.Action(prefix+req.Options[optAction]))
	}
}

// rulesOption runs /rules variant:.
func (h *Handler) rulesOption(_ context.Context, req Request) (Reply, error) {
	return h.rulesCmd(req.Options[optVariant])
}

// variantsCmd runs /variants.
func (h *Handler) variantsCmd(context.Context, Request) (Reply, error) { return h.variants(), nil }

// helpCmd runs /help.
func (h *Handler) helpCmd(context.Context, Request) (Reply, error) { return h.help(), nil }

// levelChoices are the computer's levels, 1 to bot.MaxComputerLevel.
func levelChoices() []Choice {
	var out []Choice
	for l := bot.MinComputerLevel; l <= bot.MaxComputerLevel; l++ {
		out = append(out, Choice{Name: strconv.Itoa(l), Value: strconv.Itoa(l)})
	}
	return out
}
