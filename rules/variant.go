package rules

import (
	"errors"
	"fmt"
	"strings"
)

// PieceDef declares one kind of piece of a variant as data.
type PieceDef struct {
	// Letter is White's FEN letter (uppercase, A-Z); Black's is its lowercase.
	Letter byte
	// Name is the piece's English name ("Knight", "Marshal").
	Name string
	// Betza describes how the piece moves and captures (see ParseBetza).
	Betza string
	// Art is the renderer's name for the drawing of the piece: lowercase
	// letters, digits and '-' ("knight", "tiger", "atomic-bomb"), or the
	// names of the parts of a compound joined by '+' ("rook+knight", the
	// Marshal; "rook+pawn+pawn", Cold Fusion's Berolina Guard). Pieces that
	// look alike share it. Required; rules never reads it.
	Art string
	// Legend is what the Betza description cannot say, in a few
	// hand-written words: a move a variant hook adds ("may explode
	// instead, removing every piece within one square"), what a piece is
	// fused from. Usually empty. Describe joins it to the words generated
	// from Betza; that line is what the rules text, the rules pages and
	// the legend under a board image show.
	Legend string
	// Royal marks the king: the piece whose attack is check (Variant.CheckRule)
	// or whose capture ends the game (Variant.RoyalCaptureLoses). A side has
	// at most one royal piece.
	Royal bool
	// Pawn marks pieces that promote in the promotion zone, reset the
	// 50-move counter when they move, and leave an en-passant target when a
	// lame (n) leg jumps over a square. Other pieces leave one only when
	// they make the leap of an initial-only lame leg (a hybrid piece's pawn
	// double step; such a leap that the piece's rider leg also makes, like
	// a rook's two steps, is one move that leaves the target); any piece
	// may have en-passant (e) captures.
	Pawn bool
	// LetterInSAN writes a pawn (Pawn) with its letter in the friendly
	// form, like a piece: for the second and further kinds of pawn of a
	// variant (Cold Fusion's Berolina pawn and Sergeant), whose moves would
	// otherwise read like the plain pawn's. Only notation reads it.
	LetterInSAN bool
	// InitialRank is the owner-relative rank (1 = the owner's first rank)
	// from which the piece's initial-only (i) legs may be used; 0 = never.
	InitialRank int
	// NoDropRanks lists owner-relative ranks (1-based) where the piece may
	// not be dropped.
	NoDropRanks []int
	// TurnedForBlack gives Black's piece White's moves turned half round,
	// so that its left is White's right (as Fairy-Stockfish has them);
	// otherwise Black's moves are White's mirrored, forward and back
	// swapped and left and right kept. Only a piece that moves
	// differently to the left and to the right tells the two apart.
	TurnedForBlack bool
}

// CastlingRule declares one castling move: a piece (normally the king) and
// a rook, both unmoved, jump to new squares on the owner's first rank.
type CastlingRule struct {
	// Color is the side that may castle this way.
	Color Color
	// FENLetter is the letter of this right in the FEN castling field ('K', 'q', ...).
	FENLetter byte
	// Piece and Rook are the letters of the two pieces that castle.
	Piece, Rook byte
	// PieceFrom, PieceTo, RookFrom and RookTo are square names ("e1").
	PieceFrom, PieceTo, RookFrom, RookTo string
	// IgnoreAttacks allows castling out of, through and into attacked squares.
	IgnoreAttacks bool
}

// Promotion declares how pawns promote.
type Promotion struct {
	// Zone is the number of ranks at the far end where a pawn may promote;
	// on the last rank promotion is mandatory, before it optional. 0 = never.
	Zone int
	// Choices are the letters of the pieces a pawn may become.
	Choices string
	// LimitToStart allows promotion only to a type of which the promoting
	// side has fewer on the board than in the start position (Grand Chess).
	// A pawn with no choice may not enter the last rank.
	LimitToStart bool
	// Remember marks promoted pieces (FEN "~"); with Drops.CapturesToHand a
	// captured promoted piece goes to hand as Drops.DemoteTo.
	Remember bool
	// Rule says where in the zone a pawn must promote (PromoteOnLastRank,
	// the zero value: on the last rank only).
	Rule PromotionRule
	// Limits caps promotion to a piece, by letter: a pawn may become that
	// piece only while its side has fewer than this many of it on the
	// board. Letters not listed are not limited.
	Limits map[byte]int
}

// PromotionRule says where in the promotion zone promotion is mandatory.
type PromotionRule uint8

// Promotion rules.
const (
	// PromoteOnLastRank: optional in the zone, mandatory on the last rank.
	PromoteOnLastRank PromotionRule = iota
	// PromoteInZone: mandatory on every square of the zone.
	PromoteInZone
	// PromoteOptional: optional everywhere, even on the last rank.
	PromoteOptional
)

