package render

import (
	"image"
	"image/color"
	"slices"
)

// Board images have few colours: flat squares, backgrounds and
// highlights, and the anti-aliased edges between them. Encoded as a
// paletted image (one byte per pixel, which the PNG encoder does not
// filter) they are about a third of the data to compress, so PNG encoding
// is several times faster and the files smaller; GIF needs a palette
// anyway. The quantizer is the popularity algorithm on a 5-bit-per-channel
// histogram: the 256 most used bins become the palette (each the mean of
// its pixels, so a flat colour stays exact), and every pixel takes the
// palette colour nearest to its bin. No dithering: edges stay clean.

const (
	quantBits = 5
	quantBins = 1 << (3 * quantBits)
)

// quantBin returns the histogram bin of an opaque colour.
func quantBin(r, g, b uint8) int {
	const shift = 8 - quantBits
	return int(r>>shift)<<(2*quantBits) | int(g>>shift)<<quantBits | int(b>>shift)
}

// quantizer holds the histogram of one image and the bin-to-palette
// mapping; it is reused through a pool.
type quantizer struct {
	count  [quantBins]uint32
	sum    [quantBins][3]uint32
	index  [quantBins]uint8
	mapped [quantBins]uint32 // index[k] is valid when mapped[k] == gen
	gen    uint32
	rgb    [][3]int32 // the palette of the current mapping
}

// reset clears the histogram.
func (q *quantizer) reset() {
	clear(q.count[:])
	clear(q.sum[:])
}

// add counts the pixels of img inside r (all opaque), every step-th pixel
// of every step-th row: the palette needs the popular colours, not every
// pixel.
func (q *quantizer) add(img *image.RGBA, r image.Rectangle, step int) {
	for y := r.Min.Y; y < r.Max.Y; y += step {
		row := img.Pix[img.PixOffset(r.Min.X, y):img.PixOffset(r.Max.X, y)]
		for i := 0; i+3 < len(row); i += 4 * step {
			k := quantBin(row[i], row[i+1], row[i+2])
			q.count[k]++
			s := &q.sum[k]
			s[0] += uint32(row[i])
			s[1] += uint32(row[i+1])
			s[2] += uint32(row[i+2])
		}
	}
}

// palette picks at most n colours from the histogram, the most used bins,
// and starts a new mapping to them.
func (q *quantizer) palette(n int) color.Palette {
	var chosen []int
	for k, c := range q.count {
		if c > 0 {
			chosen = append(chosen, k)
		}
	}
	if len(chosen) > n {
		slices.SortFunc(chosen, func(a, b int) int {
			if q.count[a] != q.count[b] {
				if q.count[a] > q.count[b] {
					return -1
				}
				return 1
			}
			return a - b
		})
		chosen = chosen[:n]
	}
	pal := make(color.Palette, len(chosen))
	q.rgb = q.rgb[:0]
	for i, k := range chosen {
		c, s := q.count[k], q.sum[k]
		rgb := [3]int32{int32((s[0] + c/2) / c), int32((s[1] + c/2) / c), int32((s[2] + c/2) / c)}
		q.rgb = append(q.rgb, rgb)
		pal[i] = color.RGBA{uint8(rgb[0]), uint8(rgb[1]), uint8(rgb[2]), 255}
	}
	if len(pal) == 0 {
		pal = append(pal, color.RGBA{0, 0, 0, 255})
		q.rgb = append(q.rgb, [3]int32{})
	}
	q.gen++
	return pal
}

// extend returns base followed by the most used bins of the histogram
// whose colours base does not already have (nearly), up to n colours, and
// starts a new mapping to them. Pixels that were mapped to base stay
// valid: base's indexes do not change.
func (q *quantizer) extend(base color.Palette, n int) color.Palette {
	var bins []int
	for k, c := range q.count {
		if c > 0 {
			bins = append(bins, k)
		}
	}
	slices.SortFunc(bins, func(a, b int) int {
		if q.count[a] != q.count[b] {
			if q.count[a] > q.count[b] {
				return -1
			}
			return 1
		}
		return a - b
	})
	q.rgb = q.rgb[:0]
	pal := slices.Clone(base)
	for _, c := range base {
		r, g, b, _ := c.RGBA()
		q.rgb = append(q.rgb, [3]int32{int32(r >> 8), int32(g >> 8), int32(b >> 8)})
	}
	const near = 3 * 16 * 9 // weighted squared distance of about 4 levels a channel
	for _, k := range bins {
		if len(q.rgb) >= n {
			break
		}
		c, s := q.count[k], q.sum[k]
		rgb := [3]int32{int32((s[0] + c/2) / c), int32((s[1] + c/2) / c), int32((s[2] + c/2) / c)}
		if _, d := nearest(q.rgb, rgb); d <= near {
			continue
		}
		q.rgb = append(q.rgb, rgb)
		pal = append(pal, color.RGBA{uint8(rgb[0]), uint8(rgb[1]), uint8(rgb[2]), 255})
	}
	q.gen++
	return pal
}

// nearest returns the index of the colour of pal nearest to c and its
// weighted squared distance.
func nearest(pal [][3]int32, c [3]int32) (int, int32) {
	best, bestD := 0, int32(1<<30)
	for i, p := range pal {
		dr, dg, db := c[0]-p[0], c[1]-p[1], c[2]-p[2]
		if d := 2*dr*dr + 4*dg*dg + 3*db*db; d < bestD {
			best, bestD = i, d
		}
	}
	return best, bestD
}

// lookup returns the palette index for bin k: the nearest palette colour
// to the bin's mean (its centre, for a bin the histogram did not see).
func (q *quantizer) lookup(k int) uint8 {
	if q.mapped[k] == q.gen {
		return q.index[k]
	}
	var r, g, b int32
	if c := q.count[k]; c > 0 {
		s := q.sum[k]
		r, g, b = int32(s[0]/c), int32(s[1]/c), int32(s[2]/c)
	} else {
		const half = 1 << (7 - quantBits)
		mask := int32(1<<quantBits - 1)
		r = (int32(k>>(2*quantBits))&mask)<<(8-quantBits) + half
		g = (int32(k>>quantBits)&mask)<<(8-quantBits) + half
		b = (int32(k)&mask)<<(8-quantBits) + half
	}
	best, _ := nearest(q.rgb, [3]int32{r, g, b})
	q.index[k], q.mapped[k] = uint8(best), q.gen
	return uint8(best)
}

// paletted writes the part r of img into out (same bounds) in the palette
// that the last call of palette returned.
func (q *quantizer) paletted(img *image.RGBA, r image.Rectangle, out *image.Paletted) {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		src := img.Pix[img.PixOffset(r.Min.X, y):img.PixOffset(r.Max.X, y)]
		dst := out.Pix[out.PixOffset(r.Min.X, y):out.PixOffset(r.Max.X, y)]
		last, lastIdx := uint32(1<<31), uint8(0) // no pixel is 1<<31
		for i := range dst {
			p := src[4*i : 4*i+3 : 4*i+3]
			c := uint32(p[0]) | uint32(p[1])<<8 | uint32(p[2])<<16
			if c != last {
				last, lastIdx = c, q.lookup(quantBin(p[0], p[1], p[2]))
			}
			dst[i] = lastIdx
		}
	}
}
