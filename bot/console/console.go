// Package console is fairypost's terminal adapter: several local users
// play through the same commands as on Discord, typed as text.
//
// # Input
//
// One command a line, as typed in Discord, by the current user:
//
//	as alice                       switch the current user to alice
//	as alice /challenge @bob variant:tank days:3 color:white
//	/move e4                       a bare value goes to the next option
//	/accept 3                      (required options first)
//	/challenge @bob variant:chess options:"k=v,k2=v2"
//	/press fp1:accept:3:1          click a button shown under a reply
//	help, quit (or end of input), wait 3d (when the clock can be moved)
//
// "as NAME" sets the current user for this line and the following ones,
// even when the rest of the line is refused.
// Option values are name:value; values with spaces are quoted ("a b",
// with \" for a quote). @name values of user options are user IDs: a
// console user is just a name. Lines starting with # are comments. Every
// command and option is checked against command.Handler.Specs, so a typo
// gets a message listing what exists; a bad line never stops the console.
//
// # Output
//
// Replies are printed as text, with mentions <@id> shown as @id and
// without Discord's bold markers;
// replies only the typing user may see are marked so. A reply about a
// game (command.Reply.GameID) that everyone sees or that shows a board
// image is followed by the position as a text board. Attachments (board
// PNGs, game GIFs, PGN files) are written to the images folder and their
// paths printed. Buttons are printed with the /press line that clicks
// them. Notifications from the outbox are printed as "→ @bob: ...".
//
// In script mode (not Interactive), the time-based sweep and the delivery
// of notifications run synchronously after every line, so the output of a
// script is deterministic. Interactive consoles print a prompt and run a
// bot.Scheduler and a delivery loop in the background as well.
package console

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/command"
	"github.com/fairypost/fairypost/bot/computer"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/bot/notify"
	"github.com/fairypost/fairypost/bot/prefs"
)

// GuildID and ChannelID are where console requests come from. The guild
// is empty, as for every game outside Discord (a PGN export then has no
// Discord address); the channel is named so that the channel indexes of
// the store list the console's games and open challenges.
const (
	GuildID   = ""
	ChannelID = "console"
)

// DeliveryInterval is how often an interactive console looks for
// notifications to print between commands.
const DeliveryInterval = time.Second

// Config is what a Console is built from.
type Config struct {
	// Service is the game service; Handler runs the commands over it.
	Service *gameplay.Service
	Handler *command.Handler
	// Prefs keeps the players' settings (the Handler's): the console
	// holds the notifications of a player's daily digest by them.
	Prefs *prefs.Service
	// Outbox is the store the Service appends notifications to (the same
	// storage.DB): the console delivers them by printing.
	Outbox bot.Outbox
	// Out receives everything the console prints.
	Out io.Writer
	// ImagesDir is the folder attachments are written to, created with
	// the first one. Files are named NNN-name (NNN counting on from the
	// highest number already there), never overwriting a file.
	ImagesDir string
	// Interactive consoles print a prompt before each line and deliver
	// notifications and run the scheduler in the background; others
	// (scripts) sweep and deliver after each line, deterministically.
	Interactive bool
	// User is the current user at the start ("" for none: the first line
	// must say "as NAME").
	User string
	// Advance, when set, enables "wait DURATION", which moves the
	// Service's clock forward by calling it (tests and demos).
	Advance func(time.Duration)
	// Logger receives internal errors (nil: discarded).
	Logger *slog.Logger
}

// Console reads command lines and prints what they do. Run it once.
type Console struct {
	cfg    Config
	parser parser
	log    *slog.Logger

	mu      sync.Mutex // serialises lines, deliveries and printing
	out     *bufio.Writer
	user    string
	seq     int // number of the last file written
	deliver *notify.Deliverer
	// computer plays the computer player's turns (as @bot) after each
	// line, before the notifications print.
	computer *computer.Runner
	// written maps the Key of each attachment written (command.File.Key:
	// what the image shows) to its path, so the same image shown twice
	// (the board in a move's reply and again in the turn notification)
	// is written once.
	written map[string]string
}

