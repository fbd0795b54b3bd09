package discordtest_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/fairypost/fairypost/bot/discordtest"
)

// TestEnforceNonce: a message created again with the same nonce and
// enforce_nonce in the same channel returns the first message and
// creates nothing (counted); the same nonce without enforce_nonce, or in
// another channel, creates a message; a nonce over 25 characters is
// refused with 50035.
func TestEnforceNonce(t *testing.T) {
	srv := discordtest.New()
	defer srv.Close()
	srv.AddChannel(guildID, channelID, "games")
	srv.AddChannel(guildID, "202", "other")
	s, err := discordgo.New("Bot test-token")
	if err != nil {
		t.Fatal(err)
	}
	s.Client = srv.HTTPClient()
	post := func(channel string, body map[string]any) (*discordgo.Message, error) {
		endpoint := discordgo.EndpointChannelMessages(channel)
		resp, err := s.RequestWithBucketID("POST", endpoint, body, endpoint)
		if err != nil {
			return nil, err
		}
		var m discordgo.Message
		return &m, json.Unmarshal(resp, &m)
	}
	first, err := post(channelID, map[string]any{"content": "one", "nonce": "n-1", "enforce_nonce": true})
	if err != nil {
		t.Fatal(err)
	}
	again, err := post(channelID, map[string]any{"content": "one, again", "nonce": "n-1", "enforce_nonce": true})
	if err != nil {
		t.Fatal(err)
	}
	if again.ID != first.ID || again.Content != "one" {
		t.Errorf("the repeated nonce got message %s %q, want the first, %s %q", again.ID, again.Content, first.ID, first.Content)
	}
	if n := srv.NonceDedups(); n != 1 {
		t.Errorf("NonceDedups = %d, want 1", n)
	}
	if _, err := post(channelID, map[string]any{"content": "loose", "nonce": "n-1"}); err != nil {
		t.Fatal(err)
	}
	if _, err := post("202", map[string]any{"content": "elsewhere", "nonce": "n-1", "enforce_nonce": true}); err != nil {
		t.Fatal(err)
	}
	if _, err := post(channelID, map[string]any{"content": "number", "nonce": 12345, "enforce_nonce": true}); err != nil {
		t.Fatal(err)
	}
	ms := srv.Messages(channelID)
	var got []string
	for _, m := range ms {
		got = append(got, m.Content+"/"+m.Nonce)
	}
	if strings.Join(got, ",") != "one/n-1,loose/n-1,number/12345" || len(srv.Messages("202")) != 1 {
		t.Errorf("messages %q and %d elsewhere; want one/n-1, loose/n-1, number/12345 and 1", got, len(srv.Messages("202")))
	}
	if n := srv.NonceDedups(); n != 1 {
		t.Errorf("NonceDedups = %d after sends that differ, want 1", n)
	}
	_, err = post(channelID, map[string]any{"content": "long", "nonce": strings.Repeat("x", 26), "enforce_nonce": true})
	if status, code := restCode(t, err); status != 400 || code != 50035 {
		t.Errorf("a 26-character nonce: %d/%d, want 400/50035", status, code)
	}
}
