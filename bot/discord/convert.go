package discord

import (
	"bytes"
	"fmt"
	"mime"
	"path"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/fairypost/fairypost/bot/command"
)

// Discord's limits (DESIGN.md §4).
const (
	maxChoices      = 25   // autocomplete choices and fixed choices
	maxContent      = 2000 // characters of message content
	maxCustomID     = 100  // characters of a component's custom_id
	maxURL          = 512  // characters of a link button's url
	maxButtonsInRow = 5
	maxRows         = 5
	maxChoiceName   = 100  // characters of a choice's name and value
	maxOptionLength = 6000 // the largest max_length of a string option
)

// applicationCommands converts the command specs into the slash commands
// to register. Integer options with fixed choices get numeric values;
// free-text string options carry their limit as max_length;
// server-only commands are registered for guilds only (not in DMs).
func applicationCommands(specs []command.Spec) ([]*discordgo.ApplicationCommand, error) {
	out := make([]*discordgo.ApplicationCommand, 0, len(specs))
	for _, s := range specs {
		ac := &discordgo.ApplicationCommand{
			Type:        discordgo.ChatApplicationCommand,
			Name:        s.Name,
			Description: s.Description,
		}
		if s.ServerOnly {
			// Both fields: contexts is the current one, dm_permission what
			// older clients still read.
			ac.Contexts = &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild}
			no := false
			ac.DMPermission = &no
		}
		for _, o := range s.Options {
			opt := &discordgo.ApplicationCommandOption{
				Name: o.Name, Description: o.Description,
				Required: o.Required, Autocomplete: o.Autocomplete,
			}
			switch o.Kind {
			case command.OptionString:
				opt.Type = discordgo.ApplicationCommandOptionString
				if len(o.Choices) == 0 {
					// Discord's client stops the typing at the limit
					// Execute enforces.
					opt.MaxLength = o.MaxChars()
					if opt.MaxLength > maxOptionLength {
						return nil, fmt.Errorf("command %s option %s: max length %d, Discord allows %d", s.Name, o.Name, opt.MaxLength, maxOptionLength)
					}
				}
			case command.OptionInteger:
				opt.Type = discordgo.ApplicationCommandOptionInteger
			case command.OptionUser:
				opt.Type = discordgo.ApplicationCommandOptionUser
			case command.OptionAttachment:
				opt.Type = discordgo.ApplicationCommandOptionAttachment
			default:
				return nil, fmt.Errorf("command %s option %s: unknown kind %d", s.Name, o.Name, o.Kind)
			}
			if len(o.Choices) > maxChoices {
				return nil, fmt.Errorf("command %s option %s: %d choices, Discord allows %d", s.Name, o.Name, len(o.Choices), maxChoices)
			}
			for _, c := range o.Choices {
				ch := &discordgo.ApplicationCommandOptionChoice{Name: c.Name, Value: c.Value}
				if o.Kind == command.OptionInteger {
					n, err := strconv.ParseInt(c.Value, 10, 64)
					if err != nil {
						return nil, fmt.Errorf("command %s option %s: choice %q is not an integer", s.Name, o.Name, c.Value)
					}
					ch.Value = n
				}
				opt.Choices = append(opt.Choices, ch)
			}
			ac.Options = append(ac.Options, opt)
		}
		out = append(out, ac)
	}
	return out, nil
}

// userOf returns the user who caused interaction i: the member in a
// guild, the user in a DM.
func userOf(i *discordgo.Interaction) *discordgo.User {
	if i.Member != nil && i.Member.User != nil {
		return i.Member.User
	}
	return i.User
}

// placeOf returns who caused interaction i and where: a guild's channel,
// or a DM (no guild_id; Discord sends the user instead of the member).
func placeOf(i *discordgo.Interaction) command.Request {
	req := command.Request{GuildID: i.GuildID, ChannelID: i.ChannelID, DM: i.GuildID == ""}
	req.Manager = i.GuildID != "" && i.Member != nil && i.Member.Permissions&discordgo.PermissionManageGuild != 0
	if u := userOf(i); u != nil {
		req.UserID = u.ID
	}
	return req
}

// commandRequest converts a slash command or autocomplete interaction
// into a command.Request, and returns the name of the focused option
// ("" for a slash command). Option values become strings: numbers in
// decimal, users as their IDs. Subcommand groups are not used by
// fairypost; their options are flattened.
func commandRequest(i *discordgo.Interaction) (command.Request, string) {
	data := i.ApplicationCommandData()
	req := placeOf(i)
	req.Name, req.Options = data.Name, make(map[string]string, len(data.Options))
	if r := data.Resolved; r != nil && len(r.Users) > 0 {
		req.Users = make(map[string]command.UserFacts, len(r.Users))
		for id, u := range r.Users {
			if u == nil {
				continue
			}
			_, member := r.Members[id]
			// Discord resolves the members of the interaction's guild:
			// a resolved user without a member is not in that guild.
			req.Users[id] = command.UserFacts{Bot: u.Bot, NotMember: i.GuildID != "" && !member, Name: shortName(u, r.Members[id])}
		}
	}
	addCaller(&req, i)
	focused := ""
	var walk func([]*discordgo.ApplicationCommandInteractionDataOption)
	walk = func(opts []*discordgo.ApplicationCommandInteractionDataOption) {
		for _, o := range opts {
			if o == nil {
				continue
			}
			if len(o.Options) > 0 {
				walk(o.Options)
				continue
			}
			req.Options[o.Name] = optionString(o.Value)
			if o.Type == discordgo.ApplicationCommandOptionAttachment {
				// The attachment's URL, until fetchAttachments reads it.
				req.Options[o.Name] = ""
				if r := data.Resolved; r != nil && r.Attachments[optionString(o.Value)] != nil {
					req.Options[o.Name] = r.Attachments[optionString(o.Value)].URL
				}
			}
			if o.Focused {
				focused = o.Name
			}
		}
	}
	walk(data.Options)
	return req, focused
}