// New returns a console for cfg. It fails if a required field is
// missing, the user name is not one, or the images folder is a file or
// cannot be looked at.
func New(cfg Config) (*Console, error) {
	if cfg.Service == nil || cfg.Prefs == nil || cfg.Handler == nil || cfg.Outbox == nil || cfg.Out == nil {
		return nil, errors.New("console: Service, Prefs, Handler, Outbox and Out are required")
	}
	if cfg.ImagesDir == "" {
		return nil, errors.New("console: ImagesDir is required")
	}
	if cfg.User != "" {
		if _, err := userName(cfg.User, "user"); err != nil {
			return nil, fmt.Errorf("console: %w", err)
		}
	}
	if st, err := os.Stat(cfg.ImagesDir); err == nil && !st.IsDir() {
		return nil, fmt.Errorf("console: images folder %s is a file", cfg.ImagesDir)
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("console: images folder: %w", err)
	}
	c := &Console{cfg: cfg, parser: parser{specs: cfg.Handler.Specs()}, log: cfg.Logger,
		out: bufio.NewWriter(cfg.Out), user: strings.TrimPrefix(cfg.User, "@")}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	c.seq = lastSeq(cfg.ImagesDir)
	c.deliver = notify.NewDeliverer(cfg.Outbox, c.send, cfg.Service.Now, c.log).Digests(cfg.Prefs)
	if cfg.Service.ComputerID() == "" {
		cfg.Service.SetComputer(ComputerUser)
	}
	c.computer = computer.NewRunner(cfg.Service, 1, c.log)
	return c, nil
}

// ComputerUser is the console's name of the computer player: challenge
// it with /challenge opponent:@bot (add level:N for its strength).
const ComputerUser = "bot"

// computerRounds bounds the computer's answers played after one line
// (each answer may hand it the turn again: a multi-part turn, a pass).
const computerRounds = 50

// Run reads lines from in until its end, "quit" or ctx's end, running
// each; bad lines get a message and the console goes on. It returns nil
// at the end of input or quit, ctx's error when ctx ends (at once, even
// while a read from in is blocked: the goroutine reading in then stays
// blocked until that read returns), and an error when reading in or
// writing the output fails.
func (c *Console) Run(ctx context.Context, in io.Reader) error {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()

	var sched *gameplay.Scheduler
	c.mu.Lock()
	if c.cfg.Interactive {
		c.printf("fairypost console: type help for the syntax, quit or Ctrl-D to leave.\n")
		if c.user == "" {
			c.printf("Start with \"as NAME\" to say who is typing, e.g. as alice.\n")
		}
		sched = gameplay.NewScheduler(c.cfg.Service, c.log)
		wg.Add(2)
		go func() {
			defer wg.Done()
			if err := sched.Run(ctx); err != nil && ctx.Err() == nil {
				c.log.Error("console: scheduler stopped", "err", err)
			}
		}()
		go func() {
			defer wg.Done()
			c.deliveryLoop(ctx)
		}()
	}
	c.after(ctx, sched)
	err := c.flush()
	c.mu.Unlock()
	if err != nil {
		return err
	}

	lines := readLines(ctx, in)
	for {
		if c.cfg.Interactive {
			c.mu.Lock()
			c.printf("%s> ", c.user)
			err := c.flush()
			c.mu.Unlock()
			if err != nil {
				return err
			}
		}
		var in input
		select {
		case <-ctx.Done():
			return ctx.Err()
		case in = <-lines:
		}
		if in.err == io.EOF && in.text == "" && !in.tooLong {
			if c.cfg.Interactive {
				c.mu.Lock()
				c.printf("\n")
				err := c.flush()
				c.mu.Unlock()
				return err
			}
			return nil
		}
		if in.err != nil && in.err != io.EOF {
			return fmt.Errorf("console: reading input: %w", in.err)
		}
		c.mu.Lock()
		quit := c.line(ctx, in.text, in.tooLong)
		c.after(ctx, sched)
		ferr := c.flush()
		c.mu.Unlock()
		if ferr != nil {
			return ferr
		}
		if quit || in.err == io.EOF {
			return nil
		}
	}
}

// input is one line read, as readLine returns it.
type input struct {
	text    string
	tooLong bool
	err     error
}

// readLines reads lines from in in a goroutine of its own, so that Run
// can return when ctx ends while a read is blocked (a terminal waiting
// for a line). The goroutine ends after the read that follows ctx's end,
// or at in's end or first error, which is the last input sent.
func readLines(ctx context.Context, in io.Reader) <-chan input {
	lines := make(chan input)
	go func() {
		r := bufio.NewReaderSize(in, 4096)
		for {
			text, tooLong, err := readLine(r)
			select {
			case lines <- input{text, tooLong, err}:
			case <-ctx.Done():
				return
			}
			if err != nil {
				return
			}
		}
	}()
	return lines
}

