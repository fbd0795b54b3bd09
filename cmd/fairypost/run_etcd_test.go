package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot/discordtest"
	"github.com/fairypost/fairypost/storage/etcdstore"
	"github.com/fairypost/fairypost/storage/etcdstore/etcdtest"
)

// etcdConfig returns the [storage] table of a bot on the cluster c under
// prefix.
func etcdConfig(c *etcdtest.Cluster, prefix string) string {
	return fmt.Sprintf("[storage]\nbackend = \"etcd\"\npath = \"unused.db\"\n[storage.etcd]\nendpoints = [%q]\nprefix = %q\nleader_ttl = \"1s\"\nelection_timeout = \"100ms\"\n",
		c.Endpoints[0], prefix)
}

// TestRunDiscordEtcd runs "fairypost run" with storage.backend = "etcd"
// against the fake Discord and an in-process etcd: the challenge is
// stored in etcd, the process is elected to run the deliverer, which DMs
// the challenged user, and the bot stops cleanly.
func TestRunDiscordEtcd(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	srv := clubDiscord(t)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "fairypost.toml")
	text := fmt.Sprintf("[discord]\ntoken = \"t\"\napi_url = %q\nguild_id = \"100\"\ndeliver_every = \"20ms\"\n", srv.URL()) +
		etcdConfig(c, "bot1/") + "[log]\nformat = \"json\"\nlevel = \"debug\"\n"
	wait, stop := context.WithTimeout(context.Background(), 20*time.Second)
	defer stop()
	run := startRun(t, wait, srv, cfg, text)
	stderr := run.stderr
	ix, err := srv.Slash("1", "200", "challenge", discordtest.String("variant", "tank"), discordtest.User("opponent", "2"))
	if err != nil {
		t.Fatal(err)
	}
	if m, err := ix.Final(wait); err != nil || !strings.Contains(m.Content, "challenge") {
		t.Fatalf("challenge answer %q, err %v", m.Content, err)
	}
	if err := srv.WaitFor(wait, func() bool { return len(srv.DMs("2")) > 0 }); err != nil {
		t.Fatalf("the challenged user got no DM: %v; stderr %s", err, stderr.String())
	}
	s, err := etcdstore.Open(context.Background(), etcdstore.Options{Endpoints: c.Endpoints, Prefix: "bot1/"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if cs, err := s.ChallengesByUser(context.Background(), "2"); err != nil || len(cs) != 1 || cs[0].Variant != "tank" {
		t.Errorf("challenges of bob in etcd: %v, %v", cs, err)
	}
	run.stop(t, 20*time.Second)
	logs := stderr.String()
	for _, want := range []string{`"msg":"etcd: leading"`, `"msg":"fairypost: stopped"`, `"database":"etcd http://127.0.0.1:`} {
		if !strings.Contains(logs, want) {
			t.Errorf("logs lack %s:\n%s", want, logs)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "unused.db")); err == nil {
		t.Error("the etcd backend created storage.path")
	}
}

// TestConsoleOnEtcd: without a token and with the etcd backend, "fairypost
// run" starts the console on the cluster.
func TestConsoleOnEtcd(t *testing.T) {
	t.Setenv("DISCORD_TOKEN", "")
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	dir := t.TempDir()
	cfg := filepath.Join(dir, "c.toml")
	text := etcdConfig(c, "console/") + fmt.Sprintf("[console]\nimages = %q\n", filepath.Join(dir, "img"))
	if err := os.WriteFile(cfg, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	r := runWithInput(t, "as alice /challenge @bob variant:chess\n", "-config", cfg)
	if r.code != exitOK || !strings.Contains(r.stderr, "console on etcd") {
		t.Fatalf("exit %d, stderr %q, stdout %q", r.code, r.stderr, r.stdout)
	}
	s, err := etcdstore.Open(context.Background(), etcdstore.Options{Endpoints: c.Endpoints, Prefix: "console/"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if cs, err := s.ChallengesByUser(context.Background(), "bob"); err != nil || len(cs) != 1 {
		t.Errorf("bob's challenges in etcd: %v, %v; console said %s", cs, err, r.stdout)
	}
}

// TestEtcdUnreachable: an etcd backend nobody answers is an error naming
// the endpoints, after the dial timeout.
func TestEtcdUnreachable(t *testing.T) {
	t.Setenv("DISCORD_TOKEN", "")
	// A short startup_wait: the default minute would be the test's length.
	p := writeConfig(t, "[storage]\nbackend = \"etcd\"\n[storage.etcd]\nendpoints = [\"http://127.0.0.1:9\"]\ndial_timeout = \"200ms\"\nstartup_wait = \"1s\"\n")
	r := runWithInput(t, "", "-config", p)
	if r.code == exitOK || !strings.Contains(r.stderr, "etcd http://127.0.0.1:9") {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestEtcdConfigEndpoints reads storage.etcd.endpoints as etcdctl reads
// endpoints: host:port is an http:// URL, URLs are kept.
func TestEtcdConfigEndpoints(t *testing.T) {
	cfg, err := loadConfig(writeConfig(t, "[storage]\nbackend = \"etcd\"\n[storage.etcd]\nendpoints = [\"127.0.0.1:2379\", \"https://etcd.example:2379\"]\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"http://127.0.0.1:2379", "https://etcd.example:2379"}; !slices.Equal(cfg.Storage.Etcd.Endpoints, want) {
		t.Errorf("endpoints %q, want %q", cfg.Storage.Etcd.Endpoints, want)
	}
}

func TestEtcdConfigErrors(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       string
	}{
		{"backend", "[storage]\nbackend = \"redis\"\n", `storage.backend "redis"`},
		{"no endpoints", "[storage]\nbackend = \"etcd\"\n[storage.etcd]\nendpoints = []\n", "storage.etcd.endpoints is empty"},
		{"endpoint", "[storage]\nbackend = \"etcd\"\n[storage.etcd]\nendpoints = [\"127.0.0.1\"]\n", `"127.0.0.1": want host:port`},
		{"prefix", "[storage]\nbackend = \"etcd\"\n[storage.etcd]\nprefix = \"\"\n", "storage.etcd.prefix"},
		{"half a certificate", "[storage]\nbackend = \"etcd\"\n[storage.etcd]\ncert_file = \"c.pem\"\n", "cert_file and storage.etcd.key_file"},
		{"ttl", "[storage]\nbackend = \"etcd\"\n[storage.etcd]\nleader_ttl = \"1500ms\"\n", "storage.etcd.leader_ttl 1.5s"},
		{"ttl shorter than an election", "[storage]\nbackend = \"etcd\"\n[storage.etcd]\nleader_ttl = \"2s\"\n",
			"storage.etcd.leader_ttl 2s is shorter than an etcd election can last: choose at least 3s (3 × storage.etcd.election_timeout 1s)"},
		{"ttl against a slow election", "[storage]\nbackend = \"etcd\"\n[storage.etcd]\nelection_timeout = \"2500ms\"\n",
			"storage.etcd.leader_ttl 5s is shorter than an etcd election can last: choose at least 8s"},
		{"election timeout", "[storage]\nbackend = \"etcd\"\n[storage.etcd]\nelection_timeout = \"1ms\"\n", "storage.etcd.election_timeout 1ms"},
		{"startup wait", "[storage]\nbackend = \"etcd\"\n[storage.etcd]\nstartup_wait = \"25h\"\n", "storage.etcd.startup_wait 25h"},
		{"dial", "[storage]\nbackend = \"etcd\"\n[storage.etcd]\ndial_timeout = \"1ms\"\n", "storage.etcd.dial_timeout 1ms"},
		{"unknown key", "[storage.etcd]\nendpoint = \"x\"\n", `unknown key "storage.etcd.endpoint"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := loadConfig(writeConfig(t, c.text), nil)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want it to contain %q", err, c.want)
			}
		})
	}
	// The etcd table is ignored with the bolt backend.
	if _, err := loadConfig(writeConfig(t, "[storage.etcd]\nendpoints = []\n"), nil); err != nil {
		t.Errorf("bolt backend with an empty etcd table: %v", err)
	}
}

// runWithInput calls Main in-process with args and input on standard
// input.
func runWithInput(t *testing.T, input string, args ...string) result {
	t.Helper()
	var stdout, stderr lockedBuffer
	code := Main(context.Background(), args, strings.NewReader(input), &stdout, &stderr)
	return result{stdout.String(), stderr.String(), code}
}

// TestRunEtcdUnreachable: a cluster that does not answer is waited for
// up to storage.etcd.startup_wait, each try logged with the endpoints and
// the reason, and then is a failure outside fairypost: exit status 1, one
// last line naming the endpoint and asking whether etcd runs there,
// never called an internal error.
func TestRunEtcdUnreachable(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bot.toml")
	cfg := "[discord]\ntoken = \"x\"\n[storage]\nbackend = \"etcd\"\n[storage.etcd]\nendpoints = [\"http://127.0.0.1:1\"]\ndial_timeout = \"200ms\"\nstartup_wait = \"1s\"\n"
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	r := run(t, "run", "-config", path)
	lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
	last := lines[len(lines)-1]
	if r.code != exitInternal || strings.Contains(r.stderr, "internal error") ||
		!strings.Contains(last, "http://127.0.0.1:1") || !strings.Contains(last, "is etcd running there") {
		t.Errorf("exit %d, stderr %q: want 1 and a last line naming the endpoint, asking whether etcd runs there", r.code, r.stderr)
	}
	if len(lines) < 2 || !strings.Contains(lines[0], "waiting for the cluster to answer") || !strings.Contains(lines[0], "http://127.0.0.1:1") {
		t.Errorf("stderr %q: want the tries logged first, naming the endpoint", r.stderr)
	}
}

// TestRatingsAndTournamentsOnEtcd: on the etcd backend a rated game
// changes both players' ratings, atomically with its result, a
// tournament can be made, and both are there for the next process (the
// issue found games created rated and never rated, "/leaderboard: This
// bot keeps no ratings" and "/tournament: runs no tournaments" on etcd).
func TestRatingsAndTournamentsOnEtcd(t *testing.T) {
	t.Setenv("DISCORD_TOKEN", "")
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	dir := t.TempDir()
	cfg := filepath.Join(dir, "c.toml")
	text := etcdConfig(c, "rated/") + fmt.Sprintf("[console]\nimages = %q\n", filepath.Join(dir, "img"))
	if err := os.WriteFile(cfg, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	r := runWithInput(t, `as alice /challenge @bob variant:chess color:white
as bob /accept
as alice /move f3
as bob /move e5
as alice /move g4
as bob /move Qh4#
as alice /tournament action:create variant:chess
`, "-config", cfg)
	if r.code != exitOK || !strings.Contains(r.stdout, "@bob 1500? → 1") || strings.Contains(r.stdout, "keeps no ratings") ||
		strings.Contains(r.stdout, "runs no tournaments") {
		t.Fatalf("exit %d, stderr %q, stdout %q", r.code, r.stderr, r.stdout)
	}
	r = runWithInput(t, "as carol /profile @bob\nas carol /leaderboard variant:chess\n", "-config", cfg)
	if r.code != exitOK || !strings.Contains(r.stdout, "Player card of @bob") || !strings.Contains(r.stdout, "Chess: 1") ||
		!strings.Contains(r.stdout, "Leaderboard · Chess") {
		t.Fatalf("the next process: exit %d, stderr %q, stdout %q", r.code, r.stderr, r.stdout)
	}
	s, err := etcdstore.Open(context.Background(), etcdstore.Options{Endpoints: c.Endpoints, Prefix: "rated/"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	d, err := s.Dump(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Standings) != 2 || len(d.RatingHistory) != 2 || len(d.Tournaments) != 1 || len(d.Games) != 1 || !d.Games[0].Rated ||
		len(d.Games[0].Ratings) != 2 {
		t.Errorf("in etcd: %d standings, %d rated results, %d tournaments, games %+v", len(d.Standings), len(d.RatingHistory),
			len(d.Tournaments), d.Games)
	}
}
