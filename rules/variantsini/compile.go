package variantsini

import (
	"fmt"
	"sort"
	"strings"

	"github.com/fairypost/fairypost/rules"
)

// Definition is one compiled section: its name, its parent, and the
// variant's data, ready to be registered.
type Definition struct {
	Name, Parent string
	Line         int // the section's header line
	variant      *rules.Variant
}

// Variant returns a fresh copy of the definition's variant data, not yet
// registered (rules.Registry.Register compiles it).
func (d *Definition) Variant() *rules.Variant {
	v := *d.variant
	v.Pieces = append([]rules.PieceDef(nil), d.variant.Pieces...)
	v.Castling = append([]rules.CastlingRule(nil), d.variant.Castling...)
	return &v
}

// Compile parses text and compiles every section against the variants of
// reg (which may serve as parents), then registers each section in reg
// under its name. Nothing is registered unless every section compiles:
// on any problem Compile returns an ErrorList with every problem found,
// by line, and leaves reg unchanged.
func Compile(text string, reg *rules.Registry) ([]*Definition, error) {
	defs, err := Check(text, reg)
	if err != nil {
		return nil, err
	}
	for _, d := range defs {
		d := d
		if err := reg.Register(d.Name, func(map[string]string) (*rules.Variant, error) { return d.Variant(), nil }); err != nil {
			// Check has registered each section in a scratch registry,
			// so this is a safeguard only.
			return nil, ErrorList{{d.Line, err.Error()}}
		}
	}
	return defs, nil
}

// Check parses and compiles text as Compile does, without registering
// anything in reg: every section is tried in a registry of its own.
func Check(text string, reg *rules.Registry) ([]*Definition, error) {
	defs, err := CheckEach(text, reg)
	if err != nil {
		return nil, err
	}
	return defs, nil
}

// CheckEach is Check that also returns the sections that compiled when
// others did not (a section whose parent failed fails too).
func CheckEach(text string, reg *rules.Registry) ([]*Definition, error) {
	sections, err := Parse(text)
	if err != nil {
		return nil, err
	}
	if len(sections) > MaxSections {
		return nil, ErrorList{{sections[MaxSections].Line, fmt.Sprintf("more than %d sections in one text", MaxSections)}}
	}
	// Each section is registered in a scratch registry, which checks and
	// compiles it as the real one will (section names are unique).
	scratch, err := rules.NewRegistry()
	if err != nil {
		return nil, err
	}
	var errs ErrorList
	var defs []*Definition
	done := map[string]settings{}
	for _, sec := range sections {
		if formatParents[sec.Name] != nil {
			errs = append(errs, Error{sec.Line, fmt.Sprintf("[%s] is the name of a variant built into the format; choose another name", sec.Name)})
			continue
		}
		if reg != nil && reg.Default(sec.Name) != nil {
			errs = append(errs, Error{sec.Line, fmt.Sprintf("[%s] is the name of a variant fairypost already has; choose another name", sec.Name)})
			continue
		}
		var s settings
		switch parent, own := done[sec.Parent]; {
		case sec.Parent == "":
			s = emptyTemplate()
		case own:
			s = parent
		case builtinParents[sec.Parent] != nil:
			s = builtinParents[sec.Parent]()
		case formatParents[sec.Parent] != nil:
			s = formatParents[sec.Parent]()
		default:
			msg := fmt.Sprintf("parent %q is not a variant that can be extended: use %s or a section defined earlier in the text", sec.Parent, parentNames())
			if sec.Parent == sec.Name {
				msg = fmt.Sprintf("[%s] names itself as its parent", sec.Name)
			}
			errs = append(errs, Error{sec.Line, msg})
			continue
		}
		n := len(errs)
		s.lines = map[string]int{}
		for _, e := range sec.Entries {
			s.lines[e.Key] = e.Line
		}
		s.apply(sec.Entries, &errs)
		if len(errs) > n {
			continue
		}
		v, cerrs := s.compile(sec)
		if len(cerrs) > 0 {
			errs = append(errs, cerrs...)
			continue
		}
		err = scratch.Register(sec.Name, func(map[string]string) (*rules.Variant, error) {
			c := *v
			return &c, nil
		})
		if err != nil {
			errs = append(errs, Error{sec.Line, fmt.Sprintf("[%s]: %s", sec.Name, strings.TrimPrefix(err.Error(), "invalid variant "))})
			continue
		}
		done[sec.Name] = s
		defs = append(defs, &Definition{Name: sec.Name, Parent: sec.Parent, Line: sec.Line, variant: v})
	}
	if len(errs) > 0 {
		return defs, errs.sorted()
	}
	return defs, nil
}

