package command

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/tournaments"
	"github.com/fairypost/fairypost/render"
	"github.com/fairypost/fairypost/tournament"
)

// The /tournament command.
const (
	cmdTournament = "tournament"
	optSystem     = "system"
	optRounds     = "rounds"
	optID         = "id"
	optPlayer     = "player"
	optStart      = "start"

	// startLayout is how start: is written (UTC).
	startLayout = "2006-01-02 15:04"

	// actTournamentJoin is the button that joins a tournament; its
	// version field is always 1 (anyone may join whatever changed).
	actTournamentJoin = "tjoin"
)

// defineTournament defines /tournament.
func defineTournament(c catalogue) commandDef {
	return commandDef{Spec{Name: cmdTournament, Description: "Create, join, start or follow a correspondence tournament", ServerOnly: true,
		Options: []OptionSpec{
			{Name: optAction, Description: "create, join, leave, start, standings; the organiser: pause, resume, remove, cancel",
				Kind: OptionString, Required: true,
				Choices: choices("create", "join", "leave", "start", "standings", "pause", "resume", "remove", "cancel")},
			{Name: optID, Description: "The tournament's ID: needed only when this channel has several", Kind: OptionInteger},
			{Name: optPlayer, Description: "remove: the player the organiser takes out", Kind: OptionUser},
			{Name: optVariant, Description: "create: the variant", Kind: OptionString, Choices: c.variants},
			{Name: optOptions, Description: "create: variant options as key=value,key=value", Kind: OptionString},
			{Name: optSystem, Description: "create: round-robin (default: everyone meets everyone) or swiss", Kind: OptionString,
				Choices: choices("round-robin", "swiss")},
			{Name: optRounds, Description: "create: the number of rounds of a Swiss", Kind: OptionInteger},
			{Name: optDays, Description: "create: days per move (default 3)", Kind: OptionInteger, Choices: c.days},
			{Name: optRated, Description: "create: whether the games change ratings (default yes)", Kind: OptionString, Choices: choices("yes", "no")},
			{Name: optStart, Description: "create: when it starts by itself, as 2026-03-05 18:00 (UTC); default: when the organiser starts it",
				Kind: OptionString},
		}}, (*Handler).tournamentCommand}
}