// line runs one input line and reports whether it asked to quit. c.mu is
// held.
func (c *Console) line(ctx context.Context, text string, tooLong bool) (quit bool) {
	if !c.cfg.Interactive && strings.TrimSpace(text) != "" {
		c.printf("> %s\n", printable(text))
	}
	if tooLong {
		c.problem(fmt.Sprintf("The line is too long (more than %d bytes); it was ignored.", MaxLineLength))
		return false
	}
	l, err := c.parser.parse(text)
	if l.user != "" { // "as NAME" switches the user even when the command is refused
		c.user = l.user
	}
	if err != nil {
		c.problem(err.Error())
		return false
	}
	switch l.kind {
	case lineEmpty, lineAs:
	case lineQuit:
		return true
	case lineHelp:
		c.help()
	case lineWait:
		c.wait(l.arg)
	case linePress:
		if c.noUser() {
			return false
		}
		c.show(ctx, c.cfg.Handler.Press(ctx, command.Request{UserID: c.user, GuildID: GuildID, ChannelID: ChannelID}, l.arg))
	case lineCommand:
		if c.noUser() {
			return false
		}
		req := command.Request{UserID: c.user, GuildID: GuildID, ChannelID: ChannelID, Name: l.name, Options: l.options}
		c.show(ctx, c.cfg.Handler.Execute(ctx, req))
	}
	return false
}

// noUser reports (and says) that nobody is typing yet.
func (c *Console) noUser() bool {
	if c.user != "" {
		return false
	}
	c.problem("Who is typing? Start with \"as NAME\", e.g. as alice /games.")
	return true
}

// after runs what follows each line: in script mode, the sweep of
// timed-out games and the delivery of notifications, so that they print
// in order; interactive consoles poke their scheduler and deliver at
// once too (the background loops catch the rest). c.mu is held.
func (c *Console) after(ctx context.Context, sched *gameplay.Scheduler) {
	if sched != nil {
		sched.Poke()
	} else if _, err := c.cfg.Service.Sweep(ctx); err != nil {
		c.log.Error("console: sweep", "err", err)
		c.problem("Checking clocks failed: " + bot.ErrorMessage(err))
	}
	if err := c.computer.PlayPending(ctx, computerRounds); err != nil && ctx.Err() == nil {
		c.log.Error("console: the computer player", "err", err)
		c.problem("The computer player could not answer: " + bot.ErrorMessage(err))
	}
	if _, err := c.deliver.RunOnce(ctx); err != nil && ctx.Err() == nil {
		c.log.Error("console: delivering notifications", "err", err)
	}
}

// deliveryLoop prints notifications every DeliveryInterval until ctx
// ends (interactive consoles).
func (c *Console) deliveryLoop(ctx context.Context) {
	t := time.NewTicker(DeliveryInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		c.deliverPending(ctx)
	}
}

// deliverPending prints the notifications due, then the prompt again if
// any was printed. A crash is logged and the loop goes on: the Deliverer
// recovers those of one notification (and sets a notification that keeps
// crashing aside); this recovers the rest, with c.mu released.
func (c *Console) deliverPending(ctx context.Context) {
	c.mu.Lock()
	defer c.mu.Unlock()
	defer func() {
		if r := recover(); r != nil {
			c.log.Error("console: delivering notifications crashed", "panic", r)
		}
	}()
	n, err := c.deliver.RunOnce(ctx)
	if err != nil && ctx.Err() == nil {
		c.log.Error("console: delivering notifications", "err", err)
	}
	if n > 0 {
		c.printf("%s> ", c.user)
	}
	c.flush()
}

// send is the Deliverer's send: it prints notification n as the command
// handler shows it. c.mu is held (RunOnce is only called under it).
func (c *Console) send(ctx context.Context, n bot.Notification) error {
	rep := c.cfg.Handler.Notification(ctx, n)
	to := "#" + ChannelID
	if n.UserID != "" {
		to = "@" + n.UserID
	}
	c.printf("→ %s: %s\n", to, indent(plain(rep.Text), "  "))
	c.files(rep.Files)
	c.buttons(rep.Buttons)
	return c.flush()
}

