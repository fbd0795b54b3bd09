package tournament

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func ids(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("p%d", i+1)
	}
	return out
}

// table writes rounds in Berger-table form with players as numbers:
// "1-4 2-3 | 4-3 1-2 | ..." (a bye as "5:bye").
func table(rounds []Round) string {
	var rs []string
	for _, r := range rounds {
		var gs []string
		for _, g := range r.Games {
			gs = append(gs, strings.TrimPrefix(g.White, "p")+"-"+strings.TrimPrefix(g.Black, "p"))
		}
		if r.Bye != "" {
			gs = append(gs, strings.TrimPrefix(r.Bye, "p")+":bye")
		}
		rs = append(rs, strings.Join(gs, " "))
	}
	return strings.Join(rs, " | ")
}

// TestBergerTables pins the schedules to the published FIDE Berger tables
// for 4 and 6 players (and 3 and 5, which are those with the phantom
// number as a bye).
func TestBergerTables(t *testing.T) {
	want := map[int]string{
		3: "2-3 1:bye | 1-2 3:bye | 3-1 2:bye",
		4: "1-4 2-3 | 4-3 1-2 | 2-4 3-1",
		5: "2-5 3-4 1:bye | 5-3 1-2 4:bye | 3-1 4-5 2:bye | 1-4 2-3 5:bye | 4-2 5-1 3:bye",
		6: "1-6 2-5 3-4 | 6-4 5-3 1-2 | 2-6 3-1 4-5 | 6-5 1-4 2-3 | 3-6 4-2 5-1",
	}
	for n, w := range want {
		rounds, err := RoundRobin(ids(n))
		if err != nil {
			t.Fatal(err)
		}
		if got := table(rounds); got != w {
			t.Errorf("%d players:\n got %s\nwant %s", n, got, w)
		}
	}
}

// TestRoundRobinProperties: for 3 to 20 players everyone meets everyone
// exactly once, nobody plays twice in a round, an odd field gives each
// player exactly one bye, and each player's whites and blacks differ by
// at most one.
func TestRoundRobinProperties(t *testing.T) {
	for n := MinPlayers; n <= MaxRoundRobinPlayers; n++ {
		players := ids(n)
		rounds, err := RoundRobin(players)
		if err != nil {
			t.Fatal(err)
		}
		wantRounds := n - 1
		if n%2 == 1 {
			wantRounds = n
		}
		if len(rounds) != wantRounds {
			t.Errorf("%d players: %d rounds, want %d", n, len(rounds), wantRounds)
		}
		met := map[[2]string]int{}
		colour := map[string]int{}
		byes := map[string]int{}
		for ri, r := range rounds {
			inRound := map[string]bool{}
			for _, g := range r.Games {
				if g.Result != Pending || inRound[g.White] || inRound[g.Black] || g.White == g.Black {
					t.Fatalf("%d players, round %d: bad game %+v", n, ri+1, g)
				}
				inRound[g.White], inRound[g.Black] = true, true
				a, b := min(g.White, g.Black), max(g.White, g.Black)
				met[[2]string{a, b}]++
				colour[g.White]++
				colour[g.Black]--
			}
			if r.Bye != "" {
				byes[r.Bye]++
				inRound[r.Bye] = true
			}
			if len(inRound) != n {
				t.Fatalf("%d players, round %d: %d players placed", n, ri+1, len(inRound))
			}
		}
		if len(met) != n*(n-1)/2 {
			t.Errorf("%d players: %d distinct pairings, want %d", n, len(met), n*(n-1)/2)
		}
		for pair, c := range met {
			if c != 1 {
				t.Errorf("%d players: %v met %d times", n, pair, c)
			}
		}
		for _, p := range players {
			if d := colour[p]; d < -1 || d > 1 {
				t.Errorf("%d players: %s has whites minus blacks = %d", n, p, d)
			}
			if n%2 == 1 && byes[p] != 1 {
				t.Errorf("%d players: %s has %d byes", n, p, byes[p])
			}
		}
	}
}

func TestRoundRobinRejects(t *testing.T) {
	for _, players := range [][]string{nil, ids(2), ids(MaxRoundRobinPlayers + 1), {"a", "b", "a"}, {"a", "", "c"}} {
		if _, err := RoundRobin(players); !errors.Is(err, ErrInvalid) {
			t.Errorf("RoundRobin(%q): err = %v, want ErrInvalid", players, err)
		}
	}
}
