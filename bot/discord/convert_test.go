package discord

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/fairypost/fairypost/bot/command"
)

func TestRewriteTransport(t *testing.T) {
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.Host+" "+r.URL.RequestURI())
	}))
	defer srv.Close()
	for _, base := range []string{srv.URL, srv.URL + "/prefix/"} {
		rt, err := newRewriteTransport(base, nil)
		if err != nil {
			t.Fatal(err)
		}
		c := &http.Client{Transport: rt}
		resp, err := c.Get("https://discord.com/api/v9/gateway?x=1")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	host := strings.TrimPrefix(srv.URL, "http://")
	want := []string{host + " /api/v9/gateway?x=1", host + " /prefix/api/v9/gateway?x=1"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("requests %q, want %q", got, want)
	}
	for _, bad := range []string{"localhost:80", "ftp://x", "http://", "::"} {
		if _, err := newRewriteTransport(bad, nil); err == nil {
			t.Errorf("api_url %q accepted", bad)
		}
	}
}

// TestRewriteLeavesOtherHosts checks that hosts other than Discord's pass
// through unchanged.
func TestRewriteLeavesOtherHosts(t *testing.T) {
	var seen string
	next := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		seen = r.URL.String()
		return &http.Response{StatusCode: 204, Body: io.NopCloser(strings.NewReader("")), Request: r}, nil
	})
	rt, err := newRewriteTransport("http://127.0.0.1:1", next)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("GET", "https://example.org/a", nil)
	if _, err := rt.RoundTrip(req); err != nil {
		t.Fatal(err)
	}
	if seen != "https://example.org/a" {
		t.Errorf("other host rewritten to %q", seen)
	}
	req, _ = http.NewRequest("GET", "https://cdn.discordapp.com/attachments/1/2/a.png", nil)
	rt.RoundTrip(req)
	if seen != "http://127.0.0.1:1/attachments/1/2/a.png" {
		t.Errorf("CDN request went to %q", seen)
	}
	if req.URL.Host != "cdn.discordapp.com" {
		t.Errorf("the caller's request was modified: %v", req.URL)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestApplicationCommands(t *testing.T) {
	specs := []command.Spec{{
		Name: "challenge", Description: "Challenge someone",
		Options: []command.OptionSpec{
			{Name: "opponent", Description: "who", Kind: command.OptionUser, Required: true},
			{Name: "variant", Description: "what", Kind: command.OptionString, Choices: []command.Choice{{Name: "Chess", Value: "chess"}, {Name: "Tank Chess", Value: "tank"}}},
			{Name: "days", Description: "days per move", Kind: command.OptionInteger, Choices: []command.Choice{{Name: "1 day", Value: "1"}, {Name: "3 days", Value: "3"}}},
			{Name: "move", Description: "a move", Kind: command.OptionString, Autocomplete: true},
		},
	}}
	cmds, err := applicationCommands(specs)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(cmds)
	for _, want := range []string{
		`"name":"challenge"`, `"type":6,"name":"opponent"`, `"required":true`,
		`{"name":"Tank Chess","value":"tank"}`, `{"name":"3 days","value":3}`, `"autocomplete":true`,
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("registration %s lacks %s", b, want)
		}
	}
	specs[0].Options[2].Choices = []command.Choice{{Name: "soon", Value: "soon"}}
	if _, err := applicationCommands(specs); err == nil {
		t.Error("a non-integer choice of an integer option was accepted")
	}
}

