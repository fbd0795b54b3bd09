package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fairypost/fairypost/render"
)

// docsManifest is the diagram list of the rules pages, relative to the
// pages' directory.
const docsManifest = "img/diagrams.txt"

// docsCommand is "fairypost docs".
func docsCommand() command {
	return command{
		name:     "docs",
		synopsis: "[-dir DIR]",
		summary:  "redraw the diagrams of the variant rules pages",
		doc: `
Draws every diagram listed in DIR/img/diagrams.txt (DIR is
docs/variants by default, so run it from the repository root) into
DIR/img, as "fairypost render" draws a position. Each line of the list
is one PNG, seven fields separated by '|':
  FILE | VARIANT | OPTIONS | SIZE | SIDE | FEN | MOVES
FILE is the image's name in DIR/img; OPTIONS, FEN and MOVES are '-'
when not given (the defaults, the start position, no moves); SIDE is
white or black (the side shown at the bottom). Blank lines and lines
starting with '#' are ignored. Every diagram is drawn before any file
is written. Run it again after any change to the renderer or to the
list; a test checks that the images are current.`,
		setup: func(fs *flag.FlagSet) runFunc {
			dir := fs.String("dir", filepath.Join("docs", "variants"), "the rules pages' `DIR` (its img/diagrams.txt lists the diagrams)")
			return func(ctx context.Context, a *app) error {
				diagrams, err := readDiagrams(filepath.Join(*dir, docsManifest))
				if err != nil {
					return err
				}
				// Everything is drawn before anything is written, so that a
				// broken line leaves the images as they were.
				images := make([][]byte, len(diagrams))
				for i, d := range diagrams {
					if err := ctx.Err(); err != nil {
						return err
					}
					if images[i], err = d.draw(a); err != nil {
						return err
					}
				}
				for i, d := range diagrams {
					if err := writeFileAtomic(filepath.Join(*dir, "img", d.file), images[i]); err != nil {
						return err
					}
				}
				fmt.Fprintf(a.stdout, "%d diagrams written to %s\n", len(diagrams), filepath.Join(*dir, "img"))
				return nil
			}
		},
	}
}

// diagram is one line of the diagram list: a position drawn as a PNG.
type diagram struct {
	line int    // the line in the list, for messages
	file string // the PNG's name in the img directory
	pos  positionFlags
	size int
	flip bool // Black at the bottom
}

// readDiagrams reads the diagram list at path (see docsCommand). Every
// error is bad input that names the line.
func readDiagrams(path string) ([]diagram, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, badInput("%v", err)
	}
	var out []diagram
	seen := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		d, err := parseDiagram(line)
		if err != nil {
			return nil, badInput("%s:%d: %v", path, n, err)
		}
		if first, ok := seen[d.file]; ok {
			return nil, badInput("%s:%d: %s is already drawn by line %d", path, n, d.file, first)
		}
		seen[d.file] = n
		d.line = n
		out = append(out, d)
	}
	if err := sc.Err(); err != nil {
		return nil, badInput("%s: %v", path, err)
	}
	if len(out) == 0 {
		return nil, badInput("%s lists no diagrams", path)
	}
	return out, nil
}

// parseDiagram reads one line of the diagram list.
func parseDiagram(line string) (diagram, error) {
	f := strings.Split(line, "|")
	if len(f) != 7 {
		return diagram{}, fmt.Errorf("want 7 fields separated by '|' (FILE | VARIANT | OPTIONS | SIZE | SIDE | FEN | MOVES), got %d", len(f))
	}
	for i := range f {
		if f[i] = strings.TrimSpace(f[i]); f[i] == "-" {
			f[i] = ""
		}
	}
	d := diagram{file: f[0], pos: positionFlags{variant: f[1], options: f[2], fen: f[5], moves: f[6]}}
	switch {
	case !strings.HasSuffix(d.file, ".png") || strings.ContainsAny(d.file, `/\`) || strings.HasPrefix(d.file, "."):
		return diagram{}, fmt.Errorf("file %q: want a plain name ending in .png", d.file)
	case d.pos.variant == "":
		return diagram{}, fmt.Errorf("%s: no variant", d.file)
	}
	size, err := strconv.Atoi(f[3])
	if err != nil || size < render.MinSize || size > render.MaxSize {
		return diagram{}, fmt.Errorf("%s: size %q: want a width in pixels, %d..%d", d.file, f[3], render.MinSize, render.MaxSize)
	}
	d.size = size
	switch f[4] {
	case "white":
	case "black":
		d.flip = true
	default:
		return diagram{}, fmt.Errorf("%s: side %q: want white or black", d.file, f[4])
	}
	return d, nil
}

// draw returns d's PNG, drawn as "fairypost render" draws it.
func (d diagram) draw(a *app) ([]byte, error) {
	g, err := d.pos.game(a)
	if err != nil {
		return nil, badInput("%s (line %d): %w", d.file, d.line, err)
	}
	img, _, err := renderGame(g, "png", d.size, d.flip)
	if err != nil {
		return nil, fmt.Errorf("%s (line %d): %w", d.file, d.line, err)
	}
	return img, nil
}
