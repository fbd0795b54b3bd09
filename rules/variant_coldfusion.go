package rules

import (
	"fmt"
	"math/bits"
	"strings"
)

// Cold Fusion piece types, in the order of the variant's Pieces.
const (
	cfPawn PieceType = iota + 1
	cfBerolina
	cfSergeant
	cfKnight
	cfBishop
	cfRook
	cfQueen
	cfCardinal
	cfMarshal
	cfKing
	cfDragonKing
	cfPope
	cfEquesRex
	cfChariot
	cfArchbishop
	cfKnightrider
	cfGuard
	cfBerolinaGuard
	cfGuardSergeant
	cfTemplar
	cfBerolinaTemplar
	cfTemplarSergeant
	cfCavalry
	cfBerolinaCavalry
	cfCavalrySergeant
	cfTypes = int(cfCavalrySergeant)
)

// Kinds of Cold Fusion pocket entries: the Safe pocket (captures by a
// pawn part or a royal piece, dropped unchanged) and the Demotion pocket,
// whose entries are either captured from the opponent or the holder's own
// pocketed men (both dropped demoted one step).
const (
	cfSafe     uint8 = 0
	cfDemoted  uint8 = 1 // captured from the opponent, in the Demotion pocket
	cfOwn      uint8 = 2 // the holder's own man, pocketed, in the Demotion pocket
	cfKindBits       = 3 // Move.Extra >> cfKindBits is the entry kind
)

// Cold Fusion special moves (Move.Extra & 7; the entry kind of a drop or
// a promotion is Move.Extra >> cfKindBits).
const (
	cfFuse    uint8 = 1 // From moves onto the friendly man on To and they merge
	cfSplit   uint8 = 2 // the component Move.Drop of the man on From moves to To
	cfPocket  uint8 = 3 // the man on From = To goes to its owner's Demotion pocket
	cfDrop    uint8 = 4 // an entry of type Move.Drop is dropped on To
	cfPromote uint8 = 5 // a pawn moves From-To and becomes Move.Promotion
	cfStep    uint8 = 6 // the man on From steps onto the empty en-passant square To without capturing (C19b)
)

// cfComp is what a Cold Fusion piece is made of: its non-pawn atoms
// (King, Rook, Bishop, Knight) and the pawns of its pawn part (a Berolina
// pawn is two, a Sergeant three).
type cfComp struct{ k, r, b, n, p uint8 }

// add returns the components of a and b together.
func (a cfComp) add(b cfComp) cfComp {
	return cfComp{a.k + b.k, a.r + b.r, a.b + b.b, a.n + b.n, a.p + b.p}
}

// minus returns a without b; ok is false when b is not part of a.
func (a cfComp) minus(b cfComp) (cfComp, bool) {
	if b.k > a.k || b.r > a.r || b.b > a.b || b.n > a.n || b.p > a.p {
		return cfComp{}, false
	}
	return cfComp{a.k - b.k, a.r - b.r, a.b - b.b, a.n - b.n, a.p - b.p}, true
}

// atoms returns the number of non-pawn atoms.
func (a cfComp) atoms() int { return int(a.k + a.r + a.b + a.n) }

// weight returns the weight in thirds: 3 per non-pawn atom, 1 per pawn.
func (a cfComp) weight() int { return 3*a.atoms() + int(a.p) }

// cfPiece is one Cold Fusion piece: its definition and its components.
type cfPiece struct {
	def  PieceDef
	comp string // atoms K, R, B, N and one P per pawn
}

// coldFusionPieces returns the Cold Fusion pieces in type order. The
// Betza strings are the union of the components' moves, written so that
// no move is listed twice; the Chariot's turn and the Archbishop's
// reflection are added by the variant's hooks. Each piece's drawing
// (PieceDef.Art) is named after its components (cfArt); its legend, when
// the table gives none, says what it is fused from (cfLegend).
func coldFusionPieces() []cfPiece {
	pieces := []cfPiece{
		{PieceDef{Letter: 'P', Name: "Pawn", Betza: "fmWfceFifmnD", Pawn: true, InitialRank: 3}, "P"},
		{PieceDef{Letter: 'L', Name: "Berolina pawn", Betza: "mfFcfW", Pawn: true, LetterInSAN: true}, "PP"},
		{PieceDef{Letter: 'S', Name: "Sergeant", Betza: "fWfmFfceF", Pawn: true, LetterInSAN: true}, "PPP"},
		{PieceDef{Letter: 'N', Name: "Knight", Betza: "N"}, "N"},
		{PieceDef{Letter: 'B', Name: "Bishop", Betza: "B"}, "B"},
		{PieceDef{Letter: 'R', Name: "Rook", Betza: "R"}, "R"},
		{PieceDef{Letter: 'Q', Name: "Queen", Betza: "Q"}, "RB"},
		{PieceDef{Letter: 'A', Name: "Cardinal", Betza: "BN"}, "BN"},
		{PieceDef{Letter: 'C', Name: "Marshal", Betza: "RN"}, "RN"},
		{PieceDef{Letter: 'K', Name: "King", Betza: "K", Royal: true}, "K"},
		{PieceDef{Letter: 'D', Name: "Dragon King", Betza: "RF", Royal: true}, "KR"},
		{PieceDef{Letter: 'O', Name: "Pope", Betza: "BW", Royal: true}, "KB"},
		{PieceDef{Letter: 'E', Name: "Eques Rex", Betza: "KN", Royal: true}, "KN"},
		{PieceDef{Letter: 'W', Name: "Chariot", Betza: "R", Legend: "two Rooks fused; may also turn 90° once, at the last empty square before the edge or an own piece, and go on as a Rook"}, "RR"},
		{PieceDef{Letter: 'F', Name: "Archbishop", Betza: "B", Legend: "two Bishops fused; may also bounce 90° once off the board's edge (on an empty edge square) and go on diagonally"}, "BB"},
		{PieceDef{Letter: 'J', Name: "Knightrider", Betza: "NN", Legend: "two Knights fused"}, "NN"},
		{PieceDef{Letter: 'G', Name: "Guard", Betza: "RfceFifmnD", InitialRank: 3}, "RP"},
		{PieceDef{Letter: 'H', Name: "Berolina Guard", Betza: "RmfF"}, "RPP"},
		{PieceDef{Letter: 'I', Name: "Guard Sergeant", Betza: "RfmFfceF"}, "RPPP"},
		{PieceDef{Letter: 'T', Name: "Templar", Betza: "BfmWifmnDfceF", InitialRank: 3}, "BP"},
		{PieceDef{Letter: 'U', Name: "Berolina Templar", Betza: "BcfW"}, "BPP"},
		{PieceDef{Letter: 'V', Name: "Templar Sergeant", Betza: "BfWfceF"}, "BPPP"},
		{PieceDef{Letter: 'X', Name: "Cavalry", Betza: "NfmWfceFifmnD", InitialRank: 3}, "NP"},
		{PieceDef{Letter: 'Y', Name: "Berolina Cavalry", Betza: "NmfFcfW"}, "NPP"},
		{PieceDef{Letter: 'Z', Name: "Cavalry Sergeant", Betza: "NfWfmFfceF"}, "NPPP"},
	}
	for i := range pieces {
		d := &pieces[i].def
		d.Art = cfArt(pieces[i].comp)
		if d.Legend == "" {
			d.Legend = cfLegend(pieces[i].comp, d.Royal)
		}
	}
	return pieces
}

// cfAtomName returns the drawing name and the English name of a
// non-pawn atom of a Cold Fusion piece (K, R, B, N); ok is false for a
// pawn.
func cfAtomName(atom byte) (art, words string, ok bool) {
	switch atom {
	case 'K':
		return "king", "King", true
	case 'R':
		return "rook", "Rook", true
	case 'B':
		return "bishop", "Bishop", true
	case 'N':
		return "knight", "Knight", true
	}
	return "", "", false
}

// cfArt names the drawing of the piece made of comp (atoms K, R, B, N and
// one P per pawn): its parts joined by '+', a pawn part as one "pawn" per
// pawn ("rook+pawn+pawn" is the Berolina Guard). The Queen (Rook + Bishop)
// is drawn as a Queen.
func cfArt(comp string) string {
	if comp == "RB" {
		return "queen"
	}
	var parts []string
	for i := 0; i < len(comp); i++ {
		name, _, ok := cfAtomName(comp[i])
		if !ok {
			name = "pawn"
		}
		parts = append(parts, name)
	}
	return strings.Join(parts, "+")
}

