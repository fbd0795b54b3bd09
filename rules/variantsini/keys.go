package variantsini

import (
	"fmt"
	"sort"
	"strings"
)

// guiKeys are keys for graphical interfaces only; they are accepted and
// ignored.
var guiKeys = map[string]bool{"pieceToCharTable": true, "variantTemplate": true, "pocketSize": true}

// keySetter applies one key's value to settings.
type keySetter func(s *settings, v string) error

func boolKey(field func(s *settings) *bool) keySetter {
	return func(s *settings, v string) error {
		b, err := parseBool(v)
		if err == nil {
			*field(s) = b
		}
		return err
	}
}

func bothBool(field func(s *settings) *[2]bool) keySetter {
	return func(s *settings, v string) error {
		b, err := parseBool(v)
		if err == nil {
			*field(s) = [2]bool{b, b}
		}
		return err
	}
}

func valueKey(field func(s *settings) *value) keySetter {
	return func(s *settings, v string) error {
		x, err := parseValue(v)
		if err == nil {
			*field(s) = x
		}
		return err
	}
}

func regionKey(field func(s *settings) *region) keySetter {
	return func(s *settings, v string) error {
		r, err := parseRegion(v)
		if err == nil {
			*field(s) = r
		}
		return err
	}
}

func intKey(field func(s *settings) *int, lo, hi int) keySetter {
	return func(s *settings, v string) error {
		n, err := parseInt(v, lo, hi)
		if err == nil {
			*field(s) = n
		}
		return err
	}
}

func kindSetKey(field func(s *settings) *kindSet) keySetter {
	return func(s *settings, v string) error {
		ks, err := s.parseKindSet(v)
		if err == nil {
			*field(s) = ks
		}
		return err
	}
}

// optKindKey sets a kind+1 field from one letter ("-" or "*" for none:
// any piece).
func optKindKey(field func(s *settings) *pieceKind) keySetter {
	return func(s *settings, v string) error {
		if v == "-" || v == "*" {
			*field(s) = 0
			return nil
		}
		k, err := s.parseKind(v)
		if err == nil {
			*field(s) = k + 1
		}
		return err
	}
}

