package tournament

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// bruteMatching decides by exhaustive search whether a perfect matching
// exists.
func bruteMatching(n int, edge func(a, b int) bool) bool {
	var rec func(free []int) bool
	rec = func(free []int) bool {
		if len(free) == 0 {
			return true
		}
		for i := 1; i < len(free); i++ {
			if edge(free[0], free[i]) {
				rest := append(slices.Clone(free[1:i]), free[i+1:]...)
				if rec(rest) {
					return true
				}
			}
		}
		return false
	}
	free := make([]int, n)
	for i := range free {
		free[i] = i
	}
	return rec(free)
}

// TestPerfectMatching compares the blossom algorithm with exhaustive
// search on random graphs of up to 12 vertices, sparse and dense, and on
// two triangles (odd cycles, no perfect matching) and a hexagon.
func TestPerfectMatching(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	yes, no := 0, 0
	for i := 0; i < 4000; i++ {
		n := r.IntN(13)
		p := r.Float64()
		adj := make([][]bool, n)
		for a := range adj {
			adj[a] = make([]bool, n)
		}
		for a := 0; a < n; a++ {
			for b := a + 1; b < n; b++ {
				if r.Float64() < p {
					adj[a][b], adj[b][a] = true, true
				}
			}
		}
		edge := func(a, b int) bool { return adj[a][b] }
		want := n%2 == 0 && bruteMatching(n, edge)
		if got := perfectMatching(n, edge); got != want {
			t.Fatalf("graph %v: perfectMatching = %v, want %v", adj, got, want)
		}
		if want {
			yes++
		} else {
			no++
		}
	}
	t.Logf("%d graphs with a perfect matching, %d without", yes, no)
	triangles := func(a, b int) bool { return a/3 == b/3 }
	if perfectMatching(6, triangles) {
		t.Error("two triangles have no perfect matching")
	}
	hexagon := func(a, b int) bool { return (a+1)%6 == b || (b+1)%6 == a }
	if !perfectMatching(6, hexagon) {
		t.Error("a hexagon has a perfect matching")
	}
}

// TestGuidedEqualsSearch: pairing step by step with the matching oracle
// gives the same pairs as the backtracking search, on random histories.
func TestGuidedEqualsSearch(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for ev := 0; ev < 150; ev++ {
		n := 2 * (3 + r.IntN(10))
		players := ids(n)
		idx, _ := index(players)
		seeds := idx
		var history []Round
		for rn := 0; rn < MaxSwissRounds(n); rn++ {
			st := newSwissState(players, idx, history)
			active := make([]int, n)
			for i := range active {
				active[i] = i
			}
			slices.SortFunc(active, func(a, b int) int {
				if st.score[a] != st.score[b] {
					return st.score[b] - st.score[a]
				}
				return a - b
			})
			for _, relaxed := range []bool{false, true} {
				a := &search{st: st, relaxed: relaxed, budget: 1 << 30}
				b := &search{st: st, relaxed: relaxed}
				okA, okB := a.solve(active), b.guided(active)
				if okA != okB || !slices.Equal(a.pairs, b.pairs) {
					t.Fatalf("%d players, round %d, relaxed %v: search %v %v, guided %v %v", n, rn+1, relaxed, okA, a.pairs, okB, b.pairs)
				}
			}
			p, err := PairSwiss(players, history, nil)
			if err != nil {
				t.Fatal(err)
			}
			history = append(history, playRound(r, seeds, p.Round))
		}
	}
}
