package tournament

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// brief writes standings as "rank.id points [tiebreaks]" lines.
func brief(st []Standing) string {
	var lines []string
	for _, s := range st {
		tbs := make([]string, len(s.Tiebreaks))
		for i, x := range s.Tiebreaks {
			tbs[i] = FormatPoints(x)
		}
		lines = append(lines, fmt.Sprintf("%d.%s %s [%s]", s.Rank, s.ID, FormatPoints(s.Points), strings.Join(tbs, " ")))
	}
	return strings.Join(lines, "\n")
}

// roundRobinEvent is a hand-scored 4-player round-robin on the Berger
// schedule:
//
//	R1: 1-4 1-0, 2-3 ½    R2: 4-3 0-1, 1-2 0-1    R3: 2-4 0-1, 3-1 ½
//
// Points: p3 2, p1 1½, p2 1½, p4 1. Sonneborn-Berger (beaten opponents'
// points, plus half of drawn ones'): p1 = 1 (p4) + ½·2 (p3) = 2;
// p2 = ½·2 (p3) + 1½ (p1) = 2½; p3 = ½·1½ (p2) + 1 (p4) + ½·1½ (p1) = 2½;
// p4 = 1½ (p2). So p2 is ahead of p1 on Sonneborn-Berger.
func roundRobinEvent() []Round {
	return []Round{
		{Games: []Game{{"p1", "p4", WhiteWins}, {"p2", "p3", Draw}}},
		{Games: []Game{{"p4", "p3", BlackWins}, {"p1", "p2", BlackWins}}},
		{Games: []Game{{"p2", "p4", BlackWins}, {"p3", "p1", Draw}}},
	}
}

func TestStandingsRoundRobin(t *testing.T) {
	st, err := Standings(RoundRobinKind, ids(4), roundRobinEvent())
	if err != nil {
		t.Fatal(err)
	}
	want := "1.p3 2 [2½ 1]\n2.p2 1½ [2½ 1]\n3.p1 1½ [2 1]\n4.p4 1 [1½ 1]"
	if got := brief(st); got != want {
		t.Errorf("standings:\n%s\nwant\n%s", got, want)
	}
	if st[0].Played != 3 || st[0].Wins != 1 || st[0].Seed != 3 {
		t.Errorf("p3: %+v", st[0])
	}
	// All draws in a 3-player round-robin: everyone equal, one shared
	// rank, listed by seed; the bye scores nothing.
	rr, _ := RoundRobin(ids(3))
	for i := range rr {
		for j := range rr[i].Games {
			rr[i].Games[j].Result = Draw
		}
	}
	st, _ = Standings(RoundRobinKind, ids(3), rr)
	if got, want := brief(st), "1.p1 1 [1 0]\n1.p2 1 [1 0]\n1.p3 1 [1 0]"; got != want {
		t.Errorf("all draws:\n%s\nwant\n%s", got, want)
	}
	// Pending games count nothing yet: without p3-p1, p2 and p3 are level
	// on 1½ points and on Sonneborn-Berger (½·1½ + 1 = 1¾ each) and
	// share first place; p1 has only the win over p4.
	part := roundRobinEvent()
	part[2].Games[1].Result = Pending
	st, _ = Standings(RoundRobinKind, ids(4), part)
	want = "1.p2 1½ [1.75 1]\n1.p3 1½ [1.75 1]\n3.p4 1 [1½ 1]\n4.p1 1 [1 1]"
	if got := brief(st); got != want || st[1].Played != 2 {
		t.Errorf("with a pending game:\n%s\nwant\n%s", got, want)
	}
}

// swissEvent is a hand-scored 5-player, 3-round Swiss:
//
//	R1: 1-4 1-0, 5-2 ½, bye 3    R2: 3-1 0-1, 2-4 1-0, bye 5
//	R3: 1-2 ½, 5-3 lost by 5 on forfeit, bye 4
//
// Points (a bye scores 1): p1 2½, p2 2, p3 2, p5 1½, p4 1. Buchholz (the
// opponents' points; a bye counts the player's own points; the forfeit
// counts as a game against p5):
// p1 = 1 + 2 + 2 = 5, cut-1 4; p2 = 1½ + 1 + 2½ = 5, cut-1 4;
// p3 = 2 (bye) + 2½ + 1½ = 6, cut-1 4½; p4 = 2½ + 2 + 1 (bye) = 5½,
// cut-1 4½; p5 = 2 + 1½ (bye) + 2 = 5½, cut-1 4.
// Sonneborn-Berger: p1 = 1 + 2 + ½·2 = 4; p2 = ½·1½ + 1 + ½·2½ = 3;
// p3 = 1½; p4 = 0; p5 = ½·2 = 1.
// p3 and p2 tie on 2 points; p3's cut-1 of 4½ puts them ahead.
func swissEvent() []Round {
	return []Round{
		{Games: []Game{{"p1", "p4", WhiteWins}, {"p5", "p2", Draw}}, Bye: "p3"},
		{Games: []Game{{"p3", "p1", BlackWins}, {"p2", "p4", WhiteWins}}, Bye: "p5"},
		{Games: []Game{{"p1", "p2", Draw}, {"p5", "p3", BlackWinsByForfeit}}, Bye: "p4"},
	}
}

