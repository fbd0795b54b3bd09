package notation

import (
	"strings"
	"testing"

	"github.com/fairypost/fairypost/rules"
)

// Positions of the error table.
const (
	// twThirdPart: Three-Move Train Wreck, White's third part of the turn,
	// moving a Black piece.
	twThirdPart = "e2e4 d7d5 a7a6 b8c6 b2b3 g1f3 h2h3"
	// fenCFFusion: Cold Fusion with two Rooks (a1, j5) that may fuse with
	// the Knight on j1, a Queen on d2 that may split.
	fenCFFusion = fenCFPieces
	// annDropCapture: Crazyhouse Annihilation, White to move with a Pawn
	// in hand and the Black Knight on d5 attacked by the Knight on c3.
	annDropCapture = "e2e4 d7d5 e4d5 g8f6 b1c3 f6d5"
)

// errorCases are texts a newcomer typed and the message each must get
// (issue 24, item 3): a well-formed move that is illegal is called illegal
// with the rule that forbids it, only text that no notation of the variant
// reads is unreadable, and board sizes come from the variant. want lists
// substrings the message must contain, not substrings it must not.
var errorCases = []struct {
	name, key, opts, fen, moves string
	input                       string // "" for a row about the options alone
	want, not                   []string
}{
	{name: "annihilation drop-capture with the option off", key: "annihilation", moves: annDropCapture,
		input: "P@xd5",
		want:  []string{"illegal move", "dropcapture=on"}, not: []string{"unreadable", "not a square", "1-12"}},
	{name: "annihilation drop-capture as the issue typed it", key: "annihilation", moves: "e2e4 d7d5",
		input: "P@xe7",
		want:  []string{"illegal move", "dropcapture=on"}, not: []string{"unreadable", "not a square", "1-12"}},
	{name: "annihilation drop-capture on an empty square", key: "annihilation", opts: "dropcapture=on", moves: annDropCapture,
		input: "P@xe6",
		want:  []string{"illegal move", "no piece on e6", "P@e6"}, not: []string{"unreadable", "not a square"}},
	{name: "annihilation drop-capture with nothing in hand", key: "annihilation", opts: "dropcapture=on", moves: "e2e4 d7d5",
		input: "P@xd5",
		want:  []string{"illegal move", "White has no Pawn in hand"}, not: []string{"unreadable", "not a square"}},
	{name: "crazyhouse drop onto a piece", key: "crazyhouse", moves: "e2e4 d7d5 e4d5 d8d5",
		input: "P@xd5",
		want:  []string{"illegal move", "empty square"}, not: []string{"unreadable", "not a square"}},
	{name: "square off the 8x8 board", key: "chess",
		input: "Nz3",
		want:  []string{"a-h", "1-8"}, not: []string{"a-l", "1-12"}},
	{name: "lowercase King letter", key: "chess", moves: "e2e4 e7e5 d2d4",
		input: "ke7",
		want:  []string{"uppercase", "did you mean Ke7?"}, not: []string{"k-file", "Pawn on"}},
	{name: "lowercase King letter, the King move illegal", key: "chess", moves: "e2e4",
		input: "kf7",
		want:  []string{"uppercase", "Kf7", "cannot move to f7"}, not: []string{"k-file", "Pawn on"}},
	{name: "lowercase King letter, no pawn move suggested", key: "chess",
		input: "kf3",
		want:  []string{"illegal move", "Kf3", "cannot move to f3"}, not: []string{"did you mean"}},
	{name: "lowercase Knight letter", key: "chess",
		input: "nf3",
		want:  []string{"did you mean Nf3?"}},
	{name: "three-move capture onto the King's own square", key: "trainwreck-threemove", moves: twThirdPart,
		input: "Kxe8",
		want:  []string{"illegal move", "King may not be moved"}, not: []string{"cannot move to e8"}},
	{name: "three-move the Queen's own square", key: "trainwreck-threemove", moves: twThirdPart,
		input: "Qd8",
		want:  []string{"illegal move", "already on d8", "White moves a Black piece"}, not: []string{"cannot move to d8"}},
	{name: "three-move own piece in the opponent's part", key: "trainwreck-threemove", moves: twThirdPart,
		input: "Bc4",
		want:  []string{"illegal move", "White moves a Black piece"}},
	{name: "cold fusion fusion with a wrong result", key: "coldfusion", fen: fenCFFusion,
		input: "R&j1=Q",
		want:  []string{"illegal move", "Marshal", "Ra&j1=C", "Rj&j1=C"}, not: []string{"unexpected", "unreadable"}},
	{name: "cold fusion fusion without a result", key: "coldfusion", fen: fenCFFusion,
		input: "R&j1",
		want:  []string{"illegal move", "Marshal", "Ra&j1=C"}, not: []string{"unexpected", "unreadable"}},
	{name: "cold fusion split without a destination", key: "coldfusion", fen: fenCFFusion,
		input: "Qd2/B",
		want:  []string{"illegal move", "where the Bishop goes", "Qd2/B"}, not: []string{"cannot move to d2", "unreadable"}},
	{name: "cold fusion split without its square", key: "coldfusion", fen: fenCFFusion,
		input: "Q/Bh6",
		want:  []string{"illegal move", "Qd2/Bh6"}, not: []string{"unexpected", "unreadable"}},
	{name: "cold fusion split without its square, other destination", key: "coldfusion", fen: fenCFFusion,
		input: "Q/Be1",
		want:  []string{"illegal move", "Qd2/Be1"}, not: []string{"unexpected", "unreadable"}},
	{name: "cold fusion split the Bishop cannot make", key: "coldfusion", fen: fenCFFusion,
		input: "Qd2/Bd5",
		want:  []string{"illegal move", "Bishop", "d5", "Qd2/Bf4"}, not: []string{"unexpected", "unreadable", "did you mean"}},
	{name: "cold fusion split of a part the man does not hold", key: "coldfusion", fen: fenCFFusion,
		input: "Qd2/Nd4",
		want:  []string{"illegal move", "no Knight", "Rook (R) or a Bishop (B)"}, not: []string{"unexpected", "unreadable"}},
	{name: "cold fusion fusion with a piece result that is wrong", key: "coldfusion", fen: fenCFFusion,
		input: "Ra&j1=B",
		want:  []string{"illegal move", "Marshal", "not a Bishop", "write Ra&j1=C"}, not: []string{"unreadable"}},
	{name: "cold fusion fusion onto an empty square", key: "coldfusion", fen: fenCFFusion,
		input: "R&e5=C",
		want:  []string{"illegal move", "own men", "e5 holds none"}, not: []string{"unreadable"}},
	{name: "cold fusion pocketing the King", key: "coldfusion", fen: fenCFFusion,
		input: "^f2",
		want:  []string{"illegal move", "King may not be pocketed"}, not: []string{"unreadable"}},
	{name: "train wreck moving the enemy King", key: "trainwreck", moves: "e2e4",
		input: "Ke7",
		want:  []string{"illegal move", "enemy King may not be moved"}, not: []string{"cannot move to"}},
	{name: "lowercase King letter on a 10-file board", key: "grand", moves: "e3e5",
		input: "kf9",
		want:  []string{"uppercase", "Kf9"}, not: []string{"k-file", "Pawn", "a-l"}},
	{name: "annihilation drop onto an own piece", key: "annihilation", opts: "dropcapture=on", moves: annDropCapture,
		input: "P@xc3",
		want:  []string{"illegal move", "White's own", "enemy piece"}, not: []string{"unreadable"}},
	{name: "figurine pawn", key: "chess",
		input: "♙e4",
		want:  []string{}, not: nil},
	{name: "tank bomb step with its square onto a taken square", key: "tank",
		input: "Ad1c2",
		want:  []string{"illegal move", "empty square", "A*d1"}, not: []string{"cannot move to c2"}},
	{name: "cold fusion pocketing without the piece letter", key: "coldfusion", fen: fenCFFusion,
		input: "^d2",
		want:  []string{"illegal move", "^Qd2"}, not: []string{"unexpected", "unreadable"}},
	{name: "figurine Knight", key: "chess", moves: "e2e4",
		input: "♞c6",
		want:  []string{}, not: nil},
	{name: "figurine Knight, illegal", key: "chess",
		input: "♘e4",
		want:  []string{"Knight"}, not: []string{"unreadable", "did you mean e4"}},
	{name: "options separated by spaces", key: "easymate", opts: "queencastle=both penalty=on",
		want: []string{"separated by commas", "queencastle=both,penalty=on"}, not: []string{"allowed values"}},
	{name: "winning swap marked > in the answer window", key: "winning", moves: "e1f3>",
		input: "D~K>",
		want:  []string{"illegal move", "write D~K", "answer"}, not: []string{"unreadable", "expected a move like"}},
	{name: "a piece sent onto its own side's piece", key: "chess",
		input: "Ke2",
		want:  []string{"illegal move", "cannot move to e2, which holds a White Pawn"}},
	{name: "winning swap marked > after the pre-move", key: "winning", moves: "h1g1>",
		input: "D~K>",
		want:  []string{"illegal move", "pre-move is made", "write D~K"}, not: []string{"unreadable"}},
	{name: "winning piece move in the answer window", key: "winning", moves: "e1f3>",
		input: "Nc6",
		want:  []string{"illegal move", "only a Defender may answer"}, not: []string{"cannot move to"}},
	{name: "tank bomb onto an occupied square", key: "tank",
		input: "Ac2",
		want:  []string{"illegal move", "empty square"}, not: []string{"cannot move to c2"}},
	{name: "crazyhouse drop of a piece not in hand", key: "crazyhouse",
		input: "N@e4",
		want:  []string{"White has no Knight in hand"}, not: []string{"white has"}},
	{name: "chess piece not on the board", key: "chess", fen: "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
		input: "Nf3",
		want:  []string{"White has no Knight"}, not: []string{"white has"}},
}

