package rules

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// trainWreckKeys are the Train Wreck family's keys with their constructors.
var trainWreckKeys = []struct {
	key  string
	ctor Constructor
}{
	{"trainwreck", newTrainWreck},
	{"trainwreck-berolina", newTrainWreckBerolina},
	{"trainwreck-almost", newTrainWreckAlmost},
	{"trainwreck-threemove", newTrainWreckThreeMove},
}

// twVariant returns the Train Wreck variant key.
func twVariant(tb testing.TB, key string) *Variant {
	tb.Helper()
	return mustVariant(tb, key)
}

// twFEN parses fen as a position of the variant key ("" = the start).
func twFEN(tb testing.TB, key, fen string) Position {
	tb.Helper()
	v := twVariant(tb, key)
	if fen == "" {
		return v.Start()
	}
	p, err := ParseFEN(v, fen)
	if err != nil {
		tb.Fatalf("ParseFEN(%s, %q): %v", key, fen, err)
	}
	return p
}

// twMovesFrom returns the sorted canonical texts of the legal moves of p
// that start on the square from.
func twMovesFrom(p *Position, from string) []string {
	var out []string
	for _, s := range legalTexts(p) {
		if strings.HasPrefix(s, from) {
			out = append(out, s)
		}
	}
	return out
}

// twPlay plays the moves (canonical texts separated by spaces) from p.
func twPlay(t *testing.T, p Position, moves string) Position {
	t.Helper()
	return playTexts(t, p, strings.Fields(moves)...)
}

// twWantMovesFrom parses fen as a position of key, fails the test unless
// the sorted canonical texts of the legal moves from the square from,
// joined by spaces, are want, and returns the position.
func twWantMovesFrom(t *testing.T, key, fen, from, want string) Position {
	t.Helper()
	p := twFEN(t, key, fen)
	if got := strings.Join(twMovesFrom(&p, from), " "); got != want {
		t.Errorf("%s: moves from %s\n got %s\nwant %s", fen, from, got, want)
	}
	return p
}

// twSide returns the side field of p's FEN ("w", "b1", ...).
func twSide(p *Position) string { return strings.Fields(p.FEN())[1] }

// TestTrainWreckPhaseSequence pins the turn of docs/variants/trainwreck.md: own piece
// ("w"), then one of the opponent's pieces ("w1"), then Black likewise
// ("b", "b1"); the move number grows after Black's turn, and the phase is
// named for people.
func TestTrainWreckPhaseSequence(t *testing.T) {
	for _, key := range []string{"trainwreck", "trainwreck-berolina", "trainwreck-almost"} {
		t.Run(key, func(t *testing.T) {
			p := twFEN(t, key, "")
			steps := []struct {
				move, side, name string
				toAct, mover     Color
				fullmove         int
			}{
				{"", "w", "White moves a White piece", White, White, 1},
				{"g1f3", "w1", "White moves a Black piece", White, Black, 1},
				{"g8f6", "b", "Black moves a Black piece", Black, Black, 1},
				{"b8c6", "b1", "Black moves a White piece", Black, White, 1},
				{"b1c3", "w", "White moves a White piece", White, White, 2},
				{"f3e5", "w1", "White moves a Black piece", White, Black, 2},
			}
			for _, s := range steps {
				if s.move != "" {
					p = twPlay(t, p, s.move)
				}
				if twSide(&p) != s.side || p.PhaseName() != s.name || p.ToAct() != s.toAct || p.Mover() != s.mover || p.Fullmove() != s.fullmove {
					t.Fatalf("after %q: side %q %q, to act %s, mover %s, move %d; want %q %q, %s, %s, %d",
						s.move, twSide(&p), p.PhaseName(), p.ToAct(), p.Mover(), p.Fullmove(), s.side, s.name, s.toAct, s.mover, s.fullmove)
				}
				for _, m := range p.Legal(nil) {
					if m.Kind == KindNormal && p.At(m.From).Color() != s.mover {
						t.Fatalf("in %s: %s moves a piece that is not %s's", p.FEN(), FormatMove(&p, m), s.mover)
					}
				}
			}
		})
	}
}

// TestTrainWreckThreeMovePhaseSequence pins docs/variants/trainwreck-threemove.md and the first-turn
// part of #tw9: White's first turn (only White's) is own, opponent
// ("w", "w1"); every later turn, Black's first included, is own, own,
// opponent ("b", "b2", "b1").
func TestTrainWreckThreeMovePhaseSequence(t *testing.T) {
	p := twFEN(t, "trainwreck-threemove", "")
	steps := []struct {
		move, side, name string
		fullmove         int
	}{
		{"", "w", "White moves a White piece", 1},
		{"e2e4", "w1", "White moves a Black piece", 1},
		{"e7e5", "b", "Black moves a Black piece (first of two)", 1},
		{"d7d5", "b2", "Black moves a Black piece (second of two)", 1},
		{"d5e4", "b1", "Black moves a White piece", 1},
		{"d2d4", "w", "White moves a White piece (first of two)", 2},
		{"d4e5", "w2", "White moves a White piece (second of two)", 2},
		{"e5e6", "w1", "White moves a Black piece", 2},
		{"e4e3", "b", "Black moves a Black piece (first of two)", 2},
	}
	for _, s := range steps {
		if s.move != "" {
			p = twPlay(t, p, s.move)
		}
		if twSide(&p) != s.side || p.PhaseName() != s.name || p.Fullmove() != s.fullmove {
			t.Fatalf("after %q: %q %q move %d; want %q %q move %d", s.move, twSide(&p), p.PhaseName(), p.Fullmove(), s.side, s.name, s.fullmove)
		}
	}
	// The first-turn exception is White's turn numbered 1, also from a FEN.
	for _, c := range []struct{ fen, wantSide string }{
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqHAha - 0 1", "w1"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqHAha - 0 7", "w2"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkqHAha - 0 1", "b2"},
	} {
		p := twFEN(t, "trainwreck-threemove", c.fen)
		if p.ToAct() == White {
			p = twPlay(t, p, "b1c3")
		} else {
			p = twPlay(t, p, "b8c6")
		}
		if twSide(&p) != c.wantSide {
			t.Errorf("%s: after one own move the side is %q, want %q", c.fen, twSide(&p), c.wantSide)
		}
	}
}

// TestTrainWreckThreeMoveSamePieceTwice pins #tw9: the two own
// sub-moves of a Three-Move turn may use the same piece.
func TestTrainWreckThreeMoveSamePieceTwice(t *testing.T) {
	p := twPlay(t, twFEN(t, "trainwreck-threemove", "4k3/8/8/8/8/8/8/4K2R w K - 0 5"), "h1h4")
	if got, want := strings.Join(twMovesFrom(&p, "h4"), " "), "h4h5 h4h6 h4h7 h4h8"; got != want {
		t.Fatalf("the rook's second move: %s, want %s", got, want)
	}
	p = twPlay(t, p, "h4h8")
	if twSide(&p) != "w1" {
		t.Errorf("after the second own sub-move: %s", p.FEN())
	}
}