// Drops declares pockets and drops.
type Drops struct {
	// Enabled gives each side a pocket and lets it drop pieces from it onto
	// empty squares instead of moving.
	Enabled bool
	// CapturesToHand puts every captured piece into the captor's pocket,
	// changing sides.
	CapturesToHand bool
	// DemoteTo is the letter of the piece a captured promoted piece becomes
	// in hand (crazyhouse: 'P').
	DemoteTo byte
	// NoDoubled is the letter of a piece that may not be dropped on a file
	// where its owner already has one of it on the board (shogi's pawns);
	// 0 = none.
	NoDoubled byte
	// OnlyAttacked allows drops only onto empty squares that one of the
	// dropper's pieces on the board attacks (Position.Attacked).
	OnlyAttacked bool
	// Slots, when set, splits each side's hand into these counters
	// (Position.Slot) instead of one per piece type: pieces of one type
	// kept in different pockets, or with different histories. FEN writes
	// such a hand as one section per pocket (see ParseFEN). The data's
	// drops and captures to hand count per piece type, so a variant with
	// slots leaves Enabled and CapturesToHand off: its hooks fill and empty
	// the slots and generate its drops. At most 63 slots.
	Slots []PocketSlot
}

// PocketSlot declares one counter of a side's hand (Drops.Slots): the
// pieces of one type kept in one pocket, with one history.
type PocketSlot struct {
	// Pocket is the letter (A-Z) of the pocket the slot belongs to; FEN
	// writes each pocket as a section "S:...".
	Pocket byte
	// Letter is the FEN letter (uppercase) of the piece the slot counts.
	Letter byte
	// Mark, when not 0, follows the piece's letter in FEN (a punctuation
	// character such as '*'), telling this slot from another slot of the
	// same pocket and piece.
	Mark byte
}

// StalemateRule says what happens to a player with no legal move who is not in check.
type StalemateRule uint8

// Stalemate outcomes.
const (
	StalemateDraw  StalemateRule = iota // the game is drawn
	StalemateLoses                      // the stalemated player loses
	StalemateWins                       // the stalemated player wins
)

// Variant is a game the engine plays: mostly data, plus hooks for what the
// data cannot say. Variants are built by the constructors in this package
// and checked and compiled by Register; a registered Variant is immutable
// and safe for concurrent use.
type Variant struct {
	// Key is the stable identifier used in storage, commands and the CLI.
	Key string
	// Name is the display name.
	Name string
	// Files and Ranks are the board size (at most 12x12).
	Files, Ranks int
	// Pieces declares the piece kinds; PieceType(i+1) is Pieces[i].
	Pieces []PieceDef
	// StartFEN is the initial position.
	StartFEN string
	// Castling lists the castling moves.
	Castling []CastlingRule
	// Promotion declares promotion.
	Promotion Promotion
	// Drops declares pockets and drops.
	Drops Drops
	// CheckRule forbids moves that leave the mover's royal piece attacked;
	// a player in check without legal moves is checkmated and loses.
	CheckRule bool
	// RoyalCaptureLoses ends the game when a royal piece is captured: its owner loses.
	RoyalCaptureLoses bool
	// Stalemate says what a position without legal moves and without check means.
	Stalemate StalemateRule
	// Checkmate says what checkmate means for the checkmated player
	// (EndLoss, the zero value, as in chess).
	Checkmate EndValue
	// NoChecks forbids giving check: a move after which the opponent's
	// royal piece is attacked is illegal.
	NoChecks bool
	// NoStranding forbids moves (without promotion) and drops that put a
	// piece on a square from which it could never move, even on an empty
	// board.
	NoStranding bool
	// Pass lets White (Pass[0]) and Black (Pass[1]) pass instead of
	// moving, when not in check. PassOnlyWhenStuck allows the pass only
	// to a player who has no other legal move.
	Pass, PassOnlyWhenStuck [2]bool
	// MustCapture makes captures compulsory: while a player has a legal
	// capture (en passant included), other moves are illegal.
	MustCapture bool
	// MustDrop makes drops compulsory: while a player has a legal drop,
	// other moves are illegal.
	MustDrop bool
	// RepetitionValue, when set, is what the automatic repetition end
	// (RepetitionAuto) means for the player to act in the repeated
	// position, instead of a draw.
	RepetitionValue *EndValue
	// EnPassantRegion, when set for a side (White, Black), holds the only
	// squares ("e3") on which that side may capture en passant: a double
	// step over another square leaves no target.
	EnPassantRegion [2][]string
	// DoublePassDraws ends the game in a draw when both players passed,
	// one after the other: the position then has no legal moves.
	DoublePassDraws bool
	// Extinction, when set, ends the game when a side's pieces of a kind
	// die out (see Extinction).
	Extinction *Extinction
	// Flag, when set, ends the game when a side's piece reaches its
	// region of the board (see FlagRule).
	Flag *FlagRule
	// DrawClaimPlies lets a player claim a draw when this many plies passed
	// without a capture or pawn move (100 = the 50-move rule); 0 = never.
	DrawClaimPlies int
	// DrawAutoPlies ends the game in a draw after this many such plies (150 =
	// FIDE's 75-move rule); 0 = never.
	DrawAutoPlies int
	// RepetitionClaim lets a player claim a draw when a position occurs this
	// many times (3); 0 = never. RepetitionAuto ends the game (5); 0 = never.
	RepetitionClaim, RepetitionAuto int
	// State declares the variant's own state, kept in every position
	// beyond what the data describes (a pass count, the pending step of a
	// multi-part turn, a debt), with its FEN field; nil for none. Built by
	// newStateKind from the variant's typed state.
	State *StateKind
	// InsufficientMaterial, when set, reports positions where no sequence of
	// legal moves can end in a win: such a position is a draw.
	InsufficientMaterial func(p *Position) bool
	// Options lists the variant's options with their allowed values (set
	// from the variant's optionSet by its constructor).
	Options []OptionDef
	// EndReasons are the reasons the variant's own rules end games for
	// (Hooks.Outcome's, besides the standard ReasonCheckmate, ...), each
	// with its wording: what says why such a game ended asks the variant
	// (EndPhrase).
	EndReasons []EndReason
	// Hooks are the variant's code for what the data cannot say.
	Hooks Hooks
	// PreGame, when not nil, is a choice the players make before the game:
	// the start is drawn at random, then normalised by their choice. Nil:
	// games start from Start().
	PreGame *PreGame
	// Help is what the bot tells players about the variant: the rules in
	// short, how to write its special moves, and what its marks mean.
	// Register refuses a variant without a Help.Summary.
	Help VariantHelp
	// Strategy is advice for computer players about the variant's goal
	// (see Strategy); the zero value means "like chess".
	Strategy Strategy

	c compiled
}

