package command

import (
	"context"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/bot/prefs"
	"github.com/fairypost/fairypost/bot/variants"
	"github.com/fairypost/fairypost/internal/testkit"
	"github.com/fairypost/fairypost/rules"
)

// newVariantEnv is newEnv with the servers' variants, over a registry of
// its own (defined variants must not leak into the shared one).
func newVariantEnv(t *testing.T) *env {
	t.Helper()
	db := testkit.OpenDB(t)
	clk := testkit.NewClock(t0)
	reg, err := rules.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	svc := gameplay.NewService(testkit.Stores(db), reg, gameplay.Clock(clk.Now), gameplay.Coin(func() bool { return true }))
	h := New(svc, prefs.New(svc, db), Options{BoardSize: 240, GIFSize: 160, Variants: variants.New(db, svc)})
	return &env{t: t, ctx: context.Background(), db: db, svc: svc, h: h, clk: clk}
}

// kinglessText is a definition typed in text: (lines separated by |).
const kinglessText = "[kingless:chess]|king=-|commoner=k|extinctionValue=loss|extinctionPieceTypes=k"

// TestVariantCommand: /variant action:define, then a challenge by name
// (casual, listed by autocomplete), a move, the variant locked and its
// removal refused; another server sees none of it.
func TestVariantCommand(t *testing.T) {
	e := newVariantEnv(t)
	r := e.ok("alice", "/variant action:define text:"+kinglessText)
	if r.Ephemeral || !strings.Contains(r.Text, "`kingless`") {
		t.Fatalf("define: %s", show(r))
	}
	got := e.h.Complete(e.ctx, Request{UserID: "bob", GuildID: "g1", ChannelID: "c1", Name: cmdChallenge, Options: map[string]string{optVariant: "kingl"}}, optVariant)
	if len(got) != 1 || got[0].Value != "kingless" {
		t.Errorf("autocomplete of variant:kingl on g1: %+v, want kingless", got)
	}
	other := e.h.Complete(e.ctx, Request{UserID: "bob", GuildID: "g2", ChannelID: "c2", Name: cmdChallenge, Options: map[string]string{optVariant: "kingl"}}, optVariant)
	if len(other) != 0 {
		t.Errorf("autocomplete on g2 offers %+v", other)
	}
	shown := e.ok("bob", "/variant action:show name:kingless")
	if !strings.Contains(shown.Text, "Commoner: moves one square in any direction") || strings.Contains(shown.Text, "docs/variants") {
		t.Errorf("show: %q, want the pieces in words and no rules page", shown.Text)
	}
	e.refused("alice", "/challenge opponent:bob variant:kingless rated:yes", "casual")
	if d, _ := e.h.defined.List(e.ctx, "g1"); len(d) != 1 || d[0].Locked {
		t.Fatalf("after a refused challenge: %+v, want kingless unlocked", d)
	}
	id := e.start("kingless")
	if g := e.game(id); g.Rated || g.Variant != variants.Key("g1", "kingless") {
		t.Errorf("game: rated %v, variant %q", g.Rated, g.Variant)
	}
	if r := e.ok("alice", "/move move:e4 game:"+itoa(id)); r.Ephemeral {
		t.Fatalf("e4: %s", show(r))
	}
	if l := e.ok("alice", "/variant action:list"); !strings.Contains(l.Text, "locked") {
		t.Errorf("list: %q, want kingless locked", l.Text)
	}
	e.refused("alice", "/variant action:remove name:kingless", "new name")
	// Another server sees nothing of it.
	g2 := func(line string) Reply { return e.h.Execute(e.ctx, withGuild(parse("carol", "c2", line), "g2")) }
	if r := g2("/variant action:list"); !strings.Contains(r.Text, "no variants") {
		t.Errorf("g2 list: %q", r.Text)
	}
	if r := g2("/challenge opponent:dave variant:kingless"); !r.Ephemeral || !strings.Contains(r.Text, "Unknown variant") {
		t.Errorf("g2 challenging with kingless: %q", r.Text)
	}
	if r := g2("/variant action:show name:kingless"); !r.Ephemeral || !strings.Contains(r.Text, "no variant kingless") {
		t.Errorf("g2 show: %q", r.Text)
	}
}

func withGuild(r Request, g string) Request { r.GuildID = g; return r }

// TestVariantBadDefinition: a definition with problems is refused with
// their line numbers and stores nothing; check says the same and changes
// nothing; an attached file is read as the text.
func TestVariantBadDefinition(t *testing.T) {
	e := newVariantEnv(t)
	bad := "[good:chess]\n[broken:chess]\ncustomPiece1 = a:QQ!x\n[orphan:nosuch]\n"
	req := parse("alice", "c1", "/variant action:define")
	req.Options[optVariantFile] = bad
	r := e.h.Execute(e.ctx, req)
	if !r.Ephemeral || !strings.Contains(r.Text, "line 3") || !strings.Contains(r.Text, "line 4") || !strings.Contains(r.Text, "nothing was defined") {
		t.Fatalf("bad define: %s", show(r))
	}
	req.Options[optAction] = "check"
	c := e.h.Execute(e.ctx, req)
	if !strings.Contains(c.Text, "`good` is fine") || !strings.Contains(c.Text, "line 3") {
		t.Errorf("check: %q", c.Text)
	}
	if vs, err := e.db.DefinedVariants(e.ctx, ""); err != nil || len(vs) != 0 {
		t.Errorf("stored: %+v %v", vs, err)
	}
	if l := e.ok("alice", "/variant action:list"); !strings.Contains(l.Text, "no variants") {
		t.Errorf("list after refusals: %q", l.Text)
	}
	// An attached file holds line breaks; a typed option does not.
	req.Options[optAction], req.Options[optVariantFile] = "define", strings.ReplaceAll(kinglessText, "|", "\n")
	if r := e.h.Execute(e.ctx, req); r.Ephemeral {
		t.Fatalf("define from a file: %s", show(r))
	}
	e.refused("bob", "/variant action:remove name:kingless", "Only")
	if r := e.ok("alice", "/variant action:remove name:kingless"); r.Ephemeral {
		t.Errorf("remove by its author: %s", show(r))
	}
}
