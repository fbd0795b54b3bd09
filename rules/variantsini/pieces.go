package variantsini

import "fmt"

// pieceKind is a piece type of the format: one of the predefined kinds,
// a custom piece (customPiece1..customPiece25) or the king. kinds are
// numbered in the format's type order, which is also the order of the
// variant's piece list (and so of pockets in FEN).
type pieceKind int

// predefined lists the format's predefined piece kinds in type order:
// the key that gives each its letter, its English name, how it moves in
// the format's Betza dialect, and the renderer's drawing of it.
var predefined = []struct {
	key, name, betza, art string
}{
	{"pawn", "Pawn", "", "pawn"}, // moves are the pawn rules' (double step, promotion), see compile
	{"knight", "Knight", "N", "knight"},
	{"bishop", "Bishop", "B", "bishop"},
	{"rook", "Rook", "R", "rook"},
	{"queen", "Queen", "Q", "queen"},
	{"fers", "Fers", "F", "ferz"},
	{"alfil", "Alfil", "A", "alfil"},
	{"fersAlfil", "Fers-Alfil", "FA", "custom"},
	{"silver", "Silver General", "FfW", "custom"},
	{"aiwok", "Aiwok", "RNF", "custom"},
	{"bers", "Bers", "RF", "custom"},
	{"archbishop", "Archbishop", "BN", "bishop+knight"},
	{"chancellor", "Chancellor", "RN", "rook+knight"},
	{"amazon", "Amazon", "QN", "queen+knight"},
	{"knibis", "Knibis", "mNcB", "custom"},
	{"biskni", "Biskni", "mBcN", "custom"},
	{"kniroo", "Kniroo", "mNcR", "custom"},
	{"rookni", "Rookni", "mRcN", "custom"},
	{"shogiPawn", "Shogi Pawn", "fW", "custom"},
	{"lance", "Lance", "fR", "custom"},
	{"shogiKnight", "Shogi Knight", "fN", "custom"},
	{"gold", "Gold General", "WfF", "custom"},
	{"dragonHorse", "Dragon Horse", "BW", "custom"},
	{"clobber", "Clobber", "cW", "custom"},
	{"breakthrough", "Breakthrough piece", "fmWfF", "custom"},
	{"immobile", "Immobile piece", "", "custom"},
	{"cannon", "Cannon", "mRcpR", "custom"},
	{"janggiCannon", "Janggi Cannon", "pR", "custom"},
	{"soldier", "Soldier", "fsW", "custom"},
	{"horse", "Horse", "nN", "custom"},
	{"elephant", "Elephant", "nA", "custom"},
	{"janggiElephant", "Janggi Elephant", "", "custom"},
	{"banner", "Banner", "RcpRnN", "custom"},
	{"wazir", "Wazir", "W", "wazir"},
	{"commoner", "Commoner", "K", "commoner"},
	{"centaur", "Centaur", "KN", "king+knight"},
}

// maxCustomPieces is the number of custom piece slots of the format.
const maxCustomPieces = 25

const (
	kindPawn   pieceKind = 0
	kindCustom pieceKind = 36                           // customPiece1: the first kind after the predefined ones
	kindKing             = kindCustom + maxCustomPieces // the king
	numKinds             = kindKing + 1
)

// unsupportedKinds are predefined kinds whose moves the format gives
// rules the engine does not have (palace lines, a cannon that may not
// jump a cannon, a piece with no moves at all).
var unsupportedKinds = map[pieceKind]string{
	kindOf("janggiCannon"):   "its ban on jumping over or capturing cannons is not supported",
	kindOf("janggiElephant"): "its two-step lame move is not supported",
	kindOf("immobile"):       "a piece without moves is not supported",
}

func kindOf(key string) pieceKind {
	for i, p := range predefined {
		if p.key == key {
			return pieceKind(i)
		}
	}
	panic("variantsini: unknown predefined piece " + key)
}

// key returns the key that gives the kind its letter.
func (k pieceKind) key() string {
	switch {
	case k < kindCustom:
		return predefined[k].key
	case k < kindKing:
		return fmt.Sprintf("customPiece%d", k-kindCustom+1)
	}
	return "king"
}

// kindByKey returns the kind whose letter key is key.
func kindByKey(key string) (pieceKind, bool) {
	for k := pieceKind(0); k < numKinds; k++ {
		if k.key() == key {
			return k, true
		}
	}
	return 0, false
}