// TestTrainWreckFENRoundTrip pins the FEN of docs/variants/trainwreck.md: the phase
// follows the side, the Queen's castling rights are H and A (h and a for
// Black) after the King's KQkq, and parsing then writing is the identity,
// with equal hashes. Phases a variant does not have are refused.
func TestTrainWreckFENRoundTrip(t *testing.T) {
	for _, c := range []struct{ key, fen string }{
		{"trainwreck", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqHAha - 0 1"},
		{"trainwreck-berolina", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqHAha - 0 1"},
		{"trainwreck-almost", "rnbckbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBCKBNR w KQkqHAha - 0 1"},
		{"trainwreck-threemove", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqHAha - 0 1"},
		{"trainwreck", "r2qk2r/8/8/8/8/8/8/R2QK2R w1 QkHa - 3 9"},
		{"trainwreck", "r2qk2r/8/8/8/8/8/8/R2QK2R b1 Kqha - 0 2"},
		{"trainwreck-almost", "r2ck2r/8/8/8/8/8/8/R2CK2R b HAa - 0 2"},
		{"trainwreck-threemove", "r2qk2r/8/8/8/8/8/8/R2QK2R b2 KQkqHAha - 0 4"},
		{"trainwreck-threemove", "r2qk2r/8/8/8/8/8/8/R2QK2R w1 A - 0 4"},
	} {
		v := twVariant(t, c.key)
		p := twFEN(t, c.key, c.fen)
		if p.FEN() != c.fen {
			t.Errorf("%s: FEN(ParseFEN(%q)) = %q", c.key, c.fen, p.FEN())
		}
		if start := v.Start(); c.fen == v.StartFEN && p.Hash() != start.Hash() {
			t.Errorf("%s: the start position read from FEN hashes differently", c.key)
		}
		q := twFEN(t, c.key, p.FEN())
		if q.FEN() != p.FEN() || q.Hash() != p.Hash() || q.Mover() != p.Mover() {
			t.Errorf("%s: round trip of %q: %q, mover %s/%s", c.key, c.fen, q.FEN(), q.Mover(), p.Mover())
		}
	}
	// Rights whose pieces are not on their squares are dropped.
	if p := twFEN(t, "trainwreck", "r3k2r/8/8/8/8/8/8/R2QK3 w KQkqHAha - 0 1"); p.CastlingRights() != "QkqA" {
		t.Errorf("rights %q, want QkqA", p.CastlingRights())
	}
	for _, c := range []struct{ key, fen string }{
		{"trainwreck", "4k3/8/8/8/8/8/8/4K3 w2 - - 0 5"},
		{"trainwreck-berolina", "4k3/8/8/8/8/8/8/4K3 b2 - - 0 5"},
		{"trainwreck-threemove", "4k3/8/8/8/8/8/8/4K3 w3 - - 0 5"},
	} {
		if _, err := ParseFEN(twVariant(t, c.key), c.fen); err == nil {
			t.Errorf("%s: ParseFEN(%q) accepted a phase the variant does not have", c.key, c.fen)
		}
	}
}

// TestTrainWreckForwardOnlyNonCaptures pins docs/variants/trainwreck.md: without a
// capture every piece moves forward only, forward being its owner's, also
// when the opponent moves it (phase 1).
func TestTrainWreckForwardOnlyNonCaptures(t *testing.T) {
	for _, c := range []struct {
		name, key, fen, from, want string
	}{
		{"King", "trainwreck", "1k6/8/8/8/3K4/8/8/8 w - - 0 1", "d4", "d4c5 d4d5 d4e5"},
		{"Queen", "trainwreck", "1k6/8/8/8/3Q4/8/7K/8 w - - 0 1", "d4", "d4a7 d4b6 d4c5 d4d5 d4d6 d4d7 d4d8 d4e5 d4f6 d4g7 d4h8"},
		{"Rook", "trainwreck", "1k6/8/8/8/3R4/8/7K/8 w - - 0 1", "d4", "d4d5 d4d6 d4d7 d4d8"},
		{"Bishop", "trainwreck", "1k6/8/8/8/3B4/8/7K/8 w - - 0 1", "d4", "d4a7 d4b6 d4c5 d4e5 d4f6 d4g7 d4h8"},
		{"Knight", "trainwreck", "1k6/8/8/8/3N4/8/7K/8 w - - 0 1", "d4", "d4b5 d4c6 d4e6 d4f5"},
		{"Pawn", "trainwreck", "1k6/8/8/8/3P4/8/7K/8 w - - 0 1", "d4", "d4d5"},
		{"Pawn on its start rank", "trainwreck", "1k6/8/8/8/8/8/3P3K/8 w - - 0 1", "d2", "d2d3 d2d4"},
		{"Berolina pawn", "trainwreck-berolina", "1k6/8/8/8/3P4/8/7K/8 w - - 0 1", "d4", "d4c5 d4e5"},
		{"Chancellor", "trainwreck-almost", "1k6/8/8/8/3C4/8/7K/8 w - - 0 1", "d4", "d4b5 d4c6 d4d5 d4d6 d4d7 d4d8 d4e6 d4f5"},
		// Black's pieces, moved by White in phase 1: forward is down the board.
		{"Black Queen moved by White", "trainwreck", "1k6/8/8/3q4/8/8/7K/8 w1 - - 0 1", "d5", "d5a2 d5b3 d5c4 d5d1 d5d2 d5d3 d5d4 d5e4 d5f3 d5g2 d5h1"},
		{"Black Rook moved by White", "trainwreck", "1k6/8/8/3r4/8/8/7K/8 w1 - - 0 1", "d5", "d5d1 d5d2 d5d3 d5d4"},
		{"Black Bishop moved by White", "trainwreck", "1k6/8/8/3b4/8/8/7K/8 w1 - - 0 1", "d5", "d5a2 d5b3 d5c4 d5e4 d5f3 d5g2 d5h1"},
		{"Black Knight moved by White", "trainwreck", "1k6/8/8/3n4/8/8/7K/8 w1 - - 0 1", "d5", "d5b4 d5c3 d5e3 d5f4"},
		{"Black Pawn moved by White", "trainwreck", "1k6/8/8/3p4/8/8/7K/8 w1 - - 0 1", "d5", "d5d4"},
		{"Black Chancellor moved by White", "trainwreck-almost", "1k6/8/8/3c4/8/8/7K/8 w1 - - 0 1", "d5", "d5b4 d5c3 d5d1 d5d2 d5d3 d5d4 d5e3 d5f4"},
		{"Black Berolina pawn moved by White", "trainwreck-berolina", "1k6/8/8/3p4/8/8/7K/8 w1 - - 0 1", "d5", "d5c4 d5e4"},
		// White's pieces, moved by Black in phase 1: forward is up the board.
		{"White Rook moved by Black", "trainwreck", "1k6/8/8/8/3R4/8/7K/8 b1 - - 0 1", "d4", "d4d5 d4d6 d4d7 d4d8"},
		{"White Knight moved by Black", "trainwreck", "1k6/8/8/8/3N4/8/7K/8 b1 - - 0 1", "d4", "d4b5 d4c6 d4e6 d4f5"},
	} {
		t.Run(c.name, func(t *testing.T) {
			twWantMovesFrom(t, c.key, c.fen, c.from, c.want)
		})
	}
}

// TestTrainWreckCapturesInAllDirections pins docs/variants/trainwreck.md: captures are
// unrestricted (backward and sideways too), while the empty squares
// behind and beside stay out of reach; the pawn captures as in FIDE only.
func TestTrainWreckCapturesInAllDirections(t *testing.T) {
	for _, c := range []struct {
		name, key, fen, from, want string
	}{
		{"Rook", "trainwreck", "1k6/3p4/8/8/1p1R2p1/8/3p3K/8 w - - 0 1", "d4", "d4b4 d4d2 d4d5 d4d6 d4d7 d4g4"},
		{"Bishop", "trainwreck", "1k6/8/8/8/3B4/2p5/7K/6p1 w - - 0 1", "d4", "d4a7 d4b6 d4c3 d4c5 d4e5 d4f6 d4g1 d4g7 d4h8"},
		{"Queen", "trainwreck", "1k6/8/8/8/1p1Q1p2/2p5/3p3K/8 w - - 0 1", "d4", "d4a7 d4b4 d4b6 d4c3 d4c5 d4d2 d4d5 d4d6 d4d7 d4d8 d4e5 d4f4 d4f6 d4g7 d4h8"},
		{"Knight", "trainwreck", "1k6/8/8/8/3N4/1p3p2/2p1p2K/8 w - - 0 1", "d4", "d4b3 d4b5 d4c2 d4c6 d4e2 d4e6 d4f3 d4f5"},
		{"King", "trainwreck", "1k6/8/8/8/2pKp3/2ppp3/8/8 w - - 0 1", "d4", "d4c3 d4c4 d4c5 d4d3 d4d5 d4e3 d4e4 d4e5"},
		{"Chancellor", "trainwreck-almost", "1k6/8/8/8/1p1C2p1/1p3p2/2pp3K/8 w - - 0 1", "d4", "d4b3 d4b4 d4b5 d4c2 d4c6 d4d2 d4d5 d4d6 d4d7 d4d8 d4e6 d4f3 d4f5 d4g4"},
		{"Pawn", "trainwreck", "1k6/8/8/2ppp3/2pPp3/2ppp3/7K/8 w - - 0 1", "d4", "d4c5 d4e5"},
		{"Berolina pawn", "trainwreck-berolina", "1k6/8/8/2ppp3/2pPp3/2ppp3/7K/8 w - - 0 1", "d4", "d4d5"},
		{"Black Knight moved by White captures backward for Black", "trainwreck", "1k6/8/2P1P3/1P3P2/3n4/8/7K/8 w1 - - 0 1", "d4", "d4b3 d4b5 d4c2 d4c6 d4e2 d4e6 d4f3 d4f5"},
	} {
		t.Run(c.name, func(t *testing.T) {
			twWantMovesFrom(t, c.key, c.fen, c.from, c.want)
		})
	}
}

// TestTrainWreckCaptureOwnershipByOwner pins docs/variants/trainwreck.md: a piece
// captures only its owner's enemies, whoever moves it. In phase 1 the
// opponent's rook, moved by White, may take a White piece but not a Black
// one; White's own rook takes Black pieces.
func TestTrainWreckCaptureOwnershipByOwner(t *testing.T) {
	const fen = "1k6/8/8/8/1P1r1p2/8/8/7K w1 - - 0 1"
	p := twFEN(t, "trainwreck", fen)
	if got, want := strings.Join(twMovesFrom(&p, "d4"), " "), "d4b4 d4d1 d4d2 d4d3"; got != want {
		t.Fatalf("Black rook moved by White: %s, want %s", got, want)
	}
	q := twPlay(t, p, "d4b4")
	if q.Count(White, twVariant(t, "trainwreck").Type('P')) != 0 || q.At(twSquare(t, "b4")) != NewPiece(Black, twVariant(t, "trainwreck").Type('R')) {
		t.Errorf("after d4b4: %s", q.FEN())
	}
	// Black to move a White rook: it takes Black pieces only.
	p = twFEN(t, "trainwreck", "1k6/8/8/8/1p1R1P2/8/8/7K b1 - - 0 1")
	if got, want := strings.Join(twMovesFrom(&p, "d4"), " "), "d4b4 d4d5 d4d6 d4d7 d4d8"; got != want {
		t.Errorf("White rook moved by Black: %s, want %s", got, want)
	}
}

// twSquare parses a square name.
func twSquare(tb testing.TB, s string) Square {
	tb.Helper()
	sq, err := ParseSquare(s)
	if err != nil {
		tb.Fatal(err)
	}
	return sq
}

// TestTrainWreckKingCaptureEndsGame pins docs/variants/trainwreck.md: a
// captured King loses at once, whoever moved the capturing piece. A King
// captured in half-move (1) means half-move (2) is never played.
func TestTrainWreckKingCaptureEndsGame(t *testing.T) {
	for _, key := range []string{"trainwreck", "trainwreck-threemove"} {
		p := twPlay(t, twFEN(t, key, "4k3/8/8/8/8/8/8/4R1K1 w - - 0 5"), "e1e8")
		if o := p.Outcome(); o.Result != WhiteWins || o.Reason != "king captured" {
			t.Errorf("%s: outcome %+v after taking the King in half-move 1", key, o)
		}
		if n := len(p.Legal(nil)); n != 0 {
			t.Errorf("%s: half-move 2 has %d legal moves after the King was taken", key, n)
		}
		if _, err := p.Play(Move{From: twSquare(t, "g1"), To: twSquare(t, "g2")}); err == nil {
			t.Errorf("%s: a move was played after the King was taken", key)
		}
	}
	// Black takes White's King with his own piece in Black's half-move 1.
	p := twPlay(t, twFEN(t, "trainwreck-almost", "4k3/8/8/8/8/8/2c5/4K3 b - - 0 1"), "c2e1")
	if o := p.Outcome(); o.Result != BlackWins || o.Reason != "king captured" {
		t.Errorf("outcome %+v after the Chancellor took the King", o)
	}
}

// TestTrainWreckOwnKingTakenWithOpponentPieceLoses pins #tw3: in
// half-move 2 a player may move the opponent's piece onto his own King;
// it is legal and loses at once.
func TestTrainWreckOwnKingTakenWithOpponentPieceLoses(t *testing.T) {
	for _, c := range []struct {
		key, fen, move string
		want           Result
	}{
		{"trainwreck", "4k3/8/8/8/8/8/8/r3K3 w1 - - 0 1", "a1e1", BlackWins},
		// Black moves White's Berolina pawn, which takes straight ahead: onto Black's King, promoting.
		{"trainwreck-berolina", "4k3/4P3/8/8/8/8/8/K7 b1 - - 0 1", "e7e8q", WhiteWins},
		{"trainwreck-threemove", "4k3/8/8/8/8/8/8/r3K3 w1 - - 0 5", "a1e1", BlackWins},
	} {
		p := twFEN(t, c.key, c.fen)
		if !slices.Contains(legalTexts(&p), c.move) {
			t.Fatalf("%s: %s (taking one's own King with the opponent's piece) is not offered: %v", c.key, c.move, legalTexts(&p))
		}
		p = twPlay(t, p, c.move)
		if o := p.Outcome(); o.Result != c.want || o.Reason != "king captured" {
			t.Errorf("%s: outcome %+v after %s", c.key, o, c.move)
		}
	}
}

// TestTrainWreckNoLegalHalfMoveLoses pins docs/variants/trainwreck.md and #tw2: the
// player who must make the current half-move and has none loses, in the
// own half-move, in the opponent's (including "cannot move an opponent's
// piece" with only the King left, which may not be moved) and in each of
// Three-Move's sub-moves.
func TestTrainWreckNoLegalHalfMoveLoses(t *testing.T) {
	for _, c := range []struct {
		name, key, fen, moves string
		want                  Result
	}{
		{"own half-move: a King on the last rank has no forward step", "trainwreck", "K7/8/8/8/8/8/8/7k w - - 0 1", "", BlackWins},
		{"own half-move, Black", "trainwreck-berolina", "K7/8/8/8/8/8/8/7k b - - 0 1", "", WhiteWins},
		{"cannot move an opponent's piece: only the King is left", "trainwreck", "4k3/8/8/8/8/8/8/4K2R w1 - - 0 1", "", BlackWins},
		{"cannot move an opponent's piece: Black to move a White piece", "trainwreck", "k7/2q5/8/8/8/8/8/K7 b1 - - 0 9", "", WhiteWins},
		{"cannot move an opponent's piece: the pawn is blocked", "trainwreck", "4k3/8/8/8/8/8/p7/R3K3 w1 - - 0 1", "", BlackWins},
		{"reached by play: White's rook move leaves him no Black piece to move", "trainwreck", "4k3/8/8/8/8/8/8/p3K2R w - - 0 1", "h1h8", BlackWins},
		{"Three-Move second own sub-move", "trainwreck-threemove", "K7/7p/8/7P/8/8/8/4k3 w - - 0 5", "h5h6", BlackWins},
		{"Three-Move opponent sub-move", "trainwreck-threemove", "4k3/8/8/8/8/8/8/4K2R w - - 0 5", "h1h2 h2h3", BlackWins},
		{"Almost: Chancellor blocked", "trainwreck-almost", "C3k3/8/8/8/8/8/8/7K w1 - - 0 1", "", BlackWins},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := twPlay(t, twFEN(t, c.key, c.fen), c.moves)
			if n := len(p.Legal(nil)); n != 0 {
				t.Fatalf("%s: %d legal moves: %v", p.FEN(), n, legalTexts(&p))
			}
			if o := p.Outcome(); o.Result != c.want || o.Reason != "stalemate" {
				t.Errorf("%s (%s): outcome %+v, want %s by stalemate", p.FEN(), p.PhaseName(), o, c.want)
			}
		})
	}
}

// TestTrainWreckNoCheckRule pins docs/variants/trainwreck.md and #tw1: there is no
// check; a King may step into attack and a player may leave his King
// capturable, in either half-move.
func TestTrainWreckNoCheckRule(t *testing.T) {
	p := twFEN(t, "trainwreck", "4k3/8/8/8/8/8/r7/4K2R w - - 0 1")
	got := legalTexts(&p)
	for _, want := range []string{"e1d2", "e1e2", "e1f2", "h1h5"} { // d2-f2 are attacked by the rook on a2; the King on e1 is attacked by nothing yet
		if !slices.Contains(got, want) {
			t.Errorf("%s is not legal: %v", want, got)
		}
	}
	if p.InCheck() {
		t.Errorf("InCheck in a variant without check")
	}
	// White's King stands attacked by the rook on e8: moving something else is legal.
	p = twFEN(t, "trainwreck", "k3r3/8/8/8/8/8/8/4K2R w - - 0 1")
	if !slices.Contains(legalTexts(&p), "h1h2") {
		t.Errorf("a move leaving the King capturable is refused: %v", legalTexts(&p))
	}
	// In half-move 2 White may move a Black piece so that it attacks White's King.
	p = twFEN(t, "trainwreck", "k7/8/8/8/8/3r4/8/4K3 w1 - - 0 1")
	if !slices.Contains(legalTexts(&p), "d3d2") {
		t.Errorf("moving the opponent's rook next to one's King is refused: %v", legalTexts(&p))
	}
}

// TestTrainWreckKingCastlingAttackConditions pins docs/variants/trainwreck.md and the Train Wreck decisions
// #6: the King castles as in FIDE chess, not out of, through or into a
// square attacked by a piece the opponent owns; only in the owner's own
// half-move.
func TestTrainWreckKingCastlingAttackConditions(t *testing.T) {
	for _, c := range []struct {
		name, fen, move string
		legal           bool
	}{
		{"kingside with f1 and g1 empty and safe", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1", true},
		{"queenside with b1, c1, d1 empty and safe", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1c1", true},
		{"not out of an attack", "4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1", false},
		{"not through an attacked square", "5rk1/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1", false},
		{"not into an attacked square", "k5r1/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1", false},
		{"a White piece seeing f1 and g1 is no attacker", "k7/8/8/8/8/3Q4/8/4K2R w K - 0 1", "e1g1", true},
		{"queenside not with d1 attacked", "k2r4/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1c1", false},
		{"queenside with only b1 attacked", "kr6/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1c1", true},
		{"Black castles in his own half-move", "r3k2r/8/8/8/8/8/8/4K3 b kq - 0 1", "e8g8", true},
		{"White never castles Black's King (half-move 2)", "r3k2r/8/8/8/8/8/8/4K3 w1 kq - 0 1", "e8g8", false},
		{"White never castles Black's King queenside either", "r3k2r/8/8/8/8/8/8/4K3 w1 kq - 0 1", "e8c8", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := twFEN(t, "trainwreck", c.fen)
			if got := slices.Contains(legalTexts(&p), c.move); got != c.legal {
				t.Errorf("%s: %s legal = %v, want %v (legal: %v)", c.fen, c.move, got, c.legal, legalTexts(&p))
			}
		})
	}
	p := twPlay(t, twFEN(t, "trainwreck", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"), "e1g1")
	if got, want := p.FEN(), "4k3/8/8/8/8/8/8/R4RK1 w1 - - 1 1"; got != want {
		t.Errorf("after e1g1: %s, want %s", got, want)
	}
}

// TestTrainWreckQueenCastlingIgnoresAttacks pins docs/variants/trainwreck.md and the Train Wreck decisions
// #5, #6: an unmoved Queen castles with an unmoved Rook, two squares
// toward it, the Rook landing on the square crossed (d1-b1 with a1-c1,
// d1-f1 with h1-e1); every square between them must be empty; attacks on
// any square do not matter.
func TestTrainWreckQueenCastlingIgnoresAttacks(t *testing.T) {
	for _, c := range []struct {
		name, fen, move, after string // after = "" when the move is illegal
	}{
		{"toward the a-rook", "4k3/8/8/8/8/8/4K3/R2Q4 w A - 0 1", "d1b1", "4k3/8/8/8/8/8/4K3/1QR5 w1 - - 1 1"},
		{"toward the h-rook", "4k3/8/8/8/8/8/4K3/3Q3R w H - 0 1", "d1f1", "4k3/8/8/8/8/8/4K3/4RQ2 w1 - - 1 1"},
		{"with every square attacked", "1rrrrrr1/k7/8/8/8/8/7K/R2Q3R w HA - 0 1", "d1b1", "1rrrrrr1/k7/8/8/8/8/7K/1QR4R w1 - - 1 1"},
		{"kingside with every square attacked", "1rrrrrr1/k7/8/8/8/8/7K/R2Q3R w HA - 0 1", "d1f1", "1rrrrrr1/k7/8/8/8/8/7K/R3RQ2 w1 - - 1 1"},
		{"not with the King on e1 between", "4k3/8/8/8/8/8/8/3QK2R w KH - 0 1", "d1f1", ""},
		{"not with a piece on b1", "4k3/8/8/8/8/8/4K3/RN1Q4 w A - 0 1", "d1b1", ""},
		{"not with a piece on c1", "4k3/8/8/8/8/8/4K3/R1BQ4 w A - 0 1", "d1b1", ""},
		{"not with a piece on g1", "4k3/8/8/8/8/8/4K3/3Q2NR w H - 0 1", "d1f1", ""},
		{"not without the right", "4k3/8/8/8/8/8/4K3/R2Q3R w H - 0 1", "d1b1", ""},
		{"Black's Queen in Black's half-move", "r2q4/4k3/8/8/8/8/8/4K3 b a - 0 1", "d8b8", "1qr5/4k3/8/8/8/8/8/4K3 b1 - - 1 1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := twFEN(t, "trainwreck", c.fen)
			legal := slices.Contains(legalTexts(&p), c.move)
			if legal != (c.after != "") {
				t.Fatalf("%s: %s legal = %v (legal: %v)", c.fen, c.move, legal, legalTexts(&p))
			}
			if legal {
				if q := twPlay(t, p, c.move); q.FEN() != c.after {
					t.Errorf("after %s: %s, want %s", c.move, q.FEN(), c.after)
				}
			}
		})
	}
}

// TestTrainWreckCastleOpponentQueen pins #tw4: in half-move 2 the
// player may castle the opponent's Queen (only the King is excluded, and
// only the King's castling is a King move).
func TestTrainWreckCastleOpponentQueen(t *testing.T) {
	p := twFEN(t, "trainwreck", "r2qk2r/8/8/8/8/8/8/4K3 w1 kqha - 0 1")
	got := legalTexts(&p)
	if !slices.Contains(got, "d8b8") {
		t.Fatalf("White cannot castle Black's Queen: %v", got)
	}
	for _, bad := range []string{"e8g8", "e8c8", "e8d7", "e8e7", "e8f7", "e8f8", "d8f8"} {
		if slices.Contains(got, bad) {
			t.Errorf("White may play %s with Black's King (or a blocked castling)", bad)
		}
	}
	p = twPlay(t, p, "d8b8")
	if got, want := p.FEN(), "1qr1k2r/8/8/8/8/8/8/4K3 b k - 1 1"; got != want {
		t.Errorf("after White castled Black's Queen: %s, want %s", got, want)
	}
	// Black castles White's Queen in Black's half-move 2; the opponent's Chancellor likewise (#tw10).
	for _, c := range []struct{ key, fen, move, after string }{
		{"trainwreck", "4k3/8/8/8/8/8/8/R2QK2R b1 KQHA - 0 1", "d1b1", "4k3/8/8/8/8/8/8/1QR1K2R w K - 1 2"},
		{"trainwreck-almost", "4k3/8/8/8/8/8/8/R2CK2R b1 KQHA - 0 1", "d1b1", "4k3/8/8/8/8/8/8/1CR1K2R w K - 1 2"},
	} {
		q := twPlay(t, twFEN(t, c.key, c.fen), c.move)
		if q.FEN() != c.after {
			t.Errorf("%s: after %s: %s, want %s", c.key, c.move, q.FEN(), c.after)
		}
	}
}

// TestTrainWreckMovedStatusLostByEitherPlayer pins docs/variants/trainwreck.md: a King,
// Queen or Rook loses its castling rights when it moves, whichever player
// moves it.
func TestTrainWreckMovedStatusLostByEitherPlayer(t *testing.T) {
	p := twFEN(t, "trainwreck", "r2qk2r/1pppppp1/8/8/8/8/1PPPPPP1/R2QK2R w KQkqHAha - 0 1")
	for _, s := range []struct{ move, rights string }{
		{"e2e3", "KQkqHAha"},
		{"a8a6", "KQkHAh"}, // White moves Black's a-rook
		{"e7e6", "KQkHAh"},
		{"h1h4", "QkAh"}, // Black moves White's h-rook
		{"d1e2", "Qkh"},  // White moves his own Queen
		{"d8e7", "Qk"},   // White moves Black's Queen
		{"e6e5", "Qk"},
	} {
		p = twPlay(t, p, s.move)
		if got := p.CastlingRights(); got != s.rights {
			t.Fatalf("after %s: rights %q, want %q", s.move, got, s.rights)
		}
	}
	// Black moves White's Queen (half-move 2): White's Queen rights go.
	p = twPlay(t, twFEN(t, "trainwreck", "r2qk2r/8/8/8/8/8/8/R2QK2R b1 KQkqHAha - 0 1"), "d1d4")
	if got := p.CastlingRights(); got != "KQkqha" {
		t.Errorf("after Black moved White's Queen: rights %q, want KQkqha", got)
	}
}

// TestTrainWreckPawnDoubleStepFromOwnerStartRank pins #tw7: a pawn may
// step twice from its owner's start rank, whoever moves it, and from no
// other rank.
func TestTrainWreckPawnDoubleStepFromOwnerStartRank(t *testing.T) {
	for _, c := range []struct {
		name, fen, from, want string
	}{
		{"White moves a Black pawn on rank 7", "4k3/3p4/8/8/8/8/8/4K3 w1 - - 0 1", "d7", "d7d5 d7d6"},
		{"Black moves a White pawn on rank 2", "4k3/8/8/8/8/8/3P4/4K3 b1 - - 0 1", "d2", "d2d3 d2d4"},
		{"a Black pawn on rank 2 is not on its start rank", "4k3/8/8/8/8/8/3p4/K7 w1 - - 0 1", "d2", "d2d1b d2d1n d2d1q d2d1r"},
		{"a White pawn on rank 7 is not on its start rank", "k7/3P4/8/8/8/8/8/K7 b1 - - 0 1", "d7", "d7d8b d7d8n d7d8q d7d8r"},
		{"a Black pawn on rank 6 steps once", "4k3/8/3p4/8/8/8/8/4K3 w1 - - 0 1", "d6", "d6d5"},
		{"the passed square must be empty", "4k3/3p4/3N4/8/8/8/8/4K3 w1 - - 0 1", "d7", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			twWantMovesFrom(t, "trainwreck", c.fen, c.from, c.want)
		})
	}
}

// TestTrainWreckNoEnPassant pins docs/variants/trainwreck.md: there is no en-passant
// capture, and the FEN never records a target.
func TestTrainWreckNoEnPassant(t *testing.T) {
	for _, key := range []string{"trainwreck", "trainwreck-threemove", "trainwreck-almost"} {
		// Black's own double step beside White's e5 pawn, then Black moves White's pawn.
		p := twPlay(t, twFEN(t, key, "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 3"), "d7d5")
		if p.EnPassant() != NoSquare || strings.Fields(p.FEN())[3] != "-" {
			t.Errorf("%s: en-passant target after d7d5: %s", key, p.FEN())
		}
		if key == "trainwreck-threemove" {
			p = twPlay(t, p, "e8e7") // Black's second own sub-move
		}
		if got := twMovesFrom(&p, "e5"); slices.Contains(got, "e5d6") {
			t.Errorf("%s: en passant e5d6 is offered: %v", key, got)
		}
		// White's double step moved by Black beside Black's pawn: nothing to take next either.
		p = twPlay(t, twFEN(t, key, "4k3/8/8/8/3p4/8/4P3/4K3 b1 - - 0 3"), "e2e4")
		if p.EnPassant() != NoSquare || slices.Contains(legalTexts(&p), "d4e3") {
			t.Errorf("%s: en passant after e2e4: %s %v", key, p.FEN(), legalTexts(&p))
		}
	}
	// A target in a FEN is dropped: nobody may capture en passant.
	p := twFEN(t, "trainwreck", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2")
	if p.EnPassant() != NoSquare {
		t.Errorf("the FEN's en-passant target was kept: %s", p.FEN())
	}
}

// TestTrainWreckPromotionChosenByMoverOwnedByOwner pins docs/variants/trainwreck.md and
// #tw8: the player who moves the pawn chooses among the owner's
// promotion pieces (Q, R, B, N; C, R, B, N in Almost), and the new piece
// belongs to the pawn's owner.
func TestTrainWreckPromotionChosenByMoverOwnedByOwner(t *testing.T) {
	for _, c := range []struct {
		name, key, fen, from, want, move, after string
	}{
		{"White promotes Black's pawn to a Black knight", "trainwreck", "4k3/8/8/8/8/8/3p4/K7 w1 - - 0 1", "d2", "d2d1b d2d1n d2d1q d2d1r", "d2d1n", "4k3/8/8/8/8/8/8/K2n4 b - - 0 1"},
		{"Black promotes White's pawn by capture to a White rook", "trainwreck", "3rk3/4P3/8/8/8/8/8/K7 b1 - - 0 1", "e7", "e7d8b e7d8n e7d8q e7d8r", "e7d8r", "3Rk3/8/8/8/8/8/8/K7 w - - 0 2"},
		{"White promotes his own pawn", "trainwreck-threemove", "4k3/1P6/8/8/8/8/8/K7 w - - 0 1", "b7", "b7b8b b7b8n b7b8q b7b8r", "b7b8q", "1Q2k3/8/8/8/8/8/8/K7 w1 - - 0 1"},
		{"Almost: the Chancellor replaces the Queen", "trainwreck-almost", "4k3/8/8/8/8/8/3p4/K7 w1 - - 0 1", "d2", "d2d1b d2d1c d2d1n d2d1r", "d2d1c", "4k3/8/8/8/8/8/8/K2c4 b - - 0 1"},
		{"Berolina: promotion by the diagonal move", "trainwreck-berolina", "4k3/8/8/8/8/8/3p4/K7 w1 - - 0 1", "d2", "d2c1b d2c1n d2c1q d2c1r d2e1b d2e1n d2e1q d2e1r", "d2e1q", "4k3/8/8/8/8/8/8/K3q3 b - - 0 1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := twWantMovesFrom(t, c.key, c.fen, c.from, c.want)
			if q := twPlay(t, p, c.move); q.FEN() != c.after {
				t.Errorf("after %s: %s, want %s", c.move, q.FEN(), c.after)
			}
		})
	}
}

// TestTrainWreckBerolinaDoubleStep pins docs/variants/trainwreck-berolina.md and #tw11:
// the Berolina pawn moves one square diagonally forward or, from its
// owner's start rank, two in a straight diagonal line over an empty
// square; it captures one square straight ahead; never en passant.
func TestTrainWreckBerolinaDoubleStep(t *testing.T) {
	for _, c := range []struct {
		name, fen, from, want string
	}{
		{"from the start rank", "4k3/8/8/8/8/8/3P4/4K3 w - - 0 1", "d2", "d2b4 d2c3 d2e3 d2f4"},
		{"the passed square c3 is occupied", "4k3/8/8/8/8/2n5/3P4/4K3 w - - 0 1", "d2", "d2e3 d2f4"},
		{"the passed square e3 is occupied by an own piece", "4k3/8/8/8/8/4N3/3P4/K7 w - - 0 1", "d2", "d2b4 d2c3"},
		{"the landing square is occupied", "4k3/8/8/8/1n6/8/3P4/4K3 w - - 0 1", "d2", "d2c3 d2e3 d2f4"},
		{"not from another rank", "4k3/8/8/8/8/3P4/8/4K3 w - - 0 1", "d3", "d3c4 d3e4"},
		{"captures straight ahead only", "4k3/8/8/8/8/2nnn3/3P4/K7 w - - 0 1", "d2", "d2d3"},
		{"a Black pawn moved by White steps down from rank 7", "4k3/3p4/8/8/8/8/8/4K3 w1 - - 0 1", "d7", "d7b5 d7c6 d7e6 d7f5"},
	} {
		t.Run(c.name, func(t *testing.T) {
			twWantMovesFrom(t, "trainwreck-berolina", c.fen, c.from, c.want)
		})
	}
	// A double step past an enemy pawn's capture square leaves no target.
	p := twPlay(t, twFEN(t, "trainwreck-berolina", "4k3/8/8/8/8/8/3P1p2/4K3 w - - 0 1"), "d2f4")
	if p.EnPassant() != NoSquare {
		t.Errorf("en-passant target after d2f4: %s", p.FEN())
	}
}

// TestTrainWreckAlmostChancellorCastling pins docs/variants/trainwreck-berolina.md and #tw10:
// in Almost Train Wreck the Chancellor castles as the Queen does (attacks
// ignored), with the same FEN letters.
func TestTrainWreckAlmostChancellorCastling(t *testing.T) {
	for _, c := range []struct {
		name, fen, move, after string
	}{
		{"toward the a-rook", "1r2k3/8/8/8/8/8/4K3/R2C4 w A - 0 1", "d1b1", "1r2k3/8/8/8/8/8/4K3/1CR5 w1 - - 1 1"},
		{"toward the h-rook", "4kr2/8/8/8/8/8/4K3/3C3R w H - 0 1", "d1f1", "4kr2/8/8/8/8/8/4K3/4RC2 w1 - - 1 1"},
		{"Black's Chancellor", "r2c4/4k3/8/8/8/8/8/4K3 b a - 0 1", "d8b8", "1cr5/4k3/8/8/8/8/8/4K3 b1 - - 1 1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			q := twPlay(t, twFEN(t, "trainwreck-almost", c.fen), c.move)
			if q.FEN() != c.after {
				t.Errorf("after %s: %s, want %s", c.move, q.FEN(), c.after)
			}
		})
	}
	if p := twFEN(t, "trainwreck-almost", ""); p.CastlingRights() != "KQkqHAha" {
		t.Errorf("start rights %q", p.CastlingRights())
	}
}

// TestTrainWreckNoAutomaticDraws pins #tw12 (and §1.6): nothing is
// drawn automatically or claimable (no 50-move rule, no repetition,
// no insufficient material); draws are by agreement only.
func TestTrainWreckNoAutomaticDraws(t *testing.T) {
	for _, k := range trainWreckKeys {
		v := twVariant(t, k.key)
		if v.DrawClaimPlies != 0 || v.DrawAutoPlies != 0 || v.RepetitionClaim != 0 || v.RepetitionAuto != 0 || v.InsufficientMaterial != nil || v.CheckRule {
			t.Errorf("%s declares automatic or claimable draws, or check", k.key)
		}
		// Bare Kings after 300 quiet plies: still a game, nothing to claim.
		g := NewGame(twFEN(t, k.key, "4k3/8/8/8/8/8/8/4K2R w - - 300 200"))
		if o := g.Outcome(); o.Over() {
			t.Errorf("%s: outcome %+v", k.key, o)
		}
		if reason, ok := g.DrawClaim(); ok {
			t.Errorf("%s: draw claim %q", k.key, reason)
		}
	}
}

// TestTrainWreckVariantData pins the piece descriptions of docs/variants/trainwreck.md
// and §1.8 and the start positions of §1.1 and §1.8.
func TestTrainWreckVariantData(t *testing.T) {
	want := map[string]string{
		"trainwreck":           "P=fmWfcFifmnD N=mffNmfsNcN B=mfBcB R=mfRcR Q=mfQcQ K=mfKcK",
		"trainwreck-berolina":  "P=mfFcfWifmnA N=mffNmfsNcN B=mfBcB R=mfRcR Q=mfQcQ K=mfKcK",
		"trainwreck-almost":    "P=fmWfcFifmnD N=mffNmfsNcN B=mfBcB R=mfRcR C=mfRmffNmfsNcRcN K=mfKcK",
		"trainwreck-threemove": "P=fmWfcFifmnD N=mffNmfsNcN B=mfBcB R=mfRcR Q=mfQcQ K=mfKcK",
	}
	for _, k := range trainWreckKeys {
		v := twVariant(t, k.key)
		var got []string
		for _, d := range v.Pieces {
			got = append(got, fmt.Sprintf("%c=%s", d.Letter, d.Betza))
		}
		if strings.Join(got, " ") != want[k.key] {
			t.Errorf("%s pieces: %s", k.key, strings.Join(got, " "))
		}
		if !v.RoyalCaptureLoses || v.Stalemate != StalemateLoses || v.CheckRule {
			t.Errorf("%s: end rules %v %v %v", k.key, v.RoyalCaptureLoses, v.Stalemate, v.CheckRule)
		}
	}
}

// trainWreckPerft are perft counts of the Train Wreck family. The counts
// at depths 1 and 2 (hand) were counted by hand, as the comments show;
// the deeper ones (regression) come from this implementation and only
// guard against unintended change.
var trainWreckPerft = []struct {
	id, key, fen string
	hand         [2]uint64
	regression   []uint64 // depth 3, 4, ...
}{
	// Start, White's own half-move: 16 pawn moves (8 single, 8 double),
	// the knights' forward leaps b1-a3, b1-c3, g1-f3, g1-h3 (d2, e2 are
	// occupied; the backward leaps may only capture) = 20; nothing else
	// can move forward past the pawns, and nothing can be captured.
	// Depth 2, White moves a Black piece (not the King): the same 20 for
	// Black, since White's first move reaches rank 4 at most and Black's
	// moves use ranks 5 and 6 only: 20 x 20 = 400.
	{"start", "trainwreck", "", [2]uint64{20, 400}, []uint64{8742, 188065}},
	// Berolina pawns from the start: single diagonal steps 2 each, 1 for
	// the a- and h-pawns (14); double diagonal steps over an empty square
	// 2 each, 1 for the a, b, g, h pawns (12); knights 4: 30. Black's
	// moves do not meet White's (ranks 5-6 against 3-4): 30 x 30 = 900.
	{"start", "trainwreck-berolina", "", [2]uint64{30, 900}, []uint64{28104, 862622}},
	// Almost: the Chancellor on d1 adds its forward knight leaps c3 and
	// e3 (b2, f2 occupied; d2 blocks the file): 20 + 2 = 22; 22 x 22 = 484.
	{"start", "trainwreck-almost", "", [2]uint64{22, 484}, []uint64{11323, 261087}},
	// Three-Move: White's first turn is a Train Wreck turn: 20, 400 (and
	// Black's first own move gives the same depth 3; depth 4 is Black's
	// second own move, where Train Wreck has Black move a White piece).
	{"start", "trainwreck-threemove", "", [2]uint64{20, 400}, []uint64{8742, 205908}},
	// Castling. Ra1: a2-a8 (7; b1, c1 are empty, sideways it only
	// captures). Qd1: d2-d8 (7), c2 b3 a4 (3), e2 f3 g4 h5 (4) = 14.
	// Ke1: d2 e2 f2 (3). Rh1: h2-h8 (7). King castling e1g1 (f1, g1
	// empty, e1 f1 g1 not attacked by e8, e7): 1; e1c1 is blocked by the
	// Queen. Queen castling d1b1 with a1c1: 1; d1f1 is blocked by the
	// King. 7+14+3+7+1+1 = 33.
	// Depth 2: White moves the e7 pawn (e6, e5), and also takes on d6
	// after Qd6: 33 x 2 + 1 = 67.
	{"castling", "trainwreck", "4k3/4p3/8/8/8/8/8/R2QK2R w KQHA - 0 1", [2]uint64{33, 67}, []uint64{272, 6367, 146384}},
	// Castling an opponent's Queen (half-move 2). White moves a Black
	// piece: ra8 a7-a1 (7), qd8 d7-d1 (7) c7 b6 a5 (3) e7 f6 g5 h4 (4),
	// Queen castling d8b8 (1); not the King, so not e8c8 either: 22.
	// Depth 2, Black's own half-move, from the 22 positions:
	//   ra8 to a7..a1: Black has the rook's own moves (6 5 4 3 2 1, and on
	//   a1 the capture of the King on e1: 1), Qd8 14 (13 with the rook on
	//   a5 blocking the a5 square), Ke8 d7 e7 f7 (3); no castling rights
	//   left: 23 22 20 20 19 18 18 = 140.
	//   qd8 to d7 d6 d5 d4 d3 d2 d1 c7 b6 a5 e7 f6 g5 h4: the Queen's own
	//   moves (13 12 11 9 6 3 1 13 11 8 13 12 9 6, counting the captures of
	//   e1 from d2, d1, a5, e7, h4), the rook 7 (2 with the Queen on a5),
	//   the King 3 (2 with the Queen on d7 or e7), and the King's castling
	//   e8c8, now possible: 23 23 22 20 17 14 12 24 22 14 23 23 20 17 = 274.
	//   d8b8 (Queen castling): rc8 c7-c1 (7), qb8 b7-b1 (7) a7 (1)
	//   c7-h2 (6), Ke8 3 = 24.
	// 140 + 274 + 24 = 438. Depth 3 is 0: Black must then move a White
	// piece and White has only the King.
	{"castle-opponent-queen", "trainwreck", "r2qk3/8/8/8/8/8/8/4K3 w1 qa - 0 1", [2]uint64{22, 438}, []uint64{0}},
	// Ke1 d2 e2 f2 (3), Rh1 h2-h8 (7), e1g1 (1) = 11; White then moves
	// the e7 pawn: e6 or e5 whatever he did: 22.
	{"rook-pawn", "trainwreck", "4k3/4p3/8/8/8/8/8/4K2R w K - 0 5", [2]uint64{11, 22}, []uint64{88, 406, 2270, 2135}},
	// The same position in Three-Move (not White's first turn): 11, then
	// White's second own sub-move: after Kd2, Ke2, Kf2 the King's 3
	// forward steps + the rook's 7 = 10 each; after the rook to h2..h8:
	// King 3 + rook forward (6 5 4 3 2 1 0) + on h7 the capture of e7, on
	// h8 the capture of e8: 9 8 7 6 5 5 4; after e1g1: Kg1 f2 g2 h2 (3)
	// and Rf1 f2-f8 (7) = 10. 30 + 44 + 10 = 84.
	{"rook-pawn", "trainwreck-threemove", "4k3/4p3/8/8/8/8/8/4K2R w K - 0 5", [2]uint64{11, 84}, []uint64{165, 664, 2425, 7956}},
	// Berolina: Pc2 takes c3 straight ahead, steps to d3, double-steps to
	// e4 over d3 (b3 is occupied, so neither b3 nor a4); Ke1 d2 e2 f2: 6.
	// Depth 2, White moves a Black knight (nb3 to a1 c1 d2; nc3 to b1 d1
	// a2 e2, capturing a White piece on one of its 8 leaps):
	//   cxc3: nb3 3 = 3; c2d3: 3 + 4 = 7; c2e4: 3 + 4 + xe4 = 8;
	//   Kd2: nb3 a1 c1 xd2, nc3 4 = 7; Ke2: 3 + (b1 d1 a2 xe2) = 7; Kf2: 7.
	// 3 + 7 + 8 + 7 + 7 + 7 = 39.
	{"knights", "trainwreck-berolina", "4k3/8/8/8/8/1nn5/2P5/4K3 w - - 0 1", [2]uint64{6, 39}, []uint64{265, 674, 3450, 8878}},
	// Almost, Chancellor castling: Ra1 7, Cd1 d2-d8 (7) and c3 e3 b2 f2
	// (4) = 11, Ke1 3, Rh1 7, e1g1 1, Chancellor castling d1b1 1 = 30.
	// Depth 2: the e7 pawn 2 each, 3 after Cd6: 30 x 2 + 1 = 61.
	{"castling", "trainwreck-almost", "4k3/4p3/8/8/8/8/8/R2CK2R w KQHA - 0 1", [2]uint64{30, 61}, []uint64{248, 5357, 115915}},
}

// TestTrainWreckPerft checks trainWreckPerft; with -short only the hand
// counts and deeper rows of under 100,000 nodes run.
func TestTrainWreckPerft(t *testing.T) {
	for _, c := range trainWreckPerft {
		t.Run(c.key+"/"+c.id, func(t *testing.T) {
			p := twFEN(t, c.key, c.fen)
			want := append(c.hand[:], c.regression...)
			for i, n := range want {
				depth := i + 1
				if testing.Short() && depth > 2 && n > 100_000 {
					continue
				}
				if got := Perft(&p, depth); got != n {
					var b strings.Builder
					for _, e := range Divide(&p, depth) {
						fmt.Fprintf(&b, "%s: %d\n", FormatMove(&p, e.Move), e.Nodes)
					}
					t.Errorf("perft %d of %s: got %d, want %d\ndivide:\n%s", depth, p.FEN(), got, n, b.String())
				}
			}
		})
	}
}

// twMaxPlies bounds a Train Wreck game: every non-capturing move except
// castling takes a piece at least one rank forward for its owner, so 32
// pieces of at most 7 ranks each, 30 captures and 8 castlings make fewer
// than 300 half-moves (docs/variants/trainwreck.md).
const twMaxPlies = 300

// TestTrainWreckRandomPlayouts plays seeded random games of every key to
// the end (1000 each, 100 with -short) and checks, after every half-move:
// the game has not lasted too long and no position repeats (docs/variants/trainwreck.md);
// while it goes on each side has one King, the mover matches the phase,
// every non-capturing non-castling move goes forward for the piece's
// owner, and FEN round-trips with an equal hash; at the end Outcome agrees
// with the board, and replaying the canonical move texts reproduces the
// final position.
func TestTrainWreckRandomPlayouts(t *testing.T) {
	games := 1000
	if testing.Short() {
		games = 100
	}
	for i, k := range trainWreckKeys {
		t.Run(k.key, func(t *testing.T) {
			t.Parallel()
			v := twVariant(t, k.key)
			rng := rand.New(rand.NewPCG(uint64(i+1), 0x747261696e))
			var plies, longest int
			reasons := map[Outcome]int{}
			for g := 0; g < games; g++ {
				n, o := twPlayout(t, v, rng, g)
				plies += n
				longest = max(longest, n)
				reasons[o]++
			}
			t.Logf("%d games, %.1f half-moves on average, %d at most; outcomes %v", games, float64(plies)/float64(games), longest, reasons)
		})
	}
}

// twPlayout plays one random game of v, checks the invariants of
// TestTrainWreckRandomPlayouts and returns its length and outcome.
func twPlayout(t *testing.T, v *Variant, rng *rand.Rand, game int) (plies int, o Outcome) {
	t.Helper()
	king := v.Type('K')
	p := v.Start()
	seen := map[uint64]bool{p.Hash(): true}
	var texts []string
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("game %d after %v: %s: %s", game, texts, p.FEN(), fmt.Sprintf(format, args...))
	}
	var legal []Move
	for {
		legal = p.Legal(legal[:0])
		if len(legal) == 0 {
			break
		}
		if len(texts) >= twMaxPlies {
			fail("no end after %d half-moves", len(texts))
		}
		for _, c := range []Color{White, Black} {
			if n := p.Count(c, king); n != 1 {
				fail("%s has %d Kings in an ongoing game", c, n)
			}
		}
		if p.Mover() != v.Hooks.MoverOf(p.ToAct(), p.Phase()) {
			fail("mover %s in phase %d", p.Mover(), p.Phase())
		}
		q, err := ParseFEN(v, p.FEN())
		if err != nil || q.FEN() != p.FEN() || q.Hash() != p.Hash() {
			fail("FEN round trip: %v %q", err, q.FEN())
		}
		m := legal[rng.IntN(len(legal))]
		text := FormatMove(&p, m)
		if m.Kind == KindNormal && !p.IsCapture(m) {
			owner := p.At(m.From).Color()
			if v.relRank(m.To, owner) <= v.relRank(m.From, owner) {
				fail("%s does not go forward for %s", text, owner)
			}
		}
		next, err := p.Play(m)
		if err != nil {
			fail("Play(%s): %v", text, err)
		}
		texts = append(texts, text)
		p = next
		if seen[p.Hash()] {
			fail("a position repeated")
		}
		seen[p.Hash()] = true
	}
	o = p.Outcome()
	wk, bk := p.Count(White, king), p.Count(Black, king)
	switch {
	case wk == 0 && bk == 1:
		if o != (Outcome{Result: BlackWins, Reason: "king captured"}) {
			fail("White's King is gone, outcome %+v", o)
		}
	case bk == 0 && wk == 1:
		if o != (Outcome{Result: WhiteWins, Reason: "king captured"}) {
			fail("Black's King is gone, outcome %+v", o)
		}
	case wk == 1 && bk == 1:
		if o != (Outcome{Result: WinFor(p.ToAct().Other()), Reason: "stalemate"}) {
			fail("%s has no legal half-move, outcome %+v", p.ToAct(), o)
		}
	default:
		fail("Kings %d and %d at the end", wk, bk)
	}
	g := NewGame(v.Start())
	for _, s := range texts {
		pos := g.Position()
		m, err := ParseMove(&pos, s)
		if err != nil {
			fail("replay %s: %v", s, err)
		}
		if err := g.Play(m); err != nil {
			fail("replay %s: %v", s, err)
		}
	}
	if end := g.Position(); end.FEN() != p.FEN() || g.Outcome() != o {
		fail("replay ends in %s, %+v", end.FEN(), g.Outcome())
	}
	return len(texts), o
}