// tournamentCommand runs /tournament.
func (h *Handler) tournamentCommand(ctx context.Context, req Request) (Reply, error) {
	o := req.Options
	if o[optAction] == "create" {
		return h.createTournament(ctx, req)
	}
	for _, name := range []string{optVariant, optOptions, optSystem, optRounds, optDays, optRated, optStart} {
		if o[name] != "" {
			return Reply{}, bot.Errorf(bot.EINVALID, "%s: is for action:create only.", name)
		}
	}
	if (o[optPlayer] != "") != (o[optAction] == "remove") {
		return Reply{}, bot.Errorf(bot.EINVALID, "action:remove needs player:, the player to take out (and player: is for remove only).")
	}
	id, err := parseID(optID, o[optID])
	if err != nil {
		return Reply{}, err
	}
	if id == 0 {
		if id, err = h.findTournament(ctx, req, o[optAction]); err != nil {
			return Reply{}, err
		}
	}
	// A server manager acts for the organiser.
	actor := req.UserID
	if req.Manager && o[optAction] != "join" && o[optAction] != "leave" {
		if t, err := h.tours.Get(ctx, id); err == nil && t.GuildID == req.GuildID {
			actor = t.Organizer
		}
	}
	var t *bot.Tournament
	switch o[optAction] {
	case "join":
		t, err = h.tours.Join(ctx, id, req.UserID, req.GuildID)
		if err != nil {
			return Reply{}, err
		}
		return Reply{Text: fmt.Sprintf("%s joins tournament #%d: %s so far (%s).", mention(req.UserID), t.ID,
			counted(len(t.Event.Players), "player"), mentionList(t.Event.Players))}, nil
	case "leave":
		if t, err = h.tours.Leave(ctx, id, req.UserID, req.GuildID); err != nil {
			return Reply{}, err
		}
		if t.Event.Status == tournament.Open {
			return Reply{Text: fmt.Sprintf("%s left tournament #%d before its start.", mention(req.UserID), t.ID)}, nil
		}
		return Reply{Text: fmt.Sprintf("%s left tournament #%d: their games without a result are lost by forfeit, and they are not paired again.", mention(req.UserID), t.ID)}, nil
	case "start":
		if t, err = h.tours.Start(ctx, id, actor, req.GuildID); err != nil {
			return Reply{}, err
		}
		return Reply{Text: fmt.Sprintf("Tournament #%d has started: %s, %d players (seeded %s), %d %s. Each game has its thread; /games lists yours.",
			t.ID, t.Event.Kind, len(t.Event.Players), mentionList(t.Event.Players), len(t.Games), plural(len(t.Games), "game", "games"))}, nil
	case "remove":
		if t, err = h.tours.Remove(ctx, id, actor, o[optPlayer], req.GuildID); err != nil {
			return Reply{}, err
		}
		return Reply{Text: fmt.Sprintf("%s took %s out of tournament #%d: their games without a result are lost by forfeit.",
			mention(req.UserID), mention(o[optPlayer]), t.ID)}, nil
	case "pause":
		if t, err = h.tours.Pause(ctx, id, actor, req.GuildID); err != nil {
			return Reply{}, err
		}
		return Reply{Text: fmt.Sprintf("Tournament #%d is paused: games go on, but no new round starts until it resumes.", t.ID)}, nil
	case "resume":
		if t, err = h.tours.Resume(ctx, id, actor, req.GuildID); err != nil {
			return Reply{}, err
		}
		return Reply{Text: fmt.Sprintf("Tournament #%d goes on (%s).", t.ID, t.Event.Status)}, nil
	case "cancel":
		if t, err = h.tours.Cancel(ctx, id, actor, req.GuildID); err != nil {
			return Reply{}, err
		}
		return Reply{Text: fmt.Sprintf("Tournament #%d is cancelled. Its games being played may go on, but count for nothing in it.", t.ID)}, nil
	case "standings":
		return h.standings(ctx, req, id)
	}
	return Reply{}, bot.Errorf(bot.EINVALID, "action: choose create, join, leave, start, standings, pause, resume, remove or cancel.")
}

// plural returns one or many by n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// mentionList lists users as mentions.
func mentionList(users []string) string {
	out := make([]string, len(users))
	for i, u := range users {
		out[i] = mention(u)
	}
	return strings.Join(out, ", ")
}

// findTournament returns the one tournament of req's channel that action
// can be about: open ones for join and start, those not over for leave
// and cancel, any for standings (the latest).
func (h *Handler) findTournament(ctx context.Context, req Request, action string) (uint64, error) {
	list, err := h.tours.InChannel(ctx, req.ChannelID)
	if err != nil {
		return 0, err
	}
	var ids []uint64
	for _, t := range list {
		if t.GuildID != req.GuildID {
			continue
		}
		st := t.Event.Status
		switch action {
		case "join", "start":
			if st != tournament.Open {
				continue
			}
		case "leave", "cancel", "remove", "pause":
			if st == tournament.Finished || st == tournament.Cancelled {
				continue
			}
		case "resume":
			if st != tournament.Paused {
				continue
			}
		}
		ids = append(ids, t.ID)
	}
	switch {
	case len(ids) == 0:
		return 0, bot.Errorf(bot.EINVALID, "No tournament in this channel fits: /tournament action:create makes one, or give id:.")
	case len(ids) > 1 && action != "standings":
		s := make([]string, len(ids))
		for i, id := range ids {
			s[i] = "#" + strconv.FormatUint(id, 10)
		}
		return 0, bot.Errorf(bot.EINVALID, "Several tournaments here fit (%s): add id: to say which.", strings.Join(s, ", "))
	}
	return ids[len(ids)-1], nil
}

