package command

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
)

// challenge runs /challenge.
func (h *Handler) challenge(ctx context.Context, req Request) (Reply, error) {
	o := req.Options
	key, own, err := h.challengeVariant(ctx, req)
	if err != nil {
		return Reply{}, err
	}
	days, err := daysPerMove(o[optDays])
	if err != nil {
		return Reply{}, err
	}
	bank, err := bankDays(o[optBank])
	if err != nil {
		return Reply{}, err
	}
	color, err := bot.ParseColorChoice(o[optColor])
	if err != nil {
		return Reply{}, err
	}
	chooser, err := bot.ParseArmyChooser(o[optChooser])
	if err != nil {
		return Reply{}, err
	}
	rated, err := parseRated(o[optRated])
	if err != nil {
		return Reply{}, err
	}
	if own && o[optRated] == "yes" {
		return Reply{}, bot.Errorf(bot.EINVALID, "Games of a server's own variants are casual: they change no rating. Leave rated: out.")
	}
	rated = rated && !own
	opp := o[optOpponent]
	computer := opp != "" && h.svc.IsComputer(opp)
	level := 0
	switch {
	case o[optLevel] != "" && !computer:
		return Reply{}, bot.Errorf(bot.EINVALID, "level: is for a game against the bot itself: challenge it (opponent: the bot) to play it.")
	case o[optLevel] != "":
		if level, err = strconv.Atoi(o[optLevel]); err != nil {
			return Reply{}, bot.Errorf(bot.EINVALID, "level: choose 1 (weakest) to %d (strongest).", gameplay.MaxComputerLevel)
		}
	}
	if computer && o[optRated] == "yes" {
		return Reply{}, bot.Errorf(bot.EINVALID, "Games against the bot are casual: they change no rating. Leave rated: out.")
	}
	if facts := req.Users[opp]; opp != "" && facts.Bot && !computer {
		return Reply{}, bot.Errorf(bot.EINVALID, "%s is a bot and cannot play: challenge a person, or leave opponent: out to challenge anyone here.", mention(opp))
	} else if opp != "" && facts.NotMember {
		return Reply{}, bot.Errorf(bot.EINVALID, "%s is not a member of this server, so they could not see the game: challenge someone from here.", mention(opp))
	}
	if own {
		// A game of it may start from now on: its rules are locked.
		if err := h.defined.Lock(ctx, variantServer(req), o[optVariant]); err != nil {
			return Reply{}, err
		}
	}
	c, err := h.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{
		Challenger: req.UserID, Challenged: opp, GuildID: req.GuildID, ChannelID: req.ChannelID,
		Variant: key, Options: o[optOptions], DaysPerMove: days, BankDays: bank, Color: color, Chooser: chooser, Rated: rated,
		Level: level,
	})
	if err != nil {
		return Reply{}, err
	}
	if c.Status == bot.ChallengeAccepted { // the bot accepts at once
		return h.computerGameStarted(ctx, c)
	}
	who := "anyone here"
	var ping []string
	if !c.Open() {
		who = mention(c.Challenged)
		ping = []string{c.Challenged}
	}
	colour := "colours drawn at random"
	switch {
	case c.Chooser != 0:
		colour = choosersText(c)
	case c.Color != bot.ColorRandom:
		colour = fmt.Sprintf("%s plays %s", mention(c.Challenger), c.Color)
	}
	how := fmt.Sprintf("/accept challenge:%d", c.ID)
	if !c.Open() {
		how += fmt.Sprintf(" or /decline challenge:%d", c.ID)
	}
	text := fmt.Sprintf("%s challenges %s to %s, %s, %s, %s. Challenge #%d: answer with the buttons or %s.",
		mention(c.Challenger), who, h.variantName(c.Variant, c.Options), daysText(c.DaysPerMove)+bankText(c.BankDays), colour, ratedText(c), c.ID, how)
	return Reply{Text: text, Buttons: challengeButtons(c), Mention: ping}, nil
}

// choosersText says who makes which pre-game choice of challenge c (a
// variant with a pre-game choice).
func choosersText(c *bot.Challenge) string {
	challenged := "whoever accepts"
	if !c.Open() {
		challenged = mention(c.Challenged)
	}
	army, first := challenged, mention(c.Challenger)
	if c.Chooser == bot.ChooserChallenger {
		army, first = first, challenged
	}
	return fmt.Sprintf("from a random position: %s picks the army, then %s who moves first (the first mover plays White)", army, first)
}

