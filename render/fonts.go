package render

import (
	"embed"
	"fmt"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// fontFiles holds the embedded fonts and their licences (fonts/README.md).
// Nothing is read from the machine at run time.
//
//go:embed fonts/*.ttf
var fontFiles embed.FS

// fontSet is the parsed fonts. sfnt fonts are safe for concurrent use as
// long as every call has its own sfnt.Buffer; font.Face values are not, so
// faces are made per use (opentype.NewFace only records a scale) and never
// shared between goroutines.
type fontSet struct {
	symbols *opentype.Font // Noto Sans Symbols 2: the pieces and the badge symbols
	text    *opentype.Font // DejaVu Sans
	bold    *opentype.Font // DejaVu Sans Bold
}

// loadFonts parses the embedded fonts.
func loadFonts() (fontSet, error) {
	var fs fontSet
	for _, f := range []struct {
		dst  **opentype.Font
		name string
	}{
		{&fs.symbols, "fonts/NotoSansSymbols2-Regular.ttf"},
		{&fs.text, "fonts/DejaVuSans.ttf"},
		{&fs.bold, "fonts/DejaVuSans-Bold.ttf"},
	} {
		b, err := fontFiles.ReadFile(f.name)
		if err != nil {
			return fontSet{}, fmt.Errorf("render: embedded font %s: %w", f.name, err)
		}
		if *f.dst, err = opentype.Parse(b); err != nil {
			return fontSet{}, fmt.Errorf("render: embedded font %s: %w", f.name, err)
		}
	}
	return fs, nil
}

// face returns a new face of f at px pixels (em size), without kerning
// (see unkerned). The face belongs to the caller's goroutine.
func face(f *opentype.Font, px float64) font.Face {
	// NewFace only records the scale; it has no error to report.
	fc, _ := opentype.NewFace(f, &opentype.FaceOptions{Size: px, DPI: 72, Hinting: font.HintingNone})
	return unkerned{fc}
}

// unkerned is a face that sets every pair of letters at its advance:
// golang.org/x/image's opentype face (v0.47) reads DejaVu Sans's class
// kerning several times too large (T and a: -5.3 px of an 8.4 px advance
// at 14 px, where the font means about -0.9), drawing "Tank" as the a
// under the T. Text here is short labels, where no kerning reads well.
type unkerned struct{ font.Face }

// Kern is 0 for every pair.
func (unkerned) Kern(r0, r1 rune) fixed.Int26_6 { return 0 }

// has reports whether f has a glyph for r.
func has(f *opentype.Font, r rune) bool {
	var buf sfnt.Buffer
	i, err := f.GlyphIndex(&buf, r)
	return err == nil && i != 0
}

// symbolFont returns the font that draws the symbol r: Noto Sans Symbols 2
// when it has the glyph, else DejaVu Sans (which has the crossed swords).
func (fs fontSet) symbolFont(r rune) *opentype.Font {
	if has(fs.symbols, r) {
		return fs.symbols
	}
	return fs.text
}

// glyphBounds returns the ink bounds of r in f at px pixels, relative to
// the glyph's origin on the baseline (y grows downwards), and whether the
// font has the glyph.
func glyphBounds(f *opentype.Font, r rune, px float64) (fixed.Rectangle26_6, bool) {
	var buf sfnt.Buffer
	i, err := f.GlyphIndex(&buf, r)
	if err != nil || i == 0 {
		return fixed.Rectangle26_6{}, false
	}
	b, _, err := f.GlyphBounds(&buf, i, fixed.Int26_6(px*64+0.5), font.HintingNone)
	return b, err == nil
}