// cfLegend is the Legend of the Cold Fusion piece made of comp (atoms K,
// R, B, N and one P per pawn) when the table gives none: what it is fused
// from ("a Rook and a Berolina pawn fused"; "two Pawns fused"), all of
// whose moves it has, which is the variant's fusion rule; "" for a piece
// of one part. royal says first that it is the King.
func cfLegend(comp string, royal bool) string {
	var parts []string
	for i := 0; i < len(comp); i++ {
		if _, words, ok := cfAtomName(comp[i]); ok {
			parts = append(parts, "a "+words)
		}
	}
	pawns := strings.Count(comp, "P")
	switch {
	case pawns == 1:
		parts = append(parts, "a Pawn")
	case pawns == 2 && len(parts) > 0:
		parts = append(parts, "a Berolina pawn")
	case pawns == 3 && len(parts) > 0:
		parts = append(parts, "a Sergeant")
	case pawns == 2:
		parts = append(parts, "two Pawns")
	case pawns == 3:
		parts = append(parts, "three Pawns")
	}
	s := ""
	if len(parts) > 1 || pawns > 1 {
		s = strings.Join(parts, " and ") + " fused"
	}
	if royal {
		s = strings.TrimSuffix("your King; "+s, "; ")
	}
	return s
}

// cfPocketOrder is the order of the piece letters in the pockets (FEN and
// drops): the demotion chain from the Queen down, then the hybrids, then
// the pawns.
const cfPocketOrder = "QCAWFJRBNGHITUVXYZSLP"

// cfDemotionChain is the demotion of every piece without a pawn part
// (docs/variants/coldfusion.md): each letter demotes to the next; a Pawn stays a Pawn.
const cfDemotionChain = "QCAWFJRBNSLP"

// coldFusion holds the rules of one option combination of Cold Fusion
// Chess; its methods are the variant's hooks.
type coldFusion struct {
	zone     int // ranks of the promotion zone: 2 (9th and 10th) or 3 (also the 8th)
	comp     [maxPieceTypes + 1]cfComp
	byComp   map[cfComp]PieceType // the piece made of these components
	demote   [maxPieceTypes + 1]PieceType
	pawnPart [maxPieceTypes + 1]PieceType // a hybrid's pawn part as a piece (P, L, S)
	splits   [maxPieceTypes + 1][]cfSplitRule
	fuser    [maxPieceTypes + 1]bool // the type may move onto a friendly man and fuse
	pawn     [maxPieceTypes + 1]bool // P, L and S: the pieces that count as pawns
	// slot[kind][t] is the pocket slot (Drops.Slots index + 1) of entries
	// of type t and kind; 0 = no such slot. slotKind and slotPiece map back.
	slot      [3][maxPieceTypes + 1]uint8
	slotKind  [maxPocketSlots + 1]uint8
	slotPiece [maxPocketSlots + 1]PieceType
}

// cfSplitRule is one way a compound splits: part moves away, rest stays.
type cfSplitRule struct{ part, rest PieceType }

// newColdFusion returns Cold Fusion Chess (gwalla) as docs/variants/coldfusion.md
// specifies it, with the decisions C1-C22: Grand Chess (10x10, the
// Grand array, no castling) in which every man is a set of components.
//
// # Pieces and letters
//
// A man is made of non-pawn atoms (King, Rook, Bishop, Knight; weight 1
// each) and pawns (weight 1/3 each), at most weight 2, and moves (and
// captures) as any one of its components. There are 25 kinds, one per
// entry of the fusion table; FEN letters (uppercase White, lowercase
// Black):
//
//	P Pawn           L Berolina pawn (P+P)    S Sergeant (P+P+P)
//	N Knight         B Bishop                 R Rook             K King
//	Q Queen (R+B)    C Marshal (R+N)          A Cardinal (B+N)
//	D Dragon King (K+R)   O Pope (K+B)        E Eques Rex (K+N)
//	W Chariot (R+R)  F Archbishop (B+B)       J Knightrider (N+N)
//	G Guard (R+P)    H Berolina Guard (R+L)   I Guard Sergeant (R+S)
//	T Templar (B+P)  U Berolina Templar (B+L) V Templar Sergeant (B+S)
//	X Cavalry (N+P)  Y Berolina Cavalry (N+L) Z Cavalry Sergeant (N+S)
//
// Q, C, A, N, B, R, K and P are Grand Chess's letters (as in
// Fairy-Stockfish), so a Grand Chess FEN reads as the same position. The
// Pawn moves as in Grand Chess (double step from its 3rd rank, en
// passant); the Berolina pawn steps one square diagonally forward and
// captures one square straight forward; the Sergeant moves and captures
// one square in the three forward directions and may capture en passant
// with its diagonal steps. Only plain pawns double-step (C13). D, O and E
// are royal: the King of their side for check and checkmate. The Chariot
// may, once per move, turn 90 degrees at the last empty square before the
// board's edge or one of its own pieces (never before an enemy piece) and
// go on as a rook; the Archbishop may reflect once off the board's edge
// (not in a corner; the edge square it passes is empty) and go on as a
// bishop (C14). Hybrids move as their non-pawn part or as their pawn part,
// including a Pawn part's double step from the 3rd rank, and capture en
// passant with a Pawn or Sergeant part; the whole piece is taken en
// passant (C19). A move the pawn part could make counts as a pawn move
// whatever else the piece could do (C19a): a hybrid's two-square straight
// advance from its 3rd rank leaves an en-passant target (a Guard's too,
// although it is also a rook move; a rook capture over the same squares
// does not), and every pawn-part move resets the move-count clock. A Pawn
// split off on its 3rd rank may double-step and leaves an en-passant
// target like any Pawn (C19). A piece that may capture en passant on the
// en-passant square and may also move there without capturing (a
// Sergeant's diagonal step, a Templar's bishop step) has both moves
// (C19b); the quiet one is a special move with its own form (see Move
// texts). A destination that a Chariot or an Archbishop reaches by two
// paths is one move. Hybrids never promote (C11).
//
// # A turn
//
// A player makes exactly one of: an ordinary move or capture; a fusion,
// moving a man onto a friendly man (the result per the fusion table of
// §3.4, weight at most 2, the King never with pawns, no pawn added to a
// three-pawn piece, Berolina+Berolina illegal: C7); when a pawn-kind piece
// (P, L, S) takes part it is the mover and uses its capturing step (C6;
// so a hybrid never fuses as the mover); the King may fuse (C3); a split,
// moving one component (a single non-pawn atom, the whole pawn part, one
// pawn, or a Berolina pawn out of a Sergeant part, whenever what stays is
// a piece too: C5, C18) to an empty square by its own non-capturing
// movement, the rest staying; a pocketing, putting one of one's own
// non-royal men into one's Demotion pocket, allowed only when a regular
// move (not a drop) exists (C16, C22); or a drop of a pocket entry onto an
// empty square, never while in check: from the Safe pocket unchanged, from
// the Demotion pocket demoted one step (a hybrid loses one pawn, anything
// else goes down Queen, Marshal, Cardinal, Chariot, Archbishop,
// Knightrider, Rook, Bishop, Knight, Sergeant, Berolina pawn, Pawn; a Pawn
// stays a Pawn: C15); a piece that is a pawn after demotion may not be
// dropped on the dropper's 9th or 10th rank, but may be on the 1st and 2nd
// (C12).
//
// Captures by a pawn-kind piece, by a hybrid's pawn part (any capture its
// pawn part could make, en passant included) or by a royal piece go to the
// captor's Safe pocket (C8); captures by other men go to the captor's
// Demotion pocket, except that pawn-kind pieces (P, L, S; not hybrids)
// captured that way leave the game (C9).
//
// A pawn-kind piece landing on its 9th rank (by a move, a capture, a
// fusion of pawns or a split; with the option zone=8 also its 8th) may,
// and on its 10th must, promote to a non-pawn man of its own side that the
// opponent holds in either pocket as a capture (not one the opponent
// pocketed himself: C10); it takes that entry out of the opponent's pocket
// undemoted and the pawn leaves the game. With no such entry it may not
// go to the 10th rank (but still gives check from the 9th). A man whose
// pawn part is left behind on the 9th rank by a split does not promote,
// and no split may leave a pawn part on the 10th (§3.6). A fusion whose
// result is a hybrid never promotes (C20).
//
// Checkmate wins; stalemate draws (C16); threefold repetition and the
// 50-move rule may be claimed, fivefold repetition and the 75-move rule
// draw, as in standard chess; two bare Kings with empty pockets are a
// draw. The 50-move clock is reset by a capture, a move of a pawn-kind
// piece (a fusion or promotion it makes, or a pawn part splitting off), a
// move of a hybrid that its pawn part could make (C19a), a pawn-kind
// piece dropped, and a pocketing (the seed calls it capturing one's own
// man).
//
// # FEN
//
// Grand Chess's FEN with the letters above, and the four pockets in
// brackets after the board, one section per non-empty pocket: "S:" the
// Safe pockets, "D:" the Demotion pockets, uppercase letters White's
// entries and lowercase Black's (the side that holds and may drop them),
// an entry the holder pocketed himself marked '*' (only in D); all other
// entries were captured from the opponent, which is what promotion needs.
// Within a section White's entries come first, each side's in the order
// Q C A W F J R B N G H I T U V X Y Z S L P, captured before own. For
// example "[S:Qp,D:NR*b]": White's Safe pocket holds a captured (black)
// Queen, Black's a captured (white) Pawn; White's Demotion pocket a
// captured Knight and White's own pocketed Rook, Black's a captured
// Bishop. Empty pockets are "[]". The start position:
//
//	r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R[] w - - 0 1
//
// # Move texts
//
// Ordinary moves, captures and en passant are written as in Grand Chess
// ("e3e5", "d2d7", "e5d6"; also the Chariot's turns and the Archbishop's
// reflections). The other moves, each a canonical coordinate form (a '#'
// tag after the squares):
//
//	a1j1       fusion: the man on a1 moves onto the friendly man on j1
//	d2d1#r     split: the Rook component of the man on d2 goes to d1
//	e4e4#d     pocketing: the man on e4 goes to the Demotion pocket
//	Q@e4#s     drop of a Queen from the Safe pocket
//	Q@e4#d     drop of a captured Queen from the Demotion pocket (a Marshal lands)
//	Q@e4#d*    drop of one's own pocketed Queen (a Marshal lands)
//	e9e10q#s   promotion to the Queen the opponent holds in his Safe pocket
//	d9e10q#d   the same with a capture, taking the Queen from his Demotion pocket
//	d8e9q#s    a fusion of pawns (onto the friendly pawn on e9) that promotes
//	e8e9q#p#d  a Pawn splitting off and promoting
//	h6g7#m     a quiet step onto the en-passant square g7 by a man that
//	           could also capture en passant there ("h6g7", C19b)
//
// The pocket is always named (C21), since a drop from either pocket, or
// of an own or a captured entry, or a promotion from either of the
// opponent's pockets, leaves a different position.
//
// In the friendly form (package rules/notation) the same moves are
// written with piece letters (uppercase for either side); a promotion
// ends with '=', the new piece's letter and its pocket, "(S)" Safe or
// "(D)" Demotion:
//
//	R&j1=W       fusion: a Rook moves onto the friendly Rook on j1, a Chariot results
//	Ra&j1=C      a Rook on the a-file onto the Knight on j1, when another Rook could
//	P&e9=Q(S)    a fusion of pawns that promotes
//	Qd2/Bf4      split: the Queen on d2 sends its Bishop to f4
//	Se8/Pe9=Q(D) a Pawn splitting off and promoting
//	^Ne4         pocketing: the Knight on e4 goes to the Demotion pocket
//	Q@e4         drop of a Queen from the Safe pocket
//	Q=C@e4       drop of a captured Queen from the Demotion pocket, a Marshal lands
//	Q*=C@e4      drop of one's own pocketed Queen, a Marshal lands
//	e10=Q(S)     promotion (pawn moves are written as in SAN: dxe10=Q(D))
//	Sg7          the quiet step of C19b (the en-passant capture is Sxg7)
//
// The fusion's origin is written as SAN disambiguates (file, else rank,
// else both) when another man of the same kind could fuse onto the same
// square by its capturing moves, the quiet step's origin when another man
// of the same kind could move there without capturing; the split's origin
// is always written;
// a promoting pawn's file is written, as in SAN, when it moves to another
// file or captures.
//
// The option zone (C1) sets where promotion starts: "9" (the default:
// optional on the 9th rank, compulsory on the 10th) or "8" (also optional
// on the 8th, as in Grand Chess).
func newColdFusion(opts map[string]string) (*Variant, error) {
	return coldFusionOptionSet().build("coldfusion", opts, coldFusionVariant)
}

