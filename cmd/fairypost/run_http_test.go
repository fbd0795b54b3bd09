package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot/discordtest"
)

// listeningAddr returns the address the interactions endpoint logged
// (JSON logs) once it listens, "" before.
func listeningAddr(logs string) string {
	for _, line := range strings.Split(logs, "\n") {
		var rec struct {
			Msg  string `json:"msg"`
			Addr string `json:"addr"`
		}
		if json.Unmarshal([]byte(line), &rec) == nil && rec.Msg == "discord: interactions endpoint listening" {
			return rec.Addr
		}
	}
	return ""
}

// TestRunHTTPOnly runs "fairypost run" as an HTTP-only worker
// (discord.gateway = false, discord.http_listen, discord.public_key)
// against the fake Discord: it never connects to the gateway, registers
// the commands, answers a PING, refuses a forged request, answers a
// challenge posted to its endpoint and the Accept button, has the
// deliverer DM the challenged user, and stops cleanly.
func TestRunHTTPOnly(t *testing.T) {
	srv := clubDiscord(t)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "fairypost.toml")
	text := fmt.Sprintf("[discord]\ntoken = \"t\"\napi_url = %q\nguild_id = \"100\"\ndeliver_every = \"20ms\"\n"+
		"http_listen = \"127.0.0.1:0\"\npublic_key = %q\ngateway = false\n"+
		"[storage]\npath = %q\n[render]\nboard_size = 200\n[log]\nformat = \"json\"\nlevel = \"debug\"\n",
		srv.URL(), srv.PublicKeyHex(), filepath.Join(dir, "bot.db"))
	if err := os.WriteFile(cfg, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	wait, stopWait := context.WithTimeout(context.Background(), 20*time.Second)
	defer stopWait()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := &runningBot{stderr: &lockedBuffer{}, cancel: cancel, done: make(chan int, 1)}
	go func() {
		var stdout lockedBuffer
		r.done <- Main(ctx, []string{"run", "-config", cfg}, strings.NewReader(""), &stdout, r.stderr)
	}()
	var addr string
	if err := srv.WaitFor(wait, func() bool {
		addr = listeningAddr(r.stderr.String())
		return addr != "" && len(srv.Commands("100")) > 0
	}); err != nil {
		t.Fatalf("the worker did not register and listen: %v; stderr %s", err, r.stderr.String())
	}
	srv.SetInteractionsEndpoint("http://" + addr + "/interactions")
	if n := srv.Connections(); n != 0 {
		t.Errorf("an HTTP-only worker opened %d gateway connections", n)
	}

	if d, err := srv.Ping(wait); err != nil || d.Status != http.StatusOK || strings.TrimSpace(string(d.Body)) != `{"type":1}` {
		t.Errorf("PING: %d %q, err %v", d.Status, d.Body, err)
	}
	forged, err := srv.SlashForged(discordtest.BadSignature, "1", "200", "challenge",
		discordtest.String("variant", "chess"), discordtest.User("opponent", "2"))
	if err != nil {
		t.Fatal(err)
	}
	if d, err := forged.Delivery(wait); err != nil || d.Status != http.StatusUnauthorized {
		t.Errorf("forged challenge: %d %q, err %v; want 401", d.Status, d.Body, err)
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
	accept := ""
	for _, b := range m.Buttons() {
		if b.Label == "Accept" {
			accept = b.CustomID
		}
	}
	click, err := srv.Click("2", "200", m.ID, accept)
	if err != nil {
		t.Fatal(err)
	}
	if acc, err := click.Final(wait); err != nil || len(acc.Files) == 0 {
		t.Fatalf("accept answer %q with %d files, err %v", acc.Content, len(acc.Files), err)
	}
	for _, ix := range []*discordtest.Interaction{ix, click} {
		if d, err := ix.Delivery(wait); err != nil || d.Status != http.StatusOK {
			t.Errorf("interaction %s: delivery %d, err %v", ix.ID, d.Status, err)
		}
	}
	r.stop(t, 15*time.Second)
	if logs := r.stderr.String(); !strings.Contains(logs, `"msg":"fairypost: stopped"`) {
		t.Errorf("logs lack the stop:\n%s", logs)
	}
}

// TestHTTPConfigErrors: the keys of the interactions endpoint are
// checked, each error naming its key and line.
func TestHTTPConfigErrors(t *testing.T) {
	key := strings.Repeat("ab", 32)
	for _, c := range []struct{ name, text, want string }{
		{"no key", "[discord]\nhttp_listen = \":8080\"\n", "discord.public_key is empty"},
		{"bad key", fmt.Sprintf("[discord]\nhttp_listen = \":8080\"\npublic_key = %q\n", key[2:]), "line 3: discord.public_key"},
		{"bad address", fmt.Sprintf("[discord]\nhttp_listen = \"8080\"\npublic_key = %q\n", key), "line 2: discord.http_listen"},
		{"nothing receives", "[discord]\ngateway = false\n", "line 2: discord.gateway"},
	} {
		_, err := loadConfig(writeConfig(t, c.text), nil)
		var in inputError
		if err == nil || !errors.As(err, &in) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want bad input containing %q", c.name, err, c.want)
		}
	}
	if _, err := loadConfig(writeConfig(t, fmt.Sprintf("[discord]\nhttp_listen = \":8080\"\npublic_key = %q\ngateway = false\n", key)), nil); err != nil {
		t.Errorf("a valid HTTP-only configuration: %v", err)
	}
}
