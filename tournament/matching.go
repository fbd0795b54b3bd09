package tournament

// perfectMatching reports whether the graph on vertices 0..n-1 with the
// edges edge(a, b) (symmetric) has a perfect matching. It is Edmonds'
// blossom algorithm for a maximum matching, started from a greedy one:
// O(n³) at worst, about O(n²) when the greedy matching is nearly perfect,
// as it is in the dense graphs of a Swiss field.
func perfectMatching(n int, edge func(a, b int) bool) bool {
	if n%2 == 1 {
		return false
	}
	if n == 0 {
		return true
	}
	adj := make([][]bool, n)
	for a := range adj {
		adj[a] = make([]bool, n)
	}
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			if edge(a, b) {
				adj[a][b], adj[b][a] = true, true
			}
		}
	}
	m := &blossom{n: n, adj: adj, match: make([]int, n), parent: make([]int, n),
		base: make([]int, n), used: make([]bool, n), inBlossom: make([]bool, n), mark: make([]bool, n)}
	for i := range m.match {
		m.match[i] = -1
	}
	matched := 0
	for a := 0; a < n; a++ {
		if m.match[a] != -1 {
			continue
		}
		for b := a + 1; b < n; b++ {
			if adj[a][b] && m.match[b] == -1 {
				m.match[a], m.match[b] = b, a
				matched += 2
				break
			}
		}
	}
	for v := 0; v < n && matched < n; v++ {
		if m.match[v] != -1 {
			continue
		}
		u := m.augmentingPath(v)
		if u == -1 {
			// v stays unmatched in a maximum matching: no perfect one.
			return false
		}
		for u != -1 {
			pv := m.parent[u]
			next := m.match[pv]
			m.match[u], m.match[pv] = pv, u
			u = next
		}
		matched += 2
	}
	return matched == n
}

// blossom is the working state of Edmonds' algorithm.
type blossom struct {
	n         int
	adj       [][]bool
	match     []int // partner, or -1
	parent    []int // predecessor on the alternating tree, or -1
	base      []int // base vertex of the blossom a vertex lies in
	used      []bool
	inBlossom []bool
	mark      []bool
	queue     []int
}

// augmentingPath grows an alternating tree from the unmatched root and
// returns the unmatched vertex an augmenting path reaches (follow parent
// and match back to the root), or -1 when there is none.
func (m *blossom) augmentingPath(root int) int {
	for i := 0; i < m.n; i++ {
		m.used[i], m.parent[i], m.base[i] = false, -1, i
	}
	m.used[root] = true
	m.queue = append(m.queue[:0], root)
	for head := 0; head < len(m.queue); head++ {
		v := m.queue[head]
		for to := 0; to < m.n; to++ {
			if !m.adj[v][to] || m.base[v] == m.base[to] || m.match[v] == to {
				continue
			}
			if to == root || (m.match[to] != -1 && m.parent[m.match[to]] != -1) {
				// An odd cycle: contract it into a blossom.
				cur := m.commonBase(v, to)
				for i := range m.inBlossom {
					m.inBlossom[i] = false
				}
				m.markPath(v, cur, to)
				m.markPath(to, cur, v)
				for i := 0; i < m.n; i++ {
					if m.inBlossom[m.base[i]] {
						m.base[i] = cur
						if !m.used[i] {
							m.used[i] = true
							m.queue = append(m.queue, i)
						}
					}
				}
			} else if m.parent[to] == -1 {
				m.parent[to] = v
				if m.match[to] == -1 {
					return to
				}
				w := m.match[to]
				m.used[w] = true
				m.queue = append(m.queue, w)
			}
		}
	}
	return -1
}

// commonBase returns the base of the lowest common ancestor of a and b in
// the alternating tree.
func (m *blossom) commonBase(a, b int) int {
	for i := range m.mark {
		m.mark[i] = false
	}
	for {
		a = m.base[a]
		m.mark[a] = true
		if m.match[a] == -1 {
			break
		}
		a = m.parent[m.match[a]]
	}
	for {
		b = m.base[b]
		if m.mark[b] {
			return b
		}
		b = m.parent[m.match[b]]
	}
}

// markPath marks the blossom vertices on the path from v down to base b,
// re-pointing parents so that paths through the blossom stay alternating.
func (m *blossom) markPath(v, b, child int) {
	for m.base[v] != b {
		m.inBlossom[m.base[v]], m.inBlossom[m.base[m.match[v]]] = true, true
		m.parent[v] = child
		child = m.match[v]
		v = m.parent[m.match[v]]
	}
}
