package variantsini

import (
	"fmt"
	"strconv"
	"strings"
)

// The format's limits: boards of at most 12 files and 10 ranks.
const (
	maxFiles = 12
	maxRanks = 10
)

// region is a set of squares of the format's 12x10 grid: bit rank*12+file.
type region [2]uint64

func (r *region) add(file, rank int) {
	i := rank*maxFiles + file
	r[i>>6] |= 1 << (i & 63)
}

func (r region) has(file, rank int) bool {
	i := rank*maxFiles + file
	return r[i>>6]&(1<<(i&63)) != 0
}

func allSquares() region {
	var r region
	for rank := 0; rank < maxRanks; rank++ {
		for f := 0; f < maxFiles; f++ {
			r.add(f, rank)
		}
	}
	return r
}

func rankRegion(rank int) region {
	var r region
	for f := 0; f < maxFiles; f++ {
		r.add(f, rank)
	}
	return r
}

// value is a game result from the view of the player it happens to:
// the format's win, loss, draw and none.
type value uint8

const (
	valueNone value = iota
	valueWin
	valueLoss
	valueDraw
)

func (v value) String() string {
	return [...]string{"none", "win", "loss", "draw"}[v]
}

// kindSet is a set of piece kinds; all marks the format's '*' (every kind).
type kindSet struct {
	kinds [numKinds]bool
	all   bool
}

func (s kindSet) empty() bool {
	if s.all {
		return false
	}
	for _, k := range s.kinds {
		if k {
			return false
		}
	}
	return true
}

// settings is a variant as the format sees it: every rule the supported
// keys set, with the format's defaults. A section starts from a copy of
// its parent's settings and applies its entries.
type settings struct {
	maxRank, maxFile int // 1-based counts
	letters          [numKinds]byte
	betza            [numKinds]string // custom pieces and a custom king: the format's Betza
	startFEN         string

	doubleStep          bool
	doubleStepRegion    [2]region
	enPassantRegion     [2]region
	promotionRegion     [2]region
	promotionPieceTypes [2]kindSet
	promotionLimit      [numKinds]int
	mandatoryPawnPromo  bool
	immobilityIllegal   bool

	castling              bool
	castlingKingsideFile  int // 0-based
	castlingQueensideFile int
	castlingRank          int // 0-based, White's view
	castlingKingPiece     [2]pieceKind
	castlingRookPieces    [2]kindSet

	pieceDrops             bool
	capturesToHand         bool
	firstRankPawnDrops     bool
	promotionZonePawnDrops bool
	dropRegion             [2]region
	dropNoDoubled          pieceKind // kind+1 (0 = none)
	mustDrop               bool
	mustCapture            bool

	checking              bool
	checkmateValue        value
	stalemateValue        value
	extinctionValue       value
	extinctionPieceTypes  kindSet
	extinctionPieceCount  int
	extinctionPseudoRoyal bool
	flagPiece             [2]pieceKind // kind+1; 0 = any piece
	flagRegion            [2]region
	flagMove              bool
	flagPieceCount        int
	nMoveRule             int
	nFoldRule             int
	nFoldValue            value
	pass                  [2]bool
	passOnStalemate       [2]bool

	lines map[string]int // the line of each key the section sets itself
}

// emptyTemplate is the format's starting point for a section without a
// parent: the rules of chess, without any pieces.
func emptyTemplate() settings {
	s := settings{
		maxRank:               8,
		maxFile:               8,
		startFEN:              "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		doubleStep:            true,
		doubleStepRegion:      [2]region{rankRegion(1), rankRegion(6)},
		enPassantRegion:       [2]region{allSquares(), allSquares()},
		promotionRegion:       [2]region{rankRegion(7), rankRegion(0)},
		mandatoryPawnPromo:    true,
		castling:              true,
		castlingKingsideFile:  6,
		castlingQueensideFile: 2,
		castlingKingPiece:     [2]pieceKind{kindKing, kindKing},
		dropRegion:            [2]region{allSquares(), allSquares()},
		checking:              true,
		checkmateValue:        valueLoss,
		stalemateValue:        valueDraw,
		extinctionValue:       valueNone,
		nMoveRule:             50,
		nFoldRule:             3,
		nFoldValue:            valueDraw,
	}
	for _, k := range []string{"queen", "rook", "bishop", "knight"} {
		s.promotionPieceTypes[0].kinds[kindOf(k)] = true
		s.promotionPieceTypes[1].kinds[kindOf(k)] = true
	}
	s.castlingRookPieces[0].kinds[kindOf("rook")] = true
	s.castlingRookPieces[1].kinds[kindOf("rook")] = true
	return s
}

