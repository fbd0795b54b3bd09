package discord

import (
	"context"
	"fmt"

	"github.com/bwmarrin/discordgo"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/command"
)

// Send shows the outbox notification n on Discord: it is the send
// function of a notify.Deliverer. Where it goes follows the user's
// preferences (bot.Preferences.Delivery):
//
//   - dm (the default): a direct message. When Discord refuses it because
//     the user does not accept DMs (code 50007), that is recorded with
//     prefs.Service.SetDMBlocked (stored, so it outlives restarts) and the user is
//     reached as with "channel" instead; they are not DMed again while the
//     stored flag says so.
//   - channel: a message pinging the user in the game's thread (the
//     channel for a challenge).
//   - off: nothing for the user.
//
// Whatever the preference, notifications that tell the game's story
// without an interaction having shown it — a reminder (which also
// reopens an archived thread before a move is due), a move the bot played
// for a player, the end of the game — are posted into the game's thread
// once per game (with White's copy when both players get one, Black's
// when White is the computer player, who is sent nothing), without a
// ping when the user was told elsewhere. A notification to nobody in
// particular goes to the game's thread (what the computer player did:
// its turn, its draw offer; see bot.NotifyComputerTurn), or to its
// channel (an open challenge).
//
// A board posted in the thread or channel is turned as the thread keeps
// it, White at the bottom (command.Reply.PublicFiles); a DM shows the
// recipient's side.
//
// Send returns an error only when trying again later may help (network,
// Discord's 5xx); requests Discord refused for good are logged and
// dropped, so that a broken permission never loops. A message refused as
// too large is first sent again without its attachments, largest first
// (sendShrinking), so the notification itself always goes out.
//
// Every message Send creates carries a nonce made from the
// notification's ID and where the message goes (nonceFor) with
// enforce_nonce: when the same notification is sent again within
// Discord's window of a few minutes — the deliverer stopped after
// sending and before marking it delivered, or another process took the
// deliveries over — Discord returns the message already posted instead
// of posting it twice. A digest (ID 0: it stands for several
// notifications) goes without one.
func (b *Bot) Send(ctx context.Context, n bot.Notification) error {
	// The notification as shown carries the game it read (Reply.Game):
	// the thread and the players come from it, with no read of their own.
	rep := b.h.Notification(ctx, n)
	var thread string
	game := rep.Game
	if n.GameID != 0 {
		where, err := b.gameThread(ctx, n.GameID, game)
		if err != nil {
			if bot.ErrorCode(err) == bot.ENOTFOUND {
				b.log.Warn("discord: notification about an unknown game dropped", "notification", n.ID, "game", n.GameID)
				return nil
			}
			return err
		}
		thread = where
		if game == nil { // the notification was shown without its game
			if game, err = b.svc.Views().Game(ctx, n.GameID); err != nil {
				return err
			}
		}
	}
	rep.Ephemeral = false
	// What others read (the thread, the channel) gets the public files:
	// boards turned as the thread keeps them.
	pub := rep
	if len(rep.PublicFiles) > 0 {
		pub.Files = rep.PublicFiles
	}
	place := thread
	if place == "" {
		place = n.ChannelID
	}
	dmNonce, postNonce := "", ""
	if n.ID != 0 {
		dmNonce, postNonce = nonceFor(nonceDM, n.ID), nonceFor(noncePost, n.ID)
		if n.Kind == bot.NotifyDigest {
			dmNonce = nonceFor(nonceDigest, n.ID)
		}
	}
	if n.UserID == "" {
		return b.post(ctx, place, pub, rep.Mention, postNonce)
	}

	prefs, err := b.prefs.Preferences(ctx, n.UserID)
	if err != nil {
		return err
	}
	told := false
	switch {
	case prefs.Delivery == bot.DeliverDM && !prefs.DMBlocked:
		err := b.dm(ctx, n.UserID, rep, dmNonce)
		switch {
		case err == nil:
			told = true
		case isDMRefusal(err):
			if err := b.prefs.SetDMBlocked(ctx, n.UserID, true); err != nil {
				b.log.Warn("discord: recording blocked DMs failed", "user", n.UserID, "err", err)
			}
			b.log.Info("discord: user does not accept DMs; using the channel", "user", n.UserID)
		case permanent(err):
			b.log.Warn("discord: DM refused; using the channel", "user", n.UserID, "err", err)
		default:
			return fmt.Errorf("DM to %s: %w", n.UserID, err)
		}
		if !told {
			return b.post(ctx, place, pub, pingList(n.UserID, rep.Mention), postNonce)
		}
	case prefs.Delivery == bot.DeliverOff:
	default: // channel, or DMs blocked
		return b.post(ctx, place, pub, pingList(n.UserID, rep.Mention), postNonce)
	}
	if thread != "" && threadCopy(n, game, b.svc.ComputerID()) {
		err := b.post(ctx, thread, pub, nil, postNonce)
		if err != nil && told {
			// Retrying would DM the user twice; the thread misses one post.
			b.log.Warn("discord: posting a copy into the game's thread failed", "game", n.GameID, "err", err)
			return nil
		}
		return err
	}
	return nil
}