// createTournament runs /tournament action:create.
func (h *Handler) createTournament(ctx context.Context, req Request) (Reply, error) {
	o := req.Options
	if o[optVariant] == "" {
		return Reply{}, bot.Errorf(bot.EINVALID, "/tournament action:create needs variant:.")
	}
	days, err := daysPerMove(o[optDays])
	if err != nil {
		return Reply{}, err
	}
	rated, err := parseRated(o[optRated])
	if err != nil {
		return Reply{}, err
	}
	kind, rounds := tournament.RoundRobinKind, 0
	switch o[optSystem] {
	case "", "round-robin":
		if o[optRounds] != "" {
			return Reply{}, bot.Errorf(bot.EINVALID, "rounds: is for a Swiss; a round-robin has as many rounds as it takes for everyone to meet everyone.")
		}
	case "swiss":
		kind = tournament.SwissKind
		n, err := strconv.Atoi(o[optRounds])
		if err != nil || n < 1 || n > 20 {
			return Reply{}, bot.Errorf(bot.EINVALID, "rounds: a Swiss needs a number of rounds from 1 to 20.")
		}
		rounds = n
	default:
		return Reply{}, bot.Errorf(bot.EINVALID, "system: choose round-robin or swiss.")
	}
	var startAt time.Time
	if s := strings.TrimSpace(o[optStart]); s != "" {
		at, err := time.Parse(startLayout, strings.TrimSuffix(s, " UTC"))
		if err != nil {
			return Reply{}, bot.Errorf(bot.EINVALID, "start: write the date and time in UTC as %s, not %q.", startLayout, truncate(s, 40))
		}
		startAt = at
	}
	t, err := h.tours.Create(ctx, tournaments.Request{Organizer: req.UserID, GuildID: req.GuildID, ChannelID: req.ChannelID,
		Variant: o[optVariant], Options: o[optOptions], DaysPerMove: days, Kind: kind, Rounds: rounds, Rated: rated, StartAt: startAt})
	if err != nil {
		return Reply{}, err
	}
	system := "round-robin (everyone plays everyone, all rounds at once)"
	if kind == tournament.SwissKind {
		system = fmt.Sprintf("Swiss of %d %s (each round paired when the last is over)", rounds, plural(rounds, "round", "rounds"))
	}
	ratedWord := "rated"
	if !rated {
		ratedWord = "casual (not rated)"
	}
	starts := fmt.Sprintf("%s starts it with /tournament action:start", mention(req.UserID))
	if !t.StartAt.IsZero() {
		starts = fmt.Sprintf("it starts by itself on %s UTC (%s may start it earlier)", t.StartAt.UTC().Format(startLayout), mention(req.UserID))
	}
	text := fmt.Sprintf("%s opens tournament #%d: %s, %s, %s, %s. Join with the button or /tournament action:join; %s.",
		mention(req.UserID), t.ID, h.variantName(t.Variant, t.Options), system, daysText(days), ratedWord, starts)
	return Reply{Text: text, Buttons: []Button{{Label: "Join", CustomID: customID(actTournamentJoin, t.ID, 1), Style: ButtonSuccess}}}, nil
}

// pressJoin answers the Join button of tournament id.
func (h *Handler) pressJoin(ctx context.Context, at Request, id uint64) (Reply, error) {
	if at.DM {
		return Reply{}, bot.Errorf(bot.EINVALID, "Join tournaments from their server's channel.")
	}
	req := at
	req.Options = map[string]string{optAction: "join", optID: strconv.FormatUint(id, 10)}
	return h.tournamentCommand(ctx, req)
}

// standings runs /tournament action:standings: the crosstable as an
// image and as text, and once the event is over the PGN of every game.
func (h *Handler) standings(ctx context.Context, req Request, id uint64) (Reply, error) {
	t, err := h.tours.Sync(ctx, id)
	if bot.ErrorCode(err) == bot.ENOTFOUND || (err == nil && t.GuildID != req.GuildID) {
		return Reply{}, bot.Errorf(bot.ENOTFOUND, "There is no tournament %d.", id)
	}
	if err != nil {
		return Reply{}, err
	}
	return h.crosstable(ctx, req, t)
}

