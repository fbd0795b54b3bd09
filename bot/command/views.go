package command

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/computer"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/rules"
)

// games runs /games: the requester's games, those where it is their turn
// first, by time left (the service's order), one line each; a paused game
// reads "paused" where the time left would be, and a standing request to
// pause is named.
func (h *Handler) games(ctx context.Context, req Request) (Reply, error) {
	list, err := h.svc.Views().ActiveGames(ctx, req.UserID)
	if err != nil {
		return Reply{}, err
	}
	if len(list) == 0 {
		return Reply{Text: "You have no game in progress. /challenge someone!", Ephemeral: true}, nil
	}
	now := h.svc.Now()
	lines := make([]string, 0, len(list))
	for _, g := range list {
		turn := "their turn"
		switch {
		case g.Status == bot.GameSetup && yourTurn(req.UserID)(g):
			turn = "**your pre-game choice**"
		case g.Status == bot.GameSetup:
			turn = "their pre-game choice"
		case g.ToAct == req.UserID:
			turn = "**your turn**"
		}
		clock := timeLeft(g.Deadline, now)
		switch {
		case !g.PausedAt.IsZero():
			clock = fmt.Sprintf("**paused** since %s: no clock runs (/pause action:resume)", g.PausedAt.UTC().Format("2006-01-02"))
		case g.PauseOffer == req.UserID:
			clock += ", you asked to pause"
		case g.PauseOffer != "":
			clock += fmt.Sprintf(", %s asks to pause", mention(g.PauseOffer))
		}
		lines = append(lines, fmt.Sprintf("#%d · vs %s · %s · %s · %s%s", g.ID, mention(opponent(g, req.UserID)),
			h.variantName(g.Variant, g.Options), turn, clock, levelText(g)))
	}
	return Reply{Text: joinLines(fmt.Sprintf("Your games (%d):", len(list)), lines, maxReply), Ephemeral: true}, nil
}

// historyLines writes turns one line per full move: "12. Qc7, Qxc4, b3
// — Nf6, e5", White's turn, then Black's after a dash, numbered as PGN
// numbers them (Turn.Number); a line that begins with Black's turn reads
// "12… Nf6, e5". The moves of a turn are separated by commas; a move of
// the other player inside the turn (a Winning Chess Defender answer)
// reads "(Black answers Dg7)", "(Black passes)" for a pass chosen, or
// "(Black had to pass)" when the bot played the only legal move, a pass;
// the player's own forced pass reads
// "pass (forced)".
func historyLines(turns []gameplay.Turn) []string {
	var lines []string
	var cur strings.Builder
	for _, t := range turns {
		text := turnLine(t)
		switch {
		case t.Color == rules.Black && cur.Len() > 0:
			cur.WriteString(" — " + text)
			lines = append(lines, cur.String())
			cur.Reset()
		case t.Color == rules.Black:
			lines = append(lines, fmt.Sprintf("%d… %s", t.Number, text))
		default:
			if cur.Len() > 0 {
				lines = append(lines, cur.String())
				cur.Reset()
			}
			fmt.Fprintf(&cur, "%d. %s", t.Number, text)
		}
	}
	if cur.Len() > 0 {
		lines = append(lines, cur.String())
	}
	return lines
}

// turnLine writes the moves of t for historyLines.
func turnLine(t gameplay.Turn) string {
	parts := make([]string, len(t.Moves))
	for i, m := range t.Moves {
		s := m.SAN
		switch {
		case m.Color != t.Color && m.Forced:
			s = "(" + colorWord(m.Color) + " had to pass)"
		case m.Color != t.Color && m.SAN == "pass":
			s = "(" + colorWord(m.Color) + " passes)"
		case m.Color != t.Color:
			s = "(" + colorWord(m.Color) + " answers " + s + ")"
		case m.Forced:
			s += " (forced)"
		}
		parts[i] = s
	}
	return strings.Join(parts, ", ")
}

// colorWord returns "White" or "Black".
func colorWord(c rules.Color) string {
	if c == rules.Black {
		return "Black"
	}
	return "White"
}

// lastLines returns the index of the first of the last lines of lines
// that fit in budget bytes, joined by newlines.
func lastLines(lines []string, budget int) int {
	start, size := len(lines), 0
	for start > 0 && size+len(lines[start-1])+1 <= budget {
		start--
		size += len(lines[start]) + 1
	}
	return start
}