// coldFusionOptions are Cold Fusion's options, as its constructor
// receives them.
type coldFusionOptions struct {
	// zone is the number of ranks of the promotion zone: 2 (from the 9th
	// rank) or 3 (from the 8th).
	zone int
}

// coldFusionOptionSet declares Cold Fusion's options.
func coldFusionOptionSet() optionSet[coldFusionOptions] {
	return optionSet[coldFusionOptions]{
		choice("zone", "first rank of the promotion zone: 9 (optional on the 9th, compulsory on the 10th) or 8 (as in Grand Chess)",
			func(o *coldFusionOptions) *int { return &o.zone }, []optionValue[int]{{"9", 2}, {"8", 3}}),
	}
}

// coldFusionVariant builds Cold Fusion Chess with options o.
func coldFusionVariant(o coldFusionOptions) *Variant {
	cf := &coldFusion{zone: o.zone, byComp: map[cfComp]PieceType{}}
	pieces := coldFusionPieces()
	defs := make([]PieceDef, len(pieces))
	letterType := map[byte]PieceType{}
	for i, pc := range pieces {
		t := PieceType(i + 1)
		defs[i] = pc.def
		letterType[pc.def.Letter] = t
		var c cfComp
		for j := 0; j < len(pc.comp); j++ {
			switch pc.comp[j] {
			case 'K':
				c.k++
			case 'R':
				c.r++
			case 'B':
				c.b++
			case 'N':
				c.n++
			case 'P':
				c.p++
			}
		}
		cf.comp[t] = c
		cf.byComp[c] = t
		cf.pawn[t] = pc.def.Pawn
	}
	for t := PieceType(1); int(t) <= cfTypes; t++ {
		c := cf.comp[t]
		if c.p > 0 && c.atoms() > 0 {
			cf.pawnPart[t] = cf.byComp[cfComp{p: c.p}]
			cf.demote[t] = cf.byComp[cfComp{k: c.k, r: c.r, b: c.b, n: c.n, p: c.p - 1}]
		}
		cf.splits[t] = cf.splitRules(c)
	}
	for i := 0; i < len(cfDemotionChain); i++ {
		next := cfDemotionChain[min(i+1, len(cfDemotionChain)-1)]
		cf.demote[letterType[cfDemotionChain[i]]] = letterType[next]
	}
	for m := PieceType(1); int(m) <= cfTypes; m++ {
		for t := PieceType(1); int(t) <= cfTypes; t++ {
			cf.fuser[m] = cf.fuser[m] || cf.fuse(m, t) != NoPieceType
		}
	}
	var slots []PocketSlot
	addSlot := func(pocket, letter, mark byte, kind uint8) {
		slots = append(slots, PocketSlot{Pocket: pocket, Letter: letter, Mark: mark})
		t := letterType[letter]
		cf.slot[kind][t] = uint8(len(slots))
		cf.slotKind[len(slots)] = kind
		cf.slotPiece[len(slots)] = t
	}
	for i := 0; i < len(cfPocketOrder); i++ {
		addSlot('S', cfPocketOrder[i], 0, cfSafe)
	}
	for i := 0; i < len(cfPocketOrder); i++ {
		l := cfPocketOrder[i]
		if !defs[letterType[l]-1].Pawn {
			addSlot('D', l, 0, cfDemoted)
		}
		addSlot('D', l, '*', cfOwn)
	}
	v := &Variant{
		Key:                  "coldfusion",
		Name:                 "Cold Fusion Chess",
		Files:                10,
		Ranks:                10,
		Pieces:               defs,
		StartFEN:             "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R[] w - - 0 1",
		Drops:                Drops{Slots: slots},
		CheckRule:            true,
		DrawClaimPlies:       100,
		DrawAutoPlies:        150,
		RepetitionClaim:      3,
		RepetitionAuto:       5,
		InsufficientMaterial: cfBareKings,
		Hooks: Hooks{
			ExtraMoves:      cf.extraMoves,
			Apply:           cf.apply,
			AfterMove:       cf.afterMove,
			Legal:           cf.legal,
			Check:           cf.inCheck,
			FormatSpecial:   cf.formatSpecial,
			FriendlySpecial: cf.friendlySpecial,
			ExplainText:     cf.explainText,
			SpecialKind:     cf.specialKind,
			Effect:          cf.effect,
		},
		Help: coldFusionHelp(),
	}
	return v
}

