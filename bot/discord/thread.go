package discord

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/command"
)

// threadArchiveMinutes is the longest auto-archive Discord allows (7 days).
const threadArchiveMinutes = 10080

// gameThread returns the channel where game gameID is posted: its thread,
// created on first use in the game's channel and recorded with
// Service.ClaimThread so that it survives restarts and is the one thread
// of the game across the processes sharing the store. Where threads are
// refused (no permission, a channel that cannot hold threads) the
// channel itself is recorded instead, so the refusal is not asked again.
// A game without a channel (the console) has "" here. known is the game's
// record when the caller holds one (a reply's, nil when not): once a
// record names its thread the thread never changes, so nothing is read
// then.
func (b *Bot) gameThread(ctx context.Context, gameID uint64, known *bot.Game) (string, error) {
	if known != nil && known.ID == gameID && known.ThreadID != "" {
		return known.ThreadID, nil
	}
	unlock := b.games.lock(gameID)
	defer unlock()
	g, err := b.svc.Views().Game(ctx, gameID)
	if err != nil {
		return "", err
	}
	if g.ThreadID != "" {
		return g.ThreadID, nil
	}
	if g.ChannelID == "" {
		return "", nil
	}
	where := g.ChannelID
	ch, err := b.s.ThreadStartComplex(g.ChannelID, &discordgo.ThreadStart{
		Name:                b.threadName(ctx, g),
		AutoArchiveDuration: threadArchiveMinutes,
		Type:                discordgo.ChannelTypeGuildPublicThread,
	}, discordgo.WithContext(ctx))
	switch {
	case err == nil:
		where = ch.ID
	case permanent(err):
		code, status := restCode(err)
		b.log.Info("discord: threads refused; the game is posted in its channel", "game", g.ID,
			"channel", g.ChannelID, "status", status, "code", code)
	default:
		// Transient (network, 5xx): post in the channel this time and
		// try the thread again next time.
		b.log.Warn("discord: creating a thread failed", "game", g.ID, "err", err)
		return g.ChannelID, nil
	}
	// Another process (the shard answering a command, the leader
	// delivering a notification) may have made a thread for this game at
	// the same time: the store keeps the first claim, and a thread made
	// here that lost is deleted, so that the game has one thread.
	winner, err := b.svc.ClaimThread(ctx, g.ID, where)
	if err != nil {
		return where, fmt.Errorf("recording the thread of game %d: %w", g.ID, err)
	}
	if winner != where {
		if where != g.ChannelID {
			b.dropThread(ctx, g.ID, where)
		}
		where = winner
		b.log.Info("discord: game thread made elsewhere first", "game", g.ID, "thread", where)
	}
	if where != g.ChannelID {
		b.threads.Store(where, threadRef{game: g.ID, parent: g.ChannelID})
	}
	b.log.Info("discord: game thread", "game", g.ID, "thread", where)
	return where, nil
}

// dropThread deletes thread threadID, made for game gameID but not
// claimed (another thread was recorded first), and remembers it as no
// game's. A failure is logged: the thread then stays, empty.
func (b *Bot) dropThread(ctx context.Context, gameID uint64, threadID string) {
	b.threads.Store(threadID, threadRef{})
	if _, err := b.s.ChannelDelete(threadID, discordgo.WithContext(ctx)); err != nil {
		b.log.Warn("discord: deleting a duplicate game thread failed", "game", gameID, "thread", threadID, "err", err)
		return
	}
	b.log.Info("discord: duplicate game thread deleted", "game", gameID, "thread", threadID)
}

// threadName is "Game 12: alice vs bob (Tank Chess)", at most 100
// characters.
func (b *Bot) threadName(ctx context.Context, g *bot.Game) string {
	return truncate(fmt.Sprintf("Game %d: %s vs %s (%s)", g.ID, b.displayName(ctx, g.White), b.displayName(ctx, g.Black),
		b.svc.VariantName(g.Variant, g.Options)), 100)
}

// displayName returns a user's name, asked from Discord once and
// remembered; the ID when Discord does not tell.
func (b *Bot) displayName(ctx context.Context, userID string) string {
	if v, ok := b.userName.Load(userID); ok {
		return v.(string)
	}
	u, err := b.s.User(userID, discordgo.WithContext(ctx))
	if err != nil || u == nil {
		return userID
	}
	name := u.GlobalName
	if name == "" {
		name = u.Username
	}
	if name == "" {
		return userID
	}
	b.userName.Store(userID, name)
	return name
}

// threadGame tells which game's thread channelID is: the game's ID and
// channel, or ok false when channelID is not a game's thread. The game ID
// is read from the thread's name ("Game 12: ...") and checked against the
// game's recorded thread, so a thread renamed or made by someone else is
// never taken for a game's. Answers are remembered.
func (b *Bot) threadGame(ctx context.Context, channelID string) (gameID uint64, parentID string, ok bool) {
	if channelID == "" {
		return 0, "", false
	}
	if v, found := b.threads.Load(channelID); found {
		tg := v.(threadRef)
		return tg.game, tg.parent, tg.game != 0
	}
	ch, err := b.s.State.Channel(channelID)
	if err != nil || ch == nil {
		ch, err = b.s.Channel(channelID, discordgo.WithContext(ctx))
		if err != nil {
			b.log.Debug("discord: channel lookup failed", "channel", channelID, "err", err)
			return 0, "", false // not remembered: try again next time
		}
	}
	ref := threadRef{}
	if ch.IsThread() {
		if id, found := gameIDFromThreadName(ch.Name); found {
			if g, err := b.svc.Views().Game(ctx, id); err == nil && g.ThreadID == channelID {
				ref = threadRef{game: g.ID, parent: g.ChannelID}
			} else if err != nil && bot.ErrorCode(err) != bot.ENOTFOUND {
				return 0, "", false
			}
		}
	}
	b.threads.Store(channelID, ref)
	return ref.game, ref.parent, ref.game != 0
}

// threadRef is what threadGame remembers of a channel (game 0: not a
// game's thread).
type threadRef struct {
	game   uint64
	parent string
}

// gameIDFromThreadName reads N from a name starting "Game N:".
func gameIDFromThreadName(name string) (uint64, bool) {
	rest, found := strings.CutPrefix(name, "Game ")
	if !found {
		return 0, false
	}
	num, _, found := strings.Cut(rest, ":")
	if !found {
		return 0, false
	}
	id, err := strconv.ParseUint(num, 10, 64)
	return id, err == nil && id != 0
}

// inThread adjusts a request typed in a game's thread: it is about that
// game (unless it names another) and belongs to the game's channel, where
// the service looks for games and challenges.
// The game option being typed (focused, for autocomplete) is left as it
// is.
func (b *Bot) inThread(ctx context.Context, req *command.Request, focused string) {
	id, parent, ok := b.threadGame(ctx, req.ChannelID)
	if !ok {
		return
	}
	req.ChannelID = parent
	if b.gameOption[req.Name] && req.Options["game"] == "" && focused != "game" {
		req.Options["game"] = strconv.FormatUint(id, 10)
	}
}
