package tournament

import (
	"cmp"
	"fmt"
	"slices"
)

// MaxSwissRounds returns the most rounds a Swiss of n players may have:
// half the players, rounded up. Up to that many rounds a pairing without
// repeats (and, for an odd n, with a new bye player) always exists: the
// players who have not met form a graph in which everyone has at least
// half the field left to meet, which by Dirac's theorem has a perfect
// matching. Withdrawals can break this (see ErrNoPairing).
func MaxSwissRounds(n int) int { return (n + 1) / 2 }

// searchBudget bounds the candidate pairs the search tries at each level
// of the colour rules, so that a pathological field costs a bounded time.
const searchBudget = 200_000

// Pairing is one Swiss round as PairSwiss made it.
type Pairing struct {
	Round
	// ColoursRelaxed is true when no pairing without repeats kept every
	// player's colours within the colour rules, so they were dropped for
	// this round.
	ColoursRelaxed bool
}

// PairSwiss pairs the next round of a Swiss event (see the package
// documentation for the rules): players in seed order (best first),
// the rounds played so far (all finished), and the players who have
// withdrawn (not paired; their past games still count). Games come
// strongest board first, all Pending. Errors: bad ids, a player twice in
// a round, an unfinished round or too few active players wrap ErrInvalid;
// a field where no pairing meets the absolute rules wraps ErrNoPairing.
// PairSwiss does not bound the number of rounds; the caller keeps to
// MaxSwissRounds.
func PairSwiss(players []string, history []Round, withdrawn []string) (Pairing, error) {
	idx, err := index(players)
	if err != nil {
		return Pairing{}, err
	}
	if err := checkRounds(idx, history); err != nil {
		return Pairing{}, err
	}
	for i, r := range history {
		if !r.Finished() {
			return Pairing{}, fmt.Errorf("%w: round %d is not finished", ErrInvalid, i+1)
		}
	}
	out := make([]bool, len(players))
	for _, w := range withdrawn {
		i, ok := idx[w]
		if !ok {
			return Pairing{}, fmt.Errorf("%w: withdrawn player %q is not in the event", ErrInvalid, w)
		}
		out[i] = true
	}
	st := newSwissState(players, idx, history)
	var active []int
	for i := range players {
		if !out[i] {
			active = append(active, i)
		}
	}
	if len(active) < 2 {
		return Pairing{}, fmt.Errorf("%w: %d active players cannot be paired", ErrInvalid, len(active))
	}
	// Rank: score, then seed.
	slices.SortFunc(active, func(a, b int) int {
		if c := cmp.Compare(st.score[b], st.score[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	// Bye candidates, lowest ranked first.
	byeCands := []int{-1}
	if len(active)%2 == 1 {
		byeCands = byeCands[:0]
		for i := len(active) - 1; i >= 0; i-- {
			if st.byes[active[i]] == 0 {
				byeCands = append(byeCands, active[i])
			}
		}
	}
	for _, relaxed := range []bool{false, true} {
		s := &search{st: st, relaxed: relaxed, budget: searchBudget}
		for _, bye := range byeCands {
			rest := make([]int, 0, len(active))
			for _, p := range active {
				if p != bye {
					rest = append(rest, p)
				}
			}
			if s.solve(rest) {
				round := Round{Games: st.allocate(s.pairs, active)}
				if bye >= 0 {
					round.Bye = players[bye]
				}
				return Pairing{Round: round, ColoursRelaxed: relaxed}, nil
			}
			if s.budget <= 0 {
				break
			}
		}
	}
	return Pairing{}, fmt.Errorf("%w: every pairing of the %d remaining players repeats a game or a bye", ErrNoPairing, len(active))
}

// swissState is what the history says about each player (by seed index).
type swissState struct {
	players []string
	score   []int          // half points, byes included
	met     []map[int]bool // opponents so far (forfeits included)
	colours [][]int8       // +1 White, -1 Black, of the games played
	byes    []int
}

func newSwissState(players []string, idx map[string]int, history []Round) *swissState {
	n := len(players)
	st := &swissState{
		players: players,
		score:   make([]int, n),
		met:     make([]map[int]bool, n),
		colours: make([][]int8, n),
		byes:    make([]int, n),
	}
	for i := range st.met {
		st.met[i] = map[int]bool{}
	}
	for _, r := range history {
		for _, g := range r.Games {
			w, b := idx[g.White], idx[g.Black]
			sw, sb := g.Result.halfPoints()
			st.score[w] += sw
			st.score[b] += sb
			st.met[w][b], st.met[b][w] = true, true
			if !g.Result.Forfeit() {
				st.colours[w] = append(st.colours[w], 1)
				st.colours[b] = append(st.colours[b], -1)
			}
		}
		if r.Bye != "" {
			p := idx[r.Bye]
			st.byes[p]++
			st.score[p] += int(2 * SwissKind.ByePoints())
		}
	}
	return st
}

// Colour preference strengths.
const (
	prefNone     = 0
	prefMild     = 1 // alternate from the last game
	prefStrong   = 2 // colour difference of one
	prefAbsolute = 3 // difference of two, or the same colour twice running
)

// pref returns the colour p wants (+1 White, -1 Black, 0 none), how much,
// and p's colour difference (whites minus blacks).
func (st *swissState) pref(p int) (colour int, strength int, diff int) {
	cs := st.colours[p]
	for _, c := range cs {
		diff += int(c)
	}
	n := len(cs)
	switch {
	case diff <= -2 || (n >= 2 && cs[n-1] == -1 && cs[n-2] == -1):
		return 1, prefAbsolute, diff
	case diff >= 2 || (n >= 2 && cs[n-1] == 1 && cs[n-2] == 1):
		return -1, prefAbsolute, diff
	case diff < 0:
		return 1, prefStrong, diff
	case diff > 0:
		return -1, prefStrong, diff
	case n > 0:
		return -int(cs[n-1]), prefMild, diff
	}
	return 0, prefNone, diff
}

// search is the depth-first search for a complete pairing.
type search struct {
	st      *swissState
	relaxed bool // colour rules dropped
	budget  int
	pairs   [][2]int
}

// allowed reports whether p and q may meet: never again, and under the
// colour rules not when both must have the same colour.
func (s *search) allowed(p, q int) bool {
	if s.st.met[p][q] {
		return false
	}
	if s.relaxed {
		return true
	}
	cp, sp, _ := s.st.pref(p)
	cq, sq, _ := s.st.pref(q)
	return !(sp == prefAbsolute && sq == prefAbsolute && cp == cq)
}

// solve pairs rest (ranked best first), the first player first, trying
// candidates in the order of preference; it reports whether it succeeded
// (the pairs are then in s.pairs).
func (s *search) solve(rest []int) bool {
	if len(rest) == 0 {
		return true
	}
	if s.budget <= 0 {
		return false
	}
	p := rest[0]
	st := s.st
	// The score group of p among the rest, for the top-half-against-
	// bottom-half rule: its ideal opponent is half the group below it.
	group := 1
	for group < len(rest) && st.score[rest[group]] == st.score[p] {
		group++
	}
	ideal := group / 2
	cp, _, _ := st.pref(p)
	type cand struct{ pos, scoreGap, colourClash, distance int }
	cands := make([]cand, 0, len(rest)-1)
	for pos := 1; pos < len(rest); pos++ {
		q := rest[pos]
		if !s.allowed(p, q) {
			continue
		}
		cq, _, _ := st.pref(q)
		clash := 0
		if cp != 0 && cp == cq {
			clash = 1
		}
		dist := pos
		if pos < group {
			dist = abs(pos - ideal)
		}
		cands = append(cands, cand{pos, st.score[p] - st.score[q], clash, dist})
	}
	slices.SortFunc(cands, func(a, b cand) int {
		if c := cmp.Compare(a.scoreGap, b.scoreGap); c != 0 {
			return c
		}
		if c := cmp.Compare(a.colourClash, b.colourClash); c != 0 {
			return c
		}
		if c := cmp.Compare(a.distance, b.distance); c != 0 {
			return c
		}
		return cmp.Compare(a.pos, b.pos)
	})
	next := make([]int, 0, len(rest))
	for _, c := range cands {
		s.budget--
		if s.budget < 0 {
			return false
		}
		q := rest[c.pos]
		next = next[:0]
		for _, r := range rest[1:] {
			if r != q {
				next = append(next, r)
			}
		}
		s.pairs = append(s.pairs, [2]int{p, q})
		if s.solve(next) {
			return true
		}
		s.pairs = s.pairs[:len(s.pairs)-1]
	}
	return false
}

// allocate gives colours to the pairs (each pair: the higher ranked
// first) and orders the boards: higher score first, then the higher
// ranked player's rank. ranked is the active players in rank order.
func (st *swissState) allocate(pairs [][2]int, ranked []int) []Game {
	rank := make(map[int]int, len(ranked))
	for i, p := range ranked {
		rank[p] = i
	}
	sorted := slices.Clone(pairs)
	slices.SortFunc(sorted, func(a, b [2]int) int {
		sa := max(st.score[a[0]], st.score[a[1]])
		sb := max(st.score[b[0]], st.score[b[1]])
		if c := cmp.Compare(sb, sa); c != 0 {
			return c
		}
		return cmp.Compare(rank[a[0]], rank[b[0]])
	})
	games := make([]Game, 0, len(sorted))
	for board, pr := range sorted {
		p, q := pr[0], pr[1] // p is ranked higher
		cp, sp, dp := st.pref(p)
		cq, sq, dq := st.pref(q)
		pWhite := true
		switch {
		case cp == 0 && cq == 0:
			pWhite = board%2 == 0
		case cp != cq:
			// Different wishes, or only one has a wish: both are granted.
			pWhite = cp == 1 || (cp == 0 && cq == -1)
		case sp != sq:
			pWhite = (sp > sq) == (cp == 1)
		case abs(dp) != abs(dq):
			pWhite = (abs(dp) > abs(dq)) == (cp == 1)
		default:
			pWhite = cp == 1
		}
		if pWhite {
			games = append(games, Game{White: st.players[p], Black: st.players[q]})
		} else {
			games = append(games, Game{White: st.players[q], Black: st.players[p]})
		}
	}
	return games
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
