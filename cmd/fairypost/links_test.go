package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/fairypost/fairypost/bot/discordtest"
	"github.com/fairypost/fairypost/bot/web"
	"github.com/fairypost/fairypost/storage"
)

// TestRunLinksBoards: "fairypost run" with web.base_url (and no
// web.listen: another process serves the pages) puts a "View game" link
// button under the board of an accepted challenge, leading to the game's
// page under base_url with the token of the secret it made in its
// database, and /link answers that address.
func TestRunLinksBoards(t *testing.T) {
	srv := clubDiscord(t)
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "bot.db")
	text := fmt.Sprintf("[discord]\ntoken = \"t\"\napi_url = %q\nguild_id = \"100\"\n[storage]\npath = %q\n[render]\nboard_size = 200\n"+
		"[log]\nformat = \"json\"\n[web]\nbase_url = \"https://g.example.org/\"\n", srv.URL(), dbPath)
	wait, stopWait := context.WithTimeout(context.Background(), 20*time.Second)
	defer stopWait()
	r := startRun(t, wait, srv, filepath.Join(dir, "fairypost.toml"), text)
	ix, err := srv.Slash("1", "200", "challenge", discordtest.String("variant", "chess"), discordtest.User("opponent", "2"),
		discordtest.String("color", "white"), discordtest.Int("days", 0))
	if err != nil {
		t.Fatal(err)
	}
	ch, err := ix.Final(wait)
	if err != nil {
		t.Fatal(err)
	}
	var accept string
	for _, b := range ch.Buttons() {
		if b.Label == "Accept" {
			accept = b.CustomID
		}
		if b.Style == discordgo.LinkButton {
			t.Errorf("the challenge, without a board, has the link button %+v", b)
		}
	}
	ix, err = srv.Click("2", ch.ChannelID, ch.ID, accept)
	if err != nil {
		t.Fatal(err)
	}
	acc, err := ix.Final(wait)
	if err != nil {
		t.Fatal(err)
	}
	var link string
	for _, b := range acc.Buttons() {
		if b.Style == discordgo.LinkButton && b.Label == "View game" {
			link = b.URL
		}
	}
	ix, err = srv.Slash("1", "200", "link")
	if err != nil {
		t.Fatal(err)
	}
	answer, err := ix.Final(wait)
	if err != nil {
		t.Fatal(err)
	}
	r.stop(t, 15*time.Second)

	db, err := storage.Open(dbPath, storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sec, err := db.Secret(context.Background(), storage.PageSecret)
	if err != nil {
		t.Fatalf("the bot made no page secret: %v", err)
	}
	want := "https://g.example.org/g/1/" + web.Token(sec.Key, 1)
	if link != want {
		t.Errorf("the accepted challenge %q: link button %q, want %q (buttons %+v)", acc.Content, link, want, acc.Buttons())
	}
	if !strings.Contains(answer.Content, want) {
		t.Errorf("/link answered %q, want the address %s", answer.Content, want)
	}
}

// TestConsoleLinks: "fairypost console -base URL" prints each board's page
// address under it and answers /link with it, the address "fairypost
// link" prints for the same database; without -base, no address, and
// /link says there are no pages; a bad -base is refused.
func TestConsoleLinks(t *testing.T) {
	dir := t.TempDir()
	db, images := filepath.Join(dir, "fp.db"), filepath.Join(dir, "boards")
	r := runIn(t, "as alice /challenge @bob variant:chess color:white\nas bob /accept\n/link\nas carol /link game:7\n",
		"console", "-db", db, "-images", images, "-base", "https://games.example.org")
	if r.code != 0 {
		t.Fatalf("console: exit %d, stderr %q", r.code, r.stderr)
	}
	l := runIn(t, "", "link", "-db", db, "-game", "1", "-base", "https://games.example.org")
	want := strings.TrimSpace(l.stdout)
	if l.code != 0 || !strings.HasPrefix(want, "https://games.example.org/g/1/") {
		t.Fatalf("fairypost link: exit %d, %q %q", l.code, l.stdout, l.stderr)
	}
	for _, line := range []string{"  [View game] " + want + "\n", "(only @bob sees this) The page of game #1 (Chess): " + want + "\n",
		"(only @carol sees this) There is no game 7."} {
		if !strings.Contains(r.stdout, line) {
			t.Errorf("the console's output lacks %q:\n%s", line, r.stdout)
		}
	}
	r = runIn(t, "as bob /board\n/link\n", "console", "-db", db, "-images", images)
	if r.code != 0 || strings.Contains(r.stdout, "View game") || !strings.Contains(r.stdout, "This bot has no game pages") {
		t.Errorf("the console without -base: exit %d, stdout:\n%s", r.code, r.stdout)
	}
	r = runIn(t, "", "console", "-db", db, "-base", "games.example.org")
	if r.code != exitBadInput || !strings.Contains(r.stderr, "-base") {
		t.Errorf("a bad -base: exit %d, stderr %q", r.code, r.stderr)
	}
}
