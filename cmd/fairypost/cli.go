package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fairypost/fairypost/rules"
)

// Exit statuses of Main.
const (
	exitOK       = 0
	exitInternal = 1 // something broke that is not the user's doing
	exitBadInput = 2 // unknown command or flag, bad variant, FEN, move...
)

// Main runs fairypost with the command-line arguments args (without the
// program name), reading from stdin and writing to stdout and stderr, and
// returns the process exit status: 0 on success, 2 for bad input, 1 for an
// internal error. Every error is reported as one line on stderr; nothing
// is written to stdout then. Main has no global state: tests call it in
// the same process, in parallel.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr, registry: rules.NewRegistry,
		terminal: isTerminal, getenv: os.Getenv}
	return a.run(ctx, args)
}

// app is one invocation of fairypost: its streams and its dependencies.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// registry builds the variant registry (tests substitute their own).
	registry func() (*rules.Registry, error)
	// terminal reports whether a stream is a terminal: the console is
	// interactive (banner, prompts, background clocks) only when its
	// input is one (tests substitute their own).
	terminal func(io.Reader) bool
	// getenv reads the environment (DISCORD_TOKEN).
	getenv func(string) string
	// bare is set when fairypost was run with no arguments at all: only
	// then does "run" without a token start the console.
	bare bool
}

// command is one subcommand of fairypost.
type command struct {
	name     string
	synopsis string // the arguments after the name, for usage lines
	summary  string // one line for the command list
	doc      string // paragraphs for "fairypost help NAME"
	// setup declares the command's flags on fs and returns the function
	// that runs the command once fs is parsed. nil only for help, which
	// run handles itself.
	setup func(fs *flag.FlagSet) runFunc
}

// runFunc runs a command whose flags are parsed. Errors made with
// badInput give exit status 2, others 1.
type runFunc func(ctx context.Context, a *app) error

// commands lists fairypost's commands in the order of DESIGN.md §3.
func commands() []command {
	return []command{
		runCommand(),
		consoleCommand(),
		variantsCommand(),
		analyzeCommand(),
		perftCommand(),
		arenaCommand(),
		fitcurveCommand(),
		renderCommand(),
		docsCommand(),
		exportCommand(),
		linkCommand(),
		webCommand(),
		annotateCommand(),
		backupCommand(),
		checkCommand(),
		migrateCommand(),
		{name: "help", synopsis: "[COMMAND]",
			summary: "show this help, or one command's flags"},
	}
}

// findCommand returns the command called name.
func findCommand(name string) (command, bool) {
	for _, c := range commands() {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// availableNames returns the names of the commands, for error messages.
func availableNames() string {
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	return strings.Join(names, ", ")
}

// run dispatches args to a command and returns the exit status. A panic
// (a bug) is reported as one line with exit status 1, not a stack trace.
func (a *app) run(ctx context.Context, args []string) (code int) {
	if len(args) == 0 {
		// "fairypost" alone is "fairypost run", which then falls back to
		// the console when no token is set.
		args, a.bare = []string{"run"}, true
	}
	name, rest := args[0], args[1:]
	defer func() {
		if r := recover(); r != nil {
			code = a.report(name, fmt.Errorf("panic: %v (this is a bug; please report it with the command line)", r))
		}
	}()
	switch name {
	case "help", "-h", "-help", "--help":
		return a.help(rest)
	}
	if strings.HasPrefix(name, "-") {
		// Flags without a command are run's: "fairypost -config FILE".
		name, rest = "run", args
	}
	cmd, ok := findCommand(name)
	if !ok {
		return a.report("", badInput("unknown command %s (commands: %s; see 'fairypost help')", quote(name), availableNames()))
	}
	fs := flag.NewFlagSet("fairypost "+name, flag.ContinueOnError)
	// The flag package would print the error and the whole usage; we report
	// one line instead, and print the usage only when asked for it.
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	runCmd := cmd.setup(fs)
	if err := fs.Parse(rest); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			a.commandUsage(a.stdout, cmd)
			return exitOK
		}
		return a.report(name, badInput("%v (see 'fairypost help %s')", err, name))
	}
	if fs.NArg() > 0 {
		return a.report(name, badInput("unexpected argument %s: every input is a flag, like -variant chess (see 'fairypost help %s')", quote(fs.Arg(0)), name))
	}
	return a.report(name, runCmd(ctx, a))
}

// help runs "fairypost help [COMMAND]".
func (a *app) help(args []string) int {
	switch len(args) {
	case 0:
		a.usage(a.stdout)
		return exitOK
	case 1:
		cmd, ok := findCommand(args[0])
		if !ok {
			return a.report("help", badInput("unknown command %s (commands: %s)", quote(args[0]), availableNames()))
		}
		a.commandUsage(a.stdout, cmd)
		return exitOK
	}
	return a.report("help", badInput("want at most one command name, got %d arguments", len(args)))
}

