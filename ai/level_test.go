package ai

import "testing"

// TestLevelLadder pins the shape of the levels: each node level searches
// more positions than the one below and draws among no wider a spread,
// level 1 keeps to the 300 positions that answer within 50 ms, and only
// the top level searches by time.
func TestLevelLadder(t *testing.T) {
	prevNodes, prevSpread := int64(0), 1<<30
	for n := 1; n < TopLevel; n++ {
		o := Options{Level: n}.normalized()
		if o.MoveTime != 0 {
			t.Errorf("level %d searches by time (%v); only the top level should", n, o.MoveTime)
		}
		if o.Nodes <= prevNodes {
			t.Errorf("level %d: %d positions, not more than level %d's %d", n, o.Nodes, n-1, prevNodes)
		}
		if o.Spread > prevSpread {
			t.Errorf("level %d: spread %d, wider than level %d's %d", n, o.Spread, n-1, prevSpread)
		}
		prevNodes, prevSpread = o.Nodes, o.Spread
	}
	if o := (Options{Level: 1}).normalized(); o.Nodes != 300 {
		t.Errorf("level 1: %d positions, want 300", o.Nodes)
	}
	top := Options{Level: TopLevel}.normalized()
	if top.Nodes != 0 || top.MoveTime != DefaultMoveTime {
		t.Errorf("top level: %d positions, %v a move; want by time alone, %v", top.Nodes, top.MoveTime, DefaultMoveTime)
	}
	if o := (Options{}).normalized(); o.Level != 4 {
		t.Errorf("no level given: level %d, want 4", o.Level)
	}
}

// TestLevelNodes checks that LevelNodes gives each node level's budget,
// the one a search at that level uses, and 0 for the top level.
func TestLevelNodes(t *testing.T) {
	for n := 1; n < TopLevel; n++ {
		if got, want := LevelNodes(n), NewEngine(Options{Level: n}).Options().Nodes; got != want || got == 0 {
			t.Errorf("LevelNodes(%d) = %d, want %d", n, got, want)
		}
	}
	if got := LevelNodes(TopLevel); got != 0 {
		t.Errorf("LevelNodes(TopLevel) = %d, want 0", got)
	}
}