// coldFusionHelp returns the help of Cold Fusion Chess: the rules in
// short (docs/variants/coldfusion.md with C1-C22) and how fusions, splits,
// pocketing, drops and promotions are written.
func coldFusionHelp() VariantHelp {
	const pockets = "10/k3P5/10/10/10/10/10/10/10/4K5[S:Nq,D:R*B] w - - 0 1"
	return VariantHelp{
		Summary: "Grand Chess (10x10, Marshal C, Cardinal A, no castling) with merging pieces " +
			"and pockets. Instead of a plain move you may: fuse, moving onto your own piece to " +
			"merge (Rook+Bishop: Queen, Knight+pawn: Cavalry...; a piece weighs 1, a pawn 1/3, at " +
			"most 2 in all); split a merged piece, one part moving off; pocket one of your pieces " +
			"but the King; or drop from a pocket onto an empty square, not while in check. Captures by a pawn or the " +
			"King go to the Safe pocket, others to the Demotion pocket (a pawn taken so is lost). A pawn may promote " +
			"on the 9th rank and must on the 10th, only into a piece of its side that the opponent holds. Checkmate wins, " +
			"stalemate draws.",
		Notation: []NotationHelp{
			{Kind: "Fusion", How: "mover, &, the square joined, = the result.",
				Example: "R&j1=W"},
			{Kind: "Split", How: "piece and square, /, the part leaving and where to.",
				Example: "Cf2/Ne4"},
			{Kind: "Pocketing", How: "^, the piece and its square.",
				Example: "^Nb2"},
			{Kind: "Safe drop", How: "letter, @, square.",
				Example: "N@e4", FEN: pockets},
			{Kind: "Demotion drop", How: "letter, = what lands, @, square.",
				Example: "B=N@e4", FEN: pockets},
			{Kind: "Own pocketed piece", How: "the same with * after the letter.",
				Example: "R*=B@e4", FEN: pockets},
			{Kind: "Promotion", How: "= the piece taken back and its pocket, (S) or (D).",
				Example: "e10=Q(S)", FEN: pockets},
		},
		Marks: []MarkHelp{
			{Mark: "S:", Meaning: "Safe pocket: its pieces drop as they are."},
			{Mark: "D:", Meaning: "Demotion pocket: its pieces drop one step weaker (a Queen as a Marshal, a Rook as a Bishop, a Guard as a Rook)."},
			{Mark: "*", Meaning: "a piece you pocketed yourself."},
		},
	}
}

// specialKind is the SpecialKind hook: fusions, splits, pocketings and
// the drops of each pocket; promotions stay with their pawn.
func (cf *coldFusion) specialKind(_ *Position, m Move) string {
	switch m.Extra & 7 {
	case cfFuse:
		return "Fusions — a man moves onto a friendly man"
	case cfSplit:
		return "Splits — one part moves away"
	case cfPocket:
		return "Pocketings — a man goes into your Demotion pocket"
	case cfDrop:
		switch m.Extra >> cfKindBits {
		case cfDemoted:
			return "Drops from the Demotion pocket — captured men, dropped demoted"
		case cfOwn:
			return "Drops of your own pocketed men — dropped demoted"
		}
		return "Drops from the Safe pocket"
	}
	return ""
}

// effect is the Effect hook. A fusion moves the man on From onto the
// friendly man on To, where they become one; a split moves the part
// Move.Drop from From to To, the rest staying on From; a pocketing sends
// the man on From to its owner's hand; a drop puts a man on To; a
// promotion and the quiet step move the man from From to To (a promotion
// may capture there). A move that changed none of this has no effect of
// its own.
func (cf *coldFusion) effect(before, after *Position, m Move) MoveEffect {
	v := before.v
	if !v.OnBoard(m.To) {
		return MoveEffect{}
	}
	if m.Extra&7 == cfDrop {
		if after.board[m.To] == NoPiece {
			return MoveEffect{}
		}
		return MoveEffect{Kind: EffectDrop, Placed: []Square{m.To}}
	}
	if !v.OnBoard(m.From) {
		return MoveEffect{}
	}
	us := before.mover
	mover := before.board[m.From]
	moved := Motion{From: m.From, To: m.To, Piece: mover, Main: true}
	switch m.Extra & 7 {
	case cfFuse:
		if after.board[m.From] != NoPiece || after.board[m.To] == before.board[m.To] {
			return MoveEffect{}
		}
		return MoveEffect{Kind: EffectFusion, Motions: []Motion{moved}}
	case cfSplit:
		if after.board[m.To] == NoPiece || before.board[m.To] != NoPiece {
			return MoveEffect{}
		}
		moved.Piece = NewPiece(us, m.Drop)
		return MoveEffect{Kind: EffectSplit, Motions: []Motion{moved}}
	case cfPocket:
		if mover == NoPiece || after.board[m.From] != NoPiece {
			return MoveEffect{}
		}
		return MoveEffect{Kind: EffectPocket, Removed: []Removal{{Square: m.From, Piece: mover, Hand: us}}}
	case cfPromote, cfStep:
		if after.board[m.From] != NoPiece || after.board[m.To] == NoPiece {
			return MoveEffect{}
		}
		e := MoveEffect{Kind: EffectMove, Motions: []Motion{moved}}
		if victim := before.board[m.To]; victim != NoPiece {
			e.Removed = []Removal{{Square: m.To, Piece: victim}}
		}
		return e
	}
	return MoveEffect{}
}

// explainText is the ExplainText hook for drops, in the friendly forms
// explainText is the ExplainText hook. For fusions ("R&j1=C"), splits
// ("Qd2/Bf4") and pocketings ("^Nb2") it names the right result, the
// missing square or letter, and the legal moves of that shape (see
// explainFusion, explainSplit, explainPocket). For drops, in the friendly forms
// "Q@e4" (Safe pocket), "Q=C@e4" (a captured entry of the Demotion
// pocket), "Q*=C@e4" (one's own pocketed man) and the canonical forms
// "Q@e4#s", "Q@e4#d", "Q@e4#d*": it names the pocket that lacks the
// piece, a wrong landing piece, a drop while in check, a taken square or
// a pawn dropped on the 9th or 10th rank. Other text gives "".
func (cf *coldFusion) explainText(p *Position, text string) string {
	s := strings.TrimRight(text, "+#!?")
	switch {
	case strings.HasPrefix(s, "^"):
		return cf.explainPocket(p, s[1:])
	case strings.Contains(s, "&"):
		return cf.explainFusion(p, s)
	case strings.Contains(s, "/") && !strings.Contains(s, "@"):
		return cf.explainSplit(p, s)
	}
	if len(s) < 4 || p.v.Type(s[0]) == NoPieceType {
		return ""
	}
	x := p.v.Type(s[0])
	rest := s[1:]
	kind, lands := cfSafe, NoPieceType
	switch {
	case strings.HasPrefix(rest, "*=") && len(rest) > 3 && rest[3] == '@':
		kind, lands, rest = cfOwn, p.v.Type(rest[2]), rest[3:]
	case strings.HasPrefix(rest, "=") && len(rest) > 2 && rest[2] == '@':
		kind, lands, rest = cfDemoted, p.v.Type(rest[1]), rest[2:]
	}
	if rest == "" || rest[0] != '@' {
		return ""
	}
	sqText, tag, _ := strings.Cut(rest[1:], "#")
	switch tag {
	case "", "s":
	case "d":
		kind = cfDemoted
	case "d*":
		kind = cfOwn
	default:
		return ""
	}
	to, err := ParseSquare(sqText)
	if err != nil || !p.v.OnBoard(to) {
		return ""
	}
	us := p.mover
	name := p.v.Pieces[x-1].Name
	demoted := cf.demote[x]
	if kind == cfSafe {
		demoted = x
	}
	if slot := cf.slot[kind][x]; slot == 0 || p.pocket[us.index()][slot] == 0 {
		switch kind {
		case cfSafe:
			return fmt.Sprintf("a drop written %c@ comes from the Safe pocket, and %s's holds no %s", s[0], us.Name(), name)
		case cfDemoted:
			return fmt.Sprintf("%s's Demotion pocket holds no captured %s", us.Name(), name)
		}
		return fmt.Sprintf("%s's Demotion pocket holds no %s of its own", us.Name(), name)
	}
	if kind != cfSafe && lands != demoted && demoted != NoPieceType {
		return fmt.Sprintf("a %s from the Demotion pocket is dropped demoted, as a %s (%c=%c)",
			name, p.v.Pieces[demoted-1].Name, s[0], p.v.Pieces[demoted-1].Letter)
	}
	switch {
	case cf.inCheck(p):
		return "no piece may be dropped while your King is in check"
	case p.board[to] != NoPiece:
		return fmt.Sprintf("%s is taken: a piece is dropped only on an empty square", to)
	case cf.pawn[demoted] && p.v.relRank(to, us) >= p.v.Ranks-2:
		return fmt.Sprintf("a %s may not be dropped on its side's 9th or 10th rank", p.v.Pieces[demoted-1].Name)
	}
	return ""
}

// cfSpecials returns the friendly texts of the legal special moves of p
// of kind (cfFuse, cfSplit, cfPocket) that keep says to, written "A", "A
// or B", "A, B or C" (at most six, then how many more); "" for none.
func (cf *coldFusion) cfSpecials(p *Position, kind uint8, keep func(Move) bool) string {
	const most = 6
	var buf [256]Move
	var texts []string
	n := 0
	for _, m := range p.Legal(buf[:0]) {
		if m.Kind != KindSpecial || m.Extra&7 != kind || !keep(m) {
			continue
		}
		if n++; len(texts) < most {
			texts = append(texts, cf.friendlySpecial(p, m))
		}
	}
	if n > most {
		texts[most-1] += fmt.Sprintf(" (and %d more)", n-most)
	}
	if len(texts) < 2 {
		return strings.Join(texts, "")
	}
	return strings.Join(texts[:len(texts)-1], ", ") + " or " + texts[len(texts)-1]
}