// VariantHelp is what a player is told about a variant, written in the
// variant's own file: plain English (no markup) for someone who has never
// seen the game, true to the engine's behaviour. Shared code shows it as
// it is and adds only what it derives from the variant's data (the piece
// list, the options); it never says anything about a variant by its key.
type VariantHelp struct {
	// Summary is the rules in short, a paragraph of a few sentences: the
	// board and the pieces that differ from chess, how a turn goes, how
	// the game is won and drawn. Required.
	Summary string
	// Notation lists every kind of move a chess player would not know how
	// to write (drops, passes, the parts of a multi-part turn, the
	// variant's special moves), each with a real example, in the order a
	// player meets them.
	Notation []NotationHelp
	// Marks explains every sign of the variant that chess does not have,
	// in move texts ('>', '*', '&') and around the board (pocket labels).
	Marks []MarkHelp
}

// NotationHelp explains how to write one kind of move. Example is a move
// in the friendly form exactly as package rules/notation writes it (SAN),
// and legal in the position set up by Options, FEN and Moves; a test in
// rules/notation plays the setup with the real parser and fails when an
// example stops being legal or is written differently.
type NotationHelp struct {
	// Kind names the kind of move ("Drop", "Defender answer").
	Kind string
	// How says in one sentence how the move is written.
	How string
	// Example is one such move, as the bot writes it ("Af3>", "N@e4").
	Example string
	// Options are the variant options the example needs ("k=v,k=v"; ""
	// for the defaults).
	Options string
	// FEN is the position the setup starts from; "" for the start position.
	FEN string
	// Moves are played from FEN before Example: separated by spaces, each
	// in the coordinate or the friendly form; "" for none.
	Moves string
}

// MarkHelp explains one sign a player sees: Mark as it is shown ("S:",
// "*", ">"), Meaning in a sentence.
type MarkHelp struct {
	Mark, Meaning string
}

// PreGame describes a variant's pre-game choice (Crazyhouse Annihilation,
// docs/variants/annihilation.md and Z6): a random start position is drawn from a seed and
// shown; one player picks the army they play, by its colour in that
// position; the other picks which army moves first. The game then starts
// from Normalize(Start(seed), colour of the first-moving army), in which
// the first mover plays White. Both functions are deterministic and safe
// for concurrent use.
type PreGame struct {
	// Start returns the start position drawn for seed, the same for the
	// same seed.
	Start func(seed uint64) Position
	// Normalize returns the position the game starts from when the army
	// whose colour in p is firstMover moves first: White to act with the
	// first mover's army.
	Normalize func(p Position, firstMover Color) Position
}

// Turn says who acts after a move: the player who decides (ToAct), whose
// pieces that player moves (Mover), and the phase of a multi-part turn.
type Turn struct {
	ToAct, Mover Color
	Phase        uint8
}