// usage writes the overview of fairypost's commands to w.
func (a *app) usage(w io.Writer) {
	var b strings.Builder
	b.WriteString("fairypost: a Discord bot for correspondence chess variants.\n\n")
	b.WriteString("Usage: fairypost <command> [flags]\n\nCommands:\n")
	for _, c := range commands() {
		fmt.Fprintf(&b, "  %-9s %s\n", c.name, c.summary)
	}
	b.WriteString("\n\"fairypost\" with no arguments is \"fairypost run\": the bot, or the local console\n" +
		"when DISCORD_TOKEN is not set. Flags without a command are run's.\n\n" +
		"Run 'fairypost help <command>' for a command's flags.\n" +
		"Exit status: 0 success, 2 bad input or configuration, 1 internal error or Discord unreachable.\n")
	io.WriteString(w, b.String())
}

// commandUsage writes one command's usage, description and flags to w.
func (a *app) commandUsage(w io.Writer, cmd command) {
	fmt.Fprintf(w, "Usage: fairypost %s %s\n\n%s.\n", cmd.name, cmd.synopsis, upperFirst(cmd.summary))
	if cmd.name == "help" {
		return
	}
	if cmd.doc != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(cmd.doc))
	}
	fs := flag.NewFlagSet(cmd.name, flag.ContinueOnError)
	cmd.setup(fs)
	fmt.Fprintf(w, "\nFlags:\n")
	fs.SetOutput(w)
	fs.PrintDefaults()
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// inputError is an error in what the user gave: exit status 2.
type inputError struct{ err error }

func (e inputError) Error() string { return e.err.Error() }
func (e inputError) Unwrap() error { return e.err }

// badInput returns an inputError formatted as by fmt.Errorf (%w works).
func badInput(format string, args ...any) error {
	return inputError{fmt.Errorf(format, args...)}
}

// maxQuoted is how many bytes of an input (a FEN, a move, a flag's value)
// an error message quotes; maxErrorLine bounds the whole message, whatever
// the errors it wraps quote.
const (
	maxQuoted    = 64
	maxErrorLine = 1000
)

// quote returns s quoted as %q does; an s longer than maxQuoted bytes is
// cut there (at a character boundary) and its length said, so that a
// huge input does not make a huge error line.
func quote(s string) string {
	if len(s) <= maxQuoted {
		return strconv.Quote(s)
	}
	return fmt.Sprintf("%s... (%d bytes)", strconv.Quote(cutAt(s, maxQuoted)), len(s))
}

// bounded returns msg cut to at most max bytes (at a character boundary),
// saying how much was cut.
func bounded(msg string, max int) string {
	if len(msg) <= max {
		return msg
	}
	head := cutAt(msg, max)
	return fmt.Sprintf("%s... (%d more bytes)", head, len(msg)-len(head))
}

// cutAt returns the longest prefix of s of at most n bytes that ends at
// a character boundary.
func cutAt(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// outsideError is a failure of something outside fairypost (the network,
// Discord): exit status 1, reported without calling it an internal error.
type outsideError struct{ err error }

func (e outsideError) Error() string { return e.err.Error() }
func (e outsideError) Unwrap() error { return e.err }

// report writes err, if any, as one line on stderr and returns the exit
// status for it.
func (a *app) report(cmd string, err error) int {
	if err == nil {
		return exitOK
	}
	prefix := "fairypost"
	if cmd != "" {
		prefix += " " + cmd
	}
	msg := strings.Join(strings.FieldsFunc(err.Error(), func(r rune) bool { return r == '\n' || r == '\r' }), "; ")
	msg = bounded(msg, maxErrorLine)
	var in inputError
	if errors.As(err, &in) {
		fmt.Fprintf(a.stderr, "%s: %s\n", prefix, msg)
		return exitBadInput
	}
	var out outsideError
	if errors.As(err, &out) {
		fmt.Fprintf(a.stderr, "%s: %s\n", prefix, msg)
		return exitInternal
	}
	fmt.Fprintf(a.stderr, "%s: internal error: %s\n", prefix, msg)
	return exitInternal
}

// writeJSON writes v to stdout as one line of JSON. HTML characters are
// not escaped: canonical moves may contain '>'.
func (a *app) writeJSON(v any) error {
	w := bufio.NewWriter(a.stdout)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	return w.Flush()
}

// writeLines writes lines to stdout, each followed by a newline.
func (a *app) writeLines(lines []string) error {
	w := bufio.NewWriter(a.stdout)
	for _, l := range lines {
		w.WriteString(l)
		w.WriteByte('\n')
	}
	return w.Flush()
}