// chessSettings is standard chess in the format.
func chessSettings() settings {
	s := emptyTemplate()
	for k, l := range map[string]byte{"pawn": 'p', "knight": 'n', "bishop": 'b', "rook": 'r', "queen": 'q', "king": 'k'} {
		kind, _ := kindByKey(k)
		s.letters[kind] = l
	}
	return s
}

// builtinParents are the variants of fairypost's registry that are
// expressible in the format, as the format defines them, by key.
var builtinParents = map[string]func() settings{
	"chess": chessSettings,
	"crazyhouse": func() settings {
		s := chessSettings()
		s.startFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"
		s.pieceDrops = true
		s.capturesToHand = true
		return s
	},
	"grand": func() settings {
		s := chessSettings()
		s.maxRank, s.maxFile = 10, 10
		s.letters[kindOf("archbishop")] = 'a'
		s.letters[kindOf("chancellor")] = 'c'
		s.startFEN = "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1"
		for c := 0; c < 2; c++ {
			for _, k := range []string{"archbishop", "chancellor", "queen", "rook", "bishop", "knight"} {
				s.promotionPieceTypes[c].kinds[kindOf(k)] = true
			}
		}
		s.promotionRegion = [2]region{rankRegion(7), rankRegion(2)}
		s.promotionRegion[0] = orRegion(s.promotionRegion[0], rankRegion(8), rankRegion(9))
		s.promotionRegion[1] = orRegion(s.promotionRegion[1], rankRegion(1), rankRegion(0))
		for k, n := range map[string]int{"archbishop": 1, "chancellor": 1, "queen": 1, "rook": 2, "bishop": 2, "knight": 2} {
			s.promotionLimit[kindOf(k)] = n
		}
		s.mandatoryPawnPromo = false
		s.immobilityIllegal = true
		s.doubleStepRegion = [2]region{rankRegion(2), rankRegion(7)}
		s.castling = false
		return s
	},
}