// findChallenge returns the one challenge a user without a challenge:
// option means: the only pending challenge they may answer in this
// channel (made to them, or open, if the service lists open ones).
func (h *Handler) findChallenge(ctx context.Context, req Request, cmd string) (uint64, error) {
	list, err := h.svc.Challenges().PendingChallenges(ctx, req.UserID)
	if err != nil {
		return 0, err
	}
	var here []*bot.Challenge
	for _, c := range list {
		if c.ChannelID != req.ChannelID || c.Challenger == req.UserID || c.Status != bot.ChallengePending {
			continue
		}
		if cmd == cmdDecline && c.Open() {
			continue
		}
		here = append(here, c)
	}
	switch len(here) {
	case 1:
		return here[0].ID, nil
	case 0:
		return 0, bot.Errorf(bot.EINVALID, "No challenge to you is waiting in this channel. For an open challenge or one made elsewhere, give challenge:ID (or use the challenge's buttons).")
	}
	ids := make([]string, 0, len(here))
	for _, c := range here {
		ids = append(ids, fmt.Sprintf("#%d (%s from %s)", c.ID, h.variantName(c.Variant, c.Options), mention(c.Challenger)))
	}
	return 0, bot.Errorf(bot.EINVALID, "%s", truncate(fmt.Sprintf("Several challenges are waiting for you here: %s. Add challenge:ID to say which.",
		strings.Join(ids, ", ")), maxReply))
}

// accept accepts challenge id for the user of at, from where at was
// made, and shows the new game.
func (h *Handler) accept(ctx context.Context, at Request, id, version uint64) (Reply, error) {
	userID := at.UserID
	g, err := h.svc.Challenges().Accept(ctx, id, version, userID, at.where())
	if err != nil {
		return Reply{}, err
	}
	head := fmt.Sprintf("%s accepted challenge #%d.\n%s", mention(userID), id, h.header(g))
	if g.Status == bot.GameSetup {
		return h.setupReply(g, head)
	}
	rg, err := h.replay(g)
	if err != nil {
		return Reply{}, err
	}
	return h.boardReply(g, rg, head+"\n"+orientationLine+"\n"+turnText(g, rg))
}

// setupReply asks for the next pre-game choice of g, with its buttons,
// showing the drawn position (White at the bottom) when it can be drawn.
func (h *Handler) setupReply(g *bot.Game, head string) (Reply, error) {
	s := g.Setup
	if s == nil {
		return Reply{}, fmt.Errorf("game %d: setup status without setup", g.ID)
	}
	var who, ask string
	if s.Army == "" {
		who = s.ArmyPicker()
		ask = fmt.Sprintf("Game #%d starts from the random position shown. %s, choose the army you play: White (at the bottom of the picture) "+
			"or Black (at the top), with the buttons or /choose choice:white or choice:black. Then %s chooses who moves first; "+
			"the first mover plays White, so if the Black army moves first the board is turned round.",
			g.ID, mention(who), mention(s.FirstPicker()))
	} else {
		who = s.FirstPicker()
		ask = fmt.Sprintf("%s, choose who moves first in game #%d, with the buttons or /choose choice:me or choice:opponent. "+
			"The first mover plays White: if that is the army shown as Black, the board is turned round and the colours swap.",
			mention(who), g.ID)
	}
	rep := Reply{Text: head + "\n" + ask, GameID: g.ID, Game: g, Mention: []string{who}, Buttons: choiceButtons(g)}
	if f, err := h.setupPNG(g); err == nil {
		rep.Files = []File{f}
	}
	return rep, nil
}

// setupPNG draws the drawn position of g, in its pre-game choice, with
// White at the bottom (the colours the choice speaks of).
func (h *Handler) setupPNG(g *bot.Game) (File, error) {
	rg, err := h.replay(g)
	if err != nil {
		return File{}, err
	}
	return h.boardPNG(g, rg, "")
}

// decline declines challenge id.
func (h *Handler) decline(ctx context.Context, userID string, id, version uint64) (Reply, error) {
	c, err := h.svc.Challenges().Decline(ctx, id, version, userID)
	if err != nil {
		return Reply{}, err
	}
	return Reply{Text: fmt.Sprintf("%s declined challenge #%d from %s (%s).", mention(userID), c.ID, mention(c.Challenger),
		h.variantName(c.Variant, c.Options)), Mention: []string{c.Challenger}}, nil
}

// cancel withdraws challenge id.
func (h *Handler) cancel(ctx context.Context, userID string, id, version uint64) (Reply, error) {
	c, err := h.svc.Challenges().Cancel(ctx, id, version, userID)
	if err != nil {
		return Reply{}, err
	}
	return Reply{Text: fmt.Sprintf("%s withdrew challenge #%d (%s).", mention(userID), c.ID, h.variantName(c.Variant, c.Options))}, nil
}

