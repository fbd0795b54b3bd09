package console

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/bot/command"
)

// testSpecs are specs shaped like the handler's, so that the parser is
// tested on its own (the console tests use the real ones).
var testSpecs = []command.Spec{
	{Name: "challenge", Description: "Challenge someone.", Options: []command.OptionSpec{
		{Name: "variant", Kind: command.OptionString, Required: true, Autocomplete: true},
		{Name: "opponent", Kind: command.OptionUser},
		{Name: "days", Kind: command.OptionInteger, Choices: []command.Choice{{Name: "1 day", Value: "1"}, {Name: "3 days", Value: "3"}}},
		{Name: "color", Kind: command.OptionString, Choices: []command.Choice{{Name: "White", Value: "white"}, {Name: "Black", Value: "black"}, {Name: "Random", Value: "random"}}},
		{Name: "options", Kind: command.OptionString},
	}},
	{Name: "accept", Options: []command.OptionSpec{{Name: "challenge", Kind: command.OptionInteger}}},
	{Name: "move", Options: []command.OptionSpec{
		{Name: "move", Kind: command.OptionString, Required: true, Autocomplete: true},
		{Name: "game", Kind: command.OptionInteger},
	}},
	{Name: "games"},
}

func TestParse(t *testing.T) {
	p := parser{specs: testSpecs}
	for _, tc := range []struct {
		in   string
		want line
	}{
		{"", line{kind: lineEmpty}},
		{"   \t ", line{kind: lineEmpty}},
		{"# a comment /move e4", line{kind: lineEmpty}},
		{"as alice", line{kind: lineAs, user: "alice"}},
		{"AS @bob", line{kind: lineAs, user: "bob"}},
		{"help", line{kind: lineHelp}},
		{"quit", line{kind: lineQuit}},
		{"exit", line{kind: lineQuit}},
		{"wait 3d", line{kind: lineWait, arg: "3d"}},
		{"/press fp1:accept:3:1", line{kind: linePress, arg: "fp1:accept:3:1"}},
		{"as bob /press fp1:accept:3:1", line{kind: linePress, user: "bob", arg: "fp1:accept:3:1"}},
		{"/games", line{kind: lineCommand, name: "games", options: map[string]string{}}},
		{"/move e4", line{kind: lineCommand, name: "move", options: map[string]string{"move": "e4"}}},
		{"/move e4 7", line{kind: lineCommand, name: "move", options: map[string]string{"move": "e4", "game": "7"}}},
		{"/move game:7 Q@e4", line{kind: lineCommand, name: "move", options: map[string]string{"move": "Q@e4", "game": "7"}}},
		{"/accept 3", line{kind: lineCommand, name: "accept", options: map[string]string{"challenge": "3"}}},
		{"/MOVE Move:e4", line{kind: lineCommand, name: "move", options: map[string]string{"move": "e4"}}},
		{"as alice /challenge @bob variant:tank days:3 color:white options:k=v",
			line{kind: lineCommand, user: "alice", name: "challenge", options: map[string]string{
				"opponent": "bob", "variant": "tank", "days": "3", "color": "white", "options": "k=v"}}},
		{`/challenge chess opponent:@bob options:"a=1, b=2" color:Black`,
			line{kind: lineCommand, name: "challenge", options: map[string]string{
				"opponent": "bob", "variant": "chess", "options": "a=1, b=2", "color": "black"}}},
		{`/challenge "x:y" days:"3"`, line{kind: lineCommand, name: "challenge", options: map[string]string{"variant": "x:y", "days": "3"}}},
		{`/challenge variant:"say \"hi\""`, line{kind: lineCommand, name: "challenge", options: map[string]string{"variant": `say "hi"`}}},
	} {
		got, err := p.parse(tc.in)
		if err != nil {
			t.Errorf("parse(%q): %v", tc.in, err)
			continue
		}
		if got.kind == lineCommand && got.options == nil {
			got.options = map[string]string{}
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("parse(%q)\n got %+v\nwant %+v", tc.in, got, tc.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	p := parser{specs: testSpecs}
	for _, tc := range []struct {
		in   string
		want []string // substrings of the message
	}{
		{"as", []string{"as NAME"}},
		{"as al!ce /games", []string{`"al!ce" is not a user name`}},
		{"as " + strings.Repeat("a", 33), []string{"is not a user name", "32"}},
		{"as @ /games", []string{`"@" is not a user name`}},
		{"/frobnicate", []string{"Unknown command /frobnicate", "/challenge, /accept, /move, /games"}},
		{"move e4", []string{"Commands start with a slash: /move"}},
		{"hello there", []string{`"hello" is not a command`}},
		{"/move", []string{"/move needs the option move.", "Usage: /move move:MOVE [game:N]"}},
		{"/move e4 7 8", []string{`Too many values: "8"`}},
		{"/move e4 colour:white", []string{`/move has no option "colour"`, "Usage: /move"}},
		{"/move e4 game:seven", []string{`Option game: "seven" is not a whole number`}},
		{"/move e4 e5", []string{"/move takes one move at a time: type /move e4, then /move e5 (a second value would be the game: number)."}},
		{"/move move:e4 e5", []string{"/move takes one move at a time: type /move e4, then /move e5 (a second value would be the game: number)."}},
		{"/move move:", []string{"Option move has no value"}},
		{"/move move:e4 MOVE:d4", []string{"Option move is given twice"}},
		{"/games x", []string{`Too many values: "x"`, "/games takes no options"}},
		{"/challenge chess color:purple", []string{`Option color: "purple" is not one of white, black, random`}},
		{"/challenge chess days:4", []string{`Option days: "4" is not one of 1, 3`}},
		{"/challenge chess opponent:b@b", []string{`opponent: "b@b" is not a user name`}},
		{`/challenge chess options:"a=1`, []string{"A quote is not closed"}},
		{"/move e4\x00", []string{"NUL byte"}},
		{"/move \x1b[31me4", []string{"control character U+001B"}},
		{"/move \xff", []string{"not valid UTF-8"}},
		{"/press", []string{"/press takes one button ID"}},
		{"help me", []string{"help takes nothing"}},
		{"wait", []string{"wait takes one duration"}},
	} {
		_, err := p.parse(tc.in)
		var ie *inputError
		if !errors.As(err, &ie) {
			t.Errorf("parse(%q): error %v, want an input error", tc.in, err)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(ie.msg, w) {
				t.Errorf("parse(%q): message %q does not contain %q", tc.in, ie.msg, w)
			}
		}
	}
}

func TestTokenize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []token
	}{
		{`a b`, []token{{text: "a"}, {text: "b"}}},
		{`"a b" c`, []token{{text: "a b", quoted: true}, {text: "c"}}},
		{`k:"a b"`, []token{{text: "k:a b"}}},
		{`"k:v"`, []token{{text: "k:v", quoted: true, colonQuoted: true}}},
		{`"a"b`, []token{{text: "ab"}}},
		{`""`, []token{{text: "", quoted: true}}},
		{`"a\\b\"c"`, []token{{text: `a\b"c`, quoted: true}}},
	} {
		got, err := tokenize(tc.in)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("tokenize(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
}

func TestMentions(t *testing.T) {
	for in, want := range map[string]string{
		"<@bob>, your turn":     "@bob, your turn",
		"<@!bob> and <@alice>":  "@bob and @alice",
		"a < b, <@> and <@x y>": "a < b, <@> and <@x y>",
		"no mention":            "no mention",
		"<@bob":                 "<@bob",
	} {
		if got := mentions(in); got != want {
			t.Errorf("mentions(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseDuration(t *testing.T) {
	for in, ok := range map[string]bool{"3d": true, "12h": true, "90m": true, "0d": false, "-1h": false, "400d": false, "soon": false} {
		if _, err := parseDuration(in); (err == nil) != ok {
			t.Errorf("parseDuration(%q): %v", in, err)
		}
	}
}

func TestSafeName(t *testing.T) {
	for in, want := range map[string]string{"board.png": "board.png", "../../etc/passwd": "passwd", "a b?.gif": "a_b_.gif", "..": "file", "": "file"} {
		if got := safeName(in); got != want {
			t.Errorf("safeName(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzParse: no line panics the parser; an accepted command names a
// known command and only its options, with a value for each.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"as alice /challenge @bob variant:tank days:3 color:white", `/move "e4`, "/move e4\x00", `as "al ice"`, `/challenge x:"a\"b" "y:z"`, "/press", "wait 3d", "\"\"", "/ ", "/move ::"} {
		f.Add(s)
	}
	p := parser{specs: testSpecs}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := p.parse(s)
		if err != nil {
			var ie *inputError
			if !errors.As(err, &ie) || ie.msg == "" {
				t.Fatalf("parse(%q): %v is not an input error with a message", s, err)
			}
			return
		}
		if l.kind != lineCommand {
			return
		}
		spec, ok := p.spec(l.name)
		if !ok {
			t.Fatalf("parse(%q): unknown command %q accepted", s, l.name)
		}
		for name, v := range l.options {
			if _, ok := optionSpec(spec, name); !ok || v == "" {
				t.Fatalf("parse(%q): option %q=%q", s, name, v)
			}
		}
	})
}
