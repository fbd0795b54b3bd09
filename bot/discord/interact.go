package discord

import (
	"context"
	"errors"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/fairypost/fairypost/bot/command"
)

// restartingText answers interactions that arrive while the bot stops.
const restartingText = "The bot is restarting: please try again in a minute."

// onInteraction routes an interaction. discordgo calls it in its own
// goroutine, so interactions run concurrently.
func (b *Bot) onInteraction(s *discordgo.Session, ic *discordgo.InteractionCreate) {
	if ic == nil || ic.Interaction == nil {
		return
	}
	i := ic.Interaction
	if !b.enter() {
		if i.Type == discordgo.InteractionApplicationCommand || i.Type == discordgo.InteractionMessageComponent {
			b.answer(i, command.Reply{Text: restartingText, Ephemeral: true})
		}
		return
	}
	defer b.inflight.Done()
	defer func() {
		if v := recover(); v != nil {
			b.log.Error("discord: panic handling an interaction", "panic", v, "stack", string(debug.Stack()))
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), interactionLifetime)
	defer cancel()
	start := time.Now()
	switch i.Type {
	case discordgo.InteractionApplicationCommand:
		req, _ := commandRequest(i)
		b.inThread(ctx, &req, "")
		b.log.Debug("discord: command", "name", req.Name, "user", req.UserID, "channel", req.ChannelID)
		b.serve(ctx, i, func(ctx context.Context) command.Reply {
			if err := b.fetchAttachments(ctx, &req); err != nil {
				return command.Reply{Text: err.Error(), Ephemeral: true}
			}
			return b.h.Execute(ctx, req)
		})
		b.log.Info("discord: command answered", "name", req.Name, "user", req.UserID, "took", time.Since(start))
	case discordgo.InteractionApplicationCommandAutocomplete:
		req, focused := commandRequest(i)
		b.inThread(ctx, &req, focused)
		cs := b.h.Complete(ctx, req, focused)
		err := b.respond(ctx, i, &discordgo.InteractionResponse{
			Type: discordgo.InteractionApplicationCommandAutocompleteResult,
			Data: &discordgo.InteractionResponseData{Choices: choices(cs)},
		})
		if err != nil {
			b.log.Warn("discord: autocomplete answer failed", "name", req.Name, "err", err)
		}
	case discordgo.InteractionMessageComponent:
		data := i.MessageComponentData()
		at := placeOf(i)
		user := at.UserID
		b.log.Debug("discord: button", "custom_id", data.CustomID, "user", user)
		b.serve(ctx, i, func(ctx context.Context) command.Reply {
			return b.h.Press(ctx, at, data.CustomID)
		})
		b.log.Info("discord: button answered", "custom_id", data.CustomID, "user", user, "took", time.Since(start))
	default:
		b.log.Debug("discord: interaction type not handled", "type", i.Type.String())
	}
}

// busyText answers interactions beyond what the bot can take on now.
const busyText = "The bot is busy right now: please try again in a moment."