// settingKeys are the supported keys other than the piece keys.
var settingKeys = map[string]keySetter{
	"startFen": func(s *settings, v string) error {
		if v == "" {
			return fmt.Errorf("empty start position")
		}
		s.startFEN = v
		return nil
	},
	"doubleStep":            boolKey(func(s *settings) *bool { return &s.doubleStep }),
	"doubleStepRegionWhite": regionKey(func(s *settings) *region { return &s.doubleStepRegion[0] }),
	"doubleStepRegionBlack": regionKey(func(s *settings) *region { return &s.doubleStepRegion[1] }),
	"enPassantRegion": func(s *settings, v string) error {
		r, err := parseRegion(v)
		if err == nil {
			s.enPassantRegion = [2]region{r, r}
		}
		return err
	},
	"promotionRegionWhite": regionKey(func(s *settings) *region { return &s.promotionRegion[0] }),
	"promotionRegionBlack": regionKey(func(s *settings) *region { return &s.promotionRegion[1] }),
	"promotionPieceTypes": func(s *settings, v string) error {
		ks, err := s.parseKindSet(v)
		if err == nil {
			s.promotionPieceTypes = [2]kindSet{ks, ks}
		}
		return err
	},
	"promotionPieceTypesWhite": kindSetKey(func(s *settings) *kindSet { return &s.promotionPieceTypes[0] }),
	"promotionPieceTypesBlack": kindSetKey(func(s *settings) *kindSet { return &s.promotionPieceTypes[1] }),
	"promotionLimit": func(s *settings, v string) error {
		var out [numKinds]int
		err := parsePairs(v, func(l byte, val string) error {
			k, ok := s.letterKind(l)
			if !ok {
				return fmt.Errorf("%q is not the letter of a piece of this variant", string(l))
			}
			n, err := parseInt(val, 0, 99)
			out[k] = n
			return err
		})
		if err == nil {
			s.promotionLimit = out
		}
		return err
	},
	"mandatoryPawnPromotion": boolKey(func(s *settings) *bool { return &s.mandatoryPawnPromo }),
	"immobilityIllegal":      boolKey(func(s *settings) *bool { return &s.immobilityIllegal }),

	"castling": boolKey(func(s *settings) *bool { return &s.castling }),
	"castlingKingsideFile": func(s *settings, v string) error {
		f, err := parseFile(v)
		s.castlingKingsideFile = f
		return err
	},
	"castlingQueensideFile": func(s *settings, v string) error {
		f, err := parseFile(v)
		s.castlingQueensideFile = f
		return err
	},
	"castlingRank": func(s *settings, v string) error {
		r, err := parseRank(v)
		s.castlingRank = r
		return err
	},
	"castlingKingPiece": func(s *settings, v string) error {
		k, err := s.parseKind(v)
		if err == nil {
			s.castlingKingPiece = [2]pieceKind{k, k}
		}
		return err
	},
	"castlingRookPieces": func(s *settings, v string) error {
		ks, err := s.parseKindSet(v)
		if err == nil {
			s.castlingRookPieces = [2]kindSet{ks, ks}
		}
		return err
	},

	"pieceDrops":             boolKey(func(s *settings) *bool { return &s.pieceDrops }),
	"capturesToHand":         boolKey(func(s *settings) *bool { return &s.capturesToHand }),
	"firstRankPawnDrops":     boolKey(func(s *settings) *bool { return &s.firstRankPawnDrops }),
	"promotionZonePawnDrops": boolKey(func(s *settings) *bool { return &s.promotionZonePawnDrops }),
	"dropRegionWhite":        regionKey(func(s *settings) *region { return &s.dropRegion[0] }),
	"dropRegionBlack":        regionKey(func(s *settings) *region { return &s.dropRegion[1] }),
	"dropNoDoubled":          optKindKey(func(s *settings) *pieceKind { return &s.dropNoDoubled }),
	"mustDrop":               boolKey(func(s *settings) *bool { return &s.mustDrop }),
	"mustCapture":            boolKey(func(s *settings) *bool { return &s.mustCapture }),

	"checking":              boolKey(func(s *settings) *bool { return &s.checking }),
	"checkmateValue":        valueKey(func(s *settings) *value { return &s.checkmateValue }),
	"stalemateValue":        valueKey(func(s *settings) *value { return &s.stalemateValue }),
	"extinctionValue":       valueKey(func(s *settings) *value { return &s.extinctionValue }),
	"extinctionPieceTypes":  kindSetKey(func(s *settings) *kindSet { return &s.extinctionPieceTypes }),
	"extinctionPieceCount":  intKey(func(s *settings) *int { return &s.extinctionPieceCount }, 0, 120),
	"extinctionPseudoRoyal": boolKey(func(s *settings) *bool { return &s.extinctionPseudoRoyal }),
	"flagPiece": func(s *settings, v string) error {
		var k pieceKind
		err := optKindKey(func(*settings) *pieceKind { return &k })(s, v)
		if err == nil {
			s.flagPiece = [2]pieceKind{k, k}
		}
		return err
	},
	"flagPieceWhite": optKindKey(func(s *settings) *pieceKind { return &s.flagPiece[0] }),
	"flagPieceBlack": optKindKey(func(s *settings) *pieceKind { return &s.flagPiece[1] }),
	"flagRegion": func(s *settings, v string) error {
		r, err := parseRegion(v)
		if err == nil {
			s.flagRegion = [2]region{r, r}
		}
		return err
	},
	"flagRegionWhite": regionKey(func(s *settings) *region { return &s.flagRegion[0] }),
	"flagRegionBlack": regionKey(func(s *settings) *region { return &s.flagRegion[1] }),
	"flagMove":        boolKey(func(s *settings) *bool { return &s.flagMove }),
	"flagPieceCount":  intKey(func(s *settings) *int { return &s.flagPieceCount }, 1, 120),
	"nMoveRule":       intKey(func(s *settings) *int { return &s.nMoveRule }, 0, 1000),
	"nFoldRule":       intKey(func(s *settings) *int { return &s.nFoldRule }, 0, 100),
	"nFoldValue":      valueKey(func(s *settings) *value { return &s.nFoldValue }),
	"pass":            bothBool(func(s *settings) *[2]bool { return &s.pass }),
	"passOnStalemate": bothBool(func(s *settings) *[2]bool { return &s.passOnStalemate }),

	// Piece values only guide a computer player; they are checked and not used yet.
	"pieceValueMg": pieceValues,
	"pieceValueEg": pieceValues,
}

