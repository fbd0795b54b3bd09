package notation

import (
	"testing"

	"github.com/fairypost/fairypost/rules"
)

// newWide is a test-only 12x12 variant for what the seed variants lack:
// files k and l and ranks 11 and 12, a second kind of pawn (the Berolina
// soldier, which moves diagonally and captures straight ahead, so that
// pawn moves without captures can be ambiguous), and two castling rules
// toward the same side for White (written in the coordinate form).
func newWide(map[string]string) (*rules.Variant, error) {
	return &rules.Variant{
		Key:   "wide",
		Name:  "Wide",
		Help:  rules.VariantHelp{Summary: "A test variant on a 12x12 board."},
		Files: 12,
		Ranks: 12,
		Pieces: []rules.PieceDef{
			{Letter: 'P', Name: "Pawn", Betza: "fmWfceFifmnD", Art: "pawn", Legend: "a test piece", Pawn: true, InitialRank: 2},
			{Letter: 'S', Name: "Soldier", Betza: "fmFfcW", Art: "soldier", Legend: "a test piece", Pawn: true},
			{Letter: 'N', Name: "Knight", Betza: "N", Art: "knight", Legend: "a test piece"},
			{Letter: 'B', Name: "Bishop", Betza: "B", Art: "bishop", Legend: "a test piece"},
			{Letter: 'R', Name: "Rook", Betza: "R", Art: "rook", Legend: "a test piece"},
			{Letter: 'Q', Name: "Queen", Betza: "Q", Art: "queen", Legend: "a test piece"},
			{Letter: 'K', Name: "King", Betza: "K", Art: "king", Legend: "a test piece", Royal: true},
		},
		StartFEN: "rnb2k3bnr/ppppppssssss/12/12/12/12/12/12/12/12/PPPPPPSSSSSS/RNB2K3BNR w KJQkq - 0 1",
		Castling: []rules.CastlingRule{
			{Color: rules.White, FENLetter: 'K', Piece: 'K', Rook: 'R', PieceFrom: "f1", PieceTo: "j1", RookFrom: "l1", RookTo: "i1"},
			{Color: rules.White, FENLetter: 'J', Piece: 'K', Rook: 'R', PieceFrom: "f1", PieceTo: "k1", RookFrom: "l1", RookTo: "j1"},
			{Color: rules.White, FENLetter: 'Q', Piece: 'K', Rook: 'R', PieceFrom: "f1", PieceTo: "c1", RookFrom: "a1", RookTo: "d1"},
			{Color: rules.Black, FENLetter: 'k', Piece: 'K', Rook: 'R', PieceFrom: "f12", PieceTo: "j12", RookFrom: "l12", RookTo: "i12"},
			{Color: rules.Black, FENLetter: 'q', Piece: 'K', Rook: 'R', PieceFrom: "f12", PieceTo: "c12", RookFrom: "a12", RookTo: "d12"},
		},
		Promotion: rules.Promotion{Zone: 1, Choices: "QRBN"},
		CheckRule: true,
	}, nil
}