// TestTrainWreckTermJudgesHalfMovePools pins the family's judgement
// (trainWreckTerm, docs/variants/trainwreck.md #tw2: the player left
// without a half-move loses) on positions that differ only in the pools
// of half-moves, the material being the same: White is better off when
// Black's own pieces have fewer moves, and when White's pieces other than
// the King have fewer (Black must move one of them); and keeping Black's
// last movable piece on the board (White's second half-move needs it) is
// worth more than the pawn that taking it would win.
func TestTrainWreckTermJudgesHalfMovePools(t *testing.T) {
	term := func(key, fen string) int {
		p := twFEN(t, key, fen)
		return trainWreckTerm(&p, nil)
	}
	for _, key := range []string{"trainwreck", "trainwreck-berolina", "trainwreck-almost", "trainwreck-threemove"} {
		for _, c := range []struct {
			rule, better, worse string
			by                  int // the least difference wanted
		}{
			// Black's King boxed in by its own pawns: 6 own half-moves
			// for Black instead of 9.
			{"the opponent's own pieces have fewer moves",
				"4k3/3ppp2/8/8/8/8/P7/4K3 w - - 0 1", "4k3/ppp5/8/8/8/8/P7/4K3 w - - 0 1", 1},
			// White's pawn has 1 move left instead of 2: Black's second
			// half-move, which must move it, is nearly out of choices.
			{"your pieces other than the King have fewer moves",
				"4k3/7p/8/P7/8/8/8/4K3 w - - 0 1", "4k3/7p/8/8/8/8/P7/4K3 w - - 0 1", 1},
			// Black's pawn is the only Black piece White's second
			// half-move can move: keeping it beats winning it.
			{"the opponent keeps a piece your second half-move can move",
				"4k3/p7/8/8/8/8/P7/4K3 w - - 0 1", "4k3/8/8/8/8/8/P7/4K3 w - - 0 1", 100},
		} {
			if b, w := term(key, c.better), term(key, c.worse); b-w < c.by {
				t.Errorf("%s: %s: judged %d for %s and %d for %s, want the first higher by at least %d",
					key, c.rule, b, c.better, w, c.worse, c.by)
			}
		}
	}
}
