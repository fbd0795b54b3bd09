package command

import (
	"context"
	"fmt"
	"strconv"

	"github.com/fairypost/fairypost/bot/gameplay"
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
// gets a request check has accepted against the spec. Each command's file
// defines it (a define<Command> function); commandList names them all.
type commandDef struct {
	Spec
	run func(h *Handler, ctx context.Context, req Request) (Reply, error)
}

// catalogue is what the definitions of commands list that comes from the
// bot's configuration: the choices of the variant and days options.
type catalogue struct {
	variants []Choice // every variant of the registry, by key
	days     []Choice // the days per move offered
}

// commandList is the one list of commands: every command, in the order
// /help lists them. What registers the commands with Discord (Specs), the
// console's parser and /help all read it.
func commandList() []func(c catalogue) commandDef {
	return []func(c catalogue) commandDef{
		defineChallenge, defineAccept, defineDecline, defineCancel,
		defineMove, defineChoose, defineBoard, defineLink, defineMoves, defineGames,
		defineResign, defineDraw, defineAbort, defineTakeback, defineForecast,
		defineHistory, defineExport, defineRules, defineVariants, defineSettings,
		defineVacation, definePause, defineFollow, defineUnfollow, defineNote,
		defineLeaderboard, defineProfile, defineTournament, defineAnalysis, defineVariant, defineHelp,
	}
}

// buildCommands returns every command of commandList, defined for h's
// registry.
func (h *Handler) buildCommands() []commandDef {
	c := catalogue{variants: h.variantChoices()}
	for _, d := range []int{1, 2, 3, 5, 7, 14} {
		c.days = append(c.days, Choice{Name: daysText(d), Value: strconv.Itoa(d)})
	}
	c.days = append(c.days, Choice{Name: "no time limit", Value: "0"})
	list := commandList()
	cmds := make([]commandDef, len(list))
	for i, define := range list {
		cmds[i] = define(c)
	}
	return cmds
}

// levelChoices are the computer's levels, 1 to bot.MaxComputerLevel.
func levelChoices() []Choice {
	var out []Choice
	for l := gameplay.MinComputerLevel; l <= gameplay.MaxComputerLevel; l++ {
		out = append(out, Choice{Name: strconv.Itoa(l), Value: strconv.Itoa(l)})
	}
	return out
}

// variantChoices are fairypost's variants (the registry's listed keys),
// named "Name (key)".
func (h *Handler) variantChoices() []Choice {
	var out []Choice
	for _, k := range h.svc.Rules().Keys() {
		name := k
		if v := h.svc.Rules().Default(k); v != nil {
			name = fmt.Sprintf("%s (%s)", v.Name, k)
		}
		out = append(out, Choice{Name: name, Value: k})
	}
	return out
}