// history runs /history: the numbered turns in friendly form
// (historyLines), the latest kept when they do not all fit.
func (h *Handler) history(ctx context.Context, req Request) (Reply, error) {
	g, err := h.resolveGame(ctx, req, modeLook, nil)
	if err != nil {
		return Reply{}, err
	}
	turns, err := h.svc.Views().Turns(ctx, g.ID)
	if err != nil {
		return Reply{}, err
	}
	head := h.header(g)
	lines := historyLines(turns)
	if len(lines) == 0 {
		return Reply{Text: head + "\nNo moves yet.", GameID: g.ID, Game: g}, nil
	}
	footer := ""
	if res := h.resultText(g); res != "" {
		footer = "\n" + res
	}
	start := lastLines(lines, maxReply-len(head)-len(footer)-100)
	text := head
	if start > 0 {
		text += fmt.Sprintf("\n(the first %s %s not shown: /export game:%d has them all)", counted(start, "line"), plural(start, "is", "are"), g.ID)
	}
	text += "\n" + strings.Join(lines[start:], "\n") + footer
	return Reply{Text: text, GameID: g.ID, Game: g}, nil
}

// export runs /export: the game as a PGN file.
func (h *Handler) export(ctx context.Context, req Request) (Reply, error) {
	g, err := h.resolveGame(ctx, req, modeLook, nil)
	if err != nil {
		return Reply{}, err
	}
	pgn, err := h.svc.Views().PGN(ctx, g.ID)
	if err != nil {
		return Reply{}, err
	}
	return Reply{Text: fmt.Sprintf("Game #%d as PGN.", g.ID), Ephemeral: true, GameID: g.ID, Game: g,
		Files: []File{{Name: fmt.Sprintf("game-%d.pgn", g.ID), Data: []byte(pgn)}}}, nil
}

// variants runs /variants.
func (h *Handler) variants() Reply {
	var lines []string
	for _, k := range h.svc.Rules().Keys() {
		v := h.svc.Rules().Default(k)
		if v == nil {
			continue
		}
		l := fmt.Sprintf("`%s` %s, %dx%d", k, v.Name, v.Files, v.Ranks)
		for _, o := range v.Options {
			l += fmt.Sprintf(" · %s=%s", o.Key, strings.Join(o.Values, "|"))
		}
		lines = append(lines, l)
	}
	return Reply{Text: joinLines("Variants (/rules variant:KEY for the rules; options as /challenge options:key=value):", lines, maxReply), Ephemeral: true}
}

// settings runs /settings: shows the requester's preferences, changing
// those given first.
func (h *Handler) settings(ctx context.Context, req Request) (Reply, error) {
	o := req.Options
	var (
		p   *bot.Preferences
		err error
	)
	if s := o[optNotify]; s != "" {
		d, err := bot.ParseDelivery(s)
		if err != nil {
			return Reply{}, err
		}
		if p, err = h.prefs.SetDelivery(ctx, req.UserID, d); err != nil {
			return Reply{}, err
		}
	}
	if s := o[optReminder]; s != "" {
		pct, err := strconv.Atoi(s)
		if err != nil || pct < 0 || pct > 99 {
			return Reply{}, bot.Errorf(bot.EINVALID, "reminder: a percentage from 0 (never) to 99, not %q.", truncate(s, 40))
		}
		if p, err = h.prefs.SetReminder(ctx, req.UserID, pct); err != nil {
			return Reply{}, err
		}
	}
	if q, err := h.digestSetting(ctx, req); err != nil {
		return Reply{}, err
	} else if q != nil {
		p = q
	}
	if p == nil {
		if p, err = h.prefs.Preferences(ctx, req.UserID); err != nil {
			return Reply{}, err
		}
	}
	where := map[bot.Delivery]string{bot.DeliverDM: "by direct message", bot.DeliverChannel: "in the game's channel",
		bot.DeliverOff: "not at all (only the game's thread)"}[p.Delivery]
	remind := "never reminded"
	if p.ReminderPercent > 0 {
		remind = fmt.Sprintf("reminded when %d%% of a turn's time is left", p.ReminderPercent)
	}
	text := fmt.Sprintf("Your settings: notified %s; %s.", where, remind)
	text += " " + digestText(p)
	if v, err := h.prefs.Vacation(ctx, req.UserID); err == nil {
		text += " " + vacationText(v, h.svc.Now())
	}
	if p.DMBlocked && p.Delivery == bot.DeliverDM {
		text += " Your direct messages are closed to the bot, so you are told in the channel instead."
	}
	return Reply{Text: text + "\nChange them with /settings notify:dm|channel|off reminder:0-99 digest:off|0-23 (one direct message a day at that hour) utc:+2|-5|+5:30 (your time zone, for the digest's hour and times).", Ephemeral: true}, nil
}