// show prints a reply to the current user.
func (c *Console) show(ctx context.Context, rep command.Reply) {
	text := plain(rep.Text)
	if rep.Ephemeral {
		text = fmt.Sprintf("(only @%s sees this) %s", c.user, text)
	}
	if text != "" {
		c.printf("%s\n", text)
	}
	for _, more := range rep.More {
		c.printf("%s\n", plain(more))
	}
	if rep.GameID != 0 && (!rep.Ephemeral || hasImage(rep.Files)) {
		c.board(ctx, rep)
	}
	c.files(rep.Files)
	c.buttons(rep.Buttons)
	if rep.Later != nil {
		// A terminal cannot edit what it printed: each edit is a line,
		// and the work is awaited before the next command is read.
		rep.Later(ctx, func(text string) { c.printf("%s\n", plain(text)) }, func(r command.Reply) {
			r.Later = nil
			c.show(ctx, r)
		})
	}
}

// hasImage reports whether files include a PNG (a board).
func hasImage(files []command.File) bool {
	for _, f := range files {
		if strings.EqualFold(filepath.Ext(f.Name), ".png") {
			return true
		}
	}
	return false
}

// board prints the game of rep as a text board with its players and
// state: the game and position the reply carries (Reply.Game and
// Replayed), read and replayed only when it carries none.
func (c *Console) board(ctx context.Context, rep command.Reply) {
	g, rg := rep.Game, rep.Replayed
	var err error
	switch {
	case g == nil || g.ID != rep.GameID:
		g, rg, err = c.cfg.Service.Views().Replay(ctx, rep.GameID)
	case rg == nil:
		rg, err = c.cfg.Service.Views().ReplayRecord(g)
	}
	if err != nil {
		c.problem(fmt.Sprintf("Cannot show game %d: %s", rep.GameID, bot.ErrorMessage(err)))
		return
	}
	p := rg.Position()
	c.printf("%s", gameBoard(g, &p, rep.Text))
}

// files writes attachments to the images folder and prints their paths.
func (c *Console) files(files []command.File) {
	for _, f := range files {
		if path, ok := c.written[f.Key]; ok && f.Key != "" {
			c.printf("  file: %s\n", path)
			continue
		}
		path, err := c.writeFile(f)
		if err != nil {
			c.log.Error("console: writing an attachment", "err", err)
			c.problem(fmt.Sprintf("Could not write %s: %v", f.Name, err))
			continue
		}
		if f.Key != "" {
			if c.written == nil {
				c.written = map[string]string{}
			}
			c.written[f.Key] = path
		}
		c.printf("  file: %s\n", path)
	}
}

// writeFile writes f as NNN-name in the images folder, never replacing a
// file, and returns its path.
func (c *Console) writeFile(f command.File) (string, error) {
	if err := os.MkdirAll(c.cfg.ImagesDir, 0o755); err != nil {
		return "", err
	}
	for range 1000 {
		c.seq++
		path := filepath.Join(c.cfg.ImagesDir, fmt.Sprintf("%03d-%s", c.seq, safeName(f.Name)))
		fh, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		_, err = fh.Write(f.Data)
		if cerr := fh.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(path)
			return "", err
		}
		return path, nil
	}
	return "", errors.New("no free file name in the images folder")
}

// buttons prints each button with the line that clicks it, a link
// button with its address.
func (c *Console) buttons(bs []command.Button) {
	for _, b := range bs {
		if b.Style == command.ButtonLink {
			c.printf("  [%s] %s\n", b.Label, b.URL)
			continue
		}
		c.printf("  [%s] /press %s\n", b.Label, b.CustomID)
	}
}

// help prints the console's syntax and the commands.
func (c *Console) help() {
	c.printf(`Console syntax:
  as NAME                      switch the current user (names: letters, digits, _ - .)
  as NAME /command ...         run a command as NAME (NAME stays the current user, even if it is refused)
  /command name:value ...      options as in Discord; quote values with spaces: name:"a b"
  /move e4, /accept 3          a bare value goes to the command's next option
  @NAME                        a user, for user options (opponent:@bob or just @bob)
  /press ID                    click a button (the line is printed under the button)
  help, quit                   this text; leave (so does the end of input)
`)
	if c.cfg.Advance != nil {
		c.printf("  wait DURATION                move the clock forward: wait 3d, wait 12h\n")
	}
	c.printf("Commands:\n")
	for _, s := range c.parser.specs {
		c.printf("  /%-10s %s\n", s.Name, s.Description)
		if len(s.Options) > 0 {
			c.printf("  %11s %s\n", "", strings.TrimPrefix(optionList(s), "Usage: "))
		}
	}
}