// Hooks hold a variant's code for rules its data cannot describe. Every hook
// is optional; a nil hook means the behaviour of standard chess. Hooks are
// written inside this package, since they read and change positions
// through unexported fields; shared code calls them without knowing which
// variant it is.
type Hooks struct {
	// NextTurn says whose turn it is after the move m of before: who
	// acts, whose pieces they move, in which phase. It only decides, from
	// before and m; what else moves with the move (the variant's state,
	// pockets, counters) goes through AfterMove. Default: the other player
	// moves their own pieces, phase 0.
	NextTurn func(before *Position, m Move) Turn
	// MoverOf returns whose pieces toAct moves in phase (for positions read
	// from FEN), or NoColor for a phase the variant does not have, which
	// ParseFEN refuses. Default: toAct's own pieces.
	MoverOf func(toAct Color, phase uint8) Color
	// ExtraMoves appends moves that are not piece moves of the data (a pass,
	// a detonation), before legality filtering.
	ExtraMoves func(p *Position, out []Move) []Move
	// Apply carries out a move of kind KindSpecial on next, a copy of the
	// position before the move whose counters were already updated.
	Apply func(next *Position, m Move)
	// AfterMove is the one hook through which every move m, of every
	// kind, carries what the data does not: it completes the move from
	// before on next, and is the only place where a move changes the
	// variant's own state (Variant.State). It runs last: next holds the
	// data's part of the move (and Apply's), its counters, and its turn
	// (ToAct, Mover and Phase from NextTurn, the move number counted). It
	// may put or remove pieces (a piece put on m.Place(), one removed
	// along with the one captured), route a captured man into a pocket,
	// update the state (a pass count, a pending step, a debt) and adjust
	// the counters (a clock that counts turns). It must not change the
	// turn, and must not panic on a malformed move.
	AfterMove func(before, next *Position, m Move)
	// Legal refines legality: it is called for each candidate move that
	// passed the data's rules, with the position after it.
	Legal func(before, after *Position, m Move) bool
	// Outcome reports game ends the data cannot describe (a side without
	// pieces, a double pass). It is asked before checkmate and stalemate.
	// Reasons other than the standard ones (ReasonCheckmate, ...) are
	// declared, with their wording, in Variant.EndReasons.
	Outcome func(p *Position) (Outcome, bool)
	// Check reports whether the player to act is in check, for variants
	// whose check is more than an attack on the royal piece (a detonation,
	// a push). It replaces the built-in test in InCheck and in telling
	// checkmate from stalemate.
	Check func(p *Position) bool
	// FormatSpecial returns the canonical text of a KindSpecial move (without
	// the '>' mark); it must be unique among the legal moves and must not
	// look like another kind of move. Default: the two squares and "#Extra".
	FormatSpecial func(p *Position, m Move) string
	// FriendlySpecial returns the friendly text (package rules/notation)
	// of the legal KindSpecial move m of p, or "" to have it written in
	// the canonical form (FormatSpecial). The text must be unique among
	// the legal moves of p, both among the special moves and against the
	// friendly text of every other move, which a character the variant's
	// other moves never show ensures ('*', '~', '&', '/', '^', a '-'
	// between squares). It must carry no check mark and no '>' mark
	// (notation adds them), must not end with '+', '#', '!', '?' or '>',
	// and must contain no spaces; notation reads it back by exact,
	// case-sensitive match. Default: the canonical form.
	FriendlySpecial func(p *Position, m Move) string
	// PhaseName describes the phase for people ("White moves a Black
	// piece"). Default: "move".
	PhaseName func(p *Position) string
	// Refusal says for people why the Legal hook refuses m, a move of
	// before that passed the data's rules ("the enemy King may not be
	// moved"), or "" for the generic reason (the king would be left in
	// check). Only error messages use it; it must not panic.
	Refusal func(before *Position, m Move) string
	// Immobile says for people why the piece on from may not move at all
	// now, wherever it would go ("the enemy King may not be moved"), or ""
	// when the piece may move. Only error messages use it
	// (Position.PieceRefusal); it must not panic.
	Immobile func(p *Position, from Square) string
	// ExplainText says for people why text, a move as a player wrote it
	// (trimmed, in either form) that names no legal move of p, is not
	// legal, when text has the shape of one of the variant's own kinds
	// of move (a special move, a drop from one of its pockets): "there is
	// no Atomic bomb of White's on e2". It returns "" for any other text,
	// or to leave the reason to the generic rules. Only error messages
	// use it; it must not panic on any text.
	ExplainText func(p *Position, text string) string
	// SpecialKind names for people the kind of the KindSpecial move m of p
	// ("Fusions", "Detonations"), the heading under which a list of legal
	// moves shows it; "" lists it with the moves of its piece (or with the
	// drops when it moves no piece from the board). Default: "".
	SpecialKind func(p *Position, m Move) string
	// Effect describes what the KindSpecial move m of before did, after
	// being the position it led to: which pieces moved (the moved ones
	// marked Main), which left the board and how, which appeared, and the
	// kind of the move (a swap, a push, a blast, a fusion...). A picture
	// of the move draws exactly that; Position.Effect adds whatever else
	// changed on the board. It must not panic on a malformed move.
	// Default: the piece on From moved to To (a piece put on To when From
	// is To or off the board).
	Effect func(before, after *Position, m Move) MoveEffect
}

// OptionDef declares a variant option: a key and its allowed values, the
// first being the default, as players write them and stored games keep
// them. The variants of this package declare each option once, with its
// typed values (optionSet, which also fills Variant.Options), so their
// constructors receive typed, validated values.
type OptionDef struct {
	Key    string
	Values []string
	Doc    string
}

// RulesPage returns the path, inside fairypost's repository, of the
// variant's player-facing rules page: "docs/variants/<key>.md". Text for
// players points there for the full rules.
func (v *Variant) RulesPage() string { return "docs/variants/" + v.Key + ".md" }

// check reports what is missing from h, the help of v: the summary, a
// part of a notation or mark entry, or options an example names that v
// does not have. Whether the examples are legal is tested in package
// rules/notation, which can read them.
func (h *VariantHelp) check(v *Variant) error {
	if strings.TrimSpace(h.Summary) == "" {
		return errors.New("help: no summary")
	}
	for i, n := range h.Notation {
		if n.Kind == "" || n.How == "" || n.Example == "" {
			return fmt.Errorf("help: notation entry %d (%q) needs a kind, how to write it and an example", i, n.Kind)
		}
		if _, err := parseOptions(v.Options, n.Options); err != nil {
			return fmt.Errorf("help: example %s: %v", n.Example, err)
		}
	}
	for i, m := range h.Marks {
		if m.Mark == "" || m.Meaning == "" {
			return fmt.Errorf("help: mark entry %d (%q) needs a mark and its meaning", i, m.Mark)
		}
	}
	return nil
}