// serve runs work and answers interaction i exactly once: directly when
// work finishes within Options.DeferAfter of the interaction's creation,
// otherwise with a deferred acknowledgement at that time followed by an
// edit of the original response (or, for an ephemeral reply, by deleting
// the public placeholder and sending the reply as an ephemeral
// follow-up). Rendering a board takes milliseconds, so nothing is
// deferred in advance: the timer alone decides, and a slow disk or a busy
// machine is covered too. The timer runs in this goroutine, apart from
// the work, so the acknowledgement never waits for it.
//
// The work runs on one of Options.Workers workers. When none is free, i
// is acknowledged as deferred at once and waits for one; when
// Options.QueueLimit interactions wait already, it is answered at once
// with busyText (ephemeral) and work does not run. Acknowledgements go
// through b.acks, ahead of work (a worker starts only when none is
// pending); when Discord refuses one as too late, work that has not
// started does not.
//
// A reply with a GameID is also posted into the game's thread (see
// publish). The computer player is woken by the work's changes only once
// the answer is out (gameplay.Service.HoldComputer).
func (b *Bot) serve(ctx context.Context, i *discordgo.Interaction, work func(context.Context) command.Reply) {
	arrived := time.Now()
	wait := deferDelay(i, b.opts.DeferAfter, arrived)
	queued := false
	if !b.work.tryAcquire() {
		if !b.work.enqueue() {
			b.log.Warn("discord: too many interactions waiting; answered busy", "interaction", i.ID)
			if err := b.acks.send(arrived, func() error {
				b.answer(i, command.Reply{Text: busyText, Ephemeral: true})
				return nil
			}); err != nil {
				b.log.Warn("discord: busy answer not sent", "interaction", i.ID, "err", err)
			}
			return
		}
		queued, wait = true, 0
	}
	workCtx, cancelWork := context.WithCancel(ctx)
	defer cancelWork()
	// The computer player answers a move once the move's reply is out
	// (and posted in the game's thread), so its own post comes after.
	workCtx, releaseComputer := b.svc.HoldComputer(workCtx)
	defer releaseComputer()
	done := make(chan command.Reply, 1)
	go func() {
		// Work that can no longer be answered (the deferral came too late,
		// or the interaction outlived its token) does not start.
		if queued && !b.work.acquire(workCtx) {
			done <- command.Reply{Text: busyText, Ephemeral: true}
			return
		}
		defer b.work.release()
		b.acks.waitIdle()
		if workCtx.Err() != nil {
			done <- command.Reply{Text: busyText, Ephemeral: true}
			return
		}
		defer func() {
			if v := recover(); v != nil {
				b.log.Error("discord: panic in a command", "panic", v, "stack", string(debug.Stack()))
				done <- command.Reply{Text: "Internal error: something went wrong on our side. Please try again later.", Ephemeral: true}
			}
		}()
		rep := work(workCtx)
		if b.opts.Poke != nil {
			b.opts.Poke()
		}
		done <- rep
	}()

	timer := time.NewTimer(wait)
	select {
	case rep := <-done:
		timer.Stop()
		b.answer(i, rep)
		b.more(ctx, i, rep)
		b.publish(ctx, i, rep)
		b.later(i, rep)
		return
	case <-timer.C:
	}
	// Deferred: "thinking...", public. An ephemeral reply then replaces
	// it by deleting it and sending an ephemeral follow-up. Recorded
	// first, so that no moment exists when the user sees "thinking..."
	// and no other process could answer should this one die.
	answered := b.recordDeferred(ctx, i)
	defer answered()
	deferErr := b.acks.send(arrived, func() error {
		return b.respond(ctx, i, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
		})
	})
	if deferErr != nil {
		b.log.Warn("discord: deferring failed", "interaction", i.ID, "err", deferErr)
		if code, _ := restCode(deferErr); code == discordgo.ErrCodeUnknownInteraction || errors.Is(deferErr, errAckTooLate) {
			// Expired: nothing can answer it any more. Work that has not
			// started yet is not started (the user was told it failed).
			cancelWork()
			<-done
			return
		}
	}
	rep := <-done
	if rep.Ephemeral {
		if err := b.s.InteractionResponseDelete(i, discordgo.WithContext(ctx)); err != nil {
			b.log.Warn("discord: deleting the deferred response failed", "interaction", i.ID, "err", err)
		}
		err := b.sendShrinking(rep, func(rep command.Reply) error {
			_, err := b.s.FollowupMessageCreate(i, true, &discordgo.WebhookParams{
				Content: content(rep), Components: components(rep.Buttons), Files: files(rep.Files),
				AllowedMentions: mentions(rep.Mention), Flags: discordgo.MessageFlagsEphemeral,
			}, discordgo.WithContext(ctx))
			return err
		})
		if err != nil {
			b.log.Warn("discord: ephemeral follow-up failed", "interaction", i.ID, "err", err)
		}
		b.more(ctx, i, rep)
		return
	}
	err := b.sendShrinking(rep, func(rep command.Reply) error {
		_, err := b.s.InteractionResponseEdit(i, webhookEdit(rep), discordgo.WithContext(ctx))
		return err
	})
	if err != nil {
		b.log.Warn("discord: editing the deferred response failed", "interaction", i.ID, "err", err)
	}
	b.more(ctx, i, rep)
	b.publish(ctx, i, rep)
	b.later(i, rep)
}

