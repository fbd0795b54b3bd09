package command

import (
	"context"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fairypost/fairypost/bot"
)

// maxReply is the longest text a reply carries (Discord's limit).
const maxReply = 2000

// Execute runs req and returns what to show. It never panics: errors
// (an unknown command, bad options, refusals of the service, internal
// failures) become Ephemeral replies with bot.ErrorMessage's text, and
// nothing changes on error.
func (h *Handler) Execute(ctx context.Context, req Request) (rep Reply) {
	defer h.recover("execute", &rep)
	rep, err := h.execute(ctx, req)
	if err != nil {
		return h.errorReply(err)
	}
	h.addLink(ctx, &rep)
	rep.Text = truncate(rep.Text, maxReply)
	for i := range rep.More {
		rep.More[i] = truncate(rep.More[i], maxReply)
	}
	return rep
}

// errorReply is the ephemeral answer to err; internal errors are logged,
// and a store that did not answer is logged as a warning (an etcd
// election, say: not a bug).
func (h *Handler) errorReply(err error) Reply {
	switch bot.ErrorCode(err) {
	case bot.EINTERNAL:
		h.log.Error("command failed", "err", err)
	case bot.EUNKNOWN, bot.EUNAVAILABLE:
		h.log.Warn("command: the store did not answer in time", "err", err)
	}
	return Reply{Text: bot.ErrorMessage(err), Ephemeral: true}
}

// truncate cuts s to at most n bytes on a rune boundary, ending with "…".
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// cleanText reports whether s is valid UTF-8 without control characters
// (NUL included).
func cleanText(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return false
		}
	}
	return true
}

// command returns the command called name.
func (h *Handler) command(name string) (commandDef, bool) {
	for _, c := range h.commands {
		if c.Name == name {
			return c, true
		}
	}
	return commandDef{}, false
}

// spec returns the spec of command name.
func (h *Handler) spec(name string) (Spec, bool) {
	c, ok := h.command(name)
	return c.Spec, ok
}

// check refuses a request whose command or options are not those of a
// spec: an unknown command or option, a missing required option, a value
// not among the choices, an integer that is not one, absurd text.
func (h *Handler) check(req Request) (Spec, error) {
	if req.Name == "" {
		return Spec{}, bot.Errorf(bot.EINVALID, "No command given: /help lists them.")
	}
	if len(req.Name) > 32 || !cleanText(req.Name) {
		return Spec{}, bot.Errorf(bot.EINVALID, "Unknown command: /help lists them.")
	}
	sp, ok := h.spec(strings.ToLower(req.Name))
	if !ok {
		return Spec{}, bot.Errorf(bot.EINVALID, "Unknown command /%s: /help lists them.", req.Name)
	}
	if req.UserID == "" || len(req.UserID) > 64 || !cleanText(req.UserID) {
		return Spec{}, bot.Errorf(bot.EINVALID, "Who is asking? No valid user given.")
	}
	if len(req.ChannelID) > 64 || !cleanText(req.ChannelID) || len(req.GuildID) > 64 || !cleanText(req.GuildID) {
		return Spec{}, bot.Errorf(bot.EINVALID, "The channel or server ID is not valid.")
	}
	if req.DM && req.GuildID != "" {
		return Spec{}, bot.Errorf(bot.EINVALID, "The channel or server ID is not valid.")
	}
	if sp.ServerOnly && req.DM {
		return Spec{}, bot.Errorf(bot.EINVALID, "/%s works in a server's channel, not in a direct message: type it in the channel where you want to play, so your opponent sees the game.", sp.Name)
	}
	for name, value := range req.Options {
		var o *OptionSpec
		for i := range sp.Options {
			if sp.Options[i].Name == name {
				o = &sp.Options[i]
			}
		}
		if o == nil {
			return Spec{}, bot.Errorf(bot.EINVALID, "/%s has no option %q: /help lists the options.", sp.Name, truncate(name, 40))
		}
		if o.Kind == OptionAttachment {
			if len(value) > maxAttachment || !utf8.ValidString(value) {
				return Spec{}, bot.Errorf(bot.EINVALID, "The file of %s: must be text of at most %d KB.", name, maxAttachment>>10)
			}
			continue
		}
		if n, most := utf8.RuneCountInString(value), o.MaxChars(); n > most {
			return Spec{}, bot.Errorf(bot.EINVALID, "The value of %s: is %d characters long: it holds at most %d. Shorten it and send it again.", name, n, most)
		}
		if !cleanText(value) {
			return Spec{}, bot.Errorf(bot.EINVALID, "The value of %s: holds characters that cannot be typed (line breaks or other control characters): keep it on one line.", name)
		}
		if value == "" {
			continue
		}
		if o.Kind == OptionInteger {
			if _, err := strconv.ParseInt(strings.TrimPrefix(value, "#"), 10, 64); err != nil {
				return Spec{}, bot.Errorf(bot.EINVALID, "%s: must be a whole number, not %q.", name, truncate(value, 40))
			}
		}
		if len(o.Choices) > 0 {
			found := false
			for _, c := range o.Choices {
				found = found || c.Value == value
			}
			if !found {
				vals := make([]string, len(o.Choices))
				for i, c := range o.Choices {
					vals[i] = c.Value
				}
				return Spec{}, bot.Errorf(bot.EINVALID, "%s: %q is not one of %s.", name, truncate(value, 40), strings.Join(vals, ", "))
			}
		}
	}
	for _, o := range sp.Options {
		if o.Required && req.Options[o.Name] == "" {
			return Spec{}, bot.Errorf(bot.EINVALID, "/%s needs %s: (%s).", sp.Name, o.Name, o.Description)
		}
	}
	return sp, nil
}

// parseID reads a game or challenge ID ("12" or "#12"); "" is 0.
func parseID(name, s string) (uint64, error) {
	if s == "" {
		return 0, nil
	}
	id, err := strconv.ParseUint(strings.TrimPrefix(s, "#"), 10, 64)
	if err != nil || id == 0 {
		return 0, bot.Errorf(bot.EINVALID, "%s: must be an ID such as 12, not %q.", name, truncate(s, 40))
	}
	return id, nil
}

// execute checks req against its command's spec and runs the command.
func (h *Handler) execute(ctx context.Context, req Request) (Reply, error) {
	sp, err := h.check(req)
	if err != nil {
		return Reply{}, err
	}
	cmd, _ := h.command(sp.Name) // check found it
	return cmd.run(h, ctx, req)
}