// optionString renders an option value as the string command.Request
// carries. JSON numbers arrive as float64; while autocompleting, a
// partly typed number may arrive as a string.
func optionString(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	}
	return fmt.Sprint(v)
}

// choices converts autocomplete suggestions, keeping at most 25 and
// cutting names and values to Discord's 100 characters. A value longer
// than that cannot be sent back intact, so it is dropped.
func choices(cs []command.Choice) []*discordgo.ApplicationCommandOptionChoice {
	out := make([]*discordgo.ApplicationCommandOptionChoice, 0, min(len(cs), maxChoices))
	for _, c := range cs {
		if len(out) == maxChoices {
			break
		}
		if c.Value == "" || len(c.Value) > maxChoiceName {
			continue
		}
		name := c.Name
		if name == "" {
			name = c.Value
		}
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: truncate(name, maxChoiceName), Value: c.Value})
	}
	return out
}

// truncate cuts s to at most n runes, marking the cut with "…".
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// components lays buttons out in rows of five (at most five rows).
// Buttons whose custom ID Discord would refuse are left out, and link
// buttons without a URL (or with a custom ID).
func components(bs []command.Button) []discordgo.MessageComponent {
	var rows []discordgo.MessageComponent
	var row discordgo.ActionsRow
	for _, b := range bs {
		link := b.Style == command.ButtonLink
		if link && (b.URL == "" || len(b.URL) > maxURL || b.CustomID != "") ||
			!link && (b.CustomID == "" || len(b.CustomID) > maxCustomID) {
			continue
		}
		if len(row.Components) == maxButtonsInRow {
			rows = append(rows, row)
			row = discordgo.ActionsRow{}
		}
		if len(rows) == maxRows {
			break
		}
		row.Components = append(row.Components, discordgo.Button{
			Label: truncate(b.Label, 80), CustomID: b.CustomID, URL: b.URL, Style: buttonStyle(b.Style),
		})
	}
	if len(row.Components) > 0 && len(rows) < maxRows {
		rows = append(rows, row)
	}
	return rows
}

func buttonStyle(s command.ButtonStyle) discordgo.ButtonStyle {
	switch s {
	case command.ButtonPrimary:
		return discordgo.PrimaryButton
	case command.ButtonSuccess:
		return discordgo.SuccessButton
	case command.ButtonDanger:
		return discordgo.DangerButton
	case command.ButtonLink:
		return discordgo.LinkButton
	}
	return discordgo.SecondaryButton
}

// files converts attachments; each gets a fresh reader, so a reply can
// be sent more than once (the interaction answer and the thread post).
func files(fs []command.File) []*discordgo.File {
	out := make([]*discordgo.File, 0, len(fs))
	for _, f := range fs {
		ct := mime.TypeByExtension(strings.ToLower(path.Ext(f.Name)))
		if ct == "" {
			ct = "application/octet-stream"
		}
		out = append(out, &discordgo.File{Name: f.Name, ContentType: ct, Reader: bytes.NewReader(f.Data)})
	}
	return out
}

// mentions returns the allowed mentions of a message: only the users
// listed ping (never @everyone or roles, whatever the text says).
func mentions(users []string) *discordgo.MessageAllowedMentions {
	return &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}, Users: append([]string(nil), users...)}
}

// content returns the message text within Discord's limit. An empty text
// with no files would be refused; it becomes a dash.
func content(r command.Reply) string {
	t := truncate(r.Text, maxContent)
	if strings.TrimSpace(t) == "" && len(r.Files) == 0 {
		return "—"
	}
	return t
}

// responseData is r as the data of an interaction response.
func responseData(r command.Reply) *discordgo.InteractionResponseData {
	d := &discordgo.InteractionResponseData{
		Content:         content(r),
		Components:      components(r.Buttons),
		Files:           files(r.Files),
		AllowedMentions: mentions(r.Mention),
	}
	if r.Ephemeral {
		d.Flags = discordgo.MessageFlagsEphemeral
	}
	return d
}

// webhookEdit is r as the edit of a deferred response (whose ephemeral
// flag was set when deferring).
func webhookEdit(r command.Reply) *discordgo.WebhookEdit {
	c := content(r)
	comps := components(r.Buttons)
	return &discordgo.WebhookEdit{
		Content: &c, Components: &comps, Files: files(r.Files), AllowedMentions: mentions(r.Mention),
	}
}

// messageSend is r as a channel message. Ephemeral has no meaning there.
func messageSend(r command.Reply, ping []string) *discordgo.MessageSend {
	return &discordgo.MessageSend{
		Content:         content(r),
		Components:      components(r.Buttons),
		Files:           files(r.Files),
		AllowedMentions: mentions(ping),
	}
}