// TestCommandRequest decodes interactions as Discord sends them.
func TestCommandRequest(t *testing.T) {
	raw := `{"id":"1","type":2,"guild_id":"g","channel_id":"c","member":{"user":{"id":"u1","username":"alice"}},
	"data":{"id":"9","name":"challenge","type":1,"options":[
		{"name":"opponent","type":6,"value":"u2"},{"name":"variant","type":3,"value":"tank"},
		{"name":"days","type":4,"value":3},{"name":"game","type":4,"value":12345678901}],
		"resolved":{"users":{"u2":{"id":"u2","username":"bob"}},"members":{"u2":{"roles":[]}}}}}`
	var i discordgo.Interaction
	if err := json.Unmarshal([]byte(raw), &i); err != nil {
		t.Fatal(err)
	}
	req, focused := commandRequest(&i)
	want := command.Request{UserID: "u1", GuildID: "g", ChannelID: "c", Name: "challenge",
		Options: map[string]string{"opponent": "u2", "variant": "tank", "days": "3", "game": "12345678901"},
		Users:   map[string]command.UserFacts{"u1": {Name: "alice"}, "u2": {Name: "bob"}}}
	if fmt.Sprint(req) != fmt.Sprint(want) || focused != "" {
		t.Errorf("request %+v focused %q, want %+v", req, focused, want)
	}

	// Autocomplete in a DM: the user field, a focused partial value.
	raw = `{"id":"2","type":4,"channel_id":"dm","user":{"id":"u3"},
	"data":{"name":"move","type":1,"options":[{"name":"game","type":4,"value":"12"},{"name":"move","type":3,"value":"Nf","focused":true}]}}`
	i = discordgo.Interaction{}
	if err := json.Unmarshal([]byte(raw), &i); err != nil {
		t.Fatal(err)
	}
	req, focused = commandRequest(&i)
	if req.UserID != "u3" || !req.DM || req.Options["move"] != "Nf" || req.Options["game"] != "12" || focused != "move" {
		t.Errorf("autocomplete request %+v focused %q", req, focused)
	}

	// A user outside the guild is resolved without a member; a bot is marked.
	raw = `{"id":"3","type":2,"guild_id":"g","channel_id":"c","member":{"user":{"id":"u1"}},
	"data":{"name":"challenge","type":1,"options":[{"name":"opponent","type":6,"value":"u9"}],
		"resolved":{"users":{"u9":{"id":"u9","bot":true}}}}}`
	i = discordgo.Interaction{}
	if err := json.Unmarshal([]byte(raw), &i); err != nil {
		t.Fatal(err)
	}
	req, _ = commandRequest(&i)
	if f := req.Users["u9"]; !f.Bot || !f.NotMember || req.DM {
		t.Errorf("resolved non-member bot: %+v", req)
	}
}

func TestChoicesLimits(t *testing.T) {
	var cs []command.Choice
	for k := range 40 {
		cs = append(cs, command.Choice{Name: fmt.Sprintf("move %d", k), Value: fmt.Sprintf("m%d", k)})
	}
	cs[0].Value = strings.Repeat("x", 101) // cannot be sent back: dropped
	cs[1].Name = strings.Repeat("n", 150)  // shortened
	got := choices(cs)
	if len(got) != maxChoices {
		t.Fatalf("%d choices, want %d", len(got), maxChoices)
	}
	if got[0].Value != "m1" || len([]rune(got[0].Name)) != 100 {
		t.Errorf("first choice %+v", got[0])
	}
}

func TestComponentsLayout(t *testing.T) {
	var bs []command.Button
	for k := range 27 {
		bs = append(bs, command.Button{Label: fmt.Sprint(k), CustomID: fmt.Sprintf("fp1:x:%d:1", k), Style: command.ButtonDanger})
	}
	bs[3].CustomID = strings.Repeat("y", 101)
	rows := components(bs)
	if len(rows) != maxRows {
		t.Fatalf("%d rows", len(rows))
	}
	n := 0
	for _, r := range rows {
		row := r.(discordgo.ActionsRow)
		if len(row.Components) > maxButtonsInRow {
			t.Errorf("row of %d buttons", len(row.Components))
		}
		for _, c := range row.Components {
			if btn := c.(discordgo.Button); btn.CustomID == bs[3].CustomID || btn.Style != discordgo.DangerButton {
				t.Errorf("button %+v", btn)
			}
			n++
		}
	}
	if n != 25 {
		t.Errorf("%d buttons laid out, want 25", n)
	}
}

func TestResponseData(t *testing.T) {
	rep := command.Reply{Text: strings.Repeat("é", 2100), Ephemeral: true, Mention: []string{"u2"},
		Files: []command.File{{Name: "game-1.png", Data: []byte("png")}, {Name: "game-1.pgn", Data: []byte("pgn")}}}
	d := responseData(rep)
	if len([]rune(d.Content)) != maxContent || d.Flags != discordgo.MessageFlagsEphemeral {
		t.Errorf("content of %d runes, flags %v", len([]rune(d.Content)), d.Flags)
	}
	if d.Files[0].ContentType != "image/png" || d.Files[1].ContentType == "" {
		t.Errorf("files %+v %+v", d.Files[0], d.Files[1])
	}
	b, _ := json.Marshal(d.AllowedMentions)
	if string(b) != `{"parse":[],"users":["u2"],"replied_user":false}` {
		t.Errorf("allowed mentions %s", b)
	}
	if c := content(command.Reply{}); c == "" {
		t.Error("an empty reply would be refused by Discord")
	}
}

func TestKeyedMutex(t *testing.T) {
	var k keyedMutex
	u1 := k.lock(1)
	u2 := k.lock(2) // another key does not wait
	done := make(chan struct{})
	go func() { k.lock(1)(); close(done) }()
	select {
	case <-done:
		t.Fatal("second lock of the same key did not wait")
	default:
	}
	u1()
	<-done
	u2()
	if len(k.locks) != 0 {
		t.Errorf("%d locks left", len(k.locks))
	}
}
