// Package variantsini reads variant definitions written in
// Fairy-Stockfish's variants.ini format and compiles each section into a
// variant of package rules.
//
// A text is a list of sections. "[name]" starts a variant from the empty
// template (standard chess rules without any pieces); "[name:parent]"
// starts from the parent: a variant of the registry that is expressible
// in the format (chess, crazyhouse, grand), one of the format's own
// simpler variants written here as settings (giveaway, capablanca, ...;
// the error for an unknown parent lists them all), or a section earlier
// in the same text. Each following "key = value" line sets one rule (a
// key set twice takes its last value); lines starting with '#' or ';'
// are comments. The keys understood are listed
// by SupportedKeys; a key of the format that the engine cannot play is
// refused with its line number and name, never ignored. The GUI-only keys
// (pieceToCharTable, variantTemplate, pocketSize) are accepted and
// ignored.
//
// What a key means follows Fairy-Stockfish's published description of
// the format, and is checked against Fairy-Stockfish by perft (the tests
// of this package); the code here is fairypost's own.
package variantsini

import (
	"fmt"
	"sort"
	"strings"
)

// MaxTextBytes bounds the size of a text Parse reads.
const MaxTextBytes = 256 << 10

// Error is one problem of a text, at a line (1-based; 0 when the problem
// is the text as a whole).
type Error struct {
	Line int
	Msg  string
}

func (e Error) Error() string {
	if e.Line == 0 {
		return e.Msg
	}
	return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
}

// ErrorList is every problem found in a text, in line order. It is the
// error Parse and Compile return.
type ErrorList []Error

func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

func (l ErrorList) sorted() ErrorList {
	sort.SliceStable(l, func(i, j int) bool { return l[i].Line < l[j].Line })
	return l
}

// Entry is one "key = value" line of a section.
type Entry struct {
	Line       int
	Key, Value string
}

// Section is one "[name]" or "[name:parent]" block with its entries.
type Section struct {
	Line    int // the line of the header
	Name    string
	Parent  string // "" for the empty template
	Entries []Entry
}

// Parse splits text into sections. It checks the shape of the text only
// (headers, key = value lines, names); what the keys mean is Compile's
// business. Problems are returned together, one per line, as an
// ErrorList.
func Parse(text string) ([]Section, error) {
	if len(text) > MaxTextBytes {
		return nil, ErrorList{{Msg: fmt.Sprintf("the text is %d KB; at most %d KB are read", len(text)>>10, MaxTextBytes>>10)}}
	}
	var errs ErrorList
	var out []Section
	seen := map[string]int{}
	lines := strings.Split(text, "\n")
	for i, raw := range lines {
		n := i + 1
		line := strings.TrimSpace(strings.TrimSuffix(raw, "\r"))
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if !isPrintableASCII(line) {
			errs = append(errs, Error{n, "only printable ASCII characters are allowed"})
			continue
		}
		if line[0] == '[' {
			s, msg := parseHeader(line)
			if msg != "" {
				errs = append(errs, Error{n, msg})
				// Keep reading the section's lines against a placeholder so
				// that their own problems are reported too.
				out = append(out, Section{Line: n, Name: ""})
				continue
			}
			s.Line = n
			if first, dup := seen[s.Name]; dup {
				errs = append(errs, Error{n, fmt.Sprintf("section [%s] is defined twice (first on line %d)", s.Name, first)})
			}
			seen[s.Name] = n
			out = append(out, s)
			continue
		}
		key, value, ok := strings.Cut(line, "=")
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		switch {
		case len(out) == 0:
			errs = append(errs, Error{n, "a line outside any section: start with a header such as [myvariant:chess]"})
			continue
		case !ok:
			errs = append(errs, Error{n, fmt.Sprintf("%q is not of the form key = value", line)})
			continue
		case key == "":
			errs = append(errs, Error{n, "a value without a key"})
			continue
		}
		// A key set twice takes its last value, as in the format.
		sec := &out[len(out)-1]
		replaced := false
		for i, e := range sec.Entries {
			if e.Key == key {
				sec.Entries[i] = Entry{Line: n, Key: key, Value: value}
				replaced = true
				break
			}
		}
		if !replaced {
			sec.Entries = append(sec.Entries, Entry{Line: n, Key: key, Value: value})
		}
	}
	if len(out) == 0 && len(errs) == 0 {
		errs = append(errs, Error{Msg: "no section: a variant starts with a header such as [myvariant:chess]"})
	}
	if len(errs) > 0 {
		return nil, errs.sorted()
	}
	return out, nil
}

// parseHeader reads "[name]" or "[name:parent]".
func parseHeader(line string) (Section, string) {
	if !strings.HasSuffix(line, "]") {
		return Section{}, fmt.Sprintf("header %q does not end with ]", line)
	}
	inner := strings.TrimSpace(line[1 : len(line)-1])
	name, parent, _ := strings.Cut(inner, ":")
	name, parent = strings.TrimSpace(name), strings.TrimSpace(parent)
	if msg := checkName(name); msg != "" {
		return Section{}, "section name: " + msg
	}
	if strings.Contains(inner, ":") {
		if msg := checkName(parent); msg != "" {
			return Section{}, "parent name: " + msg
		}
	}
	return Section{Name: name, Parent: parent}, ""
}

// MaxNameLen bounds a section's name.
const MaxNameLen = 32

// checkName returns what is wrong with a section name, or "".
func checkName(s string) string {
	if s == "" {
		return "empty"
	}
	if len(s) > MaxNameLen {
		return fmt.Sprintf("%q is longer than %d characters", s, MaxNameLen)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return fmt.Sprintf("%q: use lowercase letters, digits, '-' and '_' only", s)
		}
	}
	return ""
}

func isPrintableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < ' ' || c > '~') && c != '\t' {
			return false
		}
	}
	return true
}