// TestErrorTable checks the message of every row of errorCases.
func TestErrorTable(t *testing.T) {
	r := newRegistry(t)
	for _, c := range errorCases {
		t.Run(c.name, func(t *testing.T) {
			v, err := r.Variant(c.key, c.opts)
			if c.input == "" {
				if err == nil {
					t.Fatalf("options %q accepted", c.opts)
				}
				checkMessage(t, c.opts, err.Error(), c.want, c.not)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			p := v.Start()
			if c.fen != "" {
				if p, err = rules.ParseFEN(v, c.fen); err != nil {
					t.Fatal(err)
				}
			}
			for _, text := range strings.Fields(c.moves) {
				m, err := ParseMove(&p, text)
				if err != nil {
					t.Fatalf("setup %s: %v", text, err)
				}
				if p, err = p.Play(m); err != nil {
					t.Fatalf("setup %s: %v", text, err)
				}
			}
			m, err := ParseMove(&p, c.input)
			if len(c.want) == 0 && c.not == nil {
				// A row that must be read as a legal move.
				if err != nil {
					t.Fatalf("%s: %v", c.input, err)
				}
				t.Logf("%s reads as %s", c.input, SAN(&p, m))
				return
			}
			if err == nil {
				t.Fatalf("%s read as %s", c.input, SAN(&p, m))
			}
			checkMessage(t, c.input, err.Error(), c.want, c.not)
		})
	}
}

func checkMessage(t *testing.T, input, msg string, want, not []string) {
	t.Helper()
	t.Logf("%s: %s", input, msg)
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("%s: message %q lacks %q", input, msg, w)
		}
	}
	for _, n := range not {
		if strings.Contains(msg, n) {
			t.Errorf("%s: message %q holds %q", input, msg, n)
		}
	}
}