// ErrInvalidVariant is wrapped by every error of a variant definition.
var ErrInvalidVariant = errors.New("invalid variant")

// compiled holds the tables derived once from a Variant's data.
type compiled struct {
	letterToType [128]PieceType
	legs         [2][maxPieceTypes + 1][]cleg
	probes       [2][]probe // attacks on a square by each side
	// lines[side][d+mailboxSize] has bit i set when the rider or hopper
	// probe i of side could attack along a line through the square at
	// mailbox distance d from its target, or when that square is the lame
	// square of lame leaper probe i; lineProbes are all such bits and
	// hopProbes the hoppers' (those also see squares that become screens).
	lines      [2][2 * mailboxSize]uint64
	lineProbes [2]uint64
	lameProbes [2]uint64 // lame leapers: a piece on the lame square shields the target
	allProbes  [2]uint64
	hopProbes  [2]uint64
	// linesExact is false when a side has more than 64 probes: every move
	// is then tested in full.
	linesExact   [2]bool
	royalType    [maxPieceTypes + 1]bool
	pawnType     [maxPieceTypes + 1]bool
	initialRank  [maxPieceTypes + 1]int
	noDrop       [2][maxPieceTypes + 1][MaxRanks]bool
	promoChoices []PieceType
	startCount   [2][maxPieceTypes + 1]int
	demoteTo     PieceType
	startRoyal   [2]bool // the side starts with a royal piece
	castling     []ccastle
	castleMask   [mailboxSize]uint16
	epCapturers  bool
	empty        Position // the empty board: walls set, everything else zero
	start        Position
	squares      []Square // the playable squares, a1 first, rank by rank
	zobrist      *zobrist
	work         *workspaces // working space lent to hooks that try moves in full

	// doubleStep[side][t] is, for a piece type that is not a pawn, the
	// mailbox offset of its initial-only lame leap (a hybrid's pawn double
	// step), which leaves an en-passant target like a pawn's; 0 = none.
	doubleStep [2][maxPieceTypes + 1]int16
	// pocketSlots is the number of counters of each side's hand: one per
	// piece type, or len(Drops.Slots); slotType[i] is the type slot i+1
	// counts.
	pocketSlots int
	slotType    [maxPocketSlots + 1]PieceType

	promoLimit   [maxPieceTypes + 1]int // Promotion.Limits by type; 0 = none
	epRegion     *[2][mailboxSize]bool  // EnPassantRegion; nil = anywhere
	noDoubled    PieceType              // Drops.NoDoubled
	extinctTypes []PieceType            // Extinction.Types, but '*'
	extinctAll   bool                   // Extinction.Types has '*'
	flag         *cflag                 // Flag
	// stranded[side][t][s]: a piece of type t of side on s could never
	// move again (NoStranding).
	stranded *[2][maxPieceTypes + 1][mailboxSize]bool
	// overlap[side][t]: two legs of type t may reach the same square, so
	// its moves are generated with duplicates removed.
	overlap [2][maxPieceTypes + 1]bool
}

// isInitialLeap reports whether off is the step of an initial-only lame
// leap of type t of side (a double step that leaves an en-passant
// target).
func (c *compiled) isInitialLeap(side Color, t PieceType, off int) bool {
	for _, l := range c.legs[side.index()][t] {
		if l.initial && l.lameOff != 0 && int(l.off) == off {
			return true
		}
	}
	return false
}

// cleg is a Leg compiled for one side on the mailbox.
type cleg struct {
	off     int16 // mailbox step
	lameOff int16 // mailbox offset of the square a lame leap must find empty; 0 = not lame
	steps   int8  // maximum number of steps
	mode    Mode
	hop     bool
	grass   bool // a grasshopper: lands on the square just beyond the screen
	initial bool
	ep      bool
	// epOnly marks an en-passant leg whose ordinary captures another leg
	// of the piece already makes: it captures only en passant.
	epOnly bool
	// shadowed marks an initial-only lame leap that a rider leg of the
	// piece already makes (a Guard's pawn double step, also a rook move):
	// it generates no move of its own and only gives the piece its
	// en-passant double step (compiled.doubleStep).
	shadowed bool
}

// probe finds attackers of a square: walking from the target by -off, the
// first piece found (after a screen for hoppers) attacks it if its type is
// in types.
type probe struct {
	off     int16
	lameOff int16
	steps   int8
	hop     bool
	grass   bool
	initial int8 // owner-relative rank (0-based) the attacker must stand on; -1 = any
	types   uint32
}

// ccastle is a CastlingRule compiled to squares and types.
type ccastle struct {
	side                                 Color
	letter                               byte
	piece, rook                          PieceType
	pieceFrom, pieceTo, rookFrom, rookTo Square
	mustBeEmpty                          []Square
	mustBeSafe                           []Square
	ignoreAttacks                        bool
}

// Type returns the piece type with FEN letter l (either case), or NoPieceType.
func (v *Variant) Type(l byte) PieceType {
	if l >= 'a' && l <= 'z' {
		l -= 'a' - 'A'
	}
	if l >= 128 {
		return NoPieceType
	}
	return v.c.letterToType[l]
}

// Def returns the definition of piece type t; t must be a type of v.
func (v *Variant) Def(t PieceType) PieceDef { return v.Pieces[t-1] }