// cfName names the type t with its letter: "Marshal (C)".
func cfName(p *Position, t PieceType) string {
	return fmt.Sprintf("%s (%c)", p.v.Pieces[t-1].Name, p.v.Pieces[t-1].Letter)
}

// explainFusion says why s, a fusion as a player wrote it ("R&j1=Q",
// "R&j1", "Ra&j1=C"), is not legal: the square holds none of the mover's
// men, the two men do not fuse, the result is missing or wrong, or the
// origin is needed; each with the fusions to write. "" for text of another
// shape, a promotion (its pocket written "(S)"/"(D)"), or a fusion it
// cannot explain.
func (cf *coldFusion) explainFusion(p *Position, s string) string {
	left, right, _ := strings.Cut(s, "&")
	if left == "" || strings.Contains(right, "(") {
		return ""
	}
	x := p.v.Type(left[0])
	sq, result, hasResult := strings.Cut(right, "=")
	to, err := ParseSquare(sq)
	if x == NoPieceType || int(x) > cfTypes || err != nil || !p.v.OnBoard(to) {
		return ""
	}
	us, target := p.mover, p.board[to]
	if target == NoPiece || target.Color() != us {
		return fmt.Sprintf("a fusion (&) moves a man onto one of %s's own men, and %s holds none", us.Name(), to)
	}
	t := target.Type()
	made := cf.fuse(x, t)
	xName, tName := p.v.Pieces[x-1].Name, p.v.Pieces[t-1].Name
	if made == NoPieceType {
		return fmt.Sprintf("a %s and a %s do not fuse: together they make no man of this game", xName, tName)
	}
	write := cf.cfSpecials(p, cfFuse, func(m Move) bool { return m.To == to && p.board[m.From].Type() == x })
	what := fmt.Sprintf("a %s and the %s on %s fuse into a %s", xName, tName, to, cfName(p, made))
	switch {
	case write == "":
		return what + fmt.Sprintf(", but no %s of %s's can move to %s now", xName, us.Name(), to)
	case !hasResult:
		return fmt.Sprintf("a fusion ends with = and what it makes: %s, so write %s", what, write)
	case len(result) == 1 && p.v.Type(result[0]&^0x20) != NoPieceType && p.v.Type(result[0]&^0x20) != made:
		return fmt.Sprintf("%s, not a %s: write %s", what, p.v.Pieces[p.v.Type(result[0]&^0x20)-1].Name, write)
	case len(result) != 1 || p.v.Type(result[0]&^0x20) != made:
		return fmt.Sprintf("%s, not =%s: write %s", what, result, write)
	}
	return fmt.Sprintf("%s: write %s", what, write)
}

// explainSplit says why s, a split as a player wrote it ("Qd2/B",
// "Q/Bh6", "Qd2/Bd5"), is not legal: no such man of the mover's, a part
// it does not hold, the missing square of the man or of the part's
// destination, or a destination the part cannot reach; each with the
// splits to write. "" for text of another shape.
func (cf *coldFusion) explainSplit(p *Position, s string) string {
	left, right, _ := strings.Cut(s, "/")
	right, _, _ = strings.Cut(right, "=")
	if left == "" || right == "" {
		return ""
	}
	x, part := p.v.Type(left[0]), p.v.Type(right[0])
	if x == NoPieceType || part == NoPieceType || int(x) > cfTypes || int(part) > cfTypes {
		return ""
	}
	from, to := NoSquare, NoSquare
	var err error
	if len(left) > 1 {
		if from, err = ParseSquare(left[1:]); err != nil || !p.v.OnBoard(from) {
			return ""
		}
	}
	if len(right) > 1 {
		if to, err = ParseSquare(right[1:]); err != nil || !p.v.OnBoard(to) {
			return ""
		}
	}
	us := p.mover
	xName, partName := p.v.Pieces[x-1].Name, p.v.Pieces[part-1].Name
	if from != NoSquare && p.board[from] != NewPiece(us, x) {
		return fmt.Sprintf("there is no %s %s on %s to split", us.Name(), xName, from)
	}
	if cf.remainder(x, part) == NoPieceType {
		var parts []string
		for _, sr := range cf.splits[x] {
			parts = append(parts, cfName(p, sr.part))
		}
		if len(parts) == 0 {
			return fmt.Sprintf("a %s does not split", xName)
		}
		return fmt.Sprintf("a %s holds no %s: the part that leaves it is a %s", xName, partName, strings.Join(parts, " or a "))
	}
	splits := func(dest Square) string {
		return cf.cfSpecials(p, cfSplit, func(m Move) bool {
			return p.board[m.From].Type() == x && m.Drop == part && (from == NoSquare || m.From == from) && (dest == NoSquare || m.To == dest)
		})
	}
	all := splits(NoSquare)
	here := "now"
	if from != NoSquare {
		here = "from " + from.String()
	}
	switch {
	case all == "":
		return fmt.Sprintf("no %s of %s's can split a %s off %s", xName, us.Name(), partName, here)
	case to == NoSquare:
		return fmt.Sprintf("a split ends with where the %s goes: write %s", partName, all)
	case from == NoSquare && splits(to) != "":
		return fmt.Sprintf("a split names the square of the man that splits: write %s", splits(to))
	case splits(to) == "":
		return fmt.Sprintf("the %s leaving the %s cannot reach %s: write one of %s", partName, xName, to, all)
	}
	return ""
}

// explainPocket says why "^"+s, a pocketing as a player wrote it ("^d2",
// "^Nd2"), is not legal: the letter of the man is missing or wrong, the
// square holds none of the mover's men, or the man is the King. "" for
// text of another shape.
func (cf *coldFusion) explainPocket(p *Position, s string) string {
	if s == "" {
		return ""
	}
	letter := byte(0)
	if s[0] >= 'A' && s[0] <= 'Z' {
		letter, s = s[0], s[1:]
	}
	sq, err := ParseSquare(s)
	if err != nil || !p.v.OnBoard(sq) {
		return ""
	}
	us, pc := p.mover, p.board[sq]
	switch {
	case pc == NoPiece || pc.Color() != us:
		return fmt.Sprintf("pocketing (^) puts one of %s's own men into the Demotion pocket, and %s holds none", us.Name(), sq)
	case p.v.c.royalType[pc.Type()]:
		return "the King may not be pocketed"
	}
	write := cf.cfSpecials(p, cfPocket, func(m Move) bool { return m.From == sq })
	if write == "" {
		return ""
	}
	if letter == 0 {
		return "a pocketing names the man after ^: write " + write
	}
	return fmt.Sprintf("the man on %s is a %s: write %s", sq, p.v.Pieces[pc.Type()-1].Name, write)
}

// splitRules lists the ways a man made of c splits (C5, C18): a single
// non-pawn atom, or k pawns of its pawn part (one pawn, a Berolina pawn
// out of a Sergeant part, or the whole pawn part) move away, when both
// the part and what stays are pieces. The order is the order of the
// moves: the atoms K, R, B, N, then the pawn parts from one pawn up.
func (cf *coldFusion) splitRules(c cfComp) []cfSplitRule {
	parts := []cfComp{{k: 1}, {r: 1}, {b: 1}, {n: 1}}
	for k := uint8(1); k <= c.p; k++ {
		parts = append(parts, cfComp{p: k})
	}
	var out []cfSplitRule
	for _, part := range parts {
		rest, ok := c.minus(part)
		if !ok || cf.byComp[rest] == NoPieceType || cf.byComp[part] == NoPieceType {
			continue
		}
		out = append(out, cfSplitRule{part: cf.byComp[part], rest: cf.byComp[rest]})
	}
	return out
}

// fuse returns what a man of type m becomes when it moves onto a friendly
// man of type t, or NoPieceType when that fusion is illegal: the result
// must be in the fusion table (weight at most 2, the King never with
// pawns, at most three pawns: no Berolina+Berolina, nothing added to a
// Sergeant part), and when pawns take part the mover is a pawn-kind piece.
func (cf *coldFusion) fuse(m, t PieceType) PieceType {
	a, b := cf.comp[m], cf.comp[t]
	if (a.p > 0 || b.p > 0) && !cf.pawn[m] {
		return NoPieceType
	}
	c := a.add(b)
	if c.weight() > 6 || c.p > 3 {
		return NoPieceType
	}
	return cf.byComp[c]
}

// remainder returns what stays on the square when part splits off a man
// of type t, or NoPieceType when t has no such split.
func (cf *coldFusion) remainder(t, part PieceType) PieceType {
	for _, sr := range cf.splits[t] {
		if sr.part == part {
			return sr.rest
		}
	}
	return NoPieceType
}

// cfOrthogonal and cfDiagonal are the rook and bishop directions on the
// mailbox, each listed so that i+1 and i+3 (mod 4) are perpendicular to i.
var (
	cfOrthogonal = [4]int{mailboxWidth, 1, -mailboxWidth, -1}
	cfDiagonal   = [4][2]int{{1, 1}, {1, -1}, {-1, -1}, {-1, 1}}
)

