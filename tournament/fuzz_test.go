package tournament

import (
	"errors"
	"fmt"
	"testing"
)

// decodeEvent turns fuzz bytes into a field of 2 to 17 players and
// rounds of arbitrary (often invalid) games, byes and results.
func decodeEvent(data []byte) ([]string, []Round) {
	if len(data) == 0 {
		return ids(2), nil
	}
	players := ids(2 + int(data[0])%16)
	var rounds []Round
	var cur Round
	for i := 1; i+2 < len(data); i += 3 {
		a, b, c := int(data[i]), int(data[i+1]), data[i+2]
		if c == 0xff {
			rounds = append(rounds, cur)
			cur = Round{}
			continue
		}
		name := func(x int) string {
			if x%19 == 18 {
				return "stranger"
			}
			return fmt.Sprintf("p%d", x%19+1)
		}
		if c%8 == 7 {
			cur.Bye = name(a)
			continue
		}
		cur.Games = append(cur.Games, Game{White: name(a), Black: name(b), Result: Result(c % 8)})
	}
	return players, append(rounds, cur)
}

// FuzzPairSwiss: any history is either rejected with ErrInvalid or
// ErrNoPairing, or gives a round in which every active player is placed
// once, nobody meets an old opponent and nobody gets a second bye; it
// never panics.
func FuzzPairSwiss(f *testing.F) {
	f.Add([]byte{5, 0, 3, 1, 1, 2, 3, 4, 0, 7, 0xff, 0, 0, 0})
	f.Add([]byte{7, 0, 1, 1, 2, 3, 2, 4, 5, 3, 6, 6, 7})
	f.Fuzz(func(t *testing.T, data []byte) {
		players, history := decodeEvent(data)
		var withdrawn []string
		if len(data) > 1 && data[len(data)-1]%3 == 0 {
			withdrawn = players[:1]
		}
		p, err := PairSwiss(players, history, withdrawn)
		if err != nil {
			if !errors.Is(err, ErrInvalid) && !errors.Is(err, ErrNoPairing) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		checkSwissRoundBasics(t, players, history, p.Round, withdrawn)
	})
}

// checkSwissRoundBasics checks the absolute rules of a paired round.
func checkSwissRoundBasics(t *testing.T, players []string, history []Round, rd Round, withdrawn []string) {
	t.Helper()
	idx, _ := index(players)
	before := newSwissState(players, idx, history)
	placed := map[string]int{}
	for _, g := range rd.Games {
		placed[g.White]++
		placed[g.Black]++
		if before.met[idx[g.White]][idx[g.Black]] || g.White == g.Black {
			t.Fatalf("repeat or self pairing %+v", g)
		}
	}
	if rd.Bye != "" {
		placed[rd.Bye]++
		if before.byes[idx[rd.Bye]] > 0 {
			t.Fatalf("second bye for %s", rd.Bye)
		}
	}
	for _, p := range players {
		want := 1
		for _, w := range withdrawn {
			if w == p {
				want = 0
			}
		}
		if placed[p] != want {
			t.Fatalf("%s placed %d times", p, placed[p])
		}
	}
}

// FuzzStandings: any event is either rejected with ErrInvalid or gives
// standings of every player, ranked in order, and a crosstable with one
// row each; it never panics.
func FuzzStandings(f *testing.F) {
	f.Add([]byte{3, 0, 1, 1, 1, 2, 3, 0, 2, 2})
	f.Fuzz(func(t *testing.T, data []byte) {
		players, rounds := decodeEvent(data)
		for _, kind := range []Kind{RoundRobinKind, SwissKind} {
			st, err := Standings(kind, players, rounds)
			if err != nil {
				if !errors.Is(err, ErrInvalid) {
					t.Fatalf("unexpected error %v", err)
				}
				continue
			}
			if len(st) != len(players) {
				t.Fatalf("%d standings for %d players", len(st), len(players))
			}
			for i := 1; i < len(st); i++ {
				if st[i].Points > st[i-1].Points || st[i].Rank < st[i-1].Rank {
					t.Fatalf("standings out of order: %+v", st)
				}
			}
			ct, err := NewCrosstable(kind, players, rounds)
			if err != nil || len(ct.Rows) != len(players) || ct.Text(nil) == "" {
				t.Fatalf("crosstable: %v", err)
			}
		}
	})
}