// tournamentNotification adds to the announcement n of a tournament's
// end its final crosstable and the PGN of every game.
func (h *Handler) tournamentNotification(ctx context.Context, n bot.Notification, rep Reply) Reply {
	if n.TournamentID == 0 {
		return rep
	}
	t, err := h.tours.Get(ctx, n.TournamentID)
	if err != nil {
		h.log.Warn("command: notification without its tournament", "notification", n.ID, "tournament", n.TournamentID, "err", err)
		return rep
	}
	if t.Event.Status != tournament.Finished {
		return rep
	}
	full, err := h.crosstable(ctx, Request{GuildID: t.GuildID, ChannelID: t.ChannelID}, t)
	if err != nil {
		h.log.Error("command: tournament notification", "tournament", t.ID, "err", err)
		return rep
	}
	rep.Files = full.Files
	return rep
}

// crosstable shows tournament t's standings: the crosstable as an image
// and as text, and once the event is over the PGN of every game.
func (h *Handler) crosstable(ctx context.Context, req Request, t *bot.Tournament) (Reply, error) {
	ct, err := t.Event.Crosstable()
	if err != nil {
		return Reply{}, fmt.Errorf("tournament %d: %w", t.ID, err)
	}
	title := fmt.Sprintf("Tournament #%d · %s · %s", t.ID, h.variantName(t.Variant, t.Options), t.Event.Kind)
	short := map[string]string{"Sonneborn-Berger": "SB", "Buchholz cut-1": "BhC1", "Buchholz": "Bh", "Wins": "W"}
	var abbrevs []string
	for _, tb := range ct.Tiebreaks {
		abbrevs = append(abbrevs, short[tb])
	}
	sub := fmt.Sprintf("%s · %d of %s paired · tiebreaks in order: %s", t.Event.Status, len(t.Event.Schedule), counted(t.Event.Rounds, "round"),
		strings.Join(abbrevs, ", "))
	if t.Event.Status == tournament.Open {
		sub = fmt.Sprintf("open: %d joined so far", len(t.Event.Players))
	}
	table := render.Table{Title: title, Subtitle: sub, Empty: "Nobody has joined yet."}
	table.Columns = append(table.Columns, render.Column{Heading: "#", Right: true}, render.Column{Heading: "Player", Fill: true})
	for _, c := range ct.Columns {
		table.Columns = append(table.Columns, render.Column{Heading: c, Right: true})
	}
	table.Columns = append(table.Columns, render.Column{Heading: "Pts", Right: true})
	for _, a := range abbrevs {
		table.Columns = append(table.Columns, render.Column{Heading: a, Right: true})
	}
	wide := len(table.Columns) > render.MaxTableColumns
	if wide {
		// Too many to draw: the cells stay in the text only.
		table.Columns = append(table.Columns[:2], table.Columns[2+len(ct.Columns):]...)
	}
	for _, r := range ct.Rows {
		cells := []string{strconv.Itoa(r.Rank), h.displayName(ctx, req, r.ID)}
		if !wide {
			for _, c := range r.Cells {
				cells = append(cells, c.Text)
			}
		}
		cells = append(cells, tournament.FormatPoints(r.Points))
		for _, x := range r.Tiebreaks {
			cells = append(cells, tournament.FormatPoints(x))
		}
		table.Rows = append(table.Rows, render.TableRow{Cells: cells, Highlight: r.ID == req.UserID})
	}
	width := min(render.MaxSize, max(imageWidth, 300+70*len(table.Columns)))
	var buf bytes.Buffer
	if err := h.renderer.TablePNG(&buf, table, width); err != nil {
		return Reply{}, fmt.Errorf("crosstable image: %w", err)
	}
	sub = strings.Replace(sub, strings.Join(abbrevs, ", "), strings.Join(ct.Tiebreaks, ", "), 1)
	text := fmt.Sprintf("**%s** (%s)\n%s", title, sub, ct.Text(func(id string) string { return mention(id) }))
	rep := Reply{Text: text, Files: []File{{Name: fmt.Sprintf("tournament-%d.png", t.ID), Data: buf.Bytes()}}}
	if t.Event.Status == tournament.Finished {
		pgn, err := h.tours.PGN(ctx, t.ID)
		if err != nil {
			return Reply{}, err
		}
		rep.Files = append(rep.Files, File{Name: fmt.Sprintf("tournament-%d.pgn", t.ID), Data: []byte(pgn)})
	}
	return rep, nil
}
