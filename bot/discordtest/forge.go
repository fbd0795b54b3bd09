package discordtest

import (
	"slices"

	"github.com/bwmarrin/discordgo"
)

// allowedInDMs reports whether Discord offers cmd in a DM with the bot:
// its contexts include BOT_DM (no contexts: the default, everywhere) and
// dm_permission is not false.
func allowedInDMs(cmd *discordgo.ApplicationCommand) bool {
	if cmd.DMPermission != nil && !*cmd.DMPermission {
		return false
	}
	return cmd.Contexts == nil || slices.Contains(*cmd.Contexts, discordgo.InteractionContextBotDM)
}

// RemoveMember makes userID a non-member of guildID: commands naming the
// user (a user option) then resolve the user without a member, as Discord
// does for someone outside the guild.
func (s *Server) RemoveMember(guildID, userID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.nonMembers == nil {
		s.nonMembers = map[string]map[string]bool{}
	}
	if s.nonMembers[guildID] == nil {
		s.nonMembers[guildID] = map[string]bool{}
	}
	s.nonMembers[guildID][userID] = true
	s.notifyLocked()
}

// ForgeClick sends a component interaction that Discord itself would
// never send: userID clicking customID in channelID, with no message
// carrying that button there, and with guild_id (and the member) claiming
// forgedGuildID when it is not "" (a DM channel then looks like a guild's
// channel). It stands for a hostile client or proxy: the bot must check
// everything the interaction claims.
func (s *Server) ForgeClick(userID, channelID, forgedGuildID, customID string) (*Interaction, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.interactionChannelLocked(userID, channelID)
	if err != nil {
		return nil, err
	}
	claimed := *c
	if forgedGuildID != "" {
		claimed.guildID = forgedGuildID
		claimed.typ = discordgo.ChannelTypeGuildText
	}
	i := s.newInteractionLocked(discordgo.InteractionMessageComponent, userID, &claimed)
	i.CustomID = customID
	data := map[string]any{"custom_id": customID, "component_type": discordgo.ButtonComponent}
	s.sendInteractionLocked(i, &claimed, data, nil)
	return i, nil
}
