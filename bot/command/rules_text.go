package command

import (
	"context"
	"fmt"
	"strings"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/rules"
)

// rulesCmd runs /rules: what a player needs to play a variant.
func (h *Handler) rulesCmd(key string) (Reply, error) {
	v := h.svc.Rules().Default(key)
	if v == nil {
		return Reply{}, bot.Errorf(bot.EINVALID, "Unknown variant %q: /variants lists them.", truncate(key, 40))
	}
	return rulesReply(v), nil
}

// rulesReply is /rules for v: rulesText, and, when the pieces with their
// movement do not fit in it, after it one or more messages (Reply.More)
// listing every piece with its movement in words.
func rulesReply(v *rules.Variant) Reply {
	text := rulesText(v)
	if strings.Contains(text, pieceLines(v)[1]) {
		return Reply{Text: text}
	}
	return Reply{Text: text, More: splitMessages(pieceLines(v), maxReply)}
}

// rulesSection is one part of /rules: its name, for the pointer that says
// what was left out, its text, and a shorter text for when the text does
// not fit ("" for none).
type rulesSection struct {
	name, text, short string
}

// rulesText returns /rules for v, all of it from v's definition (its Help
// and its data), never from what shared code knows of a variant: the name
// and board, the rules in short, how to write each special move with an
// example, the marks, the options and the pieces, and the page with the
// full rules. The text is at most maxReply bytes by construction: the
// head, the summary and the pointer always come (a summary too long is
// cut); each other section comes whole, in order, if it still fits (or
// else its short form, if that fits), and the pointer names the sections
// left out.
func rulesText(v *rules.Variant) string {
	head := fmt.Sprintf("**%s** (`%s`, %dx%d)\n%s", v.Name, v.Key, v.Files, v.Ranks, v.Help.Summary)
	page := v.RulesPage()
	sections := []rulesSection{
		{"how to write the moves", notationSection(v.Help.Notation), ""},
		{"the marks", marksSection(v), ""},
		{"the options", optionsSection(v.Options, true), optionsSection(v.Options, false)},
		{"the pieces", piecesSection(v, true), piecesSection(v, false)},
	}
	names := make([]string, len(sections))
	for i, s := range sections {
		names[i] = s.name
	}
	// room(i) is the room the pointer needs once section i is placed: at
	// most the sections left out so far and every later one.
	var left []string
	room := func(i int) int {
		return 1 + len(rulesPointer(append(append([]string(nil), left...), names[i+1:]...), page))
	}
	text := truncate(head, maxReply-room(-1))
	for i, s := range sections {
		fits := func(t string) bool { return t != "" && len(text)+1+len(t)+room(i) <= maxReply }
		switch {
		case s.text == "":
		case fits(s.text):
			text += "\n" + s.text
		case fits(s.short):
			text += "\n" + s.short
		default:
			left = append(left, s.name)
		}
	}
	return text + "\n" + rulesPointer(left, page)
}

// rulesPointer says where the full rules are, naming the sections of
// /rules that did not fit.
func rulesPointer(left []string, page string) string {
	if len(left) == 0 {
		return "Full rules, every decision and diagrams: " + page
	}
	return "More (" + strings.Join(left, ", ") + ") and the full rules: " + page
}

// notationSection explains how to write each kind of special move, each
// with its example; "" when the variant has none.
func notationSection(ns []rules.NotationHelp) string {
	if len(ns) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("**How to write its moves**")
	for _, n := range ns {
		fmt.Fprintf(&b, "\n• %s `%s`: %s", n.Kind, n.Example, n.How)
	}
	return b.String()
}

// marksSection explains the marks of move texts and of the board: the
// capture, promotion and check marks as the variant's data says they are
// used, then the variant's own marks.
func marksSection(v *rules.Variant) string {
	var b strings.Builder
	b.WriteString("**Marks**\n• `x` a capture")
	if v.Promotion.Zone > 0 {
		b.WriteString(", `=` a promotion")
	}
	if v.CheckRule || v.Hooks.Check != nil {
		b.WriteString(", `+` check, `#` checkmate")
	}
	for _, m := range v.Help.Marks {
		mark := m.Mark
		if !strings.Contains(mark, " ") {
			mark = "`" + mark + "`"
		}
		fmt.Fprintf(&b, "\n• %s — %s", mark, m.Meaning)
	}
	return b.String()
}

// maxPieceNames is the longest list of piece names /rules shows when the
// pieces with their movement go to the next message; a longer one (Cold
// Fusion's 25) is left to that message alone.
const maxPieceNames = 300

// piecesSection lists v's pieces: with moves, each on a line of its own
// with its movement in words (rules.Describe, generated from its Betza
// and its own Legend); without, by letter and name only (or, when that
// list is long, not at all), saying that the next message describes them
// (rulesReply sends it).
func piecesSection(v *rules.Variant, moves bool) string {
	if moves {
		return strings.Join(pieceLines(v), "\n")
	}
	names := make([]string, len(v.Pieces))
	for i, p := range v.Pieces {
		names[i] = fmt.Sprintf("%c %s", p.Letter, p.Name)
	}
	if list := strings.Join(names, ", "); len(list) <= maxPieceNames {
		return "Pieces: " + list + " (moves use the capital letter for either side); how each moves is in the next message."
	}
	return fmt.Sprintf("Pieces: %d kinds; each, with how it moves, is in the next message.", len(v.Pieces))
}

// pieceLines is the heading and one line per piece of v: its letter,
// name and how it moves (rules.Describe).
func pieceLines(v *rules.Variant) []string {
	lines := []string{"**Pieces** (moves use the capital letter for either side)"}
	for _, p := range v.Pieces {
		lines = append(lines, fmt.Sprintf("• %c %s: %s", p.Letter, p.Name, rules.Describe(p)))
	}
	return lines
}

// optionsSection lists the options a challenge may set, each with its
// values (the default first) and, with docs, what it does; "" when there
// are none.
func optionsSection(opts []rules.OptionDef, docs bool) string {
	if len(opts) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("Options, the default first (/challenge options:key=value):")
	for i, o := range opts {
		switch {
		case docs:
			b.WriteString("\n•")
		case i > 0:
			b.WriteString(",")
		}
		fmt.Fprintf(&b, " %s=%s", o.Key, strings.Join(o.Values, "|"))
		if docs && o.Doc != "" {
			b.WriteString(": " + o.Doc)
		}
	}
	return b.String()
}

// defineRules defines /rules.
func defineRules(c catalogue) commandDef {
	return commandDef{Spec{Name: cmdRules, Description: "A variant's rules in short, how to write its special moves, its marks and pieces", Options: []OptionSpec{
		{Name: optVariant, Description: "The variant", Kind: OptionString, Required: true, Choices: c.variants}}},
		func(h *Handler, _ context.Context, req Request) (Reply, error) {
			return h.rulesCmd(req.Options[optVariant])
		}}
}
