package main

import (
	"context"
	"flag"

	"github.com/fairypost/fairypost/rules"
	"github.com/fairypost/fairypost/rules/notation"
)

// analyzeCommand is "fairypost analyze".
func analyzeCommand() command {
	return command{
		name:     "analyze",
		synopsis: `-variant KEY [-ini FILE] [-options K=V,...] [-fen FEN] [-moves "M1 M2 ..."]`,
		summary:  "describe a position as one JSON object",
		doc: `
Plays -moves from the start position (or -fen) and prints one JSON object:
  variant      the variant key
  fen          the position reached
  to_act       "white" or "black": the player who acts now
  phase        the phase of the turn ("move" in single-move variants)
  legal        the legal moves in friendly form (Nf3, exd5, Q@e4)
  legal_coord  the same moves in canonical form (g1f3, e4d5, Q@e4), same order
  check        whether the player to act is in check
  result       "*" while the game goes on, else "1-0", "0-1" or "1/2-1/2"
  reason       why the game ended ("checkmate", "stalemate", "repetition"...),
               "" while it goes on
  draw_claim   present only when the player to act may claim a draw, and why
Repetition is counted over the moves given. Once the game is over, legal
and legal_coord are empty.`,
		setup: func(fs *flag.FlagSet) runFunc {
			var pf positionFlags
			pf.register(fs)
			return func(ctx context.Context, a *app) error {
				g, err := pf.game(a)
				if err != nil {
					return err
				}
				return a.writeJSON(analyze(g))
			}
		},
	}
}

// analysis is the JSON object "fairypost analyze" prints (DESIGN.md §3).
type analysis struct {
	Variant    string   `json:"variant"`
	FEN        string   `json:"fen"`
	ToAct      string   `json:"to_act"`
	Phase      string   `json:"phase"`
	Legal      []string `json:"legal"`
	LegalCoord []string `json:"legal_coord"`
	Check      bool     `json:"check"`
	Result     string   `json:"result"`
	Reason     string   `json:"reason"`
	DrawClaim  string   `json:"draw_claim,omitempty"`
}

// analyze describes the current position of g.
func analyze(g *rules.Game) analysis {
	p := g.Position()
	moves := g.Legal()
	o := g.Outcome()
	an := analysis{
		Variant:    g.Variant().Key,
		FEN:        p.FEN(),
		ToAct:      p.ToAct().String(),
		Phase:      p.PhaseName(),
		Legal:      append([]string{}, notation.SANs(&p, moves)...),
		LegalCoord: make([]string, 0, len(moves)),
		Check:      p.InCheck(),
		Result:     o.Result.String(),
		Reason:     string(o.Reason),
	}
	for _, m := range moves {
		an.LegalCoord = append(an.LegalCoord, rules.FormatMove(&p, m))
	}
	if reason, ok := g.DrawClaim(); ok {
		an.DrawClaim = string(reason)
	}
	return an
}
