package render

import (
	"testing"

	"golang.org/x/image/font/opentype"
)

// TestNoKerning: text is set without kerning, so that a pair the font
// library kerns several times too far ("Ta" of DejaVu Sans: the a under
// the T, seen in the legend line "T Tank") is set at its advances.
func TestNoKerning(t *testing.T) {
	fs, err := loadFonts()
	if err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]*opentype.Font{"text": fs.text, "bold": fs.bold} {
		fc := face(f, 14)
		for _, word := range []string{"Tank", "To", "Yawn", "AV"} {
			var sum float64
			for _, r := range word {
				adv, ok := fc.GlyphAdvance(r)
				if !ok {
					t.Fatalf("%s: no glyph %q", name, r)
				}
				sum += fix2f(adv)
			}
			if got := textWidth(fc, word); got != sum {
				t.Errorf("%s %q: width %.2f px, want the sum of its advances %.2f (kerned)", name, word, got, sum)
			}
		}
	}
}