// cfChariotTurns calls visit with each square the Chariot of side us on
// from reaches by turning (C14): along a line to the last empty square
// before the edge or one of its own pieces (not an enemy piece), then at
// 90 degrees as a rook, capturing the first enemy piece. The plain rook
// moves are the Betza part. It stops and reports true as soon as visit
// does. A square may be visited twice (by two turns).
func cfChariotTurns(p *Position, from Square, us Color, visit func(Square) bool) bool {
	for i, d := range cfOrthogonal {
		turn := int(from)
		for p.board[turn+d] == NoPiece {
			turn += d
		}
		if turn == int(from) {
			continue
		}
		if ob := p.board[turn+d]; ob&wall == 0 && ob.Color() != us {
			continue // an enemy piece is no place to turn
		}
		for _, e := range [2]int{cfOrthogonal[(i+1)%4], cfOrthogonal[(i+3)%4]} {
			if cfSlide(p, turn, e, us, visit) {
				return true
			}
		}
	}
	return false
}

// cfSlide calls visit with each square a rider of side us reaches from
// the square start (exclusive) by steps of step: the empty squares, then
// the first enemy piece. It stops and reports true as soon as visit does.
func cfSlide(p *Position, start, step int, us Color, visit func(Square) bool) bool {
	for q := start + step; ; q += step {
		pc := p.board[q]
		if pc == NoPiece {
			if visit(Square(q)) {
				return true
			}
			continue
		}
		return pc&wall == 0 && pc.Color() != us && visit(Square(q))
	}
}

// cfReflections calls visit with each square the Archbishop of side us on
// from reaches by reflecting (C14): along a diagonal through empty squares
// to the board's edge (not a corner), then reflected once as a bishop,
// capturing the first enemy piece. It stops and reports true as soon as
// visit does.
func cfReflections(p *Position, from Square, us Color, visit func(Square) bool) bool {
	for _, d := range cfDiagonal {
		off := d[1]*mailboxWidth + d[0]
		edge := int(from)
		for p.board[edge+off] == NoPiece {
			edge += off
		}
		if edge == int(from) || p.board[edge+off]&wall == 0 {
			continue // blocked by a piece before the edge
		}
		vertical := p.board[edge+d[0]]&wall != 0
		horizontal := p.board[edge+d[1]*mailboxWidth]&wall != 0
		if vertical == horizontal {
			continue // a corner
		}
		dx, dy := d[0], d[1]
		if vertical {
			dx = -dx
		} else {
			dy = -dy
		}
		if cfSlide(p, edge, dy*mailboxWidth+dx, us, visit) {
			return true
		}
	}
	return false
}

// extraAttacked reports whether a Chariot's turn or an Archbishop's
// reflection of side by reaches s (an occupied square is captured).
func (cf *coldFusion) extraAttacked(p *Position, s Square, by Color) bool {
	bi := by.index()
	if p.count[bi][cfChariot]+p.count[bi][cfArchbishop] == 0 {
		return false
	}
	hit := func(q Square) bool { return q == s }
	for w := 0; w < 3; w++ {
		for b := p.occ[bi][w]; b != 0; b &= b - 1 {
			from := squareOfBit(w*64 + bits.TrailingZeros64(b))
			switch p.board[from].Type() {
			case cfChariot:
				if cfChariotTurns(p, from, by, hit) {
					return true
				}
			case cfArchbishop:
				if cfReflections(p, from, by, hit) {
					return true
				}
			}
		}
	}
	return false
}

// inCheck is the Check hook: the royal piece of the player to act is
// attacked, by the data's moves or by a turn or a reflection.
func (cf *coldFusion) inCheck(p *Position) bool {
	k := p.royal[p.toAct.index()]
	them := p.toAct.Other()
	return k != NoSquare && (p.attacked(k, them) || cf.extraAttacked(p, k, them))
}

// cfWalk calls visit with each square a piece of type t of side us on
// from reaches: with quiet, every empty square of its moving legs; else
// the first occupied square (of either side) of each capturing leg.
func cfWalk(p *Position, from Square, t PieceType, us Color, quiet bool, visit func(Square)) {
	c := &p.v.c
	legs := c.legs[us.index()][t]
	onInitial := c.initialRank[t] >= 0 && c.initialRank[t] == p.v.relRank(from, us)
	for i := range legs {
		l := &legs[i]
		switch {
		case l.hop, l.shadowed, l.initial && !onInitial, l.lameOff != 0 && p.board[int(from)+int(l.lameOff)] != NoPiece:
			continue
		case quiet && l.mode&ModeMove == 0, !quiet && (l.mode&ModeCapture == 0 || l.epOnly):
			continue
		}
		to := int(from)
		for n := int8(0); n < l.steps; n++ {
			to += int(l.off)
			pc := p.board[to]
			if pc == NoPiece {
				if quiet {
					visit(Square(to))
				}
				continue
			}
			if !quiet && pc&wall == 0 {
				visit(Square(to))
			}
			break
		}
	}
}

// zoneOf reports whether a pawn of us's landing on s may promote (in) and
// whether it must (last).
func (cf *coldFusion) zoneOf(p *Position, s Square, us Color) (in, last bool) {
	rr := p.v.relRank(s, us)
	return rr >= p.v.Ranks-cf.zone, rr == p.v.Ranks-1
}

// promotions appends m once for every piece us may promote to: each
// non-pawn man the opponent holds as a capture (from us), per pocket (C10,
// C21).
func (cf *coldFusion) promotions(p *Position, out []Move, m Move, us Color) []Move {
	ti := us.Other().index()
	for i := 1; i <= p.v.c.pocketSlots; i++ {
		if kind := cf.slotKind[i]; kind != cfOwn && p.pocket[ti][i] > 0 && !cf.pawn[cf.slotPiece[i]] {
			m.Promotion = cf.slotPiece[i]
			m.Extra = m.Extra&7 | kind<<cfKindBits
			out = append(out, m)
		}
	}
	return out
}

// land appends m, a special move that puts a man on m.To, with the
// promotions it allows when that man is a pawn-kind piece (pawn) landing
// in the zone: without promotion only before the last rank.
func (cf *coldFusion) land(p *Position, out []Move, m Move, us Color, pawn bool) []Move {
	if !pawn {
		return append(out, m)
	}
	in, last := cf.zoneOf(p, m.To, us)
	if !in {
		return append(out, m)
	}
	if !last {
		out = append(out, m)
	}
	return cf.promotions(p, out, m, us)
}

// pieceExtras appends the moves of the man on s (type t, side us) that the
// data does not describe: the Chariot's turns and the Archbishop's
// reflections (as ordinary moves), promotions, fusions and splits.
func (cf *coldFusion) pieceExtras(p *Position, out []Move, s Square, t PieceType, us Color) []Move {
	if t == cfChariot || t == cfArchbishop {
		var seen [3]uint64
		add := func(to Square) bool {
			if i := to.bitIndex(); seen[i>>6]&(1<<(i&63)) == 0 {
				seen[i>>6] |= 1 << (i & 63)
				out = append(out, Move{From: s, To: to})
			}
			return false
		}
		if t == cfChariot {
			cfChariotTurns(p, s, us, add)
		} else {
			cfReflections(p, s, us, add)
		}
	}
	if step, ok := cf.quietEPStep(p, s, t, us); ok {
		out = append(out, step)
	}
	if cf.pawn[t] {
		var buf [16]Move
		for _, m := range p.pieceMoves(buf[:0], s, us) {
			if in, _ := cf.zoneOf(p, m.To, us); in && m.Kind == KindNormal {
				out = cf.promotions(p, out, Move{From: s, To: m.To, Kind: KindSpecial, Extra: cfPromote}, us)
			}
		}
	}
	if cf.fuser[t] {
		cfWalk(p, s, t, us, false, func(to Square) {
			if pc := p.board[to]; pc.Color() == us {
				if r := cf.fuse(t, pc.Type()); r != NoPieceType {
					out = cf.land(p, out, Move{From: s, To: to, Kind: KindSpecial, Extra: cfFuse}, us, cf.pawn[r])
				}
			}
		})
	}
	for _, sr := range cf.splits[t] {
		if cf.comp[sr.rest].p > 0 && p.v.relRank(s, us) == p.v.Ranks-1 {
			continue // no pawn part may stay behind on the 10th rank
		}
		cfWalk(p, s, sr.part, us, true, func(to Square) {
			out = cf.land(p, out, Move{From: s, To: to, Kind: KindSpecial, Extra: cfSplit, Drop: sr.part}, us, cf.pawn[sr.part])
		})
	}
	return out
}

