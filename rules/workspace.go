package rules

import "sync"

// workspace is working space for a hook that tries moves in full while
// moves are generated or judged (whether a player has a legal move at
// all): a buffer of moves and a position to play them into.
type workspace struct {
	moves []Move
	pos   Position
}

// workspaces lends workspaces to a variant's hooks. Code that tries moves
// in full cannot keep its working space on the stack (the hooks it calls
// through Position.playInto are function values, so the compiler moves it
// to the heap), and a search calls it at every node: borrowing the space
// keeps the search free of allocations once every goroutine that plays
// the variant has borrowed one. A workspace is borrowed for the length of
// one call (get), then given back (put); the calls may nest. Safe for
// concurrent use; what is lent changes no result.
type workspaces struct {
	pool sync.Pool
}

// get lends a workspace whose contents are left over from its last use.
// A nil w (a variant not compiled) lends a new one.
func (w *workspaces) get() *workspace {
	if w != nil {
		if ws, ok := w.pool.Get().(*workspace); ok {
			return ws
		}
	}
	return &workspace{moves: make([]Move, 0, 256)}
}

// put takes back a workspace that get lent; the caller no longer uses it.
func (w *workspaces) put(ws *workspace) {
	if w != nil {
		w.pool.Put(ws)
	}
}
