package command

import (
	"context"
	"fmt"
	"runtime/debug"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/fairypost/fairypost/bot"
)

// maxChoices is the most choices autocomplete returns (Discord's limit).
const maxChoices = 25

// Complete answers autocomplete for option focused of req (req.Options
// holds what was typed so far): at most 25 choices, filtered
// case-insensitively by the focused option's text, those that start with
// it first, then those that contain it. It reads the store, never
// renders and never panics; on any error it returns no choices.
//   - move: the legal moves of the requester in the game the command would
//     act on (Name the friendly form with the canonical one, Value the
//     canonical form); none when it is not their turn;
//   - game: the requester's games, those in this channel first;
//   - challenge: the pending challenges the requester may answer;
//   - variant: fairypost's variants, then the server's own (by name);
//   - name (of /variant): the server's own variants.
func (h *Handler) Complete(ctx context.Context, req Request, focused string) (out []Choice) {
	defer func() {
		if v := recover(); v != nil {
			h.log.Error("command: panic", "in", "complete", "panic", v, "stack", string(debug.Stack()))
			out = nil
		}
	}()
	typed := req.Options[focused]
	if utf8.RuneCountInString(typed) > DefaultMaxLength || !cleanText(typed) || req.UserID == "" {
		return nil
	}
	var all []Choice
	var err error
	switch focused {
	case optMove:
		all, err = h.completeMove(ctx, req)
	case optGame:
		all, err = h.completeGame(ctx, req)
	case optChallenge:
		all, err = h.completeChallenge(ctx, req)
	case optVariant:
		all = append(h.variantChoices(), h.serverVariantChoices(ctx, variantServer(req))...)
	case optVariantName:
		all = h.serverVariantChoices(ctx, variantServer(req))
	}
	if err != nil {
		if bot.ErrorCode(err) == bot.EINTERNAL {
			h.log.Warn("command: autocomplete failed", "option", focused, "err", err)
		}
		return nil
	}
	return filterChoices(all, typed)
}

// filterChoices keeps the choices whose name or value starts with typed
// (case-insensitively), then those that contain it, at most maxChoices.
func filterChoices(all []Choice, typed string) []Choice {
	t := strings.ToLower(strings.TrimSpace(typed))
	var prefix, inside []Choice
	for _, c := range all {
		n, v := strings.ToLower(c.Name), strings.ToLower(c.Value)
		switch {
		case strings.HasPrefix(n, t) || strings.HasPrefix(v, t):
			prefix = append(prefix, c)
		case strings.Contains(n, t) || strings.Contains(v, t):
			inside = append(inside, c)
		}
	}
	out := append(prefix, inside...)
	if len(out) > maxChoices {
		out = out[:maxChoices]
	}
	for i := range out {
		out[i].Name = truncate(out[i].Name, 100)
	}
	return out
}

func (h *Handler) completeMove(ctx context.Context, req Request) ([]Choice, error) {
	g, err := h.resolveGame(ctx, req, modePlay, yourTurn(req.UserID))
	if err != nil {
		return nil, err
	}
	moves, err := h.svc.Views().LegalMoves(ctx, g.ID, req.UserID)
	if err != nil {
		return nil, err
	}
	sort.SliceStable(moves, func(i, j int) bool { return moves[i].Friendly < moves[j].Friendly })
	out := make([]Choice, 0, len(moves))
	for _, m := range moves {
		name := m.Friendly
		if m.Canonical != m.Friendly {
			name += " (" + m.Canonical + ")"
		}
		out = append(out, Choice{Name: name, Value: m.Canonical})
	}
	return out, nil
}

func (h *Handler) completeGame(ctx context.Context, req Request) ([]Choice, error) {
	list, err := h.svc.Views().ActiveGames(ctx, req.UserID)
	if err != nil {
		return nil, err
	}
	var here, elsewhere []Choice
	for _, g := range list {
		turn := "their turn"
		if yourTurn(req.UserID)(g) {
			turn = "your turn"
		}
		c := Choice{Name: fmt.Sprintf("#%d %s vs %s, %s", g.ID, h.variantName(g.Variant, g.Options), opponent(g, req.UserID), turn), Value: fmt.Sprint(g.ID)}
		if inChannel(g, req.ChannelID) {
			here = append(here, c)
		} else {
			elsewhere = append(elsewhere, c)
		}
	}
	return append(here, elsewhere...), nil
}

func (h *Handler) completeChallenge(ctx context.Context, req Request) ([]Choice, error) {
	list, err := h.svc.Challenges().PendingChallenges(ctx, req.UserID)
	if err != nil {
		return nil, err
	}
	out := make([]Choice, 0, len(list))
	for _, c := range list {
		if c.Challenger == req.UserID {
			continue
		}
		out = append(out, Choice{Name: fmt.Sprintf("#%d %s from %s, %s", c.ID, h.variantName(c.Variant, c.Options), c.Challenger, daysText(c.DaysPerMove)),
			Value: fmt.Sprint(c.ID)})
	}
	return out, nil
}

// serverVariantChoices are the variants server defined, by name (none
// when this bot keeps none).
func (h *Handler) serverVariantChoices(ctx context.Context, server string) []Choice {
	if h.defined == nil {
		return nil
	}
	var out []Choice
	for _, n := range h.defined.Names(ctx, server) {
		out = append(out, Choice{Name: n + " (this server's)", Value: n})
	}
	return out
}
