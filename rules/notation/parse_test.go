package notation

import (
	"errors"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/rules"
)

const (
	fenEnPassant = "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3"
	fenPromotion = "r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1"
	fenCastling  = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
	fenKnights   = "rnbqkbnr/pppppppp/8/8/3P4/5N2/PPP1PPPP/RNBQKB1R w KQkq - 0 1"
	fenHand      = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[NPp] w KQkq - 0 1"
)

// TestParseSANTolerant pins the spellings ParseSAN accepts besides the
// one SAN writes.
func TestParseSANTolerant(t *testing.T) {
	r := newRegistry(t)
	for _, c := range []struct {
		name, key, fen, text, want string // want: coordinate form
	}{
		{"plain", "chess", "", "Nf3", "g1f3"},
		{"check mark", "chess", "", "Nf3+", "g1f3"},
		{"mate mark", "chess", "", "Nf3#", "g1f3"},
		{"annotations", "chess", "", "Nf3!?", "g1f3"},
		{"spaces", "chess", "", "  N f3  ", "g1f3"},
		{"origin square", "chess", "", "Ng1f3", "g1f3"},
		{"long algebraic", "chess", "", "Ng1-f3", "g1f3"},
		{"origin file", "chess", "", "Ngf3", "g1f3"},
		{"origin rank", "chess", "", "N1f3", "g1f3"},
		{"pawn with origin square", "chess", "", "e2e4", "e2e4"},
		{"pawn with origin square and dash", "chess", "", "e2-e4", "e2e4"},
		{"explicit pawn letter", "chess", "", "Pe4", "e2e4"},
		{"capture without x", "chess", fenEnPassant, "ed6", "e5d6"},
		{"en passant with e.p.", "chess", fenEnPassant, "exd6 e.p.", "e5d6"},
		{"en passant with e.p. and no space", "chess", fenEnPassant, "exd6e.p.", "e5d6"},
		{"colon for capture", "chess", fenEnPassant, "e:d6", "e5d6"},
		{"multiplication sign for capture", "chess", fenEnPassant, "e×d6", "e5d6"},
		{"promotion with =", "chess", fenPromotion, "b8=Q", "b7b8q"},
		{"promotion without =", "chess", fenPromotion, "b8Q", "b7b8q"},
		{"promotion lowercase", "chess", fenPromotion, "b8=q", "b7b8q"},
		{"promotion lowercase without =", "chess", fenPromotion, "b8q", "b7b8q"},
		{"promotion to a bishop, lowercase", "chess", fenPromotion, "b8b", "b7b8b"},
		{"promotion with slash", "chess", fenPromotion, "b8/N", "b7b8n"},
		{"promotion in parentheses", "chess", fenPromotion, "b8(R)", "b7b8r"},
		{"promotion with capture and check", "chess", fenPromotion, "bxa8=Q+", "b7a8q"},
		{"castling with zeros", "chess", fenCastling, "0-0", "e1g1"},
		{"castling lowercase", "chess", fenCastling, "o-o-o", "e1c1"},
		{"castling with check mark", "chess", fenCastling, "O-O+", "e1g1"},
		{"drop", "crazyhouse", fenHand, "N@e4", "N@e4"},
		{"drop lowercase", "crazyhouse", fenHand, "n@e4", "N@e4"},
		{"pawn drop lowercase", "crazyhouse", fenHand, "p@e4", "P@e4"},
		{"drop with check mark", "crazyhouse", fenHand, "N@d6+", "N@d6"},
		{"grand optional promotion declined", "grand", "9k/10/P9/10/10/10/10/10/10/K9 w - - 0 1", "a9", "a8a9"},
		{"grand promotion", "grand", "9k/10/P9/10/10/10/10/10/10/K9 w - - 0 1", "a9c", "a8a9c"},
		{"grand 10th rank", "grand", "k9/10/10/10/10/10/10/10/10/K8C w - - 0 1", "Cj1j10", "j1j10"},
		{"12x12 two-digit origin rank", "wide", "5k6/r11/12/12/12/12/12/12/12/12/12/R4K6 w - - 0 1", "R1xa11", "a1a11"},
		{"continue mark", "relay", "", "Nf3>", "g1f3>"},
		{"continue mark before a check mark", "relay", "", "Nf3>+", "g1f3>"},
		{"continue mark after a check mark", "relay", "", "Nf3+>", "g1f3>"},
		{"pass", "relay", "", "pass", "pass"},
		{"pass uppercase", "relay", "", "PASS", "pass"},
		{"pass as null move", "relay", "", "--", "pass"},
		{"special move", "relay", "", "e1e1#1", "e1e1#1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := position(t, r, c.key, c.fen)
			want := coordMove(t, &p, c.want)
			got, err := ParseSAN(&p, c.text)
			if err != nil {
				t.Fatalf("ParseSAN(%q): %v", c.text, err)
			}
			if got != want {
				t.Errorf("ParseSAN(%q) = %s, want %s", c.text, rules.FormatMove(&p, got), c.want)
			}
		})
	}
}

// errorCase pins the error for one text: its kind and a part of the message.
type errorCase struct {
	name, key, fen, text string
	kind                 error
	msg                  string
}

