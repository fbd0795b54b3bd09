package discord

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/command"
)

// The command and options a deferred answer looks at to tell whether the
// move asked was played (the names of bot/command's specs).
const (
	moveCommand = "move"
	moveOption  = "move"
	gameOption  = "game"
)

// recordLimit bounds the recording of a deferred answer, which the
// deferral waits for (Discord wants it within 3 s of the interaction).
const recordLimit = 500 * time.Millisecond

// tokenLifetime is how long Discord accepts answers with an interaction's
// token.
const tokenLifetime = 15 * time.Minute

// recordDeferred records interaction i, just acknowledged as deferred,
// in Options.Deferred (nothing when unset), with what another process
// needs to answer it should this one die before it does: the token, and
// for a move the game and its plies. It returns the function to call
// once i is answered, which forgets the record. Failures are logged:
// the answer goes on without the record.
func (b *Bot) recordDeferred(ctx context.Context, i *discordgo.Interaction) (answered func()) {
	if b.opts.Deferred == nil || i.Token == "" {
		return func() {}
	}
	// The deferral waits for the record: bounded, so that a slow store
	// never makes it miss Discord's deadline.
	rctx, cancel := context.WithTimeout(ctx, recordLimit)
	defer cancel()
	created, err := discordgo.SnowflakeTimestamp(i.ID)
	if err != nil {
		created = time.Now()
	}
	a := bot.DeferredAnswer{InteractionID: i.ID, ApplicationID: i.AppID, Token: i.Token, Owner: b.opts.ProcessID,
		Request: "a button", Before: -1, Deferred: time.Now(), Expires: created.Add(tokenLifetime)}
	at := placeOf(i)
	a.UserID, a.ChannelID = at.UserID, at.ChannelID
	if a.ApplicationID == "" {
		a.ApplicationID = b.ApplicationID()
	}
	if i.Type == discordgo.InteractionApplicationCommand {
		req, _ := commandRequest(i)
		b.inThread(rctx, &req, "")
		a.Request = requestText(req)
		if req.Name == moveCommand {
			b.deferredMove(rctx, &a, req, created)
		}
	}
	if err := b.opts.Deferred.PutDeferred(rctx, a); err != nil {
		b.log.Warn("discord: recording a deferred answer failed", "interaction", i.ID, "err", err)
		return func() {}
	}
	return func() {
		// The answer is out: forget it even when the interaction's
		// context has ended.
		dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if err := b.opts.Deferred.DeleteDeferred(dctx, i.ID); err != nil {
			b.log.Warn("discord: forgetting a deferred answer failed", "interaction", i.ID, "err", err)
		}
	}
}

// deferredMove fills in a's game and the plies before its move: the game
// named by game: or the requester's only game in the channel, as read
// now (the move may be stored already). Before is the number of plies
// when the requester is to act; one less when it is no longer their turn
// because their move was stored since the interaction was created; -1
// otherwise (the request cannot play a move).
func (b *Bot) deferredMove(ctx context.Context, a *bot.DeferredAnswer, req command.Request, created time.Time) {
	a.Move = req.Options[moveOption]
	var g *bot.Game
	if id, err := strconv.ParseUint(req.Options[gameOption], 10, 64); err == nil && id != 0 {
		g, _ = b.svc.Views().Game(ctx, id)
	} else if games, err := b.svc.Views().ActiveGames(ctx, req.UserID); err == nil {
		var here []*bot.Game
		for _, g := range games {
			if g.ChannelID == req.ChannelID || (g.ThreadID != "" && g.ThreadID == req.ChannelID) {
				here = append(here, g)
			}
		}
		if len(here) == 1 {
			g = here[0]
		}
	}
	if g == nil || !g.IsPlayer(req.UserID) {
		return
	}
	a.GameID = g.ID
	switch {
	case g.ToAct == req.UserID:
		a.Before = len(g.Moves)
	case len(g.Moves) > 0 && !g.Updated.Before(created):
		a.Before = len(g.Moves) - 1
	}
}

// requestText is req as the user typed it: "/move move:e4 game:12".
func requestText(req command.Request) string {
	names := make([]string, 0, len(req.Options))
	for k := range req.Options {
		names = append(names, k)
	}
	sort.Strings(names)
	parts := []string{"/" + req.Name}
	for _, k := range names {
		parts = append(parts, k+":"+req.Options[k])
	}
	return truncate(strings.Join(parts, " "), 200)
}

