package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/bot/web"
	"github.com/fairypost/fairypost/internal/testkit"
	"github.com/fairypost/fairypost/storage"
	"github.com/fairypost/fairypost/storage/etcdstore"
	"github.com/fairypost/fairypost/storage/etcdstore/etcdtest"
)

// TestWebConfigErrors: web.listen and web.base_url are checked, each
// error naming its key and line; base_url alone is valid (the links of a
// bot whose pages another process serves).
func TestWebConfigErrors(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"no base", "[web]\nlisten = \":8081\"\n", "web.base_url is empty, but web.listen is set"},
		{"bad address", "[web]\nlisten = \"8081\"\nbase_url = \"https://g.example.org\"\n", "line 2: web.listen"},
		{"not http", "[web]\nlisten = \":8081\"\nbase_url = \"ftp://g.example.org\"\n", "line 3: web.base_url"},
		{"no host", "[web]\nbase_url = \"https://\"\n", "line 2: web.base_url"},
		{"query", "[web]\nbase_url = \"https://g.example.org/?a=1\"\n", "line 2: web.base_url"},
		{"unknown key", "[web]\nport = 3\n", `unknown key "web.port"`},
	} {
		_, err := loadConfig(writeConfig(t, c.text), nil)
		var in inputError
		if err == nil || !errors.As(err, &in) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want bad input containing %q", c.name, err, c.want)
		}
	}
	cfg, err := loadConfig(writeConfig(t, "[web]\nlisten = \"127.0.0.1:8081\"\nbase_url = \"https://g.example.org\"\n"), nil)
	if err != nil || cfg.Web.Listen != "127.0.0.1:8081" || cfg.Web.BaseURL != "https://g.example.org" {
		t.Errorf("a valid [web]: %+v, %v", cfg.Web, err)
	}
	if _, err := loadConfig(writeConfig(t, "[web]\nbase_url = \"https://g.example.org/pages\"\n"), nil); err != nil {
		t.Errorf("base_url alone: %v", err)
	}
}

// gameFile writes a database at a new path holding one game of chess in
// play (2 moves) and returns the path and the game's ID.
func gameFile(t *testing.T) (string, uint64) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "games.db")
	db, err := storage.Open(path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	svc := testkit.Service(t, db, testkit.NewClock(time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)))
	ctx := context.Background()
	c, err := svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "alice", Challenged: "bob", Variant: "chess", DaysPerMove: 3})
	if err != nil {
		t.Fatal(err)
	}
	g, err := svc.Challenges().Accept(ctx, c.ID, c.Version, "bob", bot.Where{})
	if err != nil {
		t.Fatal(err)
	}
	testkit.Play(t, svc, g.ID, "alice e4", "bob e5")
	return path, g.ID
}

// serveWebFor runs "fairypost web -db path" on a free port until the
// test ends and returns its address.
func serveWebFor(t *testing.T, path string) (addr string, stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stderr := &lockedBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- Main(ctx, []string{"web", "-db", path, "-listen", "127.0.0.1:0", "-base", "https://g.example.org"}, strings.NewReader(""), io.Discard, stderr)
	}()
	re := regexp.MustCompile(`addr=(127\.0\.0\.1:\d+)`)
	for range 500 {
		if m := re.FindStringSubmatch(stderr.String()); m != nil {
			addr = m[1]
			break
		}
		select {
		case code := <-done:
			t.Fatalf("fairypost web exited %d: %s", code, stderr.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	if addr == "" {
		cancel()
		t.Fatalf("fairypost web did not say where it listens: %s", stderr.String())
	}
	stopped := false
	stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("fairypost web exited %d: %s", code, stderr.String())
		}
	}
	t.Cleanup(stop)
	return addr, stop
}