// parentNames lists the variants a section may name as its parent.
func parentNames() string {
	var names []string
	for n := range builtinParents {
		names = append(names, n)
	}
	for n := range formatParents {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// MaxSections bounds the sections of one text.
const MaxSections = 200

// compiler collects the problems of one section's compilation.
type compiler struct {
	s    *settings
	sec  Section
	errs ErrorList
}

// fail reports a problem with key (at its line in the section, or at
// the header when the section inherits it).
func (c *compiler) fail(key, format string, args ...any) {
	line, ok := c.s.lines[key]
	msg := fmt.Sprintf(format, args...)
	if !ok {
		line = c.sec.Line
		if key != "" {
			msg = fmt.Sprintf("`%s` (inherited): %s", key, msg)
		}
	} else {
		msg = fmt.Sprintf("`%s`: %s", key, msg)
	}
	c.errs = append(c.errs, Error{line, msg})
}

// wholeRanks returns the ranks (0-based) of r when r, within the board,
// is a union of whole ranks.
func (s *settings) wholeRanks(r region) ([]int, bool) {
	var ranks []int
	for rank := 0; rank < s.maxRank; rank++ {
		n := 0
		for f := 0; f < s.maxFile; f++ {
			if r.has(f, rank) {
				n++
			}
		}
		switch n {
		case 0:
		case s.maxFile:
			ranks = append(ranks, rank)
		default:
			return nil, false
		}
	}
	return ranks, true
}

// relativeRanks returns the owner-relative ranks (0-based) of a region
// given per side, when both sides' regions are the same whole ranks seen
// from each side.
func (s *settings) relativeRanks(r [2]region) ([]int, string) {
	w, ok1 := s.wholeRanks(r[0])
	b, ok2 := s.wholeRanks(r[1])
	if !ok1 || !ok2 {
		return nil, "only whole ranks are supported"
	}
	mirrored := len(w) == len(b)
	for i := 0; mirrored && i < len(w); i++ {
		mirrored = b[len(b)-1-i] == s.maxRank-1-w[i]
	}
	if !mirrored {
		return nil, fmt.Sprintf("White's is %s and Black's %s on a board of %d ranks; Black's must be White's seen from Black's side", rankList(w), rankList(b), s.maxRank)
	}
	return w, ""
}

// rankList names 0-based ranks for people: "ranks 6, 7 and 8".
func rankList(ranks []int) string {
	if len(ranks) == 0 {
		return "empty"
	}
	var names []string
	for _, r := range ranks {
		names = append(names, fmt.Sprint(r+1))
	}
	if len(names) == 1 {
		return "rank " + names[0]
	}
	return "ranks " + strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

func (k kindSet) has(x pieceKind) bool { return k.all || k.kinds[x] }

// compile turns the settings of a section into variant data.
func (s *settings) compile(sec Section) (*rules.Variant, ErrorList) {
	c := &compiler{s: s, sec: sec}
	if s.maxFile > maxFiles || s.maxRank > maxRanks {
		key := "maxFile"
		if s.maxRank > maxRanks {
			key = "maxRank"
		}
		c.fail(key, "the board is %d files by %d ranks; at most %d by %d is supported (the largest board Fairy-Stockfish, which proves the rules, can play)", s.maxFile, s.maxRank, maxFiles, maxRanks)
		return nil, c.errs
	}
	if s.maxFile < 2 || s.maxRank < 2 {
		c.fail("maxFile", "the board is %d files by %d ranks; at least 2 by 2", s.maxFile, s.maxRank)
		return nil, c.errs
	}
	v := &rules.Variant{
		Key:   sec.Name,
		Name:  sec.Name,
		Files: s.maxFile,
		Ranks: s.maxRank,
	}
	hasPawn := s.letters[kindPawn] != 0

	// Initial moves (the pawn's double step, custom pieces' i moves) are
	// made from the double-step region, which must be one whole rank.
	initialRank := 0
	needInitial := hasPawn
	for k := kindCustom; k <= kindKing; k++ {
		if s.letters[k] != 0 && strings.Contains(s.betza[k], "i") {
			needInitial = true
		}
	}
	if s.doubleStep && needInitial {
		ranks, msg := s.relativeRanks(s.doubleStepRegion)
		switch {
		case msg != "":
			c.fail("doubleStepRegionWhite", "the double-step region: %s", msg)
		case len(ranks) > 1:
			c.fail("doubleStepRegionWhite", "the double-step region must be one rank")
		case len(ranks) == 1:
			initialRank = ranks[0] + 1
		}
	}

	// Pieces, in the format's type order.
	for k := pieceKind(0); k < numKinds; k++ {
		l := s.letters[k]
		if l == 0 {
			continue
		}
		d := rules.PieceDef{Letter: l - 'a' + 'A', Art: "custom", TurnedForBlack: true}
		var fsf string
		switch {
		case k == kindPawn:
			d.Name, d.Art, d.Pawn = "Pawn", "pawn", true
			d.Betza = "fmWfceF"
			if initialRank > 0 {
				d.Betza += "ifmnD"
				d.InitialRank = initialRank
			}
		case k < kindCustom:
			d.Name, d.Art, fsf = predefined[k].name, predefined[k].art, predefined[k].betza
		case k < kindKing:
			d.Name, fsf = fmt.Sprintf("Piece %c", l-'a'+'A'), s.betza[k]
		default:
			d.Name, d.Art, d.Royal, fsf = "King", "king", true, "K"
			if s.betza[k] != "" {
				fsf = s.betza[k]
			}
		}
		if k != kindPawn {
			b, err := translateBetza(fsf)
			if err != nil {
				c.fail(k.key(), "%v", err)
				continue
			}
			if initialRank == 0 {
				b = dropInitial(b)
			} else if strings.Contains(b, "i") {
				d.InitialRank = initialRank
			}
			if b == "" {
				c.fail(k.key(), "the piece has no move outside the double-step region, which this variant does not have")
				continue
			}
			d.Betza = b
		}
		v.Pieces = append(v.Pieces, d)
	}
	if len(v.Pieces) == 0 {
		c.fail("", "the variant has no pieces: give each piece a letter (pawn = p, king = k, customPiece1 = a:NB, ...)")
		return nil, c.errs
	}
	kingLetter := s.letters[kindKing]
	v.CheckRule = kingLetter != 0
	v.StartFEN = s.startFEN

	for side := 0; side < 2; side++ {
		if s.enPassantRegion[side] == allSquares() {
			continue
		}
		v.EnPassantRegion[side] = []string{}
		for r := 0; r < s.maxRank; r++ {
			for f := 0; f < s.maxFile; f++ {
				if s.enPassantRegion[side].has(f, r) {
					v.EnPassantRegion[side] = append(v.EnPassantRegion[side], fmt.Sprintf("%c%d", 'a'+f, r+1))
				}
			}
		}
	}
	c.promotion(v, hasPawn)
	c.castlingRules(v)
	v.StartFEN = keepRights(v.StartFEN, v.Castling)
	c.drops(v, hasPawn)
	c.ends(v, kingLetter != 0)

	v.NoStranding = s.immobilityIllegal

	v.Help = rules.VariantHelp{Summary: summary(sec, v)}
	if len(c.errs) > 0 {
		return nil, c.errs
	}
	return v, nil
}

// dropInitial removes the initial-only groups of a description written
// by translateBetza (each group is its own prefix and atom).
func dropInitial(b string) string {
	var out strings.Builder
	start := 0
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c >= 'A' && c <= 'Z' {
			end := i + 1
			for end < len(b) && (b[end] >= '0' && b[end] <= '9' || b[end] == c) {
				end++
			}
			group := b[start:end]
			if !strings.Contains(group[:i-start], "i") {
				out.WriteString(group)
			}
			start = end
			i = end - 1
		}
	}
	return out.String()
}

// summary describes the variant for players in a sentence.
func summary(sec Section, v *rules.Variant) string {
	from := "defined from scratch"
	if sec.Parent != "" {
		from = "based on " + sec.Parent
	}
	return fmt.Sprintf("A variant defined in Fairy-Stockfish's variants.ini format (section [%s], %s), on a %dx%d board.", sec.Name, from, v.Files, v.Ranks)
}

func (c *compiler) promotion(v *rules.Variant, hasPawn bool) {
	s := c.s
	if !hasPawn {
		return
	}
	ranks, msg := s.relativeRanks(s.promotionRegion)
	if msg != "" {
		c.fail("promotionRegionWhite", "the promotion region: %s", msg)
		return
	}
	if len(ranks) == 0 {
		return
	}
	for i, r := range ranks {
		if r != s.maxRank-len(ranks)+i {
			c.fail("promotionRegionWhite", "the promotion region must be the last ranks of the board (rank %d, as the format's default for chess, is not the last on a board of %d ranks)", r+1, s.maxRank)
			return
		}
	}
	if s.promotionPieceTypes[0] != s.promotionPieceTypes[1] {
		c.fail("promotionPieceTypesWhite", "White and Black must promote to the same pieces")
		return
	}
	var choices []byte
	limits := map[byte]int{}
	for k := pieceKind(0); k < numKinds; k++ {
		if s.letters[k] == 0 || !s.promotionPieceTypes[0].has(k) || k == kindPawn {
			continue
		}
		if k == kindKing && s.promotionPieceTypes[0].all {
			continue
		}
		choices = append(choices, s.letters[k]-'a'+'A')
		if s.promotionLimit[k] > 0 {
			limits[s.letters[k]-'a'+'A'] = s.promotionLimit[k]
		}
	}
	if len(choices) == 0 {
		return
	}
	v.Promotion = rules.Promotion{Zone: len(ranks), Choices: string(choices), Rule: rules.PromoteInZone}
	if len(limits) > 0 {
		v.Promotion.Limits = limits
	}
	if !s.mandatoryPawnPromo {
		v.Promotion.Rule = rules.PromoteOptional
	}
}

func (c *compiler) castlingRules(v *rules.Variant) {
	s := c.s
	if !s.castling {
		return
	}
	if s.castlingKingPiece[0] != s.castlingKingPiece[1] || s.castlingRookPieces[0] != s.castlingRookPieces[1] {
		c.fail("castlingKingPiece", "White and Black must castle with the same pieces")
		return
	}
	king := s.letters[s.castlingKingPiece[0]]
	var rooks []byte
	for k := pieceKind(0); k < numKinds; k++ {
		if s.letters[k] != 0 && s.castlingRookPieces[0].has(k) {
			rooks = append(rooks, s.letters[k])
		}
	}
	if king == 0 || len(rooks) == 0 {
		return
	}
	if len(rooks) > 1 {
		c.fail("castlingRookPieces", "castling with more than one kind of rook is not supported")
		return
	}
	rook := rooks[0]
	// Only a royal piece castles out of, through and into safety.
	k := s.castlingKingPiece[0]
	royal := k == kindKing || s.extinctionPseudoRoyal && s.extinctionValue != valueNone && s.extinctionPieceTypes.kinds[k]
	board := strings.Fields(s.startFEN)
	if len(board) == 0 {
		return
	}
	rows := strings.Split(strings.SplitN(board[0], "[", 2)[0], "/")
	if len(rows) != s.maxRank {
		return // the start position is refused by the engine with its reason
	}
	for side, color := range []rules.Color{rules.White, rules.Black} {
		rank := s.castlingRank
		if side == 1 {
			rank = s.maxRank - 1 - rank
		}
		row := expandRow(rows[s.maxRank-1-rank])
		want := king
		rookWant := rook
		if side == 0 {
			want, rookWant = upper(king), upper(rook)
		}
		// The castling piece is the one on the castling rank; of several,
		// the one on the e-file (the format's castlingKingFile).
		kf := strings.IndexByte(row, want)
		if strings.Count(row, string(want)) > 1 {
			kf = -1
			if len(row) > 4 && row[4] == want {
				kf = 4
			}
		}
		if kf < 0 {
			continue
		}
		name := func(f int) string { return fmt.Sprintf("%c%d", 'a'+f, rank+1) }
		// The rook of each side is the outermost one; kingside first,
		// as FEN lists the rights.
		if rf := strings.LastIndexByte(row, rookWant); rf > kf {
			letter := byte('K')
			if side == 1 {
				letter = 'k'
			}
			v.Castling = append(v.Castling, rules.CastlingRule{Color: color, FENLetter: letter, Piece: upper(king), Rook: upper(rook),
				PieceFrom: name(kf), PieceTo: name(s.castlingKingsideFile), RookFrom: name(rf), RookTo: name(s.castlingKingsideFile - 1),
				IgnoreAttacks: !royal})
		}
		if rf := strings.IndexByte(row, rookWant); rf >= 0 && rf < kf {
			letter := byte('Q')
			if side == 1 {
				letter = 'q'
			}
			v.Castling = append(v.Castling, rules.CastlingRule{Color: color, FENLetter: letter, Piece: upper(king), Rook: upper(rook),
				PieceFrom: name(kf), PieceTo: name(s.castlingQueensideFile), RookFrom: name(rf), RookTo: name(s.castlingQueensideFile + 1),
				IgnoreAttacks: !royal})
		}
	}
}

// keepRights drops from the castling field of fen the rights no rule
// of the variant has, as the format ignores them.
func keepRights(fen string, castling []rules.CastlingRule) string {
	f := strings.Fields(fen)
	if len(f) < 3 || f[2] == "-" {
		return fen
	}
	var kept []byte
	for i := 0; i < len(f[2]); i++ {
		for _, r := range castling {
			if r.FENLetter == f[2][i] {
				kept = append(kept, f[2][i])
				break
			}
		}
	}
	if len(kept) == 0 {
		kept = []byte("-")
	}
	f[2] = string(kept)
	return strings.Join(f, " ")
}

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// expandRow writes a FEN rank with one byte per square ('.' for empty;
// promoted marks dropped).
func expandRow(row string) string {
	var b strings.Builder
	for i := 0; i < len(row); i++ {
		c := row[i]
		switch {
		case c >= '0' && c <= '9':
			n := int(c - '0')
			if i+1 < len(row) && row[i+1] >= '0' && row[i+1] <= '9' {
				n = n*10 + int(row[i+1]-'0')
				i++
			}
			b.WriteString(strings.Repeat(".", n))
		case c == '~':
		case c == '+':
			b.WriteByte('+')
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func (c *compiler) drops(v *rules.Variant, hasPawn bool) {
	s := c.s
	if s.capturesToHand && !s.pieceDrops {
		c.fail("capturesToHand", "needs pieceDrops = true")
		return
	}
	if !s.pieceDrops {
		return
	}
	v.Drops = rules.Drops{Enabled: true, CapturesToHand: s.capturesToHand}
	v.MustDrop = s.mustDrop
	if s.capturesToHand && hasPawn && v.Promotion.Zone > 0 {
		v.Promotion.Remember = true
		v.Drops.DemoteTo = 'P'
	}
	allowed, msg := s.relativeRanks(s.dropRegion)
	if msg != "" {
		c.fail("dropRegionWhite", "the drop region: %s", msg)
		return
	}
	in := map[int]bool{}
	for _, r := range allowed {
		in[r] = true
	}
	zone := map[int]bool{}
	if z := v.Promotion.Zone; z > 0 {
		for r := s.maxRank - z; r < s.maxRank; r++ {
			zone[r] = true
		}
	} else if hasPawn {
		// A pawn without promotion choices still may not be dropped in
		// the promotion region.
		if ranks, msg := s.relativeRanks(s.promotionRegion); msg == "" {
			for _, r := range ranks {
				zone[r] = true
			}
		}
	}
	if k := s.dropNoDoubled; k != 0 && s.letters[k-1] != 0 {
		v.Drops.NoDoubled = upper(s.letters[k-1])
	}
	for i := range v.Pieces {
		d := &v.Pieces[i]
		for r := 0; r < s.maxRank; r++ {
			no := !in[r]
			if d.Pawn && (r == 0 && !s.firstRankPawnDrops || zone[r] && !s.promotionZonePawnDrops) {
				no = true
			}
			if no {
				d.NoDropRanks = append(d.NoDropRanks, r+1)
			}
		}
	}
}

// endValue converts a value of the format to the engine's; ok is false
// for none.
func endValue(v value) (rules.EndValue, bool) {
	switch v {
	case valueWin:
		return rules.EndWin, true
	case valueDraw:
		return rules.EndDraw, true
	case valueLoss:
		return rules.EndLoss, true
	}
	return 0, false
}

func (c *compiler) ends(v *rules.Variant, hasKing bool) {
	s := c.s
	v.NoChecks = !s.checking
	v.MustCapture = s.mustCapture
	if ev, ok := endValue(s.checkmateValue); ok {
		v.Checkmate = ev
	} else {
		c.fail("checkmateValue", "none is not supported; use win, loss or draw")
	}
	switch s.stalemateValue {
	case valueDraw:
		v.Stalemate = rules.StalemateDraw
	case valueLoss:
		v.Stalemate = rules.StalemateLoses
	case valueWin:
		v.Stalemate = rules.StalemateWins
	default:
		c.fail("stalemateValue", "none is not supported; use win, loss or draw")
	}
	extinction := s.extinctionValue != valueNone && !s.extinctionPieceTypes.empty()
	switch {
	case extinction && s.extinctionPseudoRoyal:
		c.pseudoRoyal(v)
		hasKing = true
	case extinction:
		ev, _ := endValue(s.extinctionValue)
		e := &rules.Extinction{Count: s.extinctionPieceCount, Value: ev}
		if s.extinctionPieceTypes.all {
			e.Types = "*"
		}
		for k := pieceKind(0); k < numKinds; k++ {
			if s.letters[k] != 0 && s.extinctionPieceTypes.kinds[k] {
				e.Types += string(upper(s.letters[k]))
			}
		}
		if e.Types == "" {
			c.fail("extinctionPieceTypes", "names no piece of the variant")
		}
		v.Extinction = e
	}
	if s.flagRegion[0] != (region{}) || s.flagRegion[1] != (region{}) {
		f := &rules.FlagRule{ExtraMove: s.flagMove, Count: s.flagPieceCount}
		for side := 0; side < 2; side++ {
			if k := s.flagPiece[side]; k != 0 && s.letters[k-1] != 0 {
				f.Piece[side] = upper(s.letters[k-1])
			}
			for r := 0; r < s.maxRank; r++ {
				for fl := 0; fl < s.maxFile; fl++ {
					if s.flagRegion[side].has(fl, r) {
						f.Region[side] = append(f.Region[side], fmt.Sprintf("%c%d", 'a'+fl, r+1))
					}
				}
			}
		}
		v.Flag = f
	}
	for side := 0; side < 2; side++ {
		v.Pass[side] = s.pass[side] || s.passOnStalemate[side]
	}
	v.PassOnlyWhenStuck = s.passOnStalemate
	v.DoublePassDraws = v.Pass[0] || v.Pass[1]
	if s.nMoveRule > 0 {
		v.DrawAutoPlies = 2 * s.nMoveRule
	}
	if s.nFoldRule > 0 {
		v.RepetitionAuto = s.nFoldRule
		switch ev, ok := endValue(s.nFoldValue); {
		case !ok:
			c.fail("nFoldValue", "none is not supported; use win, loss or draw")
		case ev != rules.EndDraw:
			v.RepetitionValue = &ev
		}
	}
	if !hasKing && !extinction && v.Flag == nil {
		c.fail("king", "the variant has no king, no extinction rule and no flag rule: nothing ends it")
	}
}

// pseudoRoyal makes the extinction kinds royal: a side may not leave its
// piece of them attacked, and loses it by checkmate. The engine's royal
// piece is one per side, so this is supported where each side starts
// with at most one such piece (the king included) and cannot get another.
func (c *compiler) pseudoRoyal(v *rules.Variant) {
	s := c.s
	if s.extinctionPieceTypes.all {
		c.fail("extinctionPseudoRoyal", "with extinctionPieceTypes = * is not supported")
		return
	}
	if s.extinctionPieceCount != 0 {
		c.fail("extinctionPseudoRoyal", "with an extinctionPieceCount other than 0 is not supported")
		return
	}
	if s.pieceDrops {
		c.fail("extinctionPseudoRoyal", "with drops is not supported")
		return
	}
	royal := map[byte]bool{}
	for k := pieceKind(0); k < numKinds; k++ {
		if s.letters[k] != 0 && (s.extinctionPieceTypes.kinds[k] || k == kindKing) {
			royal[upper(s.letters[k])] = true
		}
	}
	for i := range v.Pieces {
		if royal[v.Pieces[i].Letter] {
			v.Pieces[i].Royal = true
			if strings.IndexByte(v.Promotion.Choices, v.Pieces[i].Letter) >= 0 {
				c.fail("extinctionPseudoRoyal", "a pawn may promote to the pseudo-royal %s, which is not supported", v.Pieces[i].Name)
			}
		}
	}
	board := strings.SplitN(strings.Fields(s.startFEN + " ")[0], "[", 2)[0]
	var n [2]int
	for i := 0; i < len(board); i++ {
		if royal[upper(board[i])] {
			if board[i] >= 'a' {
				n[1]++
			} else {
				n[0]++
			}
		}
	}
	if n[0] > 1 || n[1] > 1 {
		c.fail("extinctionPseudoRoyal", "a side with more than one pseudo-royal piece (king included) is not supported")
	}
	v.CheckRule = true
}
