package command

import (
	"context"
	"fmt"
	"strings"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/variants"
	"github.com/fairypost/fairypost/rules/variantsini"
)

// /variant: the variants the members of a server define in the
// variants.ini format (package bot/variants).
const (
	cmdVariant     = "variant"
	optVariantName = "name"
	optVariantText = "text"
	optVariantFile = "file"
)

// lineSeparator separates the lines of a definition typed in text: (a
// command's option holds one line).
const lineSeparator = " | "

// defineVariant defines /variant.
func defineVariant(catalogue) commandDef {
	return commandDef{Spec{Name: cmdVariant, ServerOnly: true,
		Description: "Define this server's own variants (variants.ini format), check, show, list or remove them",
		Options: []OptionSpec{
			{Name: optAction, Description: "define, check (changes nothing), show the rules, list, or remove", Kind: OptionString, Required: true,
				Choices: choices("define", "check", "show", "list", "remove")},
			{Name: optVariantName, Description: "show, remove: the variant's name", Kind: OptionString, Autocomplete: true, MaxLength: 64},
			{Name: optVariantText, Description: "define, check: the definition, its lines separated by | ([mine:chess] | king = - | commoner = k)",
				Kind: OptionString, MaxLength: 6000},
			{Name: optVariantFile, Description: "define, check: the definition as an attached .ini file", Kind: OptionAttachment},
		}}, (*Handler).variant}
}

// variant runs /variant.
func (h *Handler) variant(ctx context.Context, req Request) (Reply, error) {
	if h.defined == nil {
		return Reply{}, bot.Errorf(bot.EINVALID, "This bot keeps no variants of its servers.")
	}
	o := req.Options
	server, name := variantServer(req), o[optVariantName]
	switch o[optAction] {
	case "define", "check":
		text, err := definitionText(o)
		if err != nil {
			return Reply{}, err
		}
		if o[optAction] == "check" {
			return h.checkVariants(ctx, server, text)
		}
		made, err := h.defined.Define(ctx, server, req.UserID, text)
		if err != nil {
			return Reply{}, err
		}
		names := make([]string, len(made))
		for i, d := range made {
			names[i] = "`" + d.Name + "`"
		}
		return Reply{Text: fmt.Sprintf("Defined on this server: %s. Challenge with /challenge variant:NAME (games of them are casual); "+
			"/variant action:show name:NAME shows the rules. Once a game of one exists its rules are locked: define it again under a new name to change it.",
			strings.Join(names, ", "))}, nil
	case "show":
		if name == "" {
			return Reply{}, bot.Errorf(bot.EINVALID, "/variant action:show needs name: (the variant's name; action:list lists them).")
		}
		d, v, err := h.defined.Variant(ctx, server, name)
		if err != nil {
			return Reply{}, err
		}
		// A defined variant has no rules page: its text ends before the
		// pointer to one.
		text := rulesText(v)
		if i := strings.LastIndexByte(text, '\n'); i > 0 {
			text = text[:i]
		}
		return Reply{Text: truncate(variants.Describe(d, v)+"\n"+text, maxReply), Ephemeral: true}, nil
	case "list":
		vs, err := h.defined.List(ctx, server)
		if err != nil {
			return Reply{}, err
		}
		if len(vs) == 0 {
			return Reply{Text: "This server has defined no variants yet: /variant action:define text:... or file:... defines some.", Ephemeral: true}, nil
		}
		lines := make([]string, len(vs))
		for i, d := range vs {
			lines[i] = variants.Describe(d, h.svc.Rules().Default(variants.Key(server, d.Name)))
		}
		return Reply{Text: joinLines("This server's variants (/variant action:show name:NAME for the rules):", lines, maxReply), Ephemeral: true}, nil
	case "remove":
		if name == "" {
			return Reply{}, bot.Errorf(bot.EINVALID, "/variant action:remove needs name: (the variant's name).")
		}
		if err := h.defined.Remove(ctx, server, req.UserID, name); err != nil {
			return Reply{}, err
		}
		return Reply{Text: fmt.Sprintf("The variant `%s` is removed from this server.", name)}, nil
	}
	return Reply{}, bot.Errorf(bot.EINVALID, "action: define, check, show, list or remove.")
}

// variantServer is the server whose variants req sees: its guild; for a
// request from no guild that is no direct message (the console, one
// place of its own) the console's place, named "console".
func variantServer(req Request) string {
	if req.GuildID == "" && !req.DM {
		return "console"
	}
	return req.GuildID
}

// definitionText is the definition given by text: (its lines separated
// by lineSeparator) or file:, exactly one of them.
func definitionText(o map[string]string) (string, error) {
	text, file := o[optVariantText], o[optVariantFile]
	switch {
	case text != "" && file != "":
		return "", bot.Errorf(bot.EINVALID, "Give the definition once: as text: or as file:, not both.")
	case file != "":
		return file, nil
	case text != "":
		return strings.ReplaceAll(text, strings.TrimSpace(lineSeparator), "\n"), nil
	}
	return "", bot.Errorf(bot.EINVALID, "Give the definition as text: (its lines separated by |) or as an attached .ini file (file:).")
}

// checkVariants answers /variant action:check: what compiles and what is
// wrong, line by line; nothing changes.
func (h *Handler) checkVariants(ctx context.Context, server, text string) (Reply, error) {
	c, err := h.defined.Check(ctx, server, text)
	if err != nil {
		return Reply{}, err
	}
	var lines []string
	for _, n := range c.Good {
		lines = append(lines, fmt.Sprintf("`%s` is fine.", n))
	}
	lines = append(lines, c.Problems...)
	head := "Checked (nothing was defined):"
	if len(c.Good) == 0 && len(c.Problems) == 0 {
		lines = []string{"The text holds no section: a definition starts with a header such as [mine:chess]."}
	}
	return Reply{Text: joinLines(head, lines, maxReply), Ephemeral: true}, nil
}

// maxAttachment is the most bytes an attachment option holds: what the
// variants.ini reader reads.
const maxAttachment = variantsini.MaxTextBytes