// wait moves the clock forward (when the console may).
func (c *Console) wait(arg string) {
	if c.cfg.Advance == nil {
		c.problem("wait is not available here: this console runs on the real clock.")
		return
	}
	d, err := parseDuration(arg)
	if err != nil {
		c.problem(err.Error())
		return
	}
	c.cfg.Advance(d)
	c.printf("The clock moved forward %s.\n", arg)
}

// parseDuration reads "3d", "12h", "90m" or a Go duration: positive, at
// most a year.
func parseDuration(s string) (time.Duration, error) {
	var d time.Duration
	var err error
	if days, ok := strings.CutSuffix(s, "d"); ok {
		var n int
		n, err = strconv.Atoi(days)
		d = time.Duration(n) * 24 * time.Hour
	} else {
		d, err = time.ParseDuration(s)
	}
	if err != nil || d <= 0 || d > 366*24*time.Hour {
		return 0, inputErrorf("wait %q: give a positive duration up to a year, like 3d, 12h or 90m.", clip(s))
	}
	return d, nil
}

// problem prints a message about a line that could not run.
func (c *Console) problem(msg string) {
	c.printf("! %s\n", msg)
}

func (c *Console) printf(format string, args ...any) {
	fmt.Fprintf(c.out, format, args...)
}

func (c *Console) flush() error {
	if err := c.out.Flush(); err != nil {
		return fmt.Errorf("console: writing output: %w", err)
	}
	return nil
}

// readLine reads one line without its end (\n or \r\n). tooLong reports
// a line longer than MaxLineLength, whose rest was skipped. At the end
// of input it returns what was read and io.EOF.
func readLine(r *bufio.Reader) (text string, tooLong bool, err error) {
	var b []byte
	for {
		chunk, isPrefix, err := r.ReadLine()
		if len(b)+len(chunk) > MaxLineLength {
			tooLong = true
		} else {
			b = append(b, chunk...)
		}
		if err != nil {
			if tooLong {
				return "", true, err
			}
			return string(b), false, err
		}
		if !isPrefix {
			if tooLong {
				return "", true, nil
			}
			return string(b), false, nil
		}
	}
}

// plain turns a reply's Discord text into console text: mentions
// <@id> become @id and bold markers (**) go.
func plain(s string) string {
	return strings.ReplaceAll(mentions(s), "**", "")
}

// mentions replaces Discord mentions <@id> and <@!id> in s by @id.
func mentions(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "<@")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := strings.IndexByte(s[i:], '>')
		if j < 0 {
			b.WriteString(s)
			return b.String()
		}
		id := strings.TrimPrefix(s[i+2:i+j], "!")
		if id == "" || strings.ContainsFunc(id, unicode.IsSpace) {
			b.WriteString(s[:i+2])
			s = s[i+2:]
			continue
		}
		b.WriteString(s[:i])
		b.WriteString("@" + id)
		s = s[i+j+1:]
	}
}

// indent indents every line of s but the first by prefix.
func indent(s, prefix string) string {
	return strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n"+prefix)
}

// printable returns s with control characters shown as \x00 escapes.
func printable(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return unicode.IsControl(r) && r != '\t' }) {
		return s
	}
	q := strconv.QuoteToGraphic(s)
	return q[1 : len(q)-1]
}

// safeName keeps a file name's letters, digits, '.', '-' and '_' (others
// become '_'), without any folder.
func safeName(name string) string {
	name = filepath.Base(name)
	b := []byte(name)
	for i, ch := range b {
		if !(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '.' || ch == '-' || ch == '_') {
			b[i] = '_'
		}
	}
	s := strings.TrimLeft(string(b), ".")
	if s == "" {
		return "file"
	}
	return s
}

// lastSeq returns the highest NNN of the NNN-name files in dir (0 for
// none), so a new console does not reuse numbers.
func lastSeq(dir string) int {
	entries, _ := os.ReadDir(dir)
	last := 0
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "-")
		if n, err := strconv.Atoi(num); ok && err == nil && n > last {
			last = n
		}
	}
	return last
}