// quietEPStep returns the quiet step of C19b of the man on s (type t, side
// us), when there is one: the en-passant square is next to s in the
// direction of one of t's en-passant captures, and t may also move there
// without capturing (the Legal hook refuses that as an ordinary move,
// whose form is the capture's). The en-passant square is never in the
// promotion zone, so the step never promotes.
func (cf *coldFusion) quietEPStep(p *Position, s Square, t PieceType, us Color) (Move, bool) {
	ep := p.ep
	if ep == NoSquare || p.board[ep] != NoPiece {
		return Move{}, false
	}
	if in, _ := cf.zoneOf(p, ep, us); in {
		return Move{}, false
	}
	capture := false
	for _, l := range p.v.c.legs[us.index()][t] {
		capture = capture || l.ep && int(l.off) == int(ep)-int(s)
	}
	if !capture {
		return Move{}, false
	}
	quiet := false
	cfWalk(p, s, t, us, true, func(q Square) { quiet = quiet || q == ep })
	return Move{From: s, To: ep, Kind: KindSpecial, Extra: cfStep}, quiet
}

// pawnPartMove reports whether the quiet move from-to of a man of type t
// and side us in p is one its pawn part (or the man itself, if it is a
// pawn-kind piece) could make: a step, or a Pawn's double step from its
// 3rd rank over an empty square (C19a).
func (cf *coldFusion) pawnPartMove(p *Position, from, to Square, t PieceType, us Color) bool {
	pp := cf.pawnPart[t]
	if cf.pawn[t] {
		pp = t
	}
	if pp == NoPieceType {
		return false
	}
	c := &p.v.c
	for _, l := range c.legs[us.index()][pp] {
		switch {
		case l.mode&ModeMove == 0, l.hop, int(l.off) != int(to)-int(from),
			l.initial && c.initialRank[pp] != p.v.relRank(from, us),
			l.lameOff != 0 && p.board[int(from)+int(l.lameOff)] != NoPiece:
			continue
		}
		return true
	}
	return false
}

// extraMoves is the ExtraMoves hook: for each man (from a1 upwards) its
// turns or reflections, promotions, fusions and splits; then the drops
// (none while in check), then the pocketings (only when a regular move
// exists).
func (cf *coldFusion) extraMoves(p *Position, out []Move) []Move {
	us := p.mover
	ui := us.index()
	for w := 0; w < 3; w++ {
		for b := p.occ[ui][w]; b != 0; b &= b - 1 {
			s := squareOfBit(w*64 + bits.TrailingZeros64(b))
			out = cf.pieceExtras(p, out, s, p.board[s].Type(), us)
		}
	}
	if !cf.inCheck(p) {
		for i := 1; i <= p.v.c.pocketSlots; i++ {
			if p.pocket[ui][i] == 0 {
				continue
			}
			x, kind := cf.slotPiece[i], cf.slotKind[i]
			lands := x
			if kind != cfSafe {
				lands = cf.demote[x]
			}
			for _, s := range p.v.c.squares {
				if p.board[s] == NoPiece && !(cf.pawn[lands] && p.v.relRank(s, us) >= p.v.Ranks-2) {
					out = append(out, Move{To: s, Kind: KindSpecial, Drop: x, Extra: cfDrop | kind<<cfKindBits})
				}
			}
		}
	}
	if cf.hasRegularMove(p) {
		for w := 0; w < 3; w++ {
			for b := p.occ[ui][w]; b != 0; b &= b - 1 {
				s := squareOfBit(w*64 + bits.TrailingZeros64(b))
				if !p.v.c.royalType[p.board[s].Type()] {
					out = append(out, Move{From: s, To: s, Kind: KindSpecial, Extra: cfPocket | cfOwn<<cfKindBits})
				}
			}
		}
	}
	return out
}

// hasRegularMove reports whether the player to act has a legal regular
// move: an ordinary move, a capture, a fusion or a split (C22). It plays
// the moves into a position the variant lends, so that generating the
// moves, which asks this every time, allocates nothing.
func (cf *coldFusion) hasRegularMove(p *Position) bool {
	var buf [128]Move
	ws := p.v.c.work.get()
	defer p.v.c.work.put(ws)
	scratch := &ws.pos
	us := p.mover
	ui := us.index()
	for w := 0; w < 3; w++ {
		for b := p.occ[ui][w]; b != 0; b &= b - 1 {
			s := squareOfBit(w*64 + bits.TrailingZeros64(b))
			moves := p.pieceMoves(buf[:0], s, us)
			moves = cf.pieceExtras(p, moves, s, p.board[s].Type(), us)
			for _, m := range moves {
				if p.isLegal(m, scratch) {
					return true
				}
			}
		}
	}
	return false
}

// legal is the Legal hook: a pawn-kind piece reaches the last rank only by
// promoting (a special move); an ordinary move onto the empty en-passant
// square by a piece that may capture en passant there is that capture
// (its quiet step there is the special move cfStep, C19b); and the
// mover's royal piece must not be reached by a turn or a reflection.
func (cf *coldFusion) legal(before, after *Position, m Move) bool {
	us := before.mover
	if m.Kind == KindNormal {
		pc := before.board[m.From]
		if cf.pawn[pc.Type()] && before.v.relRank(m.To, us) == before.v.Ranks-1 {
			return false
		}
		if m.To == before.ep && before.board[m.To] == NoPiece {
			for _, l := range before.v.c.legs[us.index()][pc.Type()] {
				if l.ep && int(l.off) == int(m.To)-int(m.From) {
					return false
				}
			}
		}
	}
	k := after.royal[us.index()]
	return k == NoSquare || !cf.extraAttacked(after, k, us.Other())
}

// route puts victim, captured by captor moving from from to to (by en
// passant when ep), into the captor's pocket (C8, C9): the Safe pocket for
// a capture by a pawn-kind piece, a royal piece or a capture the captor's
// pawn part could make; else the Demotion pocket, where pawn-kind pieces
// do not go: they leave the game.
func (cf *coldFusion) route(next *Position, captor Piece, from, to Square, victim Piece, ep bool) {
	us, ct, vt := captor.Color(), captor.Type(), victim.Type()
	safe := ep || cf.pawn[ct] || next.v.c.royalType[ct]
	if pp := cf.pawnPart[ct]; !safe && pp != NoPieceType {
		for _, l := range next.v.c.legs[us.index()][pp] {
			if l.mode&ModeCapture != 0 && int(l.off) == int(to)-int(from) {
				safe = true
			}
		}
	}
	var slot uint8
	switch {
	case safe:
		slot = cf.slot[cfSafe][vt]
	case cf.pawn[vt]:
		return
	default:
		slot = cf.slot[cfDemoted][vt]
	}
	if slot != 0 && next.pocket[us.index()][slot] < 255 {
		next.pocket[us.index()][slot]++
	}
}

// afterMove is the AfterMove hook (the turn passes to the opponent as in
// chess): it routes the man an ordinary capture or an en-passant capture
// took into the captor's pocket (the captures of special moves are routed
// by apply), and resets the move-count clock after an ordinary quiet move
// of a hybrid that its pawn part could make (C19a).
func (cf *coldFusion) afterMove(before, next *Position, m Move) {
	cf.routeCapture(before, next, m)
	if m.Kind == KindNormal && before.board[m.To] == NoPiece {
		if pc := before.board[m.From]; pc != NoPiece && pc&wall == 0 && cf.pawnPartMove(before, m.From, m.To, pc.Type(), pc.Color()) {
			next.halfmove = 0
		}
	}
}

// routeCapture routes the man the ordinary or en-passant capture m took
// into the captor's pocket; other moves change nothing.
func (cf *coldFusion) routeCapture(before, next *Position, m Move) {
	victim := NoPiece
	switch m.Kind {
	case KindNormal:
		victim = before.board[m.To]
	case KindEnPassant:
		victim = before.board[before.epVictim]
	}
	captor := before.board[m.From]
	if victim == NoPiece || victim&wall != 0 || captor == NoPiece || captor&wall != 0 || victim.Color() == captor.Color() {
		return
	}
	cf.route(next, captor, m.From, m.To, victim, m.Kind == KindEnPassant)
}

// take removes an entry of type x and kind from side c's pocket and
// reports whether there was one.
func (cf *coldFusion) take(next *Position, c Color, x PieceType, kind uint8) bool {
	if x == NoPieceType || int(x) > cfTypes || kind > cfOwn {
		return false
	}
	slot := cf.slot[kind][x]
	if slot == 0 || next.pocket[c.index()][slot] == 0 {
		return false
	}
	next.pocket[c.index()][slot]--
	return true
}

