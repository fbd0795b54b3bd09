package ai

import (
	"context"
	"testing"

	"github.com/fairypost/fairypost/rules"
)

func TestDbgLevels(t *testing.T) {
	reg := registry(t)
	for _, k := range []string{"trainwreck", "chess", "tank"} {
		v := reg.Default(k)
		g := rules.NewGame(v.Start())
		opener := NewEngine(Options{Level: 1, Seed: 1})
		for len(g.Moves()) < 20 && !g.Outcome().Over() {
			r, _ := opener.Search(context.Background(), g.Position(), nil)
			g.Play(r.Move)
		}
		p := g.Position()
		for l := 1; l <= 8; l++ {
			r, _ := NewEngine(Options{Level: l, Seed: 3}).Search(context.Background(), p, nil)
			t.Log(k, l, "depth", r.Depth, "nodes", r.Nodes, "choices", r.Choices, "score", r.Score)
		}
	}
}
