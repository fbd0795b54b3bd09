package command

import (
	"strings"
	"testing"
)

// TestGameViewScope: a game is looked at from its server or by its
// players: /board, /history and /export of another server's game, or
// from a stranger's DM, answer as if the game did not exist; the players
// see it from a DM too.
func TestGameViewScope(t *testing.T) {
	e := newEnv(t)
	id := e.start("chess")
	e.ok("alice", "/move move:e4")
	for _, cmd := range []string{"/board", "/history", "/export"} {
		line := cmd + " game:" + itoa(id)
		for _, at := range []struct {
			name string
			req  Request
		}{
			{"another server", parse("carol", "c9", line)},
			{"a stranger's DM", parse("carol", "dm-carol", line)},
		} {
			req := at.req
			if at.name == "another server" {
				req.GuildID = "g2"
			} else {
				req.GuildID, req.DM = "", true
			}
			r := e.h.Execute(e.ctx, req)
			if !r.Ephemeral || len(r.Files) > 0 || !strings.Contains(r.Text, "There is no game "+itoa(id)+" here") {
				t.Errorf("%s from %s: %s", cmd, at.name, show(r))
			}
		}
		spectator := e.h.Execute(e.ctx, parse("carol", "c1", line))
		if spectator.Ephemeral && len(spectator.Files) == 0 {
			t.Errorf("%s by a spectator in the game's server: %s", cmd, show(spectator))
		}
		req := parse("bob", "dm-bob", line)
		req.GuildID, req.DM = "", true
		if r := e.h.Execute(e.ctx, req); r.Ephemeral && len(r.Files) == 0 {
			t.Errorf("%s by a player from a DM: %s", cmd, show(r))
		}
	}
}

// TestServerOnlyCommandInDM: /challenge typed in a DM (a forged or old
// client) is refused before anything is stored: the game would be posted
// where the opponent cannot see it.
func TestServerOnlyCommandInDM(t *testing.T) {
	e := newEnv(t)
	req := parse("alice", "dm-alice", "/challenge opponent:bob variant:chess")
	req.GuildID, req.DM = "", true
	r := e.h.Execute(e.ctx, req)
	if !r.Ephemeral || !strings.Contains(r.Text, "works in a server's channel, not in a direct message") {
		t.Fatalf("/challenge in a DM: %s", show(r))
	}
	if cs, err := e.svc.Challenges().PendingChallenges(e.ctx, "bob"); err != nil || len(cs) != 0 {
		t.Fatalf("a refused challenge was stored: %v %v", cs, err)
	}
	req = parse("alice", "c1", "/challenge variant:chess")
	req.DM = true
	if r := e.h.Execute(e.ctx, req); !r.Ephemeral || !strings.Contains(r.Text, "not valid") {
		t.Fatalf("a DM with a guild ID: %s", show(r))
	}
}

// TestChallengeNobody: bots and people outside the server cannot be
// challenged (the adapter says which users are which).
func TestChallengeNobody(t *testing.T) {
	e := newEnv(t)
	req := parse("alice", "c1", "/challenge opponent:robot variant:chess")
	req.Users = map[string]UserFacts{"robot": {Bot: true}}
	if r := e.h.Execute(e.ctx, req); !r.Ephemeral || !strings.Contains(r.Text, "is a bot and cannot play") {
		t.Errorf("challenging a bot: %s", show(r))
	}
	req = parse("alice", "c1", "/challenge opponent:zed variant:chess")
	req.Users = map[string]UserFacts{"zed": {NotMember: true}}
	if r := e.h.Execute(e.ctx, req); !r.Ephemeral || !strings.Contains(r.Text, "is not a member of this server") {
		t.Errorf("challenging a non-member: %s", show(r))
	}
}