// apply is the Apply hook: it carries out a promotion, fusion, split,
// pocketing or drop. A malformed move changes nothing it cannot undo
// safely and never panics.
func (cf *coldFusion) apply(next *Position, m Move) {
	v := next.v
	us := next.mover
	them := us.Other()
	kind := m.Extra >> cfKindBits
	own := func(s Square) bool { return v.OnBoard(s) && next.board[s].Color() == us }
	if m.Promotion != NoPieceType && (int(m.Promotion) > cfTypes || cf.pawn[m.Promotion] || v.c.royalType[m.Promotion] || kind == cfOwn) {
		return
	}
	switch m.Extra & 7 {
	case cfPromote:
		target := next.board[m.To]
		if !own(m.From) || !cf.pawn[next.board[m.From].Type()] || !v.OnBoard(m.To) || target.Color() == us ||
			(target != NoPiece && v.c.royalType[target.Type()]) || !cf.take(next, them, m.Promotion, kind) {
			return
		}
		pawn := next.remove(m.From)
		if target != NoPiece {
			next.remove(m.To)
			cf.route(next, pawn, m.From, m.To, target, false)
		}
		next.put(m.To, NewPiece(us, m.Promotion))
		next.halfmove = 0
	case cfFuse:
		if !own(m.From) || !own(m.To) || m.From == m.To {
			return
		}
		mover := next.board[m.From].Type()
		r := cf.fuse(mover, next.board[m.To].Type())
		if r == NoPieceType || m.Promotion != NoPieceType && (!cf.pawn[r] || !cf.take(next, them, m.Promotion, kind)) {
			return
		}
		if m.Promotion != NoPieceType {
			r = m.Promotion
		}
		next.remove(m.From)
		next.remove(m.To)
		next.put(m.To, NewPiece(us, r))
		if cf.pawn[mover] {
			next.halfmove = 0
		}
	case cfSplit:
		if !own(m.From) || !v.OnBoard(m.To) || next.board[m.To] != NoPiece || m.Drop == NoPieceType || int(m.Drop) > cfTypes {
			return
		}
		rest := cf.remainder(next.board[m.From].Type(), m.Drop)
		if rest == NoPieceType || m.Promotion != NoPieceType && (!cf.pawn[m.Drop] || !cf.take(next, them, m.Promotion, kind)) {
			return
		}
		lands := m.Drop
		if m.Promotion != NoPieceType {
			lands = m.Promotion
		}
		next.remove(m.From)
		next.put(m.From, NewPiece(us, rest))
		next.put(m.To, NewPiece(us, lands))
		if cf.pawn[m.Drop] {
			next.halfmove = 0
			if fwd := 2 * mailboxWidth; m.Drop == cfPawn && (int(m.To)-int(m.From) == fwd && us == White || int(m.From)-int(m.To) == fwd && us == Black) {
				mid := Square((int(m.From) + int(m.To)) / 2)
				if next.epCapturable(mid, them) {
					next.ep, next.epVictim = mid, m.To
				}
			}
		}
	case cfStep:
		if !own(m.From) || !v.OnBoard(m.To) || next.board[m.To] != NoPiece || m.From == m.To {
			return
		}
		pc := next.board[m.From]
		if cf.pawnPartMove(next, m.From, m.To, pc.Type(), us) {
			next.halfmove = 0
		}
		next.put(m.To, next.remove(m.From))
	case cfPocket:
		if !own(m.From) || v.c.royalType[next.board[m.From].Type()] {
			return
		}
		slot := cf.slot[cfOwn][next.board[m.From].Type()]
		if slot == 0 || next.pocket[us.index()][slot] == 255 {
			return
		}
		next.remove(m.From)
		next.pocket[us.index()][slot]++
		next.halfmove = 0
	case cfDrop:
		if !v.OnBoard(m.To) || next.board[m.To] != NoPiece || !cf.take(next, us, m.Drop, kind) {
			return
		}
		lands := m.Drop
		if kind != cfSafe {
			lands = cf.demote[m.Drop]
		}
		next.put(m.To, NewPiece(us, lands))
		if cf.pawn[lands] {
			next.halfmove = 0
		}
	}
}

// formatSpecial writes the canonical text of a special move (see
// newColdFusion): "a1j1" (fusion), "d2d1#r" (split), "e4e4#d"
// (pocketing), "Q@e4#d*" (drop), "e9e10q#s" (promotion), "e8e9q#p#d" (a
// split-off pawn that promotes), "h6g7#m" (the quiet step of C19b).
func (cf *coldFusion) formatSpecial(p *Position, m Move) string {
	letter := func(t PieceType) string {
		if t == NoPieceType || int(t) > len(p.v.Pieces) {
			return "?"
		}
		return string(p.v.Pieces[t-1].Letter + ('a' - 'A'))
	}
	kind := m.Extra >> cfKindBits
	pocket := "#s"
	switch kind {
	case cfDemoted:
		pocket = "#d"
	case cfOwn:
		pocket = "#d*"
	}
	squares := m.From.String() + m.To.String()
	promo := ""
	if m.Promotion != NoPieceType {
		promo = letter(m.Promotion)
	}
	switch m.Extra & 7 {
	case cfPromote:
		return squares + promo + pocket
	case cfFuse:
		if promo != "" {
			return squares + promo + pocket
		}
		return squares
	case cfSplit:
		if promo != "" {
			return squares + promo + "#" + letter(m.Drop) + pocket
		}
		return squares + "#" + letter(m.Drop)
	case cfPocket:
		return m.From.String() + m.From.String() + "#d"
	case cfStep:
		return squares + "#m"
	case cfDrop:
		l := letter(m.Drop)
		if l != "?" {
			l = string(l[0] - ('a' - 'A'))
		}
		return l + "@" + m.To.String() + pocket
	}
	return "?"
}

// friendlySpecial writes a special move in the friendly form (see
// newColdFusion): "Ra1&j1=W" (fusion), "Qd2/Bf4" (split), "^Ne4"
// (pocketing), "Q@e4", "Q=C@e4", "Q*=C@e4" (drops), "dxe10=Q(D)"
// (promotion), "Sg7" (the quiet step of C19b).
func (cf *coldFusion) friendlySpecial(p *Position, m Move) string {
	letter := func(t PieceType) string {
		if t == NoPieceType || int(t) > cfTypes {
			return "?"
		}
		return string(p.v.Pieces[t-1].Letter)
	}
	if !p.v.OnBoard(m.To) || (m.Extra&7 != cfDrop && !p.v.OnBoard(m.From)) {
		return ""
	}
	kind := m.Extra >> cfKindBits
	promo := ""
	if m.Promotion != NoPieceType {
		promo = "=" + letter(m.Promotion) + "(S)"
		if kind != cfSafe {
			promo = "=" + letter(m.Promotion) + "(D)"
		}
	}
	from := p.board[m.From].Type()
	switch m.Extra & 7 {
	case cfPromote:
		s := ""
		capture := p.board[m.To] != NoPiece
		if capture || m.From.File() != m.To.File() {
			s = m.From.String()[:1]
		}
		if capture {
			s += "x"
		}
		return s + m.To.String() + promo
	case cfFuse:
		result := promo
		if result == "" {
			result = "=" + letter(cf.fuse(from, p.board[m.To].Type()))
		}
		return letter(from) + cf.origin(p, m.From, m.To, false) + "&" + m.To.String() + result
	case cfStep:
		return letter(from) + cf.origin(p, m.From, m.To, true) + m.To.String()
	case cfSplit:
		return letter(from) + m.From.String() + "/" + letter(m.Drop) + m.To.String() + promo
	case cfPocket:
		return "^" + letter(from) + m.From.String()
	case cfDrop:
		lands := cf.demote[m.Drop]
		if int(m.Drop) > cfTypes {
			lands = NoPieceType
		}
		switch kind {
		case cfDemoted:
			return letter(m.Drop) + "=" + letter(lands) + "@" + m.To.String()
		case cfOwn:
			return letter(m.Drop) + "*=" + letter(lands) + "@" + m.To.String()
		}
		return letter(m.Drop) + "@" + m.To.String()
	}
	return ""
}

// origin returns the disambiguation of a move of the man on from to to, as
// SAN writes it: "" when no other man of the mover's side and kind could
// reach to by the data's moves (quiet: its non-capturing moves, for the
// quiet step of C19b; else its capturing moves, for a fusion), else from's
// file, else its rank, else the square.
func (cf *coldFusion) origin(p *Position, from, to Square, quiet bool) string {
	pc := p.board[from]
	var file, rank, other bool
	for _, s := range p.v.c.squares {
		if s == from || p.board[s] != pc {
			continue
		}
		reaches := false
		cfWalk(p, s, pc.Type(), pc.Color(), quiet, func(q Square) {
			reaches = reaches || q == to
		})
		if reaches {
			other = true
			file = file || s.File() == from.File()
			rank = rank || s.Rank() == from.Rank()
		}
	}
	sq := from.String()
	switch {
	case !other:
		return ""
	case !file:
		return sq[:1]
	case !rank:
		return sq[1:]
	}
	return sq
}

// cfBareKings reports the dead position of two plain Kings alone with
// empty pockets: nothing can ever be captured, fused or dropped.
func cfBareKings(p *Position) bool {
	for c := 0; c < 2; c++ {
		for t := 1; t <= cfTypes; t++ {
			if PieceType(t) != cfKing && p.count[c][t] > 0 {
				return false
			}
		}
		for i := 1; i <= p.v.c.pocketSlots; i++ {
			if p.pocket[c][i] > 0 {
				return false
			}
		}
	}
	return true
}
