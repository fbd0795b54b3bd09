package rules

// Reason says why a game ended. The standard reasons, those of the
// rules every variant shares, are the constants below; a variant whose
// own rules end games otherwise (Hooks.Outcome) declares its reasons,
// with their wording, in its definition (Variant.EndReasons). A Reason's
// value is what records store, and never changes.
type Reason string

// The standard reasons.
const (
	ReasonCheckmate            Reason = "checkmate"             // the player to act is checkmated
	ReasonStalemate            Reason = "stalemate"             // the player to act has no legal move (draws or loses, Variant.Stalemate)
	ReasonKingCaptured         Reason = "king captured"         // a royal piece was captured (Variant.RoyalCaptureLoses)
	ReasonBothKingsCaptured    Reason = "both kings captured"   // both at once: a draw
	ReasonRepetition           Reason = "repetition"            // the position repeated (automatic, or claimed)
	ReasonMoveCount            Reason = "move-count rule"       // too long without a capture or a pawn move (automatic, or claimed)
	ReasonInsufficientMaterial Reason = "insufficient material" // neither side can win
	ReasonExtinction           Reason = "extinction"            // a side lost every piece of a kind it must keep (Variant.Extinction)
	ReasonGoalReached          Reason = "goal reached"          // a flag piece reached its region (Variant.Flag)
	ReasonBothReachedGoal      Reason = "both reached the goal" // both sides' flag pieces at once: a draw
	ReasonBothPassed           Reason = "both players passed"   // a pass answered by a pass: a draw (Variant.Pass)
)

// EndReason is a reason a variant's own rules end games for, with how to
// say it.
type EndReason struct {
	Reason Reason
	// Draw says the reason ends games drawn; else one side wins by it.
	Draw bool
	// Phrase follows "White wins" or "a draw" in a sentence: " by
	// capturing everything", ": both players passed in a row".
	Phrase string
}

// EndPhrase returns v's own wording of reason for a game drawn (draw)
// or won: the Phrase of the EndReason of v's definition with that reason
// and outcome; false when v declares none (a standard reason, or one of
// another variant).
func (v *Variant) EndPhrase(reason Reason, draw bool) (string, bool) {
	for _, e := range v.EndReasons {
		if e.Reason == reason && e.Draw == draw {
			return e.Phrase, true
		}
	}
	return "", false
}
