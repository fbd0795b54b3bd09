package render

import (
	"bytes"
	"errors"
	"image/png"
	"testing"
)

// sampleEvalChart is a 24-ply game White lost with one blunder, a
// mistake and an inaccuracy, the worst two labelled.
func sampleEvalChart() EvalChart {
	wins := []float64{52, 50, 53, 49, 55, 51, 58, 40, 38, 41, 36, 35, 37, 20, 22, 18, 15, 17, 12, 9, 8, 6, 5, 0}
	c := EvalChart{Title: "Game #7: White's winning chances"}
	for _, w := range wins {
		c.Points = append(c.Points, EvalPoint{WhiteWin: w})
	}
	c.Points[7] = EvalPoint{WhiteWin: 40, Mark: "mistake", Label: "4. Bd3?"}
	c.Points[13] = EvalPoint{WhiteWin: 20, Mark: "blunder", Label: "7... Qxf2??"}
	c.Points[10].Mark = "inaccuracy"
	return c
}

// TestEvalChartGolden: the evaluation chart of a sample game matches its
// golden image (go test ./render -run TestEvalChartGolden -update).
func TestEvalChartGolden(t *testing.T) {
	r, err := NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := r.EvalChartPNG(&buf, sampleEvalChart(), 800); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(buf.Bytes()))
	if err != nil || img.Bounds().Dx() != 800 || img.Bounds().Dy() != 400 {
		t.Fatalf("the chart is %v, %v; want 800x400", img.Bounds(), err)
	}
	checkGolden(t, "evalchart", buf.Bytes())
}

// TestEvalChartBadInput: what cannot be drawn is refused with ErrInvalid.
func TestEvalChartBadInput(t *testing.T) {
	r, err := NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	bad := map[string]EvalChart{
		"no point":     {},
		"above 100":    {Points: []EvalPoint{{WhiteWin: 101}}},
		"unknown mark": {Points: []EvalPoint{{WhiteWin: 50, Mark: "brilliant"}}},
	}
	for name, c := range bad {
		if _, err := r.EvalChartImage(c, 800); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", name, err)
		}
	}
	if _, err := r.EvalChartImage(sampleEvalChart(), 10); !errors.Is(err, ErrInvalid) {
		t.Errorf("width 10: %v, want ErrInvalid", err)
	}
}
