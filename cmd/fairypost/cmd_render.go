package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/fairypost/fairypost/render"
	"github.com/fairypost/fairypost/rules"
)

// renderCommand is "fairypost render".
func renderCommand() command {
	return command{
		name:     "render",
		synopsis: "-variant KEY [-ini FILE] [-options K=V,...] [-fen FEN] [-moves ...] [-flip] [-size PX] -o FILE.png",
		summary:  "write a board image",
		doc: fmt.Sprintf(`
Plays -moves from the start position (or -fen) and draws the position
reached, as the bot shows it: the board with coordinates, the last turn
(every move of it, numbered when there are several, with what each
changed: a castling rook, a pushed line, a blast area, the pieces
captured or pushed off the board), a King in check, pockets, whose turn it is and the phase of the turn, the
result once the game is over, and a legend of the fairy pieces.
The format follows the name given to -o:
  FILE.png   the position reached
  FILE.gif   an animation of the game: the start (-fen or the
             variant's), then one frame per move, the last frame held;
             within the bot's budgets (at most the last 300 moves,
             narrower for long games, 8 MiB): what was cut is said on
             standard error
  -          a PNG on standard output
-size is the image width in pixels (%d..%d); the height follows from
the board, the pockets and the legend. The file is replaced only once
the image is complete.`, render.MinSize, render.MaxSize),
		setup: func(fs *flag.FlagSet) runFunc {
			var pf positionFlags
			pf.register(fs)
			flip := fs.Bool("flip", false, "show the board from Black's side (Black at the bottom)")
			size := fs.Int("size", render.DefaultSize, fmt.Sprintf("image width in `PX`, %d..%d", render.MinSize, render.MaxSize))
			out := fs.String("o", "", "write the image to `FILE`: .png, .gif (the whole game) or - for standard output (required)")
			return func(ctx context.Context, a *app) error {
				format, err := outputFormat(*out)
				if err != nil {
					return err
				}
				if *size < render.MinSize || *size > render.MaxSize {
					return badInput("-size %d is out of range %d..%d", *size, render.MinSize, render.MaxSize)
				}
				g, err := pf.game(a)
				if err != nil {
					return err
				}
				img, note, err := renderGame(g, format, *size, *flip)
				if err != nil {
					return err
				}
				if note != "" {
					fmt.Fprintln(a.stderr, note)
				}
				if *out == "-" {
					_, err := a.stdout.Write(img)
					return err
				}
				return writeFileAtomic(*out, img)
			}
		},
	}
}

// outputFormat returns "png" or "gif" for the -o value, or bad input.
func outputFormat(out string) (string, error) {
	switch ext := strings.ToLower(filepath.Ext(out)); {
	case out == "":
		return "", badInput("-o FILE.png is required (or FILE.gif for the whole game, - for standard output)")
	case out == "-" || ext == ".png":
		return "png", nil
	case ext == ".gif":
		return "gif", nil
	default:
		return "", badInput("-o %s: the file name must end in .png or .gif", quote(out))
	}
}

// renderGame draws g's current position (format "png", the last turn
// marked) or the game (format "gif", within the renderer's GIF budgets)
// and returns the encoded image, and a note saying what a GIF left out
// ("" when nothing).
func renderGame(g *rules.Game, format string, size int, flip bool) ([]byte, string, error) {
	r, err := render.NewRenderer()
	if err != nil {
		return nil, "", err
	}
	opts := []render.Option{render.Size(size)}
	if flip {
		opts = append(opts, render.Perspective(rules.Black))
	}
	var buf bytes.Buffer
	note := ""
	if format == "gif" {
		var info render.GIFInfo
		info, err = r.WriteGIF(&buf, g, opts...)
		if err == nil && info.FirstPly > 0 {
			note = fmt.Sprintf("the game is too long to animate whole: the GIF shows its last %d moves", info.Plies-info.FirstPly)
		}
		if err == nil && info.Width < size {
			note = strings.TrimPrefix(note+fmt.Sprintf("; it is drawn %d px wide, not %d", info.Width, size), "; ")
		}
	} else {
		opts = append(opts, render.Outcome(g.Outcome()), render.LastTurn(g))
		err = r.PNG(&buf, g.Position(), opts...)
	}
	if errors.Is(err, render.ErrInvalid) {
		return nil, "", badInput("%w", err)
	}
	return buf.Bytes(), note, err
}

// writeFileAtomic writes data to a temporary file beside path and renames
// it to path, so that path is never left half-written. A path that cannot
// be written (no such directory, no permission) is bad input.
func writeFileAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return badInput("-o %s: %v", path, err)
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("-o %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return badInput("-o %s: %v", path, err)
	}
	return nil
}
