package render

import (
	"bytes"
	"compress/lzw"
	"image"
	"image/gif"
)

// A GIF is written frame by frame, so that a game GIF holds two images and
// the encoded bytes at a time rather than every frame (image/gif's
// EncodeAll needs them all). The layout (GIF89a): a header and logical
// screen with no global colour table, the NETSCAPE2.0 extension (loop
// forever), then per frame a graphic control extension (delay, disposal,
// transparent colour), an image descriptor with the frame's own colour
// table and its LZW-compressed pixels in blocks of at most 255 bytes; a
// trailer byte ends the file.

// gifHeaderLen is the length of what writeGIFHeader writes.
const gifHeaderLen = 6 + 7 + 19

// writeGIFHeader writes the header, the logical screen of w×h pixels and
// the looping extension.
func writeGIFHeader(b *bytes.Buffer, w, h int) {
	b.WriteString("GIF89a")
	b.Write([]byte{byte(w), byte(w >> 8), byte(h), byte(h >> 8), 0, 0, 0})
	b.Write([]byte{0x21, 0xFF, 11})
	b.WriteString("NETSCAPE2.0")
	b.Write([]byte{3, 1, 0, 0, 0}) // loop count 0: forever
}

// frameEncoder encodes frames; it keeps its buffers between frames.
type frameEncoder struct {
	blocks blockWriter
	lzw    *lzw.Writer
	out    bytes.Buffer
}

// encode returns the bytes of frame f shown for delay hundredths of a
// second, drawn over the frame before (disposal none); when transparent
// is set, the last colour of f's palette is transparent. f's palette has
// 1 to 256 colours.
func (e *frameEncoder) encode(f *image.Paletted, delay int, transparent bool) []byte {
	out := &e.out
	out.Reset()
	bits := 1 // the colour table holds 1<<bits colours
	for 1<<bits < len(f.Palette) {
		bits++
	}
	packed, tIndex := byte(gif.DisposalNone<<2), byte(0)
	if transparent {
		packed |= 1
		tIndex = byte(len(f.Palette) - 1)
	}
	out.Write([]byte{0x21, 0xF9, 4, packed, byte(delay), byte(delay >> 8), tIndex, 0})
	r := f.Rect
	out.Write([]byte{0x2C, byte(r.Min.X), byte(r.Min.X >> 8), byte(r.Min.Y), byte(r.Min.Y >> 8),
		byte(r.Dx()), byte(r.Dx() >> 8), byte(r.Dy()), byte(r.Dy() >> 8), 0x80 | byte(bits-1)})
	for i := range 1 << bits {
		if i < len(f.Palette) {
			cr, cg, cb, _ := f.Palette[i].RGBA()
			out.Write([]byte{byte(cr >> 8), byte(cg >> 8), byte(cb >> 8)})
		} else {
			out.Write([]byte{0, 0, 0})
		}
	}
	lit := max(bits, 2) // GIF's smallest LZW code size is 2
	out.WriteByte(byte(lit))
	e.blocks.reset(out)
	if e.lzw == nil {
		e.lzw = lzw.NewWriter(&e.blocks, lzw.LSB, lit).(*lzw.Writer)
	} else {
		e.lzw.Reset(&e.blocks, lzw.LSB, lit)
	}
	lw := e.lzw
	if r.Dx() == f.Stride {
		lw.Write(f.Pix[:r.Dx()*r.Dy()])
	} else {
		for y := range r.Dy() {
			lw.Write(f.Pix[y*f.Stride : y*f.Stride+r.Dx()])
		}
	}
	lw.Close()
	e.blocks.close()
	return bytes.Clone(out.Bytes())
}

// blockWriter cuts what is written into GIF data sub-blocks (a length
// byte, then up to 255 bytes) and ends them with an empty block on close.
// Writes to a bytes.Buffer do not fail.
type blockWriter struct {
	dst *bytes.Buffer
	buf [255]byte
	n   int
}

func (b *blockWriter) reset(dst *bytes.Buffer) { b.dst, b.n = dst, 0 }

func (b *blockWriter) Write(p []byte) (int, error) {
	written := len(p)
	for len(p) > 0 {
		k := copy(b.buf[b.n:], p)
		b.n += k
		p = p[k:]
		if b.n == len(b.buf) {
			b.flush()
		}
	}
	return written, nil
}

func (b *blockWriter) flush() {
	if b.n > 0 {
		b.dst.WriteByte(byte(b.n))
		b.dst.Write(b.buf[:b.n])
		b.n = 0
	}
}

func (b *blockWriter) close() {
	b.flush()
	b.dst.WriteByte(0)
}