func TestStandingsSwiss(t *testing.T) {
	st, err := Standings(SwissKind, ids(5), swissEvent())
	if err != nil {
		t.Fatal(err)
	}
	want := "1.p1 2½ [4 5 4]\n2.p3 2 [4½ 6 1½]\n3.p2 2 [4 5 3]\n4.p5 1½ [4 5½ 1]\n5.p4 1 [4½ 5½ 0]"
	if got := brief(st); got != want {
		t.Errorf("standings:\n%s\nwant\n%s", got, want)
	}
	if p3 := st[1]; p3.Byes != 1 || p3.Played != 2 || p3.Wins != 1 {
		t.Errorf("p3: %+v", p3)
	}
}

func TestCrosstable(t *testing.T) {
	ct, err := NewCrosstable(SwissKind, ids(5), swissEvent())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ct.Columns, []string{"R1", "R2", "R3"}) || !slices.Equal(ct.Tiebreaks, TiebreakNames(SwissKind)) {
		t.Errorf("header: %v %v", ct.Columns, ct.Tiebreaks)
	}
	// Rows: 1 p1, 2 p3, 3 p2, 4 p5, 5 p4.
	want := "1. p1  5w1 2b1 3w½  2½  4 / 5 / 4\n" +
		"2. p3  bye 1w0 4b+  2  4½ / 6 / 1½\n" +
		"3. p2  4b½ 5w1 1b½  2  4 / 5 / 3\n" +
		"4. p5  3w½ bye 2w−  1½  4 / 5½ / 1\n" +
		"5. p4  1b0 3b0 bye  1  4½ / 5½ / 0\n"
	text := ct.Text(nil)
	if _, body, _ := strings.Cut(text, "\n"); body != want {
		t.Errorf("Swiss crosstable:\n%s\nwant rows\n%s", text, want)
	}
	if c := ct.Rows[1].Cells[2]; c.Opponent != 4 || c.White || c.Result != BlackWinsByForfeit {
		t.Errorf("p3's forfeit cell: %+v", c)
	}

	ct, err = NewCrosstable(RoundRobinKind, ids(4), roundRobinEvent())
	if err != nil {
		t.Fatal(err)
	}
	// Rows: 1 p3, 2 p2, 3 p1, 4 p4.
	want = "1. p3  × ½ ½ 1  2  2½ / 1\n" +
		"2. p2  ½ × 1 0  1½  2½ / 1\n" +
		"3. p1  ½ 0 × 1  1½  2 / 1\n" +
		"4. p4  0 1 0 ×  1  1½ / 1\n"
	text = ct.Text(strings.ToUpper)
	if _, body, _ := strings.Cut(text, "\n"); body != strings.NewReplacer("p3", "P3", "p2", "P2", "p1", "P1", "p4", "P4").Replace(want) {
		t.Errorf("round-robin crosstable:\n%s\nwant rows\n%s", text, want)
	}
	if !strings.HasPrefix(text, "#  Player  1 2 3 4  Pts  Sonneborn-Berger / Wins\n") {
		t.Errorf("round-robin header: %q", text)
	}
}

func TestStandingsRejects(t *testing.T) {
	if _, err := Standings(Kind(9), ids(4), nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("unknown kind: %v", err)
	}
	if _, err := Standings(SwissKind, ids(4), []Round{{Bye: "p9"}}); !errors.Is(err, ErrInvalid) {
		t.Errorf("unknown bye: %v", err)
	}
	if _, err := NewCrosstable(RoundRobinKind, []string{"a", "a"}, nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("duplicate players: %v", err)
	}
}

func TestFormatPoints(t *testing.T) {
	for x, want := range map[float64]string{0: "0", 0.5: "½", 1: "1", 2.5: "2½", 6.25: "6.25", 10.75: "10.75", -0.5: "-½"} {
		if got := FormatPoints(x); got != want {
			t.Errorf("FormatPoints(%v) = %q, want %q", x, got, want)
		}
	}
}