// OnBoard reports whether s is a playable square of v.
func (v *Variant) OnBoard(s Square) bool {
	f, r := s.File(), s.Rank()
	return f >= 0 && r >= 0 && f < v.Files && r < v.Ranks
}

// Squares returns v's playable squares, a1 first, rank by rank. The caller
// must not modify the slice.
func (v *Variant) Squares() []Square { return v.c.squares }

// relRank returns the owner-relative rank of s for c, counted from 0.
func (v *Variant) relRank(s Square, c Color) int {
	if c == Black {
		return v.Ranks - 1 - s.Rank()
	}
	return s.Rank()
}

// validArt reports whether art is a drawing name as PieceDef.Art describes.
func validArt(art string) bool {
	for _, part := range strings.Split(art, "+") {
		if part == "" || part[0] == '-' || part[len(part)-1] == '-' {
			return false
		}
		for i := 0; i < len(part); i++ {
			if c := part[i]; (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '-' {
				return false
			}
		}
	}
	return true
}

// compile checks v's data and builds its tables. It is called once, by Register.
func (v *Variant) compile() error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%w %q: %s", ErrInvalidVariant, v.Key, fmt.Sprintf(format, args...))
	}
	if v.Key == "" || strings.ToLower(v.Key) != v.Key || strings.ContainsAny(v.Key, " \t,=") {
		return fail("key must be non-empty lowercase without spaces, commas or '='")
	}
	if v.Files < 2 || v.Files > MaxFiles || v.Ranks < 2 || v.Ranks > MaxRanks {
		return fail("board %dx%d is outside 2x2..%dx%d", v.Files, v.Ranks, MaxFiles, MaxRanks)
	}
	if len(v.Pieces) == 0 || len(v.Pieces) > maxPieceTypes {
		return fail("needs 1..%d piece kinds, has %d", maxPieceTypes, len(v.Pieces))
	}
	c := &v.c
	for i, d := range v.Pieces {
		t := PieceType(i + 1)
		if d.Letter < 'A' || d.Letter > 'Z' {
			return fail("piece %q: letter %q is not A-Z", d.Name, d.Letter)
		}
		if c.letterToType[d.Letter] != NoPieceType {
			return fail("letter %c used twice", d.Letter)
		}
		c.letterToType[d.Letter] = t
		if !validArt(d.Art) {
			return fail("piece %s: art %q is not one or more names of lowercase letters, digits and '-' joined by '+'", d.Name, d.Art)
		}
		legs, err := ParseBetza(d.Betza)
		if err != nil {
			return fail("piece %s: %v", d.Name, err)
		}
		if d.InitialRank < 0 || d.InitialRank > v.Ranks {
			return fail("piece %s: initial rank %d is off the board", d.Name, d.InitialRank)
		}
		c.royalType[t] = d.Royal
		c.pawnType[t] = d.Pawn
		c.initialRank[t] = d.InitialRank - 1
		for _, side := range []Color{White, Black} {
			for _, l := range legs {
				if l.Initial && d.InitialRank == 0 {
					return fail("piece %s: initial-only move without an InitialRank", d.Name)
				}
				cl := compileLeg(l, side)
				if side == Black && d.TurnedForBlack {
					l.DX = -l.DX
					cl = compileLeg(l, side)
				}
				c.legs[side.index()][t] = append(c.legs[side.index()][t], cl)
			}
			for _, r := range d.NoDropRanks {
				if r < 1 || r > v.Ranks {
					return fail("piece %s: no-drop rank %d is off the board", d.Name, r)
				}
				c.noDrop[side.index()][t][r-1] = true
			}
		}
		for _, l := range legs {
			if l.EnPassant {
				c.epCapturers = true
			}
		}
		for side := range c.legs {
			c.markEnPassantOnly(c.legs[side][t])
			markShadowed(c.legs[side][t])
			c.overlap[side][t] = legsOverlap(c.legs[side][t])
			for _, l := range c.legs[side][t] {
				if !d.Pawn && l.initial && l.lameOff != 0 && c.doubleStep[side][t] == 0 {
					c.doubleStep[side][t] = l.off
				}
			}
		}
	}
	c.buildProbes()
	c.squares = c.squares[:0]
	for r := 0; r < v.Ranks; r++ {
		for f := 0; f < v.Files; f++ {
			c.squares = append(c.squares, NewSquare(f, r))
		}
	}
	for i := range c.empty.board {
		c.empty.board[i] = wall
	}
	for _, s := range c.squares {
		c.empty.board[s] = NoPiece
	}
	c.empty.v = v
	for i := 0; i < len(v.Promotion.Choices); i++ {
		t := v.Type(v.Promotion.Choices[i])
		if t == NoPieceType {
			return fail("promotion choice %c is not a piece of the variant", v.Promotion.Choices[i])
		}
		c.promoChoices = append(c.promoChoices, t)
	}
	if v.Promotion.Zone < 0 || v.Promotion.Zone > v.Ranks {
		return fail("promotion zone of %d ranks", v.Promotion.Zone)
	}
	if v.Promotion.Zone > 0 && len(c.promoChoices) == 0 {
		return fail("promotion zone without choices")
	}
	if v.Drops.CapturesToHand && !v.Drops.Enabled {
		return fail("captures to hand without drops")
	}
	if err := c.compileSlots(v); err != nil {
		return fail("%v", err)
	}
	if v.Drops.DemoteTo != 0 {
		if c.demoteTo = v.Type(v.Drops.DemoteTo); c.demoteTo == NoPieceType {
			return fail("DemoteTo %c is not a piece of the variant", v.Drops.DemoteTo)
		}
	}
	if v.Promotion.Remember && v.Drops.CapturesToHand && c.demoteTo == NoPieceType {
		return fail("remembered promotions need Drops.DemoteTo")
	}
	if err := c.compileDataRules(v); err != nil {
		return fail("%v", err)
	}
	if v.State != nil && v.State.fen(stateBytes{}) != "" {
		return fail("the zero state writes %q in FEN; it must write nothing (it is the state of a start position)", v.State.fen(stateBytes{}))
	}
	if err := c.compileCastling(v); err != nil {
		return fail("%v", err)
	}
	c.zobrist = newZobrist(v.Key)
	c.work = new(workspaces)
	start, err := parseFEN(v, v.StartFEN)
	if err != nil {
		return fail("start position: %v", err)
	}
	c.start = start
	for _, s := range c.squares {
		if p := start.board[s]; p != NoPiece {
			c.startCount[p.Color().index()][p.Type()]++
		}
	}
	for _, side := range []Color{White, Black} {
		n := 0
		for t := range c.royalType {
			if c.royalType[t] {
				n += c.startCount[side.index()][t]
			}
		}
		if n > 1 {
			return fail("%s has %d royal pieces; at most one is supported", side, n)
		}
		c.startRoyal[side.index()] = n == 1
	}
	return nil
}

