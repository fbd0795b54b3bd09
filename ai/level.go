package ai

import "time"

// TopLevel is the strongest level: it searches by time (Options.MoveTime,
// default DefaultMoveTime) instead of by nodes.
const TopLevel = 9

// DefaultMoveTime is the top level's time per move.
const DefaultMoveTime = 2 * time.Second

// level returns the node budget and spread of levels 1-8 (the top level
// has neither: it searches by time). A level means the same on every
// machine because it counts positions, not time. Weaker levels choose at
// random (by the seed) among the moves within the spread of the best.
func level(n int) (nodes int64, spread int) {
	// Budgets grow threefold up to level 4 and twofold above it, so that
	// every node level plays a whole game in seconds to a minute on one
	// core (chess: level 8 about 0.3 s a move) and the top level, by
	// time, stays well above level 8; the spread shrinks with the budget.
	switch n {
	case 1:
		return 300, 150
	case 2:
		return 1000, 90
	case 3:
		return 3000, 50
	case 4:
		return 10000, 25
	case 5:
		return 20000, 12
	case 6:
		return 40000, 6
	case 7:
		return 80000, 3
	case 8:
		return 160000, 0
	}
	return 0, 0
}

// Options configure an Engine.
type Options struct {
	// Level is 1 (weakest) to TopLevel; 0 means 4. It sets Nodes and
	// Spread, or MoveTime at the top level, where they are not given.
	Level int
	// Nodes is the node budget of a search (positions visited); when the
	// budget runs out the deepest finished iteration decides.
	Nodes int64
	// MoveTime is a hard time limit per search; the search never starts
	// an iteration after half of it. 0 = no time limit.
	MoveTime time.Duration
	// Spread, in hundredths of a pawn: the move is drawn (by Seed) among
	// those scoring within Spread of the best. 0 = the level's spread;
	// negative = always the best move.
	Spread int
	// Seed makes the choice among nearly equal moves reproducible.
	Seed uint64
	// MaterialOnly judges positions by material alone (pieces on the board
	// and in hand), ignoring mobility and the variant's goal: the
	// benchmark that shows what the goal is worth.
	MaterialOnly bool
	// Greedy plays the move whose whole turn leaves the best material, with
	// no search beyond the turn (ties drawn by Seed): a yardstick for the
	// arena. It implies MaterialOnly; budgets do not apply.
	Greedy bool
}

// normalized fills in the level's defaults.
func (o Options) normalized() Options {
	if o.Greedy {
		o.MaterialOnly = true
	}
	if o.Level < 1 || o.Level > TopLevel {
		o.Level = 4
	}
	nodes, spread := level(o.Level)
	switch {
	case o.Spread == 0:
		o.Spread = spread
	case o.Spread < 0:
		o.Spread = 0
	}
	if o.Nodes <= 0 && o.MoveTime <= 0 {
		if o.Level == TopLevel {
			o.MoveTime = DefaultMoveTime
		} else {
			o.Nodes = nodes
		}
	}
	return o
}

// LevelNodes returns the node budget of a search at level n (1-8), 0 for
// the top level (which searches by time) or a level out of range.
func LevelNodes(n int) int64 {
	nodes, _ := level(n)
	return nodes
}