// status fetches url and returns the status and the body.
func status(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestLinkAndWeb: "fairypost web" refuses a database without a page
// secret; "fairypost link" makes it and prints the page's address; "web"
// serves that page read-only and 404 for a forged token; "link -rotate"
// revokes the old address and gives a new one.
func TestLinkAndWeb(t *testing.T) {
	path, id := gameFile(t)
	r := run(t, "web", "-db", path, "-listen", "127.0.0.1:0")
	checkBadInput(t, r, "no page secret yet")
	r = run(t, "link", "-db", path, "-game", "99")
	checkBadInput(t, r, "99")
	checkBadInput(t, run(t, "link", "-db", path), "-game ID is required")
	checkBadInput(t, run(t, "link", "-db", path, "-game", "1", "-base", "g.example.org"), "-base")
	link := strings.TrimSpace(mustRun(t, "link", "-db", path, "-game", fmt.Sprint(id), "-base", "https://g.example.org/"))
	m := regexp.MustCompile(`^https://g\.example\.org(/g/\d+/[A-Za-z0-9_-]{22})$`).FindStringSubmatch(link)
	if m == nil {
		t.Fatalf("link printed %q", link)
	}
	if again := strings.TrimSpace(mustRun(t, "link", "-db", path, "-game", fmt.Sprint(id))); again != m[1] {
		t.Errorf("the link without -base is %q, want the path %q (the same token)", again, m[1])
	}

	addr, stop := serveWebFor(t, path)
	code, body := status(t, "http://"+addr+m[1])
	if code != 200 || !strings.Contains(body, "alice") || !strings.Contains(body, `content="https://g.example.org/g/`) {
		t.Fatalf("the page: %d\n%s", code, body)
	}
	if code, _ := status(t, "http://"+addr+m[1][:len(m[1])-1]+"x"); code != 404 {
		t.Errorf("a forged token: %d, want 404", code)
	}
	stop()

	r = run(t, "link", "-db", path, "-game", fmt.Sprint(id), "-rotate")
	if r.code != 0 || !strings.Contains(r.stderr, "no longer works") {
		t.Fatalf("link -rotate: exit %d, stderr %q", r.code, r.stderr)
	}
	fresh := strings.TrimSpace(r.stdout)
	if fresh == m[1] || !strings.HasPrefix(fresh, "/g/") {
		t.Fatalf("after -rotate the link is %q (was %q)", fresh, m[1])
	}
	addr, _ = serveWebFor(t, path)
	if code, _ := status(t, "http://"+addr+m[1]); code != 404 {
		t.Errorf("the old link after -rotate: %d, want 404", code)
	}
	if code, _ := status(t, "http://"+addr+fresh); code != 200 {
		t.Errorf("the new link after -rotate: %d, want 200", code)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
}

// TestRunServesPages: "fairypost run" with web.listen serves the game
// pages next to the bot (a rules page; a game's page without its token
// is 404), makes the page secret in its database when it starts, and
// stops them with the bot.
func TestRunServesPages(t *testing.T) {
	srv := clubDiscord(t)
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "bot.db")
	text := fmt.Sprintf("[discord]\ntoken = \"t\"\napi_url = %q\nguild_id = \"100\"\n[storage]\npath = %q\n"+
		"[log]\nformat = \"json\"\n[web]\nlisten = \"127.0.0.1:0\"\nbase_url = \"https://g.example.org\"\n", srv.URL(), dbPath)
	wait, stopWait := context.WithTimeout(context.Background(), 20*time.Second)
	defer stopWait()
	r := startRun(t, wait, srv, filepath.Join(dir, "fairypost.toml"), text)
	re := regexp.MustCompile(`"msg":"web: serving the game pages","addr":"(127\.0\.0\.1:\d+)"`)
	var addr string
	if err := srv.WaitFor(wait, func() bool {
		m := re.FindStringSubmatch(r.stderr.String())
		if m != nil {
			addr = m[1]
		}
		return m != nil
	}); err != nil {
		t.Fatalf("no pages served: %v\n%s", err, r.stderr.String())
	}
	if code, body := status(t, "http://"+addr+"/rules/tank"); code != 200 || !strings.Contains(body, "Tank") {
		t.Errorf("the rules page: %d", code)
	}
	if code, _ := status(t, "http://"+addr+"/g/1/"+strings.Repeat("A", 22)); code != 404 {
		t.Errorf("a game page without its token: %d, want 404", code)
	}
	r.stop(t, 15*time.Second)
	if _, err := http.Get("http://" + addr + "/rules/tank"); err == nil {
		t.Error("the pages are still served after the bot stopped")
	}
	db, err := storage.Open(dbPath, storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Secret(context.Background(), storage.PageSecret); err != nil {
		t.Errorf("the bot made no page secret: %v", err)
	}
}

// TestLinkOnEtcd: "fairypost link -config FILE" works on the etcd store
// the bots share: it prints the address under web.base_url with the
// secret of the store, which a Server over the same store accepts, and
// -rotate replaces that secret there.
func TestLinkOnEtcd(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	s, err := etcdstore.Open(context.Background(), etcdstore.Options{Endpoints: c.Endpoints, Prefix: "pages/"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	svc := testkit.ServiceOver(t, s.Stores(), testkit.NewClock(time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)))
	ctx := context.Background()
	ch, err := svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "alice", Challenged: "bob", Variant: "chess"})
	if err != nil {
		t.Fatal(err)
	}
	g, err := svc.Challenges().Accept(ctx, ch.ID, ch.Version, "bob", bot.Where{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := writeConfig(t, etcdConfig(c, "pages/")+"[web]\nbase_url = \"https://g.example.org\"\n")
	link := strings.TrimSpace(mustRun(t, "link", "-config", cfg, "-game", fmt.Sprint(g.ID)))
	sec, err := s.Secret(ctx, storage.PageSecret)
	if err != nil {
		t.Fatal(err)
	}
	if want := web.Link("https://g.example.org", sec.Key, g.ID); link != want {
		t.Errorf("link -config printed %q, want %q", link, want)
	}
	r := run(t, "link", "-config", cfg, "-rotate")
	if r.code != 0 || r.stdout != "" {
		t.Fatalf("link -rotate: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if fresh, err := s.Secret(ctx, storage.PageSecret); err != nil || string(fresh.Key) == string(sec.Key) {
		t.Errorf("after -rotate the store's secret is %x (was %x), %v", fresh.Key, sec.Key, err)
	}
	checkBadInput(t, run(t, "link", "-config", writeConfig(t, "[web]\nbase_url = \"https://g.example.org\"\n"), "-game", "1"), "give the database file with -db")
	checkBadInput(t, run(t, "link", "-db", "x.db", "-config", cfg, "-game", "1"), "-db FILE, or -config FILE")
}
