package tournament

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// mustFor returns a function that unwraps an event method's result,
// failing t on an error.
func mustFor(t *testing.T) func(Event, error) Event {
	return func(e Event, err error) Event {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
}

// finishCurrent records a result for every pending game of the current
// rounds, White winning on even boards and drawing on odd ones.
func finishCurrent(t *testing.T, e Event) Event {
	t.Helper()
	must := mustFor(t)
	for _, rn := range e.Current() {
		for b, g := range e.Schedule[rn-1].Games {
			if g.Result != Pending {
				continue
			}
			res := WhiteWins
			if b%2 == 1 {
				res = Draw
			}
			e = must(e.Record(rn, g.White, g.Black, res))
		}
	}
	return e
}

func TestRoundRobinEventLifecycle(t *testing.T) {
	must := mustFor(t)
	e := must(NewEvent(RoundRobinKind, 0))
	for _, p := range []string{"dave", "alice", "bob", "carol", "erin"} {
		e = must(e.Join(p))
	}
	e = must(e.Leave("erin")) // before the start: simply gone
	if _, err := e.Join("bob"); !errors.Is(err, ErrInvalid) {
		t.Errorf("joining twice: %v", err)
	}
	if _, err := e.Start([]string{"alice", "bob", "carol"}); !errors.Is(err, ErrInvalid) {
		t.Errorf("start with a seed order missing a player: %v", err)
	}
	if _, err := e.Start([]string{"alice", "bob", "bob", "dave"}); !errors.Is(err, ErrInvalid) {
		t.Errorf("start with a repeated seed: %v", err)
	}
	open := e
	e = must(e.Start([]string{"alice", "bob", "carol", "dave"}))
	if open.Status != Open || open.Schedule != nil || e.Rounds != 3 || e.Status != Running {
		t.Fatalf("start: before %+v after %+v", open, e)
	}
	if !slices.Equal(e.Current(), []int{1, 2, 3}) {
		t.Errorf("a round-robin plays all rounds at once: current %v", e.Current())
	}
	if _, err := e.Join("frank"); !errors.Is(err, ErrInvalid) {
		t.Errorf("joining after the start: %v", err)
	}
	if _, err := e.Record(1, "alice", "dave", Pending); !errors.Is(err, ErrInvalid) {
		t.Errorf("recording Pending: %v", err)
	}
	if _, err := e.Record(1, "dave", "alice", WhiteWins); !errors.Is(err, ErrInvalid) {
		t.Errorf("recording with colours swapped: %v", err)
	}
	e = must(e.Record(1, "alice", "dave", WhiteWins))
	if _, err := e.Record(1, "alice", "dave", Draw); !errors.Is(err, ErrInvalid) {
		t.Errorf("recording twice: %v", err)
	}
	if _, moved, _ := e.Advance(); moved {
		t.Error("advanced with games going on")
	}
	e = finishCurrent(t, e)
	e, moved, err := e.Advance()
	if err != nil || !moved || e.Status != Finished {
		t.Fatalf("advance after the last game: %v %v %s", moved, err, e.Status)
	}
	w, err := e.Winners()
	if err != nil || len(w) == 0 {
		t.Fatalf("winners: %v %v", w, err)
	}
	st, _ := e.Standings()
	if st[0].ID != w[0] {
		t.Errorf("winner %v is not first in %+v", w, st)
	}
	if _, err := e.Cancel(); !errors.Is(err, ErrInvalid) {
		t.Errorf("cancelling a finished event: %v", err)
	}
}

// TestSwissEventLifecycle plays a 6-player, 3-round Swiss; one player
// leaves in round 2 (their game is forfeited, they are not paired again),
// the event is paused and resumed between rounds.
func TestSwissEventLifecycle(t *testing.T) {
	must := mustFor(t)
	if _, err := NewEvent(SwissKind, 0); !errors.Is(err, ErrInvalid) {
		t.Errorf("Swiss of no rounds: %v", err)
	}
	if _, err := NewEvent(RoundRobinKind, 4); !errors.Is(err, ErrInvalid) {
		t.Errorf("round-robin with rounds: %v", err)
	}
	e := must(NewEvent(SwissKind, 4))
	players := ids(6)
	for _, p := range players {
		e = must(e.Join(p))
	}
	if _, err := e.Start(players); !errors.Is(err, ErrInvalid) {
		t.Errorf("4 rounds for 6 players: %v", err)
	}
	e = must(NewEvent(SwissKind, 3))
	for _, p := range players {
		e = must(e.Join(p))
	}
	e = must(e.Start(players))
	if len(e.Schedule) != 1 || !slices.Equal(e.Current(), []int{1}) {
		t.Fatalf("after start: %+v", e)
	}
	e = finishCurrent(t, e)
	e = must(e.Pause())
	if same, moved, _ := e.Advance(); moved || !reflect.DeepEqual(same, e) {
		t.Error("a paused event advanced")
	}
	e = must(e.Resume())
	e, moved, err := e.Advance()
	if err != nil || !moved || len(e.Schedule) != 2 {
		t.Fatalf("round 2 not paired: %v %v", moved, err)
	}
	// p6 leaves during round 2.
	before := e
	e = must(e.Leave("p6"))
	var forfeited Game
	for _, g := range e.Schedule[1].Games {
		if g.White == "p6" || g.Black == "p6" {
			forfeited = g
		}
	}
	if forfeited.Result != WhiteWinsByForfeit && forfeited.Result != BlackWinsByForfeit || (forfeited.White == "p6") != (forfeited.Result == BlackWinsByForfeit) {
		t.Errorf("p6's game after leaving: %+v", forfeited)
	}
	for _, g := range before.Schedule[1].Games {
		if g.Result != Pending {
			t.Errorf("Leave changed the event it was called on: %+v", g)
		}
	}
	if _, err := e.Leave("p6"); !errors.Is(err, ErrInvalid) {
		t.Errorf("leaving twice: %v", err)
	}
	e = finishCurrent(t, e)
	e, _, err = e.Advance()
	if err != nil || len(e.Schedule) != 3 {
		t.Fatalf("round 3: %v %+v", err, e.Schedule)
	}
	r3 := e.Schedule[2]
	if r3.Bye == "" || r3.Bye == "p6" || len(r3.Games) != 2 {
		t.Errorf("round 3 with five players left: %+v", r3)
	}
	for _, g := range r3.Games {
		if g.White == "p6" || g.Black == "p6" {
			t.Errorf("p6 paired after leaving: %+v", g)
		}
	}
	e = finishCurrent(t, e)
	e, moved, _ = e.Advance()
	if !moved || e.Status != Finished {
		t.Fatalf("after round 3: %s", e.Status)
	}
	ct, err := e.Crosstable()
	if err != nil || len(ct.Rows) != 6 || len(ct.Columns) != 3 {
		t.Fatalf("crosstable: %v %+v", err, ct)
	}
}

// TestSwissEventsRun runs random Swiss events from start to finish with
// random withdrawals: they always finish, and nobody is ever paired twice
// against the same opponent.
func TestSwissEventsRun(t *testing.T) {
	must := mustFor(t)
	r := rand.New(rand.NewPCG(8, 8))
	for ev := 0; ev < 60; ev++ {
		n := 3 + r.IntN(30)
		e := must(NewEvent(SwissKind, 1+r.IntN(MaxSwissRounds(n))))
		players := ids(n)
		for _, p := range players {
			e = must(e.Join(p))
		}
		e = must(e.Start(players))
		seeds, _ := index(players)
		for steps := 0; e.Status == Running; steps++ {
			if steps > 100 {
				t.Fatalf("event %d never finished", ev)
			}
			if r.IntN(6) == 0 {
				if p := players[r.IntN(n)]; !slices.Contains(e.Withdrawn, p) {
					e = must(e.Leave(p))
				}
			}
			cur := e.Current()
			if len(cur) > 0 {
				rn := cur[0]
				played := playRound(r, seeds, e.Schedule[rn-1])
				for i, g := range played.Games {
					if e.Schedule[rn-1].Games[i].Result == Pending {
						e = must(e.Record(rn, g.White, g.Black, g.Result))
					}
				}
			}
			var err error
			if e, _, err = e.Advance(); err != nil {
				t.Fatal(err)
			}
		}
		if e.Status != Finished {
			t.Fatalf("event %d ended %s", ev, e.Status)
		}
		met := map[[2]string]bool{}
		for _, rd := range e.Schedule {
			for _, g := range rd.Games {
				k := [2]string{min(g.White, g.Black), max(g.White, g.Black)}
				if met[k] {
					t.Fatalf("event %d: %v met twice", ev, k)
				}
				met[k] = true
			}
		}
	}
}
