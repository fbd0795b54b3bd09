package console

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fairypost/fairypost/bot/command"
	"github.com/fairypost/fairypost/rules/variantsini"
)

// MaxLineLength is the longest input line the console reads, in bytes.
const MaxLineLength = 4096

// MaxUserName is the longest console user name, in bytes.
const MaxUserName = 32

// lineKind is what a parsed input line asks for.
type lineKind int

const (
	lineEmpty   lineKind = iota // blank or a comment: nothing to do
	lineAs                      // "as NAME" alone: switch the current user
	lineCommand                 // a slash command (possibly after "as NAME")
	linePress                   // "/press CUSTOMID": a button click
	lineHelp                    // "help"
	lineQuit                    // "quit", "exit"
	lineWait                    // "wait DURATION": advance the console's clock
)

// line is one parsed input line.
type line struct {
	kind lineKind
	// user is the name after "as", "" when the line has none.
	user string
	// name and options are the slash command (lineCommand).
	name    string
	options map[string]string
	// arg is the custom ID of a press or the duration of a wait.
	arg string
}

// inputError is a line the console cannot run: its message is shown to
// the person typing and the console goes on with the next line.
type inputError struct{ msg string }

func (e *inputError) Error() string { return e.msg }

func inputErrorf(format string, args ...any) error {
	return &inputError{fmt.Sprintf(format, args...)}
}

// parser reads input lines against the commands' specs.
type parser struct {
	specs []command.Spec
}

// spec returns the command called name.
func (p *parser) spec(name string) (command.Spec, bool) {
	for _, s := range p.specs {
		if s.Name == name {
			return s, true
		}
	}
	return command.Spec{}, false
}

// commandNames returns "/a, /b, ..." for messages.
func (p *parser) commandNames() string {
	names := make([]string, len(p.specs))
	for i, s := range p.specs {
		names[i] = "/" + s.Name
	}
	return strings.Join(names, ", ")
}

// parse reads one input line. Errors are *inputError with a message for
// the person typing. A line that starts with a valid "as NAME" names its
// user even when the rest is refused (the returned line's user is set,
// its kind is lineEmpty): the line still switches the current user, so a
// script's next lines are not typed by whoever typed before.
func (p *parser) parse(text string) (line, error) {
	if err := checkText(text); err != nil {
		return line{}, err
	}
	toks, err := tokenize(text)
	if err != nil {
		return line{}, err
	}
	if len(toks) == 0 || strings.HasPrefix(toks[0].text, "#") && !toks[0].quoted {
		return line{kind: lineEmpty}, nil
	}
	var l line
	if first := toks[0]; !first.quoted && strings.EqualFold(first.text, "as") {
		if len(toks) < 2 {
			return line{}, inputErrorf("Say who is typing: as NAME, e.g. as alice (then the command, or nothing to switch user).")
		}
		user, err := userName(toks[1].text, "as")
		if err != nil {
			return line{}, err
		}
		l.user = user
		toks = toks[2:]
		if len(toks) == 0 {
			l.kind = lineAs
			return l, nil
		}
	}
	rest, err := p.parseCommand(toks, l.user != "")
	if err != nil {
		return line{user: l.user}, err
	}
	rest.user = l.user
	return rest, nil
}

// parseCommand reads what follows "as NAME" (after is true then) or a
// whole line without it: a slash command, /press, or (only without
// "as NAME") help, quit or wait. toks is not empty.
func (p *parser) parseCommand(toks []token, after bool) (line, error) {
	var l line
	word := toks[0]
	switch {
	case !word.quoted && !after && (word.text == "help" || word.text == "?"):
		if len(toks) > 1 {
			return line{}, inputErrorf("help takes nothing after it; for a command's options type /help or help alone.")
		}
		l.kind = lineHelp
		return l, nil
	case !word.quoted && !after && (word.text == "quit" || word.text == "exit"):
		l.kind = lineQuit
		return l, nil
	case !word.quoted && !after && word.text == "wait":
		if len(toks) != 2 {
			return line{}, inputErrorf("wait takes one duration, e.g. wait 3d or wait 12h.")
		}
		l.kind, l.arg = lineWait, toks[1].text
		return l, nil
	case word.quoted || !strings.HasPrefix(word.text, "/"):
		if _, ok := p.spec(strings.ToLower(word.text)); ok && !word.quoted {
			return line{}, inputErrorf("Commands start with a slash: /%s. Type help for the console's syntax.", strings.ToLower(word.text))
		}
		return line{}, inputErrorf("%q is not a command: type a slash command such as /games, \"as NAME\" to switch user, help or quit.", clip(word.text))
	}
	name := strings.ToLower(strings.TrimPrefix(word.text, "/"))
	if name == "press" {
		if len(toks) != 2 {
			return line{}, inputErrorf("/press takes one button ID, as shown after a button: /press ID.")
		}
		l.kind, l.arg = linePress, toks[1].text
		return l, nil
	}
	spec, ok := p.spec(name)
	if !ok {
		return line{}, inputErrorf("Unknown command /%s. Commands: %s, and the console's /press ID.", clip(name), p.commandNames())
	}
	opts, err := parseOptions(spec, toks[1:])
	if err != nil {
		return line{}, err
	}
	l.kind, l.name, l.options = lineCommand, spec.Name, opts
	return l, nil
}