// formatParents are variants built into Fairy-Stockfish that sections
// may name as parents although fairypost does not play them itself: the
// format's definitions, as settings.
var formatParents = map[string]func() settings{
	"nocastle": func() settings {
		s := chessSettings()
		s.startFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
		s.castling = false
		return s
	},
	"giveaway": giveawaySettings,
	"antichess": func() settings {
		s := giveawaySettings()
		s.startFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
		s.castling = false
		return s
	},
	"codrus": func() settings {
		s := giveawaySettings()
		s.promotionPieceTypes = [2]kindSet{}
		for c := 0; c < 2; c++ {
			for _, k := range []string{"queen", "rook", "bishop", "knight"} {
				s.promotionPieceTypes[c].kinds[kindOf(k)] = true
			}
		}
		s.extinctionPieceTypes = kindSet{}
		s.extinctionPieceTypes.kinds[kindOf("commoner")] = true
		return s
	},
	"losers": func() settings {
		s := chessSettings()
		s.checkmateValue, s.stalemateValue, s.extinctionValue = valueWin, valueWin, valueWin
		s.extinctionPieceTypes = kindSet{all: true}
		s.extinctionPieceCount = 1
		s.mustCapture = true
		return s
	},
	"misere": func() settings {
		s := chessSettings()
		s.checkmateValue = valueWin
		return s
	},
	"extinction": extinctionSettings,
	"kinglet": func() settings {
		s := extinctionSettings()
		s.promotionPieceTypes = [2]kindSet{}
		s.promotionPieceTypes[0].kinds[kindOf("commoner")] = true
		s.promotionPieceTypes[1].kinds[kindOf("commoner")] = true
		s.extinctionPieceTypes = kindSet{}
		s.extinctionPieceTypes.kinds[kindPawn] = true
		return s
	},
	"threekings": func() settings {
		s := commonerSettings()
		s.startFEN = "knbqkbnk/pppppppp/8/8/8/8/PPPPPPPP/KNBQKBNK w - - 0 1"
		s.extinctionValue = valueLoss
		s.extinctionPieceTypes.kinds[kindOf("commoner")] = true
		s.extinctionPieceCount = 2
		return s
	},
	"kingofthehill": func() settings {
		s := chessSettings()
		s.flagPiece = [2]pieceKind{kindKing + 1, kindKing + 1}
		var centre region
		for _, sq := range [][2]int{{3, 3}, {4, 3}, {3, 4}, {4, 4}} {
			centre.add(sq[0], sq[1])
		}
		s.flagRegion = [2]region{centre, centre}
		return s
	},
	"racingkings": func() settings {
		s := chessSettings()
		s.startFEN = "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1"
		s.flagPiece = [2]pieceKind{kindKing + 1, kindKing + 1}
		s.flagRegion = [2]region{rankRegion(7), rankRegion(7)}
		s.flagMove = true
		s.castling = false
		s.checking = false
		return s
	},
	"knightmate": func() settings {
		s := chessSettings()
		s.letters[kindOf("commoner")] = 'm'
		s.letters[kindOf("knight")] = 0
		s.betza[kindKing] = "N"
		s.startFEN = "rmbqkbmr/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBMR w KQkq - 0 1"
		for c := 0; c < 2; c++ {
			s.promotionPieceTypes[c] = kindSet{}
			for _, k := range []string{"commoner", "queen", "rook", "bishop"} {
				s.promotionPieceTypes[c].kinds[kindOf(k)] = true
			}
		}
		return s
	},
	"losalamos": func() settings {
		s := chessSettings()
		s.maxRank, s.maxFile = 6, 6
		s.letters[kindOf("bishop")] = 0
		s.startFEN = "rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1"
		s.promotionRegion = [2]region{rankRegion(5), rankRegion(0)}
		for c := 0; c < 2; c++ {
			s.promotionPieceTypes[c] = kindSet{}
			for _, k := range []string{"queen", "rook", "knight"} {
				s.promotionPieceTypes[c].kinds[kindOf(k)] = true
			}
		}
		s.doubleStep, s.castling = false, false
		return s
	},
	"gardner": func() settings {
		s := chessSettings()
		s.maxRank, s.maxFile = 5, 5
		s.startFEN = "rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1"
		s.promotionRegion = [2]region{rankRegion(4), rankRegion(0)}
		s.doubleStep, s.castling = false, false
		return s
	},
	"capablanca": capablancaSettings,
	"capahouse": func() settings {
		s := capablancaSettings()
		s.startFEN = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR[] w KQkq - 0 1"
		s.pieceDrops, s.capturesToHand = true, true
		return s
	},
	"gothic": func() settings {
		s := capablancaSettings()
		s.startFEN = "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq - 0 1"
		return s
	},
	"janus": func() settings {
		s := chessSettings()
		s.maxFile = 10
		s.castlingKingsideFile, s.castlingQueensideFile = 8, 1
		s.letters[kindOf("archbishop")] = 'j'
		s.startFEN = "rjnbkqbnjr/pppppppppp/10/10/10/10/PPPPPPPPPP/RJNBKQBNJR w KQkq - 0 1"
		for c := 0; c < 2; c++ {
			s.promotionPieceTypes[c].kinds[kindOf("archbishop")] = true
		}
		return s
	},
}

// commonerSettings is chess with a commoner (a king that is not royal)
// for the king, castling with it.
func commonerSettings() settings {
	s := chessSettings()
	s.letters[kindKing] = 0
	s.letters[kindOf("commoner")] = 'k'
	s.castlingKingPiece = [2]pieceKind{kindOf("commoner"), kindOf("commoner")}
	return s
}

func giveawaySettings() settings {
	s := commonerSettings()
	for c := 0; c < 2; c++ {
		s.promotionPieceTypes[c].kinds[kindOf("commoner")] = true
	}
	s.stalemateValue, s.extinctionValue = valueWin, valueWin
	s.extinctionPieceTypes = kindSet{all: true}
	s.mustCapture = true
	return s
}

func extinctionSettings() settings {
	s := commonerSettings()
	for c := 0; c < 2; c++ {
		s.promotionPieceTypes[c].kinds[kindOf("commoner")] = true
	}
	s.extinctionValue = valueLoss
	for _, k := range []string{"commoner", "queen", "rook", "bishop", "knight", "pawn"} {
		s.extinctionPieceTypes.kinds[kindOf(k)] = true
	}
	return s
}

func capablancaSettings() settings {
	s := chessSettings()
	s.maxFile = 10
	s.castlingKingsideFile, s.castlingQueensideFile = 8, 2
	s.letters[kindOf("archbishop")] = 'a'
	s.letters[kindOf("chancellor")] = 'c'
	s.startFEN = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1"
	for c := 0; c < 2; c++ {
		s.promotionPieceTypes[c].kinds[kindOf("archbishop")] = true
		s.promotionPieceTypes[c].kinds[kindOf("chancellor")] = true
	}
	return s
}

