package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot/discordtest"
	"github.com/fairypost/fairypost/storage"
	"github.com/gorilla/websocket"
)

// lockedBuffer is an io.Writer safe for concurrent use.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// runningBot is "fairypost run -config FILE" running in-process.
type runningBot struct {
	stderr *lockedBuffer
	cancel context.CancelFunc
	done   chan int
}

// startRun writes text to the config file cfg, runs "fairypost run
// -config cfg" and waits (until wait ends) for the bot to connect to srv
// and register its commands in guild 100.
func startRun(t *testing.T, wait context.Context, srv *discordtest.Server, cfg, text string) *runningBot {
	t.Helper()
	if err := os.WriteFile(cfg, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	r := &runningBot{stderr: &lockedBuffer{}, cancel: cancel, done: make(chan int, 1)}
	go func() {
		var stdout lockedBuffer
		r.done <- Main(ctx, []string{"run", "-config", cfg}, strings.NewReader(""), &stdout, r.stderr)
	}()
	if err := srv.WaitFor(wait, func() bool { return len(srv.Commands("100")) > 0 && srv.Connections() == 1 }); err != nil {
		t.Fatalf("the bot did not connect and register: %v; stderr %s", err, r.stderr.String())
	}
	return r
}

// stop ends the run, as SIGINT does, and checks that it exits with
// exitOK within limit.
func (r *runningBot) stop(t *testing.T, limit time.Duration) {
	t.Helper()
	r.cancel()
	select {
	case code := <-r.done:
		if code != exitOK {
			t.Errorf("exit %d, stderr %s", code, r.stderr.String())
		}
	case <-time.After(limit):
		t.Fatal("the bot did not stop")
	}
}

// TestRunDiscord runs "fairypost run -config FILE" against the fake
// Discord: it connects, registers the commands, answers a challenge, has
// the deliverer DM the challenged user, and stops cleanly (exit 0) when
// its context is cancelled, as on SIGINT.
func TestRunDiscord(t *testing.T) {
	srv := clubDiscord(t)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "fairypost.toml")
	db := filepath.Join(dir, "bot.db")
	text := fmt.Sprintf("[discord]\ntoken = \"t\"\napi_url = %q\nguild_id = \"100\"\ndeliver_every = \"20ms\"\n"+
		"[storage]\npath = %q\n[render]\nboard_size = 200\n[log]\nformat = \"json\"\nlevel = \"debug\"\n", srv.URL(), db)
	wait, stop := context.WithTimeout(context.Background(), 15*time.Second)
	defer stop()
	run := startRun(t, wait, srv, cfg, text)
	stderr := run.stderr
	ix, err := srv.Slash("1", "200", "challenge", discordtest.String("variant", "tank"), discordtest.User("opponent", "2"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := ix.Final(wait)
	if err != nil || !strings.Contains(m.Content, "challenge") || len(m.Buttons()) == 0 {
		t.Fatalf("challenge answer %q, err %v", m.Content, err)
	}
	if err := srv.WaitFor(wait, func() bool { return len(srv.DMs("2")) > 0 }); err != nil {
		t.Fatalf("the challenged user got no DM: %v", err)
	}
	run.stop(t, 15*time.Second)
	logs := stderr.String()
	for _, want := range []string{`"msg":"fairypost: there was no database at storage.path: a new one was created there"`,
		`"msg":"discord: commands registered"`, `"msg":"fairypost: stopped"`} {
		if !strings.Contains(logs, want) {
			t.Errorf("logs lack %s:\n%s", want, logs)
		}
	}
	if _, err := os.Stat(db); err != nil {
		t.Error(err)
	}
}

// TestRunVacationDays: play.vacation_days reaches the players'
// settings the running bot keeps (package bot/prefs): a vacation started
// on Discord counts the configured allowance, not the default.
func TestRunVacationDays(t *testing.T) {
	srv := clubDiscord(t)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "fairypost.toml")
	text := fmt.Sprintf("[discord]\ntoken = \"t\"\napi_url = %q\nguild_id = \"100\"\n[storage]\npath = %q\n[play]\nvacation_days = 2\n",
		srv.URL(), filepath.Join(dir, "bot.db"))
	wait, stop := context.WithTimeout(context.Background(), 15*time.Second)
	defer stop()
	run := startRun(t, wait, srv, cfg, text)
	ix, err := srv.Slash("1", "200", "vacation", discordtest.String("action", "start"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := ix.Final(wait)
	if err != nil || !strings.Contains(m.Content, "Enjoy your vacation") || !strings.Contains(m.Content, "of your 2 days a year used") {
		t.Errorf("/vacation start: %q, err %v; want the allowance of 2 days", m.Content, err)
	}
	run.stop(t, 15*time.Second)
}

// TestRunWithoutToken: "run" with no token anywhere is an error (exit 2,
// one line saying how to set it), with -config or without; only
// "fairypost" with no arguments at all starts the console instead.
func TestRunWithoutToken(t *testing.T) {
	t.Setenv("DISCORD_TOKEN", "")
	dir := t.TempDir()
	cfg := filepath.Join(dir, "c.toml")
	db := filepath.Join(dir, "local.db")
	os.WriteFile(cfg, []byte(fmt.Sprintf("[storage]\npath = %q\n", db)), 0o600)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-config", cfg}, "set token in the [discord] section of " + cfg + ", or the DISCORD_TOKEN environment variable"},
		{[]string{"run", "-config", cfg}, "set token in the [discord] section of " + cfg},
		{[]string{"run"}, "set the DISCORD_TOKEN environment variable, or give -config FILE"},
	} {
		var stdout, stderr bytes.Buffer
		code := Main(context.Background(), c.args, strings.NewReader("quit\n"), &stdout, &stderr)
		if code != exitBadInput || stdout.Len() != 0 || strings.Count(stderr.String(), "\n") != 1 ||
			!strings.HasPrefix(stderr.String(), "fairypost run: no Discord token: ") || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", c.args, code, stdout.String(), stderr.String(), c.want)
		}
	}
	if _, err := os.Stat(db); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a run without a token touched storage.path: %v", err)
	}

	// "fairypost" alone: the console on ./fairypost.db.
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), nil, strings.NewReader("quit\n"), &stdout, &stderr)
	first, _, _ := strings.Cut(stderr.String(), "\n")
	if code != exitOK || !strings.Contains(first, "no Discord token") || !strings.Contains(first, "console") {
		t.Errorf("fairypost alone: exit %d, stderr %q", code, stderr.String())
	}
	if !strings.HasPrefix(stdout.String(), "> ") {
		t.Errorf("the console did not start: %q", stdout.String())
	}
	if _, err := os.Stat(filepath.Join(dir, defaultDB)); err != nil {
		t.Errorf("the console did not use %s: %v", defaultDB, err)
	}
}