// parseOptions reads a command's options: name:value pairs, and bare
// values that go to the next option not given yet (required options
// first, in the spec's order; a value starting with @ goes to the first
// such user option). Values are checked as Discord checks them: integers
// are numbers, users are names, choices are one of theirs; required
// options must be there.
func parseOptions(spec command.Spec, toks []token) (map[string]string, error) {
	opts := map[string]string{}
	var bare []token
	// first is the first required option given (by name or bare) and
	// firstText its value: "/move move:e4 e5" and "/move e4 e5" alike get
	// "one move at a time".
	first, firstText := "", ""
	for _, t := range toks {
		name, value, ok := strings.Cut(t.text, ":")
		if t.quoted || !ok || t.colonQuoted {
			bare = append(bare, t)
			continue
		}
		name = strings.ToLower(name)
		o, found := optionSpec(spec, name)
		if !found {
			return nil, inputErrorf("/%s has no option %q. %s", spec.Name, clip(name), optionList(spec))
		}
		if _, dup := opts[o.Name]; dup {
			return nil, inputErrorf("Option %s is given twice.", o.Name)
		}
		v, err := optionValue(spec, o, value)
		if err != nil {
			return nil, err
		}
		opts[o.Name] = v
		if first == "" && o.Required {
			first, firstText = o.Name, value
		}
	}
	for _, t := range bare {
		o, ok := nextOption(spec, opts, strings.HasPrefix(t.text, "@") && !t.quoted)
		if !ok {
			return nil, inputErrorf("Too many values: %q has no option left to go to. %s", clip(t.text), optionList(spec))
		}
		v, err := optionValue(spec, o, t.text)
		if err != nil && first != "" && o.Kind == command.OptionInteger && !o.Required {
			// "/move e4 e5": a second value of the same kind, not the
			// optional number it would go to.
			return nil, inputErrorf("/%s takes one %s at a time: type /%s %s, then /%s %s (a second value would be the %s: number).",
				spec.Name, first, spec.Name, clip(firstText), spec.Name, clip(t.text), o.Name)
		}
		if err != nil {
			return nil, err
		}
		if first == "" && o.Required {
			first, firstText = o.Name, t.text
		}
		opts[o.Name] = v
	}
	var missing []string
	for _, o := range spec.Options {
		if _, ok := opts[o.Name]; o.Required && !ok {
			missing = append(missing, o.Name)
		}
	}
	if len(missing) > 0 {
		what := "the option " + missing[0]
		if len(missing) > 1 {
			what = "the options " + strings.Join(missing, ", ")
		}
		return nil, inputErrorf("/%s needs %s. %s", spec.Name, what, optionList(spec))
	}
	return opts, nil
}

// nextOption returns the option a bare value goes to: the first required
// option not given, else the first optional one; for a user value
// (@name), the first user option not given, if any.
func nextOption(spec command.Spec, given map[string]string, user bool) (command.OptionSpec, bool) {
	var order []command.OptionSpec
	for _, required := range []bool{true, false} {
		for _, o := range spec.Options {
			if _, ok := given[o.Name]; !ok && o.Required == required {
				order = append(order, o)
			}
		}
	}
	if user {
		for _, o := range order {
			if o.Kind == command.OptionUser {
				return o, true
			}
		}
	}
	if len(order) == 0 {
		return command.OptionSpec{}, false
	}
	return order[0], true
}

// optionSpec returns spec's option called name.
func optionSpec(spec command.Spec, name string) (command.OptionSpec, bool) {
	for _, o := range spec.Options {
		if o.Name == name {
			return o, true
		}
	}
	return command.OptionSpec{}, false
}

// maxAttachment is the most bytes of a file the console attaches (the
// variants.ini reader's limit).
const maxAttachment = variantsini.MaxTextBytes

// readAttachment reads the file at path for the attachment option name:
// the console attaches files by their path.
func readAttachment(name, path string) (string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", inputErrorf("Option %s: %v", name, err)
	}
	if st.Size() > maxAttachment {
		return "", inputErrorf("Option %s: %s is %d KB; at most %d KB are read.", name, path, st.Size()>>10, maxAttachment>>10)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", inputErrorf("Option %s: %v", name, err)
	}
	return string(b), nil
}

// optionValue checks value for option o and returns what goes into the
// request: the user ID for a user option, the number for an integer.
func optionValue(spec command.Spec, o command.OptionSpec, value string) (string, error) {
	if value == "" {
		return "", inputErrorf("Option %s has no value: write %s:VALUE (quote values with spaces: %s:\"a b\").", o.Name, o.Name, o.Name)
	}
	switch o.Kind {
	case command.OptionUser:
		return userName(value, o.Name)
	case command.OptionAttachment:
		return readAttachment(o.Name, value)
	case command.OptionInteger:
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil {
			return "", inputErrorf("Option %s: %q is not a whole number.", o.Name, clip(value))
		}
		value = strconv.FormatInt(n, 10)
	}
	if len(o.Choices) > 0 {
		values := make([]string, len(o.Choices))
		for i, c := range o.Choices {
			if c.Value == value || strings.EqualFold(c.Name, value) || strings.EqualFold(c.Value, value) {
				return c.Value, nil
			}
			values[i] = c.Value
		}
		return "", inputErrorf("Option %s: %q is not one of %s.", o.Name, clip(value), strings.Join(values, ", "))
	}
	return value, nil
}

