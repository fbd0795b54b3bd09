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

// searchBudget bounds the candidate pairs the backtracking search tries
// before PairSwiss switches to pairing step by step with a matching
// oracle, which is slower on easy fields but never backtracks.
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
		s := &search{st: st, relaxed: relaxed}
		for _, bye := range byeCands {
			rest := make([]int, 0, len(active))
			for _, p := range active {
				if p != bye {
					rest = append(rest, p)
				}
			}
			if !s.feasible(rest) {
				continue
			}
			s.pairs, s.budget = nil, searchBudget
			if !s.solve(rest) {
				// The search ran out of budget: pair step by step instead,
				// proving each step completable, which finds the same
				// pairing.
				s.pairs = nil
				if !s.guided(rest) {
					return Pairing{}, fmt.Errorf("%w: pairing failed although a pairing exists (a bug)", ErrNoPairing)
				}
			}
			round := Round{Games: st.allocate(s.pairs, active)}
			if bye >= 0 {
				round.Bye = players[bye]
			}
			return Pairing{Round: round, ColoursRelaxed: relaxed}, nil
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
	prefs   [][3]int // pref's answer for each player, computed once
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
	st.prefs = make([][3]int, n)
	for p := range st.prefs {
		c, strength, diff := st.computePref(p)
		st.prefs[p] = [3]int{c, strength, diff}
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
	x := st.prefs[p]
	return x[0], x[1], x[2]
}

// computePref works out pref from p's colour history.
func (st *swissState) computePref(p int) (colour int, strength int, diff int) {
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

// feasible reports whether rest can be paired completely under s's rules.
func (s *search) feasible(rest []int) bool {
	return perfectMatching(len(rest), func(a, b int) bool { return s.allowed(rest[a], rest[b]) })
}

// candidates returns the positions in rest of the allowed opponents of
// rest[0], best first: closest score, then a fitting colour preference,
// then (inside the score group) nearest to the top-half-against-bottom-
// half ideal, then rank.
func (s *search) candidates(rest []int) []int {
	st := s.st
	p := rest[0]
	// The score group of p among the rest: its ideal opponent is half the
	// group below it.
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
	out := make([]int, len(cands))
	for i, c := range cands {
		out[i] = c.pos
	}
	return out
}

// without returns rest without rest[0] and rest[pos].
func without(rest []int, pos int) []int {
	next := make([]int, 0, len(rest)-2)
	next = append(next, rest[1:pos]...)
	return append(next, rest[pos+1:]...)
}

// solve pairs rest (ranked best first), the first player first, trying
// candidates in order and backtracking, within s.budget; it reports
// whether it succeeded (the pairs are then in s.pairs).
func (s *search) solve(rest []int) bool {
	if len(rest) == 0 {
		return true
	}
	for _, pos := range s.candidates(rest) {
		s.budget--
		if s.budget < 0 {
			return false
		}
		s.pairs = append(s.pairs, [2]int{rest[0], rest[pos]})
		if s.solve(without(rest, pos)) {
			return true
		}
		s.pairs = s.pairs[:len(s.pairs)-1]
	}
	return false
}

// guided pairs rest like solve but without backtracking: it takes the
// first candidate after which the others can still all be paired
// (perfectMatching), which is the pairing solve would reach. It fails
// only when rest cannot be paired at all.
func (s *search) guided(rest []int) bool {
	for len(rest) > 0 {
		found := false
		for _, pos := range s.candidates(rest) {
			if next := without(rest, pos); s.feasible(next) {
				s.pairs = append(s.pairs, [2]int{rest[0], rest[pos]})
				rest, found = next, true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
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