// compileSlots checks Drops.Slots and sets the number of counters of a hand.
func (c *compiled) compileSlots(v *Variant) error {
	c.pocketSlots = len(v.Pieces)
	if len(v.Drops.Slots) == 0 {
		return nil
	}
	if v.Drops.Enabled || v.Drops.CapturesToHand {
		return fmt.Errorf("pocket slots with the data's drops or captures to hand")
	}
	if len(v.Drops.Slots) > maxPocketSlots {
		return fmt.Errorf("%d pocket slots; at most %d", len(v.Drops.Slots), maxPocketSlots)
	}
	for i, s := range v.Drops.Slots {
		t := v.Type(s.Letter)
		switch {
		case s.Pocket < 'A' || s.Pocket > 'Z':
			return fmt.Errorf("pocket slot %d: pocket %q is not A-Z", i, s.Pocket)
		case s.Letter < 'A' || s.Letter > 'Z' || t == NoPieceType:
			return fmt.Errorf("pocket slot %d: %q is not a piece letter of the variant", i, s.Letter)
		case s.Mark != 0 && (s.Mark <= ' ' || s.Mark >= 0x7f || s.Mark == ',' || s.Mark == ':' || s.Mark == ']' || s.Mark == '[' ||
			s.Mark >= 'A' && s.Mark <= 'Z' || s.Mark >= 'a' && s.Mark <= 'z' || s.Mark >= '0' && s.Mark <= '9'):
			return fmt.Errorf("pocket slot %d: mark %q is not a punctuation character", i, s.Mark)
		}
		for _, o := range v.Drops.Slots[:i] {
			if o == s {
				return fmt.Errorf("pocket slot %c:%c%c declared twice", s.Pocket, s.Letter, s.Mark)
			}
		}
		c.slotType[i+1] = t
	}
	c.pocketSlots = len(v.Drops.Slots)
	return nil
}

// markEnPassantOnly sets epOnly on the en-passant legs of one piece whose
// step another capturing leg of the piece (a leaper or the first step of
// a rider) already takes, so that the piece's captures are not generated
// twice: a Bishop with a pawn's en-passant capture.
func (c *compiled) markEnPassantOnly(legs []cleg) {
	for i := range legs {
		l := &legs[i]
		if !l.ep || l.mode&ModeCapture == 0 {
			continue
		}
		for _, o := range legs {
			if !o.ep && o.mode&ModeCapture != 0 && o.off == l.off && !o.hop && o.lameOff == 0 && !o.initial {
				l.epOnly = true
				break
			}
		}
	}
}

// markShadowed sets shadowed on the initial-only lame leaps of one piece
// that only move (never capture) and whose leap a non-initial rider leg of
// the piece also moves along, two steps of its line: the rider makes that
// move already (both need the square between empty), so the leap is kept
// only for the en-passant right it gives.
func markShadowed(legs []cleg) {
	for i := range legs {
		l := &legs[i]
		if !l.initial || l.lameOff == 0 || l.mode != ModeMove {
			continue
		}
		for _, o := range legs {
			if !o.initial && !o.hop && o.lameOff == 0 && o.mode&ModeMove != 0 && o.steps >= 2 && 2*o.off == l.off {
				l.shadowed = true
				break
			}
		}
	}
}

// compileLeg turns a Leg into mailbox offsets for side.
func compileLeg(l Leg, side Color) cleg {
	dy := int(l.DY)
	if side == Black {
		dy = -dy
	}
	dx := int(l.DX)
	cl := cleg{
		off:     int16(dy*mailboxWidth + dx),
		steps:   l.Range,
		mode:    l.Mode,
		hop:     l.Hop || l.Grasshopper,
		grass:   l.Grasshopper,
		initial: l.Initial,
		ep:      l.EnPassant,
	}
	if cl.steps == 0 {
		cl.steps = MaxFiles
	}
	if l.Lame {
		cl.lameOff = int16((dy/2)*mailboxWidth + dx/2)
	}
	return cl
}