// computerHelp is the /help paragraph about playing the computer player.
func computerHelp() string {
	text := fmt.Sprintf("**Playing the bot**: /challenge with the bot itself as opponent and level: %d (weakest) to %d (strongest). "+
		"It accepts at once (a casual game) and plays each of its moves within seconds, posted in the game's thread with the board; "+
		"you are told as your /settings say. It accepts takebacks, accepts a draw you offer when its search sees it no better than level, "+
		"and resigns a game it sees lost by force.", gameplay.MinComputerLevel, gameplay.MaxComputerLevel)
	if d := computer.DefaultDrawOffers().Explain(); d != "" {
		text += " " + d
	}
	return text
}

// help runs /help.
// Lines that do not fit in one message go on in Reply.More.
func (h *Handler) help() Reply {
	lines := []string{"**fairypost**: correspondence chess variants. Challenge someone, then play a move whenever it is your turn."}
	for _, c := range h.commands {
		s := c.Spec
		var b strings.Builder
		fmt.Fprintf(&b, "/%s", s.Name)
		for _, o := range s.Options {
			if o.Required {
				fmt.Fprintf(&b, " %s:…", o.Name)
			} else {
				fmt.Fprintf(&b, " [%s:]", o.Name)
			}
		}
		fmt.Fprintf(&b, " — %s", s.Description)
		lines = append(lines, b.String())
	}
	lines = append(lines, computerHelp())
	lines = append(lines, "game: is needed only when you have several games in a channel; moves may be typed as e4, Nf3, O-O, P@e4 or e2e4.")
	var msgs []string
	for _, l := range lines {
		if n := len(msgs); n > 0 && len(msgs[n-1])+1+len(l) <= maxReply {
			msgs[n-1] += "\n" + l
		} else {
			msgs = append(msgs, truncate(l, maxReply))
		}
	}
	return Reply{Text: msgs[0], More: msgs[1:], Ephemeral: true}
}

// defineGames defines /games.
func defineGames(catalogue) commandDef {
	return commandDef{Spec{Name: cmdGames, Description: "List your games, those where it is your turn first"}, (*Handler).games}
}

// defineHistory defines /history.
func defineHistory(catalogue) commandDef {
	return commandDef{Spec{Name: cmdHistory, Description: "List a game's moves", Options: []OptionSpec{gameOption(" (or to watch)")}}, (*Handler).history}
}

// defineExport defines /export.
func defineExport(catalogue) commandDef {
	return commandDef{Spec{Name: cmdExport, Description: "Export a game as a PGN file", Options: []OptionSpec{gameOption(" (or to watch)")}}, (*Handler).export}
}

// defineVariants defines /variants.
func defineVariants(catalogue) commandDef {
	return commandDef{Spec{Name: cmdVariants, Description: "List the variants with their board sizes and options"},
		func(h *Handler, _ context.Context, _ Request) (Reply, error) { return h.variants(), nil }}
}

// defineSettings defines /settings.
func defineSettings(catalogue) commandDef {
	return commandDef{Spec{Name: cmdSettings, Description: "Show or change where you are notified and when you are reminded", Options: []OptionSpec{
		{Name: optNotify, Description: "Where your notifications go: dm, channel or off", Kind: OptionString, Choices: choices("dm", "channel", "off")},
		{Name: optReminder, Description: "Remind when this % of a turn's time is left (0 = never, up to 99)", Kind: OptionInteger},
		digestOption(), utcOption(),
	}}, (*Handler).settings}
}

// defineHelp defines /help.
func defineHelp(catalogue) commandDef {
	return commandDef{Spec{Name: cmdHelp, Description: "What fairypost's commands do"},
		func(h *Handler, _ context.Context, _ Request) (Reply, error) { return h.help(), nil }}
}
