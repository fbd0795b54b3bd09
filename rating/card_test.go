package rating

import (
	"errors"
	"testing"
	"time"
)

func TestCard(t *testing.T) {
	s := Lichess()
	day := func(d, h int) time.Time { return time.Date(2026, 5, d, h, 0, 0, 0, time.UTC) }
	est := func(r float64) Glicko { return Glicko{r, 80, 0.06} }
	prov := func(r float64) Glicko { return Glicko{r, 200, 0.09} }
	history := []HistoryEntry{
		{day(1, 9), Win, prov(1650)},
		{day(1, 20), Win, prov(1720)},
		{day(2, 10), Loss, est(1705)},
		{day(4, 10), Win, est(1718)},
		{day(4, 11), Win, est(1731)},
		{day(4, 12), Win, est(1744)},
		{day(7, 10), Draw, est(1740)},
	}
	p := Player{Glicko: est(1740), Games: 7, Last: day(7, 10)}
	c, err := s.Card(p, history, day(8, 0), 10)
	if err != nil {
		t.Fatal(err)
	}
	if c.Games != 7 || c.Wins != 5 || c.Draws != 1 || c.Losses != 1 {
		t.Errorf("W/D/L: %+v", c)
	}
	if c.LongestStreak != 3 || c.CurrentStreak != 0 {
		t.Errorf("streaks: longest %d current %d, want 3 and 0", c.LongestStreak, c.CurrentStreak)
	}
	// 1720 was provisional: the peak is 1744.
	if c.Peak != 1744 || c.Display != "1740" {
		t.Errorf("peak %d display %q", c.Peak, c.Display)
	}
	want := []ChartPoint{{day(1, 0), 1720}, {day(2, 0), 1705}, {day(4, 0), 1744}, {day(7, 0), 1740}}
	if len(c.Chart) != len(want) {
		t.Fatalf("chart %+v, want %+v", c.Chart, want)
	}
	for i := range want {
		if !c.Chart[i].Day.Equal(want[i].Day) || c.Chart[i].Rating != want[i].Rating {
			t.Errorf("chart point %d: %+v, want %+v", i, c.Chart[i], want[i])
		}
	}
	c, _ = s.Card(p, history, day(8, 0), 3)
	if len(c.Chart) != 3 || c.Chart[0].Rating != 1720 || c.Chart[1].Rating != 1705 || c.Chart[2].Rating != 1740 {
		t.Errorf("thinned chart: %+v", c.Chart)
	}
	// A newcomer with no games.
	c, err = s.Card(Player{}, nil, day(8, 0), 10)
	if err != nil || c.Display != "1500?" || c.Games != 0 || c.Chart != nil || c.Peak != 0 {
		t.Errorf("newcomer: %+v %v", c, err)
	}
	bad := [][]HistoryEntry{
		{history[1], history[0]},
		{{day(1, 1), 2, est(1500)}},
		{{day(1, 1), Win, Glicko{}}},
	}
	for i, h := range bad {
		if _, err := s.Card(p, h, day(8, 0), 10); !errors.Is(err, ErrInvalid) {
			t.Errorf("bad history %d: %v", i, err)
		}
	}
	if _, err := s.Card(p, history, day(8, 0), 1); !errors.Is(err, ErrInvalid) {
		t.Errorf("one chart point: %v", err)
	}
}