// newRelay is a test-only chess variant with moves the seed variants lack:
// a knight may move and keep the turn (FlagContinue, written with '>'),
// the king may "stand" (a KindSpecial move that changes nothing) and a
// player may pass.
func newRelay(map[string]string) (*rules.Variant, error) {
	return &rules.Variant{
		Key:   "relay",
		Name:  "Relay",
		Help:  rules.VariantHelp{Summary: "A test variant where a Knight may move and keep the turn."},
		Files: 8,
		Ranks: 8,
		Pieces: []rules.PieceDef{
			{Letter: 'P', Name: "Pawn", Betza: "fmWfceFifmnD", Art: "pawn", Legend: "a test piece", Pawn: true, InitialRank: 2},
			{Letter: 'N', Name: "Knight", Betza: "N", Art: "knight", Legend: "a test piece"},
			{Letter: 'B', Name: "Bishop", Betza: "B", Art: "bishop", Legend: "a test piece"},
			{Letter: 'R', Name: "Rook", Betza: "R", Art: "rook", Legend: "a test piece"},
			{Letter: 'Q', Name: "Queen", Betza: "Q", Art: "queen", Legend: "a test piece"},
			{Letter: 'K', Name: "King", Betza: "K", Art: "king", Legend: "a test piece", Royal: true},
		},
		StartFEN: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		Castling: []rules.CastlingRule{
			{Color: rules.White, FENLetter: 'K', Piece: 'K', Rook: 'R', PieceFrom: "e1", PieceTo: "g1", RookFrom: "h1", RookTo: "f1"},
			{Color: rules.White, FENLetter: 'Q', Piece: 'K', Rook: 'R', PieceFrom: "e1", PieceTo: "c1", RookFrom: "a1", RookTo: "d1"},
			{Color: rules.Black, FENLetter: 'k', Piece: 'K', Rook: 'R', PieceFrom: "e8", PieceTo: "g8", RookFrom: "h8", RookTo: "f8"},
			{Color: rules.Black, FENLetter: 'q', Piece: 'K', Rook: 'R', PieceFrom: "e8", PieceTo: "c8", RookFrom: "a8", RookTo: "d8"},
		},
		Promotion: rules.Promotion{Zone: 1, Choices: "QRBN"},
		CheckRule: true,
		Hooks: rules.Hooks{
			ExtraMoves: relayMoves,
			NextTurn: func(before *rules.Position, m rules.Move) rules.Turn {
				if m.Flags&rules.FlagContinue != 0 {
					return rules.Turn{ToAct: before.ToAct(), Mover: before.Mover()}
				}
				next := before.ToAct().Other()
				return rules.Turn{ToAct: next, Mover: next}
			},
		},
	}, nil
}

// relayMoves adds Relay's knight moves that keep the turn, the king's
// "stand" and the pass.
func relayMoves(p *rules.Position, out []rules.Move) []rules.Move {
	v := p.Variant()
	knight, king := v.Type('N'), v.Type('K')
	us := p.Mover()
	for _, s := range v.Squares() {
		pc := p.At(s)
		if pc.Color() != us {
			continue
		}
		switch pc.Type() {
		case knight:
			for _, d := range [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
				to := rules.NewSquare(s.File()+d[0], s.Rank()+d[1])
				if v.OnBoard(to) && p.At(to).Color() != us {
					out = append(out, rules.Move{From: s, To: to, Flags: rules.FlagContinue})
				}
			}
		case king:
			out = append(out, rules.Move{From: s, To: s, Kind: rules.KindSpecial, Extra: 1})
		}
	}
	return append(out, rules.Pass())
}

// newRegistry returns the registry of fairypost's variants with the test
// variants above added.
func newRegistry(tb testing.TB) *rules.Registry {
	tb.Helper()
	r, err := rules.NewRegistry()
	if err != nil {
		tb.Fatal(err)
	}
	if err := r.Register("wide", newWide); err != nil {
		tb.Fatal(err)
	}
	if err := r.Register("relay", newRelay); err != nil {
		tb.Fatal(err)
	}
	return r
}

// position returns the position fen of variant key (its start when fen is "").
func position(tb testing.TB, r *rules.Registry, key, fen string) rules.Position {
	tb.Helper()
	v := r.Default(key)
	if v == nil {
		tb.Fatalf("unknown variant %q", key)
	}
	if fen == "" {
		return v.Start()
	}
	p, err := rules.ParseFEN(v, fen)
	if err != nil {
		tb.Fatalf("%s: %v", key, err)
	}
	return p
}

// coordMove returns the legal move of p with the coordinate form s.
func coordMove(tb testing.TB, p *rules.Position, s string) rules.Move {
	tb.Helper()
	m, err := rules.ParseMove(p, s)
	if err != nil {
		tb.Fatalf("%s: %v", p.FEN(), err)
	}
	return m
}