// laterLimit is how long a reply's Later may edit and follow up its
// interaction: Discord's interaction tokens last 15 minutes.
const laterLimit = 14 * time.Minute

// later runs rep.Later, when set, in a goroutine of its own: its edits
// replace the text of i's response, its posts are follow-up messages of
// i pinging nobody. It stops after laterLimit (the token's life), and
// does not hold Close back.
func (b *Bot) later(i *discordgo.Interaction, rep command.Reply) {
	if rep.Later == nil {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), laterLimit)
		defer cancel()
		edit := func(text string) {
			content := content(command.Reply{Text: text})
			if _, err := b.s.InteractionResponseEdit(i, &discordgo.WebhookEdit{Content: &content}, discordgo.WithContext(ctx)); err != nil {
				b.log.Warn("discord: editing a reply's progress failed", "interaction", i.ID, "err", err)
			}
		}
		post := func(r command.Reply) {
			err := b.sendShrinking(r, func(r command.Reply) error {
				_, err := b.s.FollowupMessageCreate(i, true, &discordgo.WebhookParams{
					Content: content(r), Components: components(r.Buttons), Files: files(r.Files),
					AllowedMentions: mentions(nil)}, discordgo.WithContext(ctx))
				return err
			})
			if err != nil {
				b.log.Warn("discord: a reply's later message failed", "interaction", i.ID, "err", err)
			}
		}
		rep.Later(ctx, edit, post)
	}()
}

// more sends rep.More, the rest of a long answer, as follow-up messages
// of i in order, ephemeral when rep is, pinging nobody.
func (b *Bot) more(ctx context.Context, i *discordgo.Interaction, rep command.Reply) {
	for _, text := range rep.More {
		params := &discordgo.WebhookParams{Content: content(command.Reply{Text: text}), AllowedMentions: mentions(nil)}
		if rep.Ephemeral {
			params.Flags = discordgo.MessageFlagsEphemeral
		}
		if _, err := b.s.FollowupMessageCreate(i, true, params, discordgo.WithContext(ctx)); err != nil {
			b.log.Warn("discord: follow-up message failed", "interaction", i.ID, "err", err)
			return
		}
	}
}

// answer sends rep as the direct (type 4) response of i.
func (b *Bot) answer(i *discordgo.Interaction, rep command.Reply) {
	err := b.sendShrinking(rep, func(rep command.Reply) error {
		return b.respond(context.Background(), i, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: responseData(rep),
		})
	})
	if err != nil {
		code, status := restCode(err)
		b.log.Warn("discord: answering failed", "interaction", i.ID, "code", code, "status", status, "err", err)
	}
}

// publish posts a public reply about a game into the game's thread when
// the interaction came from elsewhere (the channel, a DM), so that the
// thread holds the game's story: replies that ping someone (a move, a
// new game) are posted; plain looks (/board, /history) are not.
func (b *Bot) publish(ctx context.Context, i *discordgo.Interaction, rep command.Reply) {
	if rep.GameID == 0 || rep.Ephemeral || len(rep.Mention) == 0 {
		return
	}
	where, err := b.gameThread(ctx, rep.GameID, rep.Game)
	if err != nil {
		b.log.Warn("discord: finding the game's thread failed", "game", rep.GameID, "err", err)
		return
	}
	if where == "" || where == i.ChannelID {
		return
	}
	// The interaction's ID makes the nonce: a send discordgo repeats
	// (a 502 from Discord after the message was made) posts once.
	nonce := ""
	if id, err := strconv.ParseUint(i.ID, 10, 64); err == nil {
		nonce = nonceFor(nonceAnswer, id)
	}
	err = b.sendShrinking(rep, func(rep command.Reply) error {
		return b.createMessage(ctx, where, messageSend(rep, rep.Mention), nonce)
	})
	if err != nil {
		b.log.Warn("discord: posting into the game's thread failed", "game", rep.GameID, "channel", where, "err", err)
	}
}
