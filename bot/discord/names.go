package discord

import (
	"context"

	"github.com/bwmarrin/discordgo"
	"github.com/fairypost/fairypost/bot/command"
)

// shortName is how images name a user (command.UserFacts.Name): their
// nickname in the server when they have one, else their display name,
// else their user name; "" for an unknown user.
func shortName(u *discordgo.User, m *discordgo.Member) string {
	switch {
	case m != nil && m.Nick != "":
		return m.Nick
	case u == nil:
		return ""
	case u.GlobalName != "":
		return u.GlobalName
	}
	return u.Username
}

// addCaller records in req.Users the name of the user who sent
// interaction i, which Discord gives with every interaction, unless an
// option named them already.
func addCaller(req *command.Request, i *discordgo.Interaction) {
	u := userOf(i)
	if u == nil || u.ID == "" {
		return
	}
	if _, ok := req.Users[u.ID]; ok {
		return
	}
	if req.Users == nil {
		req.Users = map[string]command.UserFacts{}
	}
	req.Users[u.ID] = command.UserFacts{Bot: u.Bot, Name: shortName(u, i.Member)}
}

// Name returns a short name for userID, for images that name players
// (command.Options.Names): their display name (else user name) as
// Discord tells it, asked once per user and remembered, as game thread
// names are; "" when Discord does not tell. guildID is not used:
// server nicknames are known only from the interactions that carry them
// (command.UserFacts.Name).
func (b *Bot) Name(ctx context.Context, guildID, userID string) string {
	if n := b.displayName(ctx, userID); n != userID {
		return n
	}
	return ""
}
