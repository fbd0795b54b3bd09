package rating

import (
	"errors"
	"testing"
	"time"
)

// FuzzUpdate: any numbers are either rejected with ErrInvalid or give a
// finite rating with deviation and volatility within the bounds, where a
// win never lowers the rating and a loss never raises it.
func FuzzUpdate(f *testing.F) {
	f.Add(1500.0, 200.0, 0.06, 1400.0, 30.0, 0.06, 1.0, 1.0)
	f.Add(1e12, 1e-9, 100.0, -1e12, 1e300, 1e-300, 0.0, 1e6)
	f.Fuzz(func(t *testing.T, r, d, v, or, od, ov, score, periods float64) {
		s := Lichess()
		g := Glicko{r, d, v}
		got, err := s.Update(g, []Outcome{{Opponent: Glicko{or, od, ov}, Score: score}}, periods)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		if !finite(got) || got.Deviation < s.MinDeviation || got.Deviation > s.MaxDeviation ||
			got.Volatility < s.MinVolatility || got.Volatility > s.MaxVolatility {
			t.Fatalf("%+v against %v/%v/%v score %v periods %v gave %+v", g, or, od, ov, score, periods, got)
		}
		if (score == Win && got.Rating < r) || (score == Loss && got.Rating > r) {
			t.Fatalf("score %v moved %v to %v", score, r, got.Rating)
		}
	})
}

func BenchmarkRate(b *testing.B) {
	s := Lichess()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	w := Player{Glicko: Glicko{1620, 80, 0.06}, Games: 30, Last: t0}
	bl := Player{Glicko: Glicko{1540, 120, 0.07}, Games: 8, Last: t0}
	for i := 0; i < b.N; i++ {
		if _, _, err := s.Rate(w, bl, Draw, t0.Add(72*time.Hour)); err != nil {
			b.Fatal(err)
		}
	}
}