func pieceValues(s *settings, v string) error {
	return parsePairs(v, func(l byte, val string) error {
		if _, ok := s.letterKind(l); !ok {
			return fmt.Errorf("%q is not the letter of a piece of this variant", string(l))
		}
		_, err := parseInt(val, 0, 100000)
		return err
	})
}

// SupportedKeys returns every key a section may set, sorted: the piece
// keys (pawn ... centaur, customPiece1..25, king), the rule keys and the
// ignored GUI keys.
func SupportedKeys() []string {
	var out []string
	for k := pieceKind(0); k < numKinds; k++ {
		if _, bad := unsupportedKinds[k]; !bad {
			out = append(out, k.key())
		}
	}
	for k := range settingKeys {
		out = append(out, k)
	}
	for k := range guiKeys {
		out = append(out, k)
	}
	out = append(out, "maxRank", "maxFile")
	sort.Strings(out)
	return out
}

// apply applies a section's entries to s in the format's order: the board
// size, then the pieces (in type order), then every other key; problems
// are appended to errs.
func (s *settings) apply(entries []Entry, errs *ErrorList) {
	bad := func(e Entry, err error) {
		*errs = append(*errs, Error{e.Line, fmt.Sprintf("`%s`: %v", e.Key, err)})
	}
	for _, e := range entries {
		var err error
		switch e.Key {
		case "maxRank":
			var n int
			if n, err = parseInt(e.Value, 1, 1000); err == nil {
				s.maxRank = n
			}
		case "maxFile":
			var f int
			if f, err = parseFile(e.Value); err != nil {
				// Refused below with the board size, when it is a number.
				if n, err2 := parseInt(e.Value, 1, 1000); err2 == nil {
					f, err = n-1, nil
				}
			}
			if err == nil {
				s.maxFile = f + 1
			}
		default:
			continue
		}
		if err != nil {
			bad(e, err)
		}
	}
	byKey := map[string]Entry{}
	for _, e := range entries {
		byKey[e.Key] = e
	}
	for k := pieceKind(0); k < numKinds; k++ {
		e, ok := byKey[k.key()]
		if !ok {
			continue
		}
		if err := s.setPiece(k, e.Value); err != nil {
			bad(e, err)
		}
	}
	for _, e := range entries {
		if e.Key == "maxRank" || e.Key == "maxFile" || guiKeys[e.Key] {
			continue
		}
		if _, isPiece := kindByKey(e.Key); isPiece {
			continue
		}
		set, ok := settingKeys[e.Key]
		if !ok {
			*errs = append(*errs, Error{e.Line, fmt.Sprintf("`%s` is not supported", e.Key)})
			continue
		}
		if err := set(s, e.Value); err != nil {
			bad(e, err)
		}
	}
}

// setPiece applies a piece key: "x" gives kind k the letter x, "-"
// removes it, and for custom pieces and the king "x:Betza" also says how
// it moves.
func (s *settings) setPiece(k pieceKind, v string) error {
	if why, bad := unsupportedKinds[k]; bad && v != "-" {
		return fmt.Errorf("this piece is not supported: %s", why)
	}
	if v == "-" {
		s.letters[k] = 0
		s.betza[k] = ""
		return nil
	}
	letter, betza, hasBetza := strings.Cut(v, ":")
	if len(letter) != 1 || !(letter[0] >= 'a' && letter[0] <= 'z' || letter[0] >= 'A' && letter[0] <= 'Z') {
		return fmt.Errorf("%q: want one letter, or - to remove the piece", v)
	}
	custom := k >= kindCustom && k < kindKing
	switch {
	case custom && (!hasBetza || betza == ""):
		return fmt.Errorf("%q: a custom piece needs its moves, as letter:Betza (customPiece1 = a:mRcpR)", v)
	case !custom && k != kindKing && hasBetza:
		return fmt.Errorf("%q: only custom pieces and the king take a Betza description", v)
	}
	if hasBetza {
		if _, err := translateBetza(betza); err != nil {
			return err
		}
	}
	l := lower(letter[0])
	// A letter names one piece: the piece that had it loses it.
	for other := range s.letters {
		if s.letters[other] == l {
			s.letters[other] = 0
			s.betza[other] = ""
		}
	}
	s.letters[k] = l
	s.betza[k] = betza
	return nil
}
