package discordtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// commandNameRE is Discord's rule for command and option names.
var commandNameRE = regexp.MustCompile(`^[-_\p{L}\p{N}]{1,32}$`)

// commandsRoute answers GET, PUT (bulk overwrite) and POST (create or replace one) of application commands.
func (s *Server) commandsRoute(r *http.Request, appID, guildID string) (reply, *apiError) {
	if appID != s.cfg.appID {
		return reply{}, errNotOwnApplication
	}
	var body []byte
	if r.Method == http.MethodPut || r.Method == http.MethodPost {
		raw, _, aerr := readBody(r, s.cfg.maxFile)
		if aerr != nil {
			return reply{}, aerr
		}
		body = raw
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if guildID != "" {
		if _, found := s.guilds[guildID]; !found {
			return reply{}, errUnknown(http.StatusNotFound, 10004, "Unknown Guild")
		}
	}
	switch r.Method {
	case http.MethodGet:
		return ok(nonNil(cloneCommands(s.commands[guildID])))
	case http.MethodPut:
		var cmds []*discordgo.ApplicationCommand
		if err := json.Unmarshal(body, &cmds); err != nil {
			return reply{}, errBadJSON
		}
		if len(cmds) > 100 {
			return reply{}, formError("_root", "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
		}
		seen := map[string]bool{}
		for n, c := range cmds {
			if c == nil {
				return reply{}, formError(fmt.Sprint(n), "BASE_TYPE_REQUIRED", "This field is required")
			}
			if e := checkCommand(c, fmt.Sprint(n)); e != nil {
				return reply{}, e
			}
			if seen[c.Name] {
				return reply{}, formError(fmt.Sprint(n)+".name", "APPLICATION_COMMANDS_DUPLICATE_NAME",
					"Application command names must be unique")
			}
			seen[c.Name] = true
		}
		stored := make([]*discordgo.ApplicationCommand, len(cmds))
		for n, c := range cmds {
			stored[n] = s.storeCommandLocked(guildID, c)
		}
		s.commands[guildID] = stored
		s.commandWrites++
		s.notifyLocked()
		return ok(cloneCommands(stored))
	case http.MethodPost:
		var c discordgo.ApplicationCommand
		if err := json.Unmarshal(body, &c); err != nil {
			return reply{}, errBadJSON
		}
		if e := checkCommand(&c, "_root"); e != nil {
			return reply{}, e
		}
		sc := s.storeCommandLocked(guildID, &c)
		list := s.commands[guildID]
		replaced := false
		for n, old := range list {
			if old.Name == c.Name {
				list[n] = sc
				replaced = true
			}
		}
		if !replaced {
			list = append(list, sc)
		}
		s.commands[guildID] = list
		s.commandWrites++
		s.notifyLocked()
		return reply{http.StatusCreated, cloneCommands([]*discordgo.ApplicationCommand{sc})[0]}, nil
	}
	return reply{}, errUnknown(http.StatusMethodNotAllowed, 0, "405: Method Not Allowed")
}

// storeCommandLocked gives a command its identity: a command with the same name keeps its ID, and its version
// unless its definition changed.
func (s *Server) storeCommandLocked(guildID string, c *discordgo.ApplicationCommand) *discordgo.ApplicationCommand {
	nc := cloneCommands([]*discordgo.ApplicationCommand{c})[0]
	if nc.Type == 0 {
		nc.Type = discordgo.ChatApplicationCommand
	}
	nc.ApplicationID = s.cfg.appID
	nc.GuildID = guildID
	nc.ID, nc.Version = "", ""
	for _, old := range s.commands[guildID] {
		if old.Name != nc.Name {
			continue
		}
		nc.ID = old.ID
		if bytes.Equal(commandDefinition(old), commandDefinition(nc)) {
			nc.Version = old.Version
		}
	}
	if nc.ID == "" {
		nc.ID = s.newIDLocked()
	}
	if nc.Version == "" {
		nc.Version = s.newIDLocked()
	}
	return nc
}

// commandDefinition is a command without its identity, for comparing definitions.
func commandDefinition(c *discordgo.ApplicationCommand) []byte {
	cc := *c
	cc.ID, cc.Version, cc.ApplicationID, cc.GuildID = "", "", "", ""
	b, _ := json.Marshal(cc)
	return b
}

func cloneCommands(cs []*discordgo.ApplicationCommand) []*discordgo.ApplicationCommand {
	if cs == nil {
		return nil
	}
	b, err := json.Marshal(cs)
	if err != nil {
		panic("discordtest: marshal commands: " + err.Error())
	}
	var out []*discordgo.ApplicationCommand
	if err := json.Unmarshal(b, &out); err != nil {
		panic("discordtest: unmarshal commands: " + err.Error())
	}
	return out
}

// checkCommand enforces Discord's rules for a chat-input command definition.
func checkCommand(c *discordgo.ApplicationCommand, path string) *apiError {
	if c.Type != 0 && c.Type != discordgo.ChatApplicationCommand {
		return nil // user and message commands have no description or options
	}
	if !commandNameRE.MatchString(c.Name) || strings.ToLower(c.Name) != c.Name {
		return formError(path+".name", "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
	}
	if n := utf8.RuneCountInString(c.Description); n < 1 || n > 100 {
		return formError(path+".description", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
	}
	return checkOptions(c.Options, path+".options")
}

func checkOptions(opts []*discordgo.ApplicationCommandOption, path string) *apiError {
	if len(opts) > 25 {
		return formError(path, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
	}
	optional := false
	seen := map[string]bool{}
	for n, o := range opts {
		p := fmt.Sprintf("%s.%d", path, n)
		if o == nil {
			return formError(p, "BASE_TYPE_REQUIRED", "This field is required")
		}
		if o.Type < discordgo.ApplicationCommandOptionSubCommand || o.Type > discordgo.ApplicationCommandOptionAttachment {
			return formError(p+".type", "BASE_TYPE_CHOICES", "Value must be one of {1, ..., 11}.")
		}
		if !commandNameRE.MatchString(o.Name) || strings.ToLower(o.Name) != o.Name {
			return formError(p+".name", "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
		}
		if seen[o.Name] {
			return formError(p+".name", "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS", "Option names must be unique")
		}
		seen[o.Name] = true
		if l := utf8.RuneCountInString(o.Description); l < 1 || l > 100 {
			return formError(p+".description", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
		}
		if o.Required && optional {
			return formError(p+".required", "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
				"Required options must be placed before non-required options")
		}
		optional = optional || !o.Required
		if len(o.Choices) > 25 {
			return formError(p+".choices", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
		}
		if o.MaxLength != 0 && (o.Type != discordgo.ApplicationCommandOptionString || o.MaxLength < 1 || o.MaxLength > 6000) {
			return formError(p+".max_length", "BASE_TYPE_MAX_LENGTH_INVALID",
				"max_length is for string options only, between 1 and 6000.")
		}
		if o.Autocomplete && len(o.Choices) > 0 {
			return formError(p+".autocomplete", "AUTOCOMPLETE_CHOICES_INVALID",
				"Autocomplete cannot be set for options with choices")
		}
		for k, ch := range o.Choices {
			cp := fmt.Sprintf("%s.choices.%d", p, k)
			if l := utf8.RuneCountInString(ch.Name); l < 1 || l > 100 {
				return formError(cp+".name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
			}
			if v, isString := ch.Value.(string); isString && utf8.RuneCountInString(v) > 100 {
				return formError(cp+".value", "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
			}
		}
		if o.Type == discordgo.ApplicationCommandOptionSubCommand ||
			o.Type == discordgo.ApplicationCommandOptionSubCommandGroup {
			if e := checkOptions(o.Options, p+".options"); e != nil {
				return e
			}
		}
	}
	return nil
}