// computerGameStarted shows the game the computer player started by
// accepting challenge c at once: the board (or its pre-game choice), and
// that it answers in seconds.
func (h *Handler) computerGameStarted(ctx context.Context, c *bot.Challenge) (Reply, error) {
	g, err := h.svc.Views().Game(ctx, c.ID)
	if err != nil {
		return Reply{}, err
	}
	head := fmt.Sprintf("%s accepted challenge #%d at once: a casual game at level %d; it answers each move within seconds.\n%s",
		mention(c.Challenged), c.ID, c.Level, h.header(g))
	if g.Status == bot.GameSetup {
		return h.setupReply(g, head)
	}
	rg, err := h.replay(g)
	if err != nil {
		return Reply{}, err
	}
	return h.boardReply(g, rg, head+"\n"+orientationLine+"\n"+turnText(g, rg))
}

// daysPerMove reads a days: option: defaultDays when not given, else one
// of the allowed days per move (bot.ValidDaysPerMove; 0: no time limit).
func daysPerMove(s string) (int, error) {
	if s == "" {
		return defaultDays, nil
	}
	d, err := strconv.Atoi(s)
	if err != nil || !bot.ValidDaysPerMove(d) {
		return 0, bot.Errorf(bot.EINVALID, "days: choose 1, 2, 3, 5, 7, 14, or 0 for no time limit.")
	}
	return d, nil
}

// defineChallenge defines /challenge.
func defineChallenge(c catalogue) commandDef {
	return commandDef{Spec{Name: cmdChallenge, Description: "Challenge someone (or anyone here) to a game", ServerOnly: true, Options: []OptionSpec{
		{Name: optVariant, Description: "The variant to play (see /variants, and /variant action:list for this server's own)", Kind: OptionString, Required: true, Autocomplete: true, MaxLength: 64},
		{Name: optOpponent, Description: "Who you challenge; leave out to challenge anyone in this channel", Kind: OptionUser},
		{Name: optOptions, Description: "Variant options as key=value,key=value (see /variants)", Kind: OptionString},
		{Name: optDays, Description: "Days per move (default 3)", Kind: OptionInteger, Choices: c.days},
		bankOption(),
		{Name: optColor, Description: "Your colour (default random; not for Crazyhouse Annihilation)", Kind: OptionString,
			Choices: choices("white", "black", "random")},
		{Name: optChooser, Description: "Crazyhouse Annihilation: who picks the army (default: the challenged player)", Kind: OptionString,
			Choices: choices("challenged", "challenger")},
		{Name: optRated, Description: "Whether the game changes your ratings (default yes; games against the bot are casual)", Kind: OptionString, Choices: choices("yes", "no")},
		{Name: optLevel, Description: "Against the bot (opponent: the bot itself): 1 weakest to 9 strongest (2 s a move); default 4", Kind: OptionInteger,
			Choices: levelChoices()},
	}}, (*Handler).challenge}
}

// challengeOption is the challenge:ID option of /accept and /decline.
func challengeOption() OptionSpec {
	return OptionSpec{Name: optChallenge, Kind: OptionInteger, Autocomplete: true,
		Description: "The challenge's ID: needed only when several are waiting for you here"}
}

// defineAccept defines /accept.
func defineAccept(catalogue) commandDef {
	return commandDef{Spec{Name: cmdAccept, Description: "Accept a challenge", Options: []OptionSpec{challengeOption()}}, answerChallenge(cmdAccept)}
}

// defineDecline defines /decline.
func defineDecline(catalogue) commandDef {
	return commandDef{Spec{Name: cmdDecline, Description: "Decline a challenge made to you", Options: []OptionSpec{challengeOption()}}, answerChallenge(cmdDecline)}
}

// defineCancel defines /cancel.
func defineCancel(catalogue) commandDef {
	return commandDef{Spec{Name: cmdCancel, Description: "Withdraw a challenge you made", Options: []OptionSpec{
		{Name: optChallenge, Kind: OptionInteger, Required: true, Description: "The challenge's ID (shown when you made it)"}}}, answerChallenge(cmdCancel)}
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

// challengeVariant returns the registry key of the variant req
// challenges with: one of fairypost's by its key, or else one this
// server defined by its name (own; challenge locks it just before the
// challenge is made). Unknown names are EINVALID.
func (h *Handler) challengeVariant(ctx context.Context, req Request) (key string, own bool, err error) {
	name := req.Options[optVariant]
	if slices.Contains(h.svc.Rules().Keys(), name) {
		return name, false, nil
	}
	if h.defined != nil {
		key, found, err := h.defined.Find(ctx, variantServer(req), name)
		if err != nil || found {
			return key, found, err
		}
	}
	return "", false, bot.Errorf(bot.EINVALID, "Unknown variant %q: /variants lists fairypost's, /variant action:list this server's own.", truncate(name, 40))
}
