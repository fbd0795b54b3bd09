package command

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/fairypost/fairypost/bot"
)

// challenge runs /challenge.
func (h *Handler) challenge(ctx context.Context, req Request) (Reply, error) {
	o := req.Options
	key := o[optVariant]
	if h.svc.Rules().Default(key) == nil {
		return Reply{}, bot.Errorf(bot.EINVALID, "Unknown variant %q: /variants lists them.", truncate(key, 40))
	}
	days := defaultDays
	if s := o[optDays]; s != "" {
		d, err := strconv.Atoi(s)
		if err != nil || !bot.ValidDaysPerMove(d) {
			return Reply{}, bot.Errorf(bot.EINVALID, "days: choose 1, 2, 3, 5, 7, 14, or 0 for no time limit.")
		}
		days = d
	}
	color, err := bot.ParseColorChoice(o[optColor])
	if err != nil {
		return Reply{}, err
	}
	opp := o[optOpponent]
	c, err := h.svc.Challenge(ctx, bot.ChallengeRequest{
		Challenger: req.UserID, Challenged: opp, GuildID: req.GuildID, ChannelID: req.ChannelID,
		Variant: key, Options: o[optOptions], DaysPerMove: days, Color: color,
	})
	if err != nil {
		return Reply{}, err
	}
	who := "anyone here"
	var ping []string
	if !c.Open() {
		who = mention(c.Challenged)
		ping = []string{c.Challenged}
	}
	colour := "colours drawn at random"
	if c.Color != bot.ColorRandom {
		colour = fmt.Sprintf("%s plays %s", mention(c.Challenger), c.Color)
	}
	how := fmt.Sprintf("/accept challenge:%d", c.ID)
	if !c.Open() {
		how += fmt.Sprintf(" or /decline challenge:%d", c.ID)
	}
	text := fmt.Sprintf("%s challenges %s to %s, %s, %s. Challenge #%d: answer with the buttons or %s.",
		mention(c.Challenger), who, h.variantName(c.Variant, c.Options), daysText(c.DaysPerMove), colour, c.ID, how)
	return Reply{Text: text, Buttons: challengeButtons(c), Mention: ping}, nil
}

// findChallenge returns the one challenge a user without a challenge:
// option means: the only pending challenge they may answer in this
// channel (made to them, or open, if the service lists open ones).
func (h *Handler) findChallenge(ctx context.Context, req Request, cmd string) (uint64, error) {
	list, err := h.svc.PendingChallenges(ctx, req.UserID)
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
		ids = append(ids, fmt.Sprintf("#%d (%s from %s)", c.ID, c.Variant, mention(c.Challenger)))
	}
	return 0, bot.Errorf(bot.EINVALID, "%s", truncate(fmt.Sprintf("Several challenges are waiting for you here: %s. Add challenge:ID to say which.",
		strings.Join(ids, ", ")), maxReply))
}

// accept accepts challenge id and shows the new game.
func (h *Handler) accept(ctx context.Context, userID string, id, version uint64) (Reply, error) {
	g, err := h.svc.Accept(ctx, id, version, userID)
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
	return h.boardReply(g, rg, head+"\n"+orientationNote+"\n"+turnText(g, rg))
}

// setupReply asks for the next pre-game choice of g, showing the drawn
// position when it can be drawn.
func (h *Handler) setupReply(g *bot.Game, head string) (Reply, error) {
	s := g.Setup
	if s == nil {
		return Reply{}, fmt.Errorf("game %d: setup status without setup", g.ID)
	}
	var who, ask string
	if s.Army == "" {
		who = s.Challenged
		ask = fmt.Sprintf("%s, choose the army you play in game #%d: /choose choice:white or /choose choice:black (as the armies stand in the picture).", mention(who), g.ID)
	} else {
		who = s.Challenger
		ask = fmt.Sprintf("%s, choose who moves first in game #%d: /choose choice:me or /choose choice:opponent.", mention(who), g.ID)
	}
	rep := Reply{Text: head + "\n" + ask, GameID: g.ID, Mention: []string{who}}
	if rg, err := h.replay(g); err == nil {
		if f, err := h.boardPNG(g, rg, ""); err == nil {
			rep.Files = []File{f}
		}
	}
	return rep, nil
}

// decline declines challenge id.
func (h *Handler) decline(ctx context.Context, userID string, id, version uint64) (Reply, error) {
	c, err := h.svc.Decline(ctx, id, version, userID)
	if err != nil {
		return Reply{}, err
	}
	return Reply{Text: fmt.Sprintf("%s declined challenge #%d from %s (%s).", mention(userID), c.ID, mention(c.Challenger),
		h.variantName(c.Variant, c.Options)), Mention: []string{c.Challenger}}, nil
}

// cancel withdraws challenge id.
func (h *Handler) cancel(ctx context.Context, userID string, id, version uint64) (Reply, error) {
	c, err := h.svc.Cancel(ctx, id, version, userID)
	if err != nil {
		return Reply{}, err
	}
	return Reply{Text: fmt.Sprintf("%s withdrew challenge #%d (%s).", mention(userID), c.ID, h.variantName(c.Variant, c.Options))}, nil
}
