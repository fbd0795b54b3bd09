package discordtest

import (
	"encoding/json"
	"regexp"
	"slices"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Message is a recorded message as Discord stores it after the bot's request.
type Message struct {
	ID, ChannelID, GuildID string
	AuthorID               string // the bot's user ID
	Content                string
	Embeds                 []*discordgo.MessageEmbed
	Components             []discordgo.MessageComponent // decoded by discordgo itself
	Files                  []File
	Flags                  discordgo.MessageFlags
	Ephemeral              bool
	Loading                bool     // a deferred response not yet edited ("Bot is thinking...")
	Mentions               []string // user IDs the message pings: <@id> in content, allowed by allowed_mentions
	InteractionID          string   // set on interaction responses and follow-ups
	Nonce                  string   // the nonce of the request that created it ("" none)
	Edits                  int
	Created                time.Time

	rawComponents json.RawMessage
	edited        *time.Time
	msgType       discordgo.MessageType
	deleted       bool
}

// File is an uploaded attachment.
type File struct {
	ID, Name, ContentType string
	Data                  []byte
}

// Button is a button of a message, with the index of its action row.
type Button struct {
	Row      int
	Label    string
	CustomID string
	URL      string
	Style    discordgo.ButtonStyle
	Disabled bool
}

func (m *Message) clone() Message {
	c := *m
	c.Embeds = slices.Clone(m.Embeds)
	c.Components = slices.Clone(m.Components)
	c.Files = slices.Clone(m.Files)
	c.Mentions = slices.Clone(m.Mentions)
	c.rawComponents = slices.Clone(m.rawComponents)
	return c
}

// Buttons returns the message's buttons, row by row.
func (m Message) Buttons() []Button {
	var out []Button
	for i, c := range m.Components {
		row, ok := c.(*discordgo.ActionsRow)
		if !ok {
			continue
		}
		for _, rc := range row.Components {
			if b, ok := rc.(*discordgo.Button); ok {
				out = append(out, Button{Row: i, Label: b.Label, CustomID: b.CustomID, URL: b.URL, Style: b.Style,
					Disabled: b.Disabled})
			}
		}
	}
	return out
}

// CustomIDs returns the custom IDs of the message's buttons and select menus.
func (m Message) CustomIDs() []string {
	var out []string
	for _, c := range m.Components {
		row, ok := c.(*discordgo.ActionsRow)
		if !ok {
			continue
		}
		for _, rc := range row.Components {
			switch v := rc.(type) {
			case *discordgo.Button:
				if v.CustomID != "" {
					out = append(out, v.CustomID)
				}
			case *discordgo.SelectMenu:
				out = append(out, v.CustomID)
			}
		}
	}
	return out
}

// hasCustomID reports whether a component of the message has the custom ID, and its type.
func (m *Message) hasCustomID(id string) (discordgo.ComponentType, bool) {
	for _, c := range m.Components {
		row, ok := c.(*discordgo.ActionsRow)
		if !ok {
			continue
		}
		for _, rc := range row.Components {
			switch v := rc.(type) {
			case *discordgo.Button:
				if v.CustomID == id && !v.Disabled {
					return discordgo.ButtonComponent, true
				}
			case *discordgo.SelectMenu:
				if v.CustomID == id && !v.Disabled {
					return rc.Type(), true
				}
			}
		}
	}
	return 0, false
}

var mentionRE = regexp.MustCompile(`<@!?(\d+)>`)

// mentionsOf returns the user IDs content pings under allowed (nil: every user mention pings).
func mentionsOf(content string, allowed *discordgo.MessageAllowedMentions) []string {
	var out []string
	for _, sm := range mentionRE.FindAllStringSubmatch(content, -1) {
		id := sm[1]
		if slices.Contains(out, id) {
			continue
		}
		if allowed != nil && !slices.Contains(allowed.Parse, discordgo.AllowedMentionTypeUsers) &&
			!slices.Contains(allowed.Users, id) {
			continue
		}
		out = append(out, id)
	}
	return out
}

// wireMessage is a message as the REST API returns it.
type wireMessage struct {
	ID              string                    `json:"id"`
	Type            discordgo.MessageType     `json:"type"`
	ChannelID       string                    `json:"channel_id"`
	GuildID         string                    `json:"guild_id,omitempty"`
	Author          *discordgo.User           `json:"author"`
	Content         string                    `json:"content"`
	Timestamp       time.Time                 `json:"timestamp"`
	EditedTimestamp *time.Time                `json:"edited_timestamp"`
	TTS             bool                      `json:"tts"`
	MentionEveryone bool                      `json:"mention_everyone"`
	Mentions        []*discordgo.User         `json:"mentions"`
	MentionRoles    []string                  `json:"mention_roles"`
	Attachments     []wireAttachment          `json:"attachments"`
	Embeds          []*discordgo.MessageEmbed `json:"embeds"`
	Components      json.RawMessage           `json:"components"`
	Pinned          bool                      `json:"pinned"`
	Flags           discordgo.MessageFlags    `json:"flags"`
	WebhookID       string                    `json:"webhook_id,omitempty"`
	Nonce           string                    `json:"nonce,omitempty"`
	ApplicationID   string                    `json:"application_id,omitempty"`
}

type wireAttachment struct {
	ID          string `json:"id"`
	Filename    string `json:"filename"`
	Size        int    `json:"size"`
	URL         string `json:"url"`
	ProxyURL    string `json:"proxy_url"`
	ContentType string `json:"content_type,omitempty"`
}

// attachmentURL is the CDN address of an uploaded file.
func attachmentURL(channelID string, f File) string {
	return "https://cdn.discordapp.com/attachments/" + channelID + "/" + f.ID + "/" + f.Name
}

// wireLocked renders m for the REST API.
func (s *Server) wireLocked(m *Message) wireMessage {
	w := wireMessage{
		ID: m.ID, Type: m.msgType, ChannelID: m.ChannelID, GuildID: m.GuildID, Author: s.users[s.cfg.botID],
		Content: m.Content, Timestamp: m.Created, EditedTimestamp: m.edited, Mentions: []*discordgo.User{},
		MentionRoles: []string{}, Attachments: []wireAttachment{}, Embeds: m.Embeds, Components: m.rawComponents,
		Flags: m.Flags, Nonce: m.Nonce,
	}
	if w.Embeds == nil {
		w.Embeds = []*discordgo.MessageEmbed{}
	}
	if len(w.Components) == 0 {
		w.Components = json.RawMessage("[]")
	}
	for _, id := range m.Mentions {
		if u, ok := s.users[id]; ok {
			w.Mentions = append(w.Mentions, u)
		} else {
			w.Mentions = append(w.Mentions, &discordgo.User{ID: id})
		}
	}
	for _, f := range m.Files {
		u := attachmentURL(m.ChannelID, f)
		w.Attachments = append(w.Attachments, wireAttachment{ID: f.ID, Filename: f.Name, Size: len(f.Data), URL: u,
			ProxyURL: u, ContentType: f.ContentType})
	}
	if m.InteractionID != "" {
		w.WebhookID = s.cfg.appID
		w.ApplicationID = s.cfg.appID
	}
	return w
}
