package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot/discordtest"
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

// TestRunDiscord runs "fairypost run -config FILE" against the fake
// Discord: it connects, registers the commands, answers a challenge, has
// the deliverer DM the challenged user, and stops cleanly (exit 0) when
// its context is cancelled, as on SIGINT.
func TestRunDiscord(t *testing.T) {
	srv := discordtest.New()
	defer srv.Close()
	srv.AddGuild("100", "club")
	srv.AddChannel("100", "200", "games")
	srv.AddUser("1", "alice")
	srv.AddUser("2", "bob")
	dir := t.TempDir()
	cfg := filepath.Join(dir, "fairypost.toml")
	db := filepath.Join(dir, "bot.db")
	text := fmt.Sprintf("[discord]\ntoken = \"t\"\napi_url = %q\nguild_id = \"100\"\ndeliver_every = \"20ms\"\n"+
		"[storage]\npath = %q\n[render]\nboard_size = 200\n[log]\nformat = \"json\"\nlevel = \"debug\"\n", srv.URL(), db)
	if err := os.WriteFile(cfg, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- Main(ctx, []string{"run", "-config", cfg}, strings.NewReader(""), &stdout, &stderr)
	}()
	wait, stop := context.WithTimeout(context.Background(), 15*time.Second)
	defer stop()
	if err := srv.WaitFor(wait, func() bool { return len(srv.Commands("100")) > 0 && srv.Connections() == 1 }); err != nil {
		t.Fatalf("the bot did not connect and register: %v; stderr %s", err, stderr.String())
	}
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
	cancel()
	select {
	case code := <-done:
		if code != exitOK {
			t.Errorf("exit %d, stderr %s", code, stderr.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the bot did not stop")
	}
	logs := stderr.String()
	for _, want := range []string{`"msg":"discord: commands registered"`, `"msg":"fairypost: stopped"`} {
		if !strings.Contains(logs, want) {
			t.Errorf("logs lack %s:\n%s", want, logs)
		}
	}
	if _, err := os.Stat(db); err != nil {
		t.Error(err)
	}
}

// TestRunWithoutToken: no token anywhere: one line saying so, then the
// console on the configured database.
func TestRunWithoutToken(t *testing.T) {
	t.Setenv("DISCORD_TOKEN", "")
	dir := t.TempDir()
	cfg := filepath.Join(dir, "c.toml")
	db := filepath.Join(dir, "local.db")
	os.WriteFile(cfg, []byte(fmt.Sprintf("[storage]\npath = %q\n[console]\nimages = %q\n", db, filepath.Join(dir, "img"))), 0o600)
	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), []string{"-config", cfg}, strings.NewReader("quit\n"), &stdout, &stderr)
	first, _, _ := strings.Cut(stderr.String(), "\n")
	if code != exitOK || !strings.Contains(first, "no Discord token") || !strings.Contains(first, "console") {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
	if !strings.HasPrefix(stdout.String(), "> ") {
		t.Errorf("the console did not start: %q", stdout.String())
	}
	if _, err := os.Stat(db); err != nil {
		t.Errorf("the console did not use storage.path: %v", err)
	}
}

// TestSignalStopsBot runs the real binary against the fake Discord and
// sends it SIGTERM: it finishes cleanly with exit status 0.
func TestSignalStopsBot(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go command not found:", err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "fairypost")
	if out, err := exec.Command(goCmd, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
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