// buildProbes collects, per attacking side, the distinct capture legs of all
// piece types, each with the set of types that attack along it.
func (c *compiled) buildProbes() {
	for side := 0; side < 2; side++ {
		var ps []probe
		for t := 1; t <= maxPieceTypes; t++ {
			for _, l := range c.legs[side][t] {
				if l.mode&ModeCapture == 0 || l.epOnly {
					continue
				}
				pr := probe{off: l.off, lameOff: l.lameOff, steps: l.steps, hop: l.hop, grass: l.grass, initial: -1}
				if l.initial {
					pr.initial = int8(c.initialRank[t])
				}
				found := false
				for i := range ps {
					q := ps[i]
					q.types = 0
					if q == pr {
						ps[i].types |= 1 << t
						found = true
						break
					}
				}
				if !found {
					pr.types = 1 << t
					ps = append(ps, pr)
				}
			}
		}
		// Leapers first: they are the cheapest to test.
		var sorted []probe
		for _, p := range ps {
			if p.steps == 1 && !p.hop {
				sorted = append(sorted, p)
			}
		}
		for _, p := range ps {
			if p.steps != 1 || p.hop {
				sorted = append(sorted, p)
			}
		}
		c.probes[side] = sorted
		c.linesExact[side] = len(sorted) <= 64
		if !c.linesExact[side] {
			continue
		}
		for i, p := range sorted {
			c.allProbes[side] |= 1 << i
			if p.lameOff != 0 {
				c.lameProbes[side] |= 1 << i
				c.lines[side][-int(p.off)+int(p.lameOff)+mailboxSize] |= 1 << i
				continue
			}
			if p.steps == 1 && !p.hop {
				continue
			}
			c.lineProbes[side] |= 1 << i
			if p.hop {
				c.hopProbes[side] |= 1 << i
			}
			for j := 1; j <= MaxFiles+1; j++ {
				d := -j * int(p.off)
				if d <= -mailboxSize || d >= mailboxSize {
					break
				}
				c.lines[side][d+mailboxSize] |= 1 << i
			}
		}
	}
}

// compileCastling resolves the castling rules to squares and types.
func (c *compiled) compileCastling(v *Variant) error {
	if len(v.Castling) > 16 {
		return fmt.Errorf("%d castling rules; at most 16", len(v.Castling))
	}
	sq := func(name string) (Square, error) {
		s, err := ParseSquare(name)
		if err == nil && !v.OnBoard(s) {
			err = fmt.Errorf("castling square %s is off the board", name)
		}
		return s, err
	}
	for i, r := range v.Castling {
		cc := ccastle{side: r.Color, letter: r.FENLetter, piece: v.Type(r.Piece), rook: v.Type(r.Rook), ignoreAttacks: r.IgnoreAttacks}
		if cc.piece == NoPieceType || cc.rook == NoPieceType {
			return fmt.Errorf("castling rule %c: unknown piece letters %c/%c", r.FENLetter, r.Piece, r.Rook)
		}
		if r.Color != White && r.Color != Black {
			return fmt.Errorf("castling rule %c has no colour", r.FENLetter)
		}
		var err error
		for _, p := range []struct {
			dst  *Square
			name string
		}{{&cc.pieceFrom, r.PieceFrom}, {&cc.pieceTo, r.PieceTo}, {&cc.rookFrom, r.RookFrom}, {&cc.rookTo, r.RookTo}} {
			if *p.dst, err = sq(p.name); err != nil {
				return err
			}
		}
		if cc.pieceFrom.Rank() != cc.rookFrom.Rank() || cc.pieceTo.Rank() != cc.pieceFrom.Rank() || cc.rookTo.Rank() != cc.pieceFrom.Rank() {
			return fmt.Errorf("castling rule %c is not on one rank", r.FENLetter)
		}
		lo, hi := minSq(cc.pieceFrom, cc.pieceTo, cc.rookFrom, cc.rookTo), maxSq(cc.pieceFrom, cc.pieceTo, cc.rookFrom, cc.rookTo)
		for s := lo; s <= hi; s++ {
			if s != cc.pieceFrom && s != cc.rookFrom {
				cc.mustBeEmpty = append(cc.mustBeEmpty, s)
			}
		}
		step := Square(1)
		if cc.pieceTo < cc.pieceFrom {
			for s := cc.pieceFrom; s >= cc.pieceTo; s-- {
				cc.mustBeSafe = append(cc.mustBeSafe, s)
			}
		} else {
			for s := cc.pieceFrom; s <= cc.pieceTo; s += step {
				cc.mustBeSafe = append(cc.mustBeSafe, s)
			}
		}
		c.castling = append(c.castling, cc)
		c.castleMask[cc.pieceFrom] |= 1 << i
		c.castleMask[cc.rookFrom] |= 1 << i
	}
	return nil
}

func minSq(s ...Square) Square {
	m := s[0]
	for _, x := range s[1:] {
		if x < m {
			m = x
		}
	}
	return m
}

func maxSq(s ...Square) Square {
	m := s[0]
	for _, x := range s[1:] {
		if x > m {
			m = x
		}
	}
	return m
}
