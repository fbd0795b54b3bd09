package discord

import (
	"encoding/json"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// The caller's name and whether they manage the server come from the
// interaction: a nickname first, then the display name, then the user
// name; Manage Server (1<<5) makes a manager, in a server only.
func TestCallerFacts(t *testing.T) {
	cases := []struct {
		raw     string
		name    string
		manager bool
	}{
		{`{"id":"1","type":2,"guild_id":"g","channel_id":"c","member":{"nick":"Ally","permissions":"32","user":{"id":"u1","username":"alice","global_name":"Alice"}},"data":{"name":"profile","type":1}}`, "Ally", true},
		{`{"id":"2","type":2,"guild_id":"g","channel_id":"c","member":{"permissions":"2048","user":{"id":"u1","username":"alice","global_name":"Alice"}},"data":{"name":"profile","type":1}}`, "Alice", false},
		{`{"id":"3","type":2,"channel_id":"dm","user":{"id":"u1","username":"alice"},"data":{"name":"profile","type":1}}`, "alice", false},
	}
	for _, c := range cases {
		var i discordgo.Interaction
		if err := json.Unmarshal([]byte(c.raw), &i); err != nil {
			t.Fatal(err)
		}
		req, _ := commandRequest(&i)
		if got := req.Users["u1"].Name; got != c.name || req.Manager != c.manager {
			t.Errorf("%s: name %q manager %v, want %q %v", c.raw, got, req.Manager, c.name, c.manager)
		}
	}
}
