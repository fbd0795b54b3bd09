package main

import (
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/fairypost/fairypost/rules"
	"github.com/fairypost/fairypost/rules/notation"
)

// positionFlags are the flags that choose a position: a variant with
// options, a start position and moves played from it. analyze, perft and
// render share them.
type positionFlags struct {
	variant, options, fen, moves string
	ini                          iniFlag
}

// register declares the flags on fs.
func (pf *positionFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&pf.variant, "variant", "", "variant `KEY` (required; see 'fairypost variants')")
	pf.ini.register(fs)
	fs.StringVar(&pf.options, "options", "", "variant options as `K=V,...` (see 'fairypost variants')")
	fs.StringVar(&pf.fen, "fen", "", "start from this `FEN` instead of the variant's start position")
	fs.StringVar(&pf.moves, "moves", "", "play these `MOVES` first: separated by spaces or commas, each in\n"+
		"canonical (e2e4, P@d4) or friendly (Nf3, exd5, Q@e4) form;\n"+
		"move numbers such as \"1.\" or \"1...\" are skipped")
}

// game builds the game the flags describe: the variant, the start
// position, and every move played with repetition counted. Every error is
// bad input and names the flag or move at fault.
func (pf *positionFlags) game(a *app) (*rules.Game, error) {
	if _, err := pf.ini.apply(a); err != nil {
		return nil, err
	}
	reg, err := a.registry()
	if err != nil {
		return nil, fmt.Errorf("variant registry: %w", err)
	}
	if pf.variant == "" {
		return nil, badInput("-variant is required (one of: %s)", strings.Join(reg.Keys(), ", "))
	}
	v, err := reg.Variant(pf.variant, pf.options)
	if err != nil {
		return nil, badInput("%w", err)
	}
	start := v.Start()
	if pf.fen != "" {
		if start, err = rules.ParseFEN(v, pf.fen); err != nil {
			return nil, badInput("-fen %s: %w", quote(pf.fen), err)
		}
	}
	g := rules.NewGame(start)
	for i, text := range splitMoves(pf.moves) {
		if o := g.Outcome(); o.Over() {
			return nil, badInput("move %d %s: the game is already over (%s, %s)", i+1, quote(text), o.Result, o.Reason)
		}
		p := g.Position()
		m, err := notation.ParseMove(&p, text)
		if err != nil {
			return nil, badInput("move %d %s: %s", i+1, quote(text), moveErrorText(err, text))
		}
		if err := g.Play(m); err != nil {
			return nil, badInput("move %d %s: %w", i+1, quote(text), err)
		}
	}
	return g, nil
}

// moveErrorText is err's message without the move when it only repeats
// text: "illegal move: e2e5: the Pawn..." becomes "illegal move: the
// Pawn...", since the caller already quotes the move. A long move quoted
// again in the message is cut as quote cuts it.
func moveErrorText(err error, text string) string {
	msg := err.Error()
	for _, kind := range []error{rules.ErrIllegalMove, notation.ErrAmbiguousMove} {
		if rest, ok := strings.CutPrefix(msg, kind.Error()+": "+text+": "); ok && errors.Is(err, kind) {
			return kind.Error() + ": " + rest
		}
	}
	if len(text) > maxQuoted {
		msg = strings.ReplaceAll(msg, strconv.Quote(text), quote(text))
		msg = strings.ReplaceAll(msg, text, cutAt(text, maxQuoted)+"...")
	}
	return msg
}

// splitMoves splits the -moves text at spaces and commas and drops move
// numbers ("1.", "12...").
func splitMoves(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || unicode.IsSpace(r) }) {
		if !isMoveNumber(f) {
			out = append(out, f)
		}
	}
	return out
}

// isMoveNumber reports whether s is a move number like "1." or "12...".
func isMoveNumber(s string) bool {
	digits := strings.TrimRight(s, ".")
	if digits == s || digits == "" {
		return false
	}
	for _, r := range digits {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