// writeRunConfig writes a configuration with a token, api_url and
// storage.path (and extra lines) and returns its path.
func writeRunConfig(t *testing.T, apiURL, db, extra string) string {
	t.Helper()
	cfg := filepath.Join(t.TempDir(), "fairypost.toml")
	text := fmt.Sprintf("[discord]\ntoken = \"t\"\napi_url = %q\n[storage]\npath = %q\ntimeout = \"100ms\"\n%s", apiURL, db, extra)
	if err := os.WriteFile(cfg, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestRunConfigurationErrors: with a token, what is wrong with
// storage.path is a configuration error (exit 2, one line saying what to
// do), found before connecting, not an internal error.
func TestRunConfigurationErrors(t *testing.T) {
	dir := t.TempDir()
	held := filepath.Join(dir, "held.db")
	h, err := storage.Open(held, storage.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	junk := filepath.Join(dir, "junk.db")
	if err := os.WriteFile(junk, bytes.Repeat([]byte("not a database "), 1000), 0o600); err != nil {
		t.Fatal(err)
	}
	damaged := damagedDB(t)
	for _, c := range []struct {
		db   string
		want string
	}{
		{held, "storage.path " + held + " is in use by another process (another bot, or a console?); waited 100ms. Stop it, or give this bot its own storage.path"},
		{dir, "storage.path " + dir + " is a folder, not a database file"},
		{junk, "storage.path " + junk + " is not a fairypost database"},
		{damaged, "the database " + damaged + " is damaged: "},
	} {
		// Nothing listens on the API address: the errors come first.
		r := runIn(t, "", "run", "-config", writeRunConfig(t, "http://127.0.0.1:1", c.db, ""))
		checkBadInput(t, r, c.want)
		if strings.Contains(r.stderr, "internal error") {
			t.Errorf("%s: %q", c.db, r.stderr)
		}
	}
}

// TestRunWrongToken: a token Discord refuses is a configuration error:
// exit 2, one line saying what to check; whether the REST API refuses it
// first (HTTP 401, as the fake does) or the gateway (close 4004).
func TestRunWrongToken(t *testing.T) {
	srv := discordtest.New(discordtest.WithToken("the-right-one"))
	defer srv.Close()
	gw := refusingGateway(t)
	for _, api := range []string{srv.URL(), gw} {
		db := filepath.Join(t.TempDir(), "bot.db")
		r := runIn(t, "", "run", "-config", writeRunConfig(t, api, db, "[log]\nlevel = \"error\"\n"))
		checkBadInput(t, r, "Discord refused the token (authentication failed): check discord.token, or DISCORD_TOKEN")
		if want := map[bool]string{true: "(HTTP 401 Unauthorized)", false: "(gateway close 4004 Authentication failed.)"}[api == srv.URL()]; !strings.Contains(r.stderr, want) {
			t.Errorf("stderr %q does not say %s", r.stderr, want)
		}
	}
}

// refusingGateway serves a Discord API whose gateway closes the
// connection with 4004 (authentication failed) on Identify, and returns
// its base URL.
func refusingGateway(t *testing.T) string {
	t.Helper()
	var up websocket.Upgrader
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	mux.HandleFunc("/api/v9/gateway", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"url": "ws%s/ws"}`, strings.TrimPrefix(srv.URL, "http"))
	})
	mux.HandleFunc("/ws/", func(w http.ResponseWriter, r *http.Request) {
		c, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer c.Close()
		c.WriteMessage(websocket.TextMessage, []byte(`{"op":10,"d":{"heartbeat_interval":45000}}`))
		if _, _, err := c.ReadMessage(); err != nil { // Identify
			return
		}
		c.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(4004, "Authentication failed."), time.Now().Add(time.Second))
		c.ReadMessage() // until the client closes
	})
	return srv.URL
}

// TestRunUnreachableAPI: an api_url nobody answers on is reported with
// that address, the one really dialled, not discord.com, and not as an
// internal error.
func TestRunUnreachableAPI(t *testing.T) {
	db := filepath.Join(t.TempDir(), "bot.db")
	r := runIn(t, "", "run", "-config", writeRunConfig(t, "http://127.0.0.1:1", db, "[log]\nlevel = \"error\"\n"))
	if r.code != exitInternal || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, "cannot reach Discord at discord.api_url http://127.0.0.1:1: ") ||
		!strings.Contains(r.stderr, "dial tcp 127.0.0.1:1") || strings.Contains(r.stderr, "discord.com") || strings.Contains(r.stderr, "internal error") {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestSignalStopsBot runs the real binary against the fake Discord and
// sends it SIGTERM: it finishes cleanly with exit status 0.
func TestSignalStopsBot(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	srv := discordtest.New()
	defer srv.Close()
	srv.AddGuild("100", "club")
	cfg := filepath.Join(dir, "c.toml")
	text := fmt.Sprintf("[discord]\napi_url = %q\n[storage]\npath = %q\n", srv.URL(), filepath.Join(dir, "bot.db"))
	if err := os.WriteFile(cfg, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-config", cfg)
	cmd.Env = append(os.Environ(), "DISCORD_TOKEN=from-env")
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	wait, stop := context.WithTimeout(context.Background(), 20*time.Second)
	defer stop()
	for !strings.Contains(stderr.String(), "fairypost: running") {
		select {
		case <-wait.Done():
			t.Fatalf("the bot did not connect; stderr %s", stderr.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("after SIGTERM: %v; stderr %s", err, stderr.String())
		}
	case <-wait.Done():
		t.Fatalf("the bot did not stop after SIGTERM; stderr %s", stderr.String())
	}
	if len(srv.Commands("")) == 0 {
		t.Error("without guild_id the commands are not registered globally")
	}
	if !strings.Contains(stderr.String(), "fairypost: stopped") {
		t.Errorf("no clean stop in the logs: %s", stderr.String())
	}
}

// clubDiscord starts a fake Discord, closed when the test ends, with the
// server "club" (ID 100), its channel "games" (200) and the users alice
// (1) and bob (2): the world the tests of "fairypost run" play in.
func clubDiscord(t *testing.T) *discordtest.Server {
	t.Helper()
	srv := discordtest.New()
	t.Cleanup(srv.Close)
	srv.AddGuild("100", "club")
	srv.AddChannel("100", "200", "games")
	srv.AddUser("1", "alice")
	srv.AddUser("2", "bob")
	return srv
}