func checkError(t *testing.T, err error, c errorCase) {
	t.Helper()
	if err == nil {
		t.Fatalf("%q: no error, want %v", c.text, c.kind)
	}
	if !errors.Is(err, c.kind) {
		t.Errorf("%q: error %q does not wrap %q", c.text, err, c.kind)
	}
	if !strings.Contains(err.Error(), c.msg) {
		t.Errorf("%q: error %q does not say %q", c.text, err, c.msg)
	}
	if strings.ContainsAny(err.Error(), "\n\r") {
		t.Errorf("%q: error %q is more than one line", c.text, err)
	}
}

func TestParseSANErrors(t *testing.T) {
	bad, illegal, ambiguous := rules.ErrBadMove, rules.ErrIllegalMove, ErrAmbiguousMove
	r := newRegistry(t)
	for _, c := range []errorCase{
		{"empty", "chess", "", "", bad, "no move given"},
		{"only spaces", "chess", "", " \t ", bad, "no move given"},
		{"only marks", "chess", "", "+!", bad, "no move before the marks"},
		{"no destination", "chess", "", "N", bad, "expected a move like Nc3 or a3 (in coordinates, Nc3 is b1c3)"},
		{"rank 13", "chess", "", "Ne13", bad, "is not a square"},
		{"rank 0", "chess", "", "Ne0", bad, "is not a square"},
		{"file beyond l", "chess", "", "Nm3", bad, "m3 is not a square of the 8x8 board (a file a-h and a rank 1-8, like e4)"},
		{"lowercase piece letter", "chess", "", "nf3", bad, "piece letters are uppercase: N, not n (did you mean Nf3?)"},
		{"three squares", "chess", "", "e2e4e6", bad, "unexpected"},
		{"control characters", "chess", "", "N\x00f3\n", bad, `"N\x00f3\n"`},
		{"too long", "chess", "", strings.Repeat("e4", 40), bad, "too long"},
		{"drop of a digit", "crazyhouse", fenHand, "1@e4", bad, "not a piece letter"},
		{"drop on no square", "crazyhouse", fenHand, "N@z4", bad, "is not a square"},
		{"coordinate form", "chess", "", "g1f3", bad, `"g1f3": that is the coordinate form; in SAN the move is Nf3`},
		{"unknown piece", "chess", "", "Zf3", illegal, "Z is not a piece of Chess"},
		{"unknown promotion piece", "chess", fenPromotion, "b8=Z", illegal, "Z is not a piece of Chess"},
		{"off the board", "chess", "", "Nf9", illegal, "f9 is not a square of the 8x8 board"},
		{"off the 10x10 board", "grand", "", "Nk3", illegal, "k3 is not a square of the 10x10 board"},
		{"ambiguous knights", "chess", fenKnights, "Nd2", ambiguous, "it could be Nbd2 or Nfd2"},
		{"pawn must promote", "chess", fenPromotion, "b8", ambiguous, "the Pawn must promote: write b8=Q+, b8=R+, b8=B or b8=N"},
		{"grand pawn must promote", "grand", "9k/P9/10/10/10/10/10/10/10/K9 w - - 0 1", "a10", ambiguous, "a10=Q"},
		{"promotion the variant forbids", "grand", "9k/10/P9/10/10/10/10/10/10/KC8 w - - 0 1", "a9=C", illegal, "cannot become a Marshal here"},
		{"not a promotion", "chess", "", "e4=Q", illegal, "a Pawn moving to e4 does not promote"},
		{"lowercase b meant as a bishop", "chess", "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "bc4", illegal, "did you mean Bc4?"},
		{"king letter on a missing file", "chess", "4k3/7p/8/8/8/8/P7/4K3 w - - 0 1", "kd2", bad, "piece letters are uppercase: K, not k (did you mean Kd2?)"},
		{"nothing to capture", "chess", "", "Nxf3", illegal, "there is nothing to capture on f3 (did you mean Nf3?)"},
		{"pawn capture without its file", "chess", "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "d5", illegal, "a capture by a pawn names the pawn's file: write exd5"},
		{"piece cannot go there", "chess", "", "Ng1e4", illegal, "the Knight on g1 cannot move to e4"},
		{"no piece can go there", "chess", "", "Ne4", illegal, "no White Knight can move to e4"},
		{"no piece on the file", "chess", "", "Nce4", illegal, "White has no Knight on the c-file"},
		{"no piece of the type", "chess", "4k3/7p/8/8/8/8/P7/4K3 w - - 0 1", "Qd2", illegal, "White has no Queen on the board"},
		{"pinned piece", "chess", "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", "Nc3", illegal, "it would leave the king in check"},
		{"pinned among two", "chess", "4k3/4r3/8/8/8/8/4N3/1N2K3 w - - 0 1", "Ned4", illegal, "leave the king in check"},
		{"castling right lost", "chess", "r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", "O-O", illegal, "White may no longer castle O-O"},
		{"castling blocked", "chess", "", "O-O-O", illegal, "castling O-O-O needs b1 empty"},
		{"castling out of check", "chess", "r3k2r/8/8/8/8/8/4r3/R3K2R w KQkq - 0 1", "O-O", illegal, "the King is in check"},
		{"castling through an attack", "chess", "r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1", "O-O", illegal, "the King would cross or land on f1, which is attacked"},
		{"castling as a king move", "chess", fenCastling, "Kg1", illegal, "to castle, write O-O"},
		{"no castling in the variant", "grand", "", "O-O", illegal, "there is no castling in Grand Chess"},
		{"drop without drops", "chess", "", "N@e4", illegal, "this variant has no drops"},
		{"drop of a piece not in hand", "crazyhouse", fenHand, "Q@e4", illegal, "White has no Queen in hand"},
		{"drop on an occupied square", "crazyhouse", fenHand, "N@e2", illegal, "e2 is taken by a White Pawn: a piece is dropped only on an empty square"},
		{"pawn drop on the first rank", "crazyhouse", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBN1[P] w Qkq - 0 1", "P@h1", illegal, "a Pawn may not be dropped on rank 1"},
		{"pass not allowed", "chess", "", "pass", illegal, "passing is not allowed here"},
		{"continue mark not allowed", "chess", "", "Nf3>", illegal, "this move does not continue the turn: write Nf3"},
		{"game over", "chess", "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", "Kh8", illegal, "the game is over (checkmate)"},
		{"no such pawn", "grand", "k9/10/10/10/10/10/10/10/10/K8C w - - 0 1", "e4", illegal, "White has no Pawn on the board"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := position(t, r, c.key, c.fen)
			_, err := ParseSAN(&p, c.text)
			checkError(t, err, c)
		})
	}
}

// TestParseMove pins that ParseMove reads both forms and says clearly why
// text is neither or is not legal.
func TestParseMove(t *testing.T) {
	r := newRegistry(t)
	for _, c := range []struct {
		name, key, fen, text, want string
	}{
		{"coordinate", "chess", "", "g1f3", "g1f3"},
		{"coordinate with an uppercase promotion letter", "chess", fenPromotion, "b7a8N", "b7a8n"},
		{"SAN", "chess", "", "Nf3", "g1f3"},
		{"SAN with check mark", "chess", "4k3/8/8/8/8/8/4N3/4R1K1 w - - 0 1", "Nc3+", "e2c3"},
		{"coordinate castling", "chess", fenCastling, "e1g1", "e1g1"},
		{"SAN castling", "chess", fenCastling, "O-O", "e1g1"},
		{"coordinate promotion", "chess", fenPromotion, "b7a8n", "b7a8n"},
		{"SAN promotion", "chess", fenPromotion, "bxa8=N", "b7a8n"},
		{"coordinate drop", "crazyhouse", fenHand, "N@e4", "N@e4"},
		{"null move", "relay", "", "0000", "pass"},
		{"grand coordinate promotion", "grand", "9k/P9/10/10/10/10/10/10/10/K9 w - - 0 1", "a9a10c", "a9a10c"},
		{"grand SAN promotion", "grand", "9k/P9/10/10/10/10/10/10/10/K9 w - - 0 1", "a10=C", "a9a10c"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := position(t, r, c.key, c.fen)
			want := coordMove(t, &p, c.want)
			got, err := ParseMove(&p, c.text)
			if err != nil {
				t.Fatalf("ParseMove(%q): %v", c.text, err)
			}
			if got != want {
				t.Errorf("ParseMove(%q) = %s, want %s", c.text, rules.FormatMove(&p, got), c.want)
			}
		})
	}

	bad, illegal, ambiguous := rules.ErrBadMove, rules.ErrIllegalMove, ErrAmbiguousMove
	for _, c := range []errorCase{
		{"neither form", "chess", "", "hello", bad, `"hello": neither a coordinate move nor SAN: expected a move like Nc3 or a3 (in coordinates, Nc3 is b1c3)`},
		{"neither form, with a reason", "chess", "", "Ne99", bad, `"Ne99": neither a coordinate move nor SAN: e99 is not a square of the 8x8 board`},
		{"empty", "chess", "", "", bad, `"": no move given`},
		{"illegal coordinate move", "chess", "", "e2e5", illegal, "the Pawn on e2 cannot move to e5"},
		{"illegal coordinate move of a pinned piece", "chess", "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", "e2c3", illegal, "it would leave the king in check"},
		{"illegal SAN move", "chess", "", "Ne4", illegal, "no White Knight can move to e4"},
		{"ambiguous SAN move", "chess", fenKnights, "Nd2", ambiguous, "Nbd2 or Nfd2"},
		{"coordinate move after checkmate", "chess", "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", "g7g6", illegal, "illegal move: g7g6: the game is over (checkmate)"},
		{"coordinate move after stalemate", "chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "h8g8", illegal, "the game is over (stalemate)"},
		{"lowercase piece letter", "chess", "", "nf3", bad, `"nf3": neither a coordinate move nor SAN: piece letters are uppercase: N, not n (did you mean Nf3?)`},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := position(t, r, c.key, c.fen)
			_, err := ParseMove(&p, c.text)
			checkError(t, err, c)
		})
	}
}