// FinishDeferred answers the deferred interactions whose process is gone:
// those recorded in Options.Deferred by an owner that alive does not
// list (a process killed before it answered) and whose response still
// shows "thinking…" (one answered is left as it is). Each gets what the store
// says now: for a move, that it was played (with the game's board) or
// that it was not and to send it again; otherwise, to try again. A
// record is forgotten once answered, or once Discord no longer knows the
// interaction. It returns how many it answered; an error only when the
// records or the live processes could not be read.
func (b *Bot) FinishDeferred(ctx context.Context, alive func(context.Context) ([]string, error)) (int, error) {
	if b.opts.Deferred == nil {
		return 0, nil
	}
	as, err := b.opts.Deferred.DeferredAnswers(ctx, time.Now())
	if err != nil || len(as) == 0 {
		return 0, err
	}
	live, err := alive(ctx)
	if err != nil {
		return 0, err
	}
	grace := b.opts.FinishGrace
	if grace == 0 {
		grace = DefaultFinishGrace
	}
	n := 0
	for _, a := range as {
		if a.Owner == b.opts.ProcessID || slices.Contains(live, a.Owner) || time.Since(a.Deferred) < grace {
			continue // alive, or maybe just starting: not a candidate yet
		}
		ix := &discordgo.Interaction{ID: a.InteractionID, AppID: a.ApplicationID, Token: a.Token}
		// The owner may have answered and died before forgetting the
		// record: an answer given stays as it is.
		orig, err := b.s.InteractionResponse(ix, discordgo.WithContext(ctx))
		if err != nil && !permanent(err) {
			b.log.Warn("discord: reading a deferred answer failed; trying again later", "interaction", a.InteractionID, "err", err)
			continue
		}
		if err != nil || orig.Flags&discordgo.MessageFlagsLoading == 0 {
			// Answered already, or gone (deleted for an ephemeral
			// follow-up, or never acknowledged: the owner died first).
			if err := b.opts.Deferred.DeleteDeferred(ctx, a.InteractionID); err != nil {
				b.log.Warn("discord: forgetting a deferred answer failed", "interaction", a.InteractionID, "err", err)
			}
			continue
		}
		rep := b.deferredReply(ctx, a)
		err = b.sendShrinking(rep, func(rep command.Reply) error {
			_, err := b.s.InteractionResponseEdit(ix, webhookEdit(rep), discordgo.WithContext(ctx))
			return err
		})
		if err != nil && !permanent(err) {
			b.log.Warn("discord: finishing a deferred answer failed; trying again later", "interaction", a.InteractionID, "err", err)
			continue
		}
		if err != nil {
			b.log.Info("discord: a deferred answer cannot be finished", "interaction", a.InteractionID, "err", err)
		} else {
			n++
			b.log.Info("discord: deferred answer finished for a process gone", "interaction", a.InteractionID,
				"owner", a.Owner, "request", a.Request, "deferred", time.Since(a.Deferred).Round(time.Millisecond))
		}
		if err := b.opts.Deferred.DeleteDeferred(ctx, a.InteractionID); err != nil {
			b.log.Warn("discord: forgetting a deferred answer failed", "interaction", a.InteractionID, "err", err)
		}
	}
	return n, nil
}

// RunFinishDeferred calls FinishDeferred every period until ctx is done.
func (b *Bot) RunFinishDeferred(ctx context.Context, every time.Duration, alive func(context.Context) ([]string, error)) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if _, err := b.FinishDeferred(ctx, alive); err != nil && ctx.Err() == nil {
			b.log.Warn("discord: looking for deferred answers left by a process gone failed", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// restartedText starts every answer given for a process gone.
const restartedText = "The bot restarted while answering"

// deferredReply is the answer to a for a process gone, from the store.
func (b *Bot) deferredReply(ctx context.Context, a bot.DeferredAnswer) command.Reply {
	if a.GameID == 0 {
		return command.Reply{Text: fmt.Sprintf("%s your %s, so it may not have been carried out: please try again.", restartedText, a.Request)}
	}
	g, err := b.svc.Views().Game(ctx, a.GameID)
	if err != nil {
		return command.Reply{Text: fmt.Sprintf("%s your move %s in game #%d: please send it again.", restartedText, a.Move, a.GameID)}
	}
	played, move := bot.DeferredOutcome(a, g)
	if played {
		// In the notation players type, and only if it is theirs.
		if h, err := b.svc.Views().History(ctx, g.ID); err == nil && a.Before < len(h) {
			played = h[a.Before].UserID == a.UserID
			move = h[a.Before].SAN
		}
	}
	if !played {
		return command.Reply{Text: fmt.Sprintf("%s your move %s in game #%d, before it was played: it was not played. Please send it again.",
			restartedText, a.Move, a.GameID)}
	}
	rep := command.Reply{Text: fmt.Sprintf("%s your move in game #%d: it was played, **%s** (ply %d).", restartedText, a.GameID, move, a.Before+1)}
	// The board as it stands, as /board shows it to the player.
	board := b.h.Execute(ctx, command.Request{UserID: a.UserID, GuildID: g.GuildID, ChannelID: g.ChannelID, Name: "board",
		Options: map[string]string{gameOption: strconv.FormatUint(g.ID, 10)}})
	if !board.Ephemeral && len(board.Files) > 0 {
		rep.Files = board.Files
	}
	return rep
}