// optionList describes spec's options for messages.
func optionList(spec command.Spec) string {
	if len(spec.Options) == 0 {
		return fmt.Sprintf("/%s takes no options.", spec.Name)
	}
	var parts []string
	for _, o := range spec.Options {
		s := o.Name + ":" + kindHint(o)
		if !o.Required {
			s = "[" + s + "]"
		}
		parts = append(parts, s)
	}
	return fmt.Sprintf("Usage: /%s %s", spec.Name, strings.Join(parts, " "))
}

// kindHint is the placeholder of an option's value in usage lines.
func kindHint(o command.OptionSpec) string {
	if len(o.Choices) > 0 && len(o.Choices) <= 8 {
		vs := make([]string, len(o.Choices))
		for i, c := range o.Choices {
			vs[i] = c.Value
		}
		return strings.Join(vs, "|")
	}
	switch o.Kind {
	case command.OptionUser:
		return "@NAME"
	case command.OptionInteger:
		return "N"
	}
	return strings.ToUpper(o.Name)
}

// userName checks a console user name (an optional @, then 1 to
// MaxUserName letters, digits, '_', '-' or '.') and returns it without
// the @. what names the place of the name for the message.
func userName(s, what string) (string, error) {
	name := strings.TrimPrefix(s, "@")
	ok := name != "" && len(name) <= MaxUserName
	for _, r := range name {
		if !(r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)) || r == '_' || r == '-' || r == '.') {
			ok = false
		}
	}
	if !ok {
		return "", inputErrorf("%s: %q is not a user name: use 1 to %d letters, digits, '_', '-' or '.' (like alice or @bob).", what, clip(s), MaxUserName)
	}
	return name, nil
}

// checkText refuses lines the console does not read: too long, not
// UTF-8, or with control characters (a NUL byte...).
func checkText(text string) error {
	switch {
	case len(text) > MaxLineLength:
		return inputErrorf("The line is too long (%d bytes; at most %d).", len(text), MaxLineLength)
	case !utf8.ValidString(text):
		return inputErrorf("The line is not valid UTF-8 text.")
	}
	if i := strings.IndexFunc(text, func(r rune) bool { return unicode.IsControl(r) && r != '\t' }); i >= 0 {
		r, _ := utf8.DecodeRuneInString(text[i:])
		if r == 0 {
			return inputErrorf("The line contains a NUL byte (at byte %d); it was ignored.", i+1)
		}
		return inputErrorf("The line contains the control character %U (at byte %d); it was ignored.", r, i+1)
	}
	return nil
}

// token is one word of a line.
type token struct {
	text string
	// quoted: the whole word was in quotes ("a b"), so it is a value.
	quoted bool
	// colonQuoted: the first ':' of text came from inside quotes, so it
	// does not separate an option name.
	colonQuoted bool
}

// tokenize splits a line into words at spaces. Double quotes group
// spaces into a word and are removed; inside them \" is a quote and \\ a
// backslash. name:"a b" is one word, name:a b.
func tokenize(text string) ([]token, error) {
	var toks []token
	var b strings.Builder
	inWord, inQuote, quotedAll, sawColon, colonQuoted := false, false, false, false, false
	start := 0
	flush := func() {
		if inWord {
			toks = append(toks, token{text: b.String(), quoted: quotedAll, colonQuoted: colonQuoted})
		}
		b.Reset()
		inWord, quotedAll, sawColon, colonQuoted = false, false, false, false
	}
	rs := []rune(text)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case inQuote && r == '\\' && i+1 < len(rs) && (rs[i+1] == '"' || rs[i+1] == '\\'):
			i++
			b.WriteRune(rs[i])
		case r == '"':
			if !inQuote && !inWord {
				quotedAll = true
				start = i
			} else if !inQuote {
				quotedAll = false
				start = i
			}
			inWord = true
			inQuote = !inQuote
			if !inQuote && i+1 < len(rs) && !unicode.IsSpace(rs[i+1]) {
				quotedAll = false
			}
		case !inQuote && unicode.IsSpace(r):
			flush()
		default:
			if r == ':' && !sawColon {
				sawColon = true
				colonQuoted = inQuote
			}
			inWord = true
			b.WriteRune(r)
		}
	}
	if inQuote {
		return nil, inputErrorf("A quote is not closed (the one at character %d): write \"...\" around values with spaces.", start+1)
	}
	flush()
	return toks, nil
}

// clip shortens s for messages.
func clip(s string) string {
	const max = 40
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return string(r[:max]) + "…"
}