func orRegion(rs ...region) region {
	var out region
	for _, r := range rs {
		out[0] |= r[0]
		out[1] |= r[1]
	}
	return out
}

// letterKind returns the kind that has letter l (either case) now.
func (s *settings) letterKind(l byte) (pieceKind, bool) {
	l = lower(l)
	for k, have := range s.letters {
		if have != 0 && have == l {
			return pieceKind(k), true
		}
	}
	return 0, false
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// parseBool reads the format's true and false.
func parseBool(v string) (bool, error) {
	switch v {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("%q is not true or false", v)
}

func parseInt(v string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%q is not a whole number from %d to %d", v, lo, hi)
	}
	return n, nil
}

// parseRank reads a rank number (1-based) and returns it 0-based.
func parseRank(v string) (int, error) {
	n, err := parseInt(v, 1, maxRanks)
	if err != nil {
		return 0, fmt.Errorf("%q is not a rank from 1 to %d", v, maxRanks)
	}
	return n - 1, nil
}

// parseFile reads a file letter (a-l) or number (1-12) and returns it 0-based.
func parseFile(v string) (int, error) {
	if len(v) == 1 && v[0] >= 'a' && v[0] < 'a'+maxFiles {
		return int(v[0] - 'a'), nil
	}
	n, err := parseInt(v, 1, maxFiles)
	if err != nil {
		return 0, fmt.Errorf("%q is not a file from a to l (or 1 to %d)", v, maxFiles)
	}
	return n - 1, nil
}

func parseValue(v string) (value, error) {
	switch v {
	case "win":
		return valueWin, nil
	case "loss":
		return valueLoss, nil
	case "draw":
		return valueDraw, nil
	case "none":
		return valueNone, nil
	}
	return 0, fmt.Errorf("%q is not win, loss, draw or none", v)
}

// parseRegion reads squares ("d4 e5"), whole ranks ("*1") and whole files
// ("a*"), separated by spaces; "-" is the empty set.
func parseRegion(v string) (region, error) {
	var r region
	for _, tok := range strings.Fields(v) {
		if tok == "-" {
			break
		}
		switch {
		case strings.HasPrefix(tok, "*"):
			rank, err := parseRank(tok[1:])
			if err != nil {
				return r, fmt.Errorf("%q: %v", tok, err)
			}
			r = orRegion(r, rankRegion(rank))
		case len(tok) == 2 && tok[1] == '*':
			f, err := parseFile(tok[:1])
			if err != nil {
				return r, fmt.Errorf("%q: %v", tok, err)
			}
			for rank := 0; rank < maxRanks; rank++ {
				r.add(f, rank)
			}
		default:
			if len(tok) < 2 {
				return r, fmt.Errorf("%q is not a square, *rank or file*", tok)
			}
			f, err1 := parseFile(tok[:1])
			rank, err2 := parseRank(tok[1:])
			if err1 != nil || err2 != nil {
				return r, fmt.Errorf("%q is not a square, *rank or file*", tok)
			}
			r.add(f, rank)
		}
	}
	return r, nil
}

// parseKindSet reads piece letters ("qrbn"), '*' for every kind, or "-"
// for none.
func (s *settings) parseKindSet(v string) (kindSet, error) {
	var out kindSet
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == ' ' || c == '\t':
		case c == '-':
			return out, nil
		case c == '*':
			out.all = true
		default:
			k, ok := s.letterKind(c)
			if !ok {
				return out, fmt.Errorf("%q is not the letter of a piece of this variant", string(c))
			}
			out.kinds[k] = true
		}
	}
	return out, nil
}

// parseKind reads one piece letter.
func (s *settings) parseKind(v string) (pieceKind, error) {
	if len(v) != 1 {
		return 0, fmt.Errorf("%q is not one piece letter", v)
	}
	k, ok := s.letterKind(v[0])
	if !ok {
		return 0, fmt.Errorf("%q is not the letter of a piece of this variant", v)
	}
	return k, nil
}

// parsePairs reads "x:y x:y" lists of a piece letter and a value.
func parsePairs(v string, each func(letter byte, val string) error) error {
	for _, tok := range strings.Fields(v) {
		l, val, ok := strings.Cut(tok, ":")
		if !ok || len(l) != 1 || val == "" {
			return fmt.Errorf("%q is not of the form letter:value", tok)
		}
		if err := each(l[0], val); err != nil {
			return err
		}
	}
	return nil
}