// threadCopy reports whether notification n is posted into the game's
// thread whatever the user's preference: reminders, and once per game
// (White's copy; Black's when White is computer, the computer player,
// which is sent none) the moves the bot played and the end of the game.
func threadCopy(n bot.Notification, g *bot.Game, computer string) bool {
	switch n.Kind {
	case bot.NotifyReminder:
		return true
	case bot.NotifyAutoMove, bot.NotifyGameOver:
		if g == nil || !g.IsPlayer(n.UserID) {
			return true
		}
		if computer != "" && g.White == computer {
			return n.UserID == g.Black
		}
		return n.UserID == g.White
	}
	return false
}

// pingList returns user followed by the others, without repeats.
func pingList(user string, others []string) []string {
	out := []string{user}
	for _, o := range others {
		if o != user {
			out = append(out, o)
		}
	}
	return out
}

// post sends rep into channelID pinging ping, with nonce ("": none; see
// createMessage); an attachment refused as too large is left out
// (sendShrinking). Errors Discord will repeat are logged and dropped (see
// Send).
func (b *Bot) post(ctx context.Context, channelID string, rep command.Reply, ping []string, nonce string) error {
	if channelID == "" {
		b.log.Warn("discord: a notification with nowhere to go was dropped")
		return nil
	}
	err := b.sendShrinking(rep, func(rep command.Reply) error {
		return b.createMessage(ctx, channelID, messageSend(rep, ping), nonce)
	})
	if err == nil {
		return nil
	}
	if permanent(err) {
		code, status := restCode(err)
		b.log.Warn("discord: posting refused; dropped", "channel", channelID, "status", status, "code", code, "err", err)
		return nil
	}
	return fmt.Errorf("posting in %s: %w", channelID, err)
}

// dm sends rep to userID's DM channel, with nonce ("": none; see
// createMessage); an attachment refused as too large is left out
// (sendShrinking).
func (b *Bot) dm(ctx context.Context, userID string, rep command.Reply, nonce string) error {
	chID, ok := b.dms.Load(userID)
	if !ok {
		ch, err := b.s.UserChannelCreate(userID, discordgo.WithContext(ctx))
		if err != nil {
			return err
		}
		b.dms.Store(userID, ch.ID)
		chID = ch.ID
	}
	return b.sendShrinking(rep, func(rep command.Reply) error {
		return b.createMessage(ctx, chID.(string), messageSend(rep, nil), nonce)
	})
}

// createMessage posts msg into channelID, carrying nonce with
// enforce_nonce unless nonce is "" (sendWithNonce). A message refused
// as too large was not created, so sendShrinking's next, smaller try
// keeps the same nonce.
func (b *Bot) createMessage(ctx context.Context, channelID string, msg *discordgo.MessageSend, nonce string) error {
	var err error
	if nonce == "" {
		_, err = b.s.ChannelMessageSendComplex(channelID, msg, discordgo.WithContext(ctx))
	} else {
		_, err = b.sendWithNonce(ctx, channelID, msg, nonce)
	}
	return err
}

// isDMRefusal reports whether err is Discord's "Cannot send messages to
// this user" (50007).
func isDMRefusal(err error) bool {
	code, _ := restCode(err)
	return code == discordgo.ErrCodeCannotSendMessagesToThisUser
}
