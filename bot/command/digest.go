package command

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/bot/notify"
	"github.com/fairypost/fairypost/bot/prefs"
	"github.com/fairypost/fairypost/rules"
)

// /settings digest: and utc: (prefs.Service.SetDigest).
const (
	optDigest = "digest"
	optUTC    = "utc"
)

// digestOption is the spec of /settings digest:.
func digestOption() OptionSpec {
	cs := []Choice{{Name: "off: one message per event", Value: "off"}}
	for h := 0; h < 24; h++ {
		cs = append(cs, Choice{Name: fmt.Sprintf("one message a day at %02d:00", h), Value: strconv.Itoa(h)})
	}
	return OptionSpec{Name: optDigest, Kind: OptionString, Choices: cs,
		Description: "One direct message a day at this hour instead of one per event (reminders still come at once)"}
}

// utcOption is the spec of /settings utc:.
func utcOption() OptionSpec {
	return OptionSpec{Name: optUTC, Kind: OptionString,
		Description: "Your time zone as an offset from UTC, for the digest's hour: +2, -5, +5:30"}
}

// digestSetting changes the digest settings req gives, and returns the
// settings as stored, or nil when req gives none.
func (h *Handler) digestSetting(ctx context.Context, req Request) (*bot.Preferences, error) {
	d, u := req.Options[optDigest], req.Options[optUTC]
	if d == "" && u == "" {
		return nil, nil
	}
	p, err := h.prefs.Preferences(ctx, req.UserID)
	if err != nil {
		return nil, err
	}
	on, hour, offset := p.Digest, p.DigestHour, p.UTCOffset
	if u != "" {
		if offset, err = parseUTCOffset(u); err != nil {
			return nil, err
		}
	}
	switch d {
	case "":
	case "off":
		on = false
	default:
		if hour, err = strconv.Atoi(d); err != nil {
			return nil, bot.Errorf(bot.EINVALID, "digest: off or an hour from 0 to 23.")
		}
		on = true
	}
	return h.prefs.SetDigest(ctx, req.UserID, on, hour, offset)
}

// parseUTCOffset reads "+2", "-5", "+5:30", "UTC+1" as minutes.
func parseUTCOffset(s string) (int, error) {
	bad := bot.Errorf(bot.EINVALID, "utc: an offset from UTC such as +2, -5 or +5:30, not %q.", truncate(s, 20))
	t := strings.TrimPrefix(strings.ToUpper(strings.TrimSpace(s)), "UTC")
	sign := 1
	switch {
	case strings.HasPrefix(t, "-"):
		sign, t = -1, t[1:]
	case strings.HasPrefix(t, "+"):
		t = t[1:]
	}
	hs, ms, _ := strings.Cut(t, ":")
	hours, err := strconv.Atoi(hs)
	if err != nil || hours < 0 || hours > 14 {
		return 0, bad
	}
	mins := 0
	if ms != "" {
		if mins, err = strconv.Atoi(ms); err != nil || mins < 0 || mins > 59 {
			return 0, bad
		}
	}
	m := sign * (hours*60 + mins)
	if m < -prefs.MaxUTCOffset || m > prefs.MaxUTCOffset {
		return 0, bad
	}
	return m, nil
}

// digestText says whether p asks for a digest, and p's time zone.
func digestText(p *bot.Preferences) string {
	zone := notify.UTCOffsetName(p.UTCOffset)
	if !p.Digest {
		return fmt.Sprintf("No daily digest: one message per event. Your time zone: %s.", zone)
	}
	return fmt.Sprintf("A daily digest at %02d:00 %s instead of one message per event: the games where it is your turn, with your opponents' moves and the boards; reminders still come at once.", p.DigestHour, zone)
}

// maxDigestBoards is the most boards one digest carries (Discord's limit
// of files in a message).
const maxDigestBoards = 10

// digestRoom is the room a digest keeps after its games' lines for the
// lines that close the list (games left out, boards left out).
const digestRoom = 200

// digestReply renders digest notification n (notify.Digests.Digest) for its
// user: a heading with the time in their time zone (/settings utc:), each
// game where it is their turn with what the opponent played since the
// user's last move, whole turns grouped as /history groups them, the
// deadline in their time and the board (their side at the bottom, at most
// maxDigestBoards), then what the held notifications said (n.Text). Games
// that do not fit in one message are counted, not listed; held notices
// that do not fit are cut.
func (h *Handler) digestReply(ctx context.Context, n bot.Notification, rep Reply) Reply {
	offset := 0
	if p, err := h.prefs.Preferences(ctx, n.UserID); err != nil {
		h.log.Warn("command: digest without the user's settings", "user", n.UserID, "err", err)
	} else {
		offset = p.UTCOffset
	}
	games, err := h.svc.Views().ActiveGames(ctx, n.UserID)
	if err != nil {
		h.log.Warn("command: digest without the user's games", "user", n.UserID, "err", err)
	}
	now := h.svc.Now()
	head := fmt.Sprintf("**Your fairypost digest**, %s.", notify.LocalTime(now, offset))
	tail := n.Text
	var lines []string
	var files []File
	turns, left, unshown := 0, 0, 0
	for _, g := range games {
		if g.ToAct != n.UserID {
			continue
		}
		turns++
		line, rg := h.digestGame(g, n.UserID, offset, now)
		// The games come first: room is kept for the closing lines, and
		// the held notices after them are cut if they do not fit.
		if len(head)+len(strings.Join(append(lines, line), "\n"))+digestRoom > maxReply {
			left++
			continue
		}
		lines = append(lines, line)
		switch {
		case rg == nil: // a pre-game choice, or a game that cannot be replayed
		case len(files) == maxDigestBoards:
			unshown++
		default:
			f, err := h.boardPNG(g, rg, n.UserID)
			if err != nil {
				h.log.Error("command: digest: render", "game", g.ID, "err", err)
				continue
			}
			files = append(files, f)
		}
	}
	var b strings.Builder
	b.WriteString(head)
	switch turns {
	case 0:
		b.WriteString("\nIt is your turn in no game.")
	case 1:
		b.WriteString("\nIt is your turn in 1 game:")
	default:
		fmt.Fprintf(&b, "\nIt is your turn in %d games:", turns)
	}
	for _, l := range lines {
		b.WriteString("\n" + l)
	}
	if left > 0 {
		fmt.Fprintf(&b, "\n… and %d more: /games lists them.", left)
	}
	if unshown > 0 {
		fmt.Fprintf(&b, "\n(The boards of the first %d games; /board shows the others.)", len(files))
	}
	if tail != "" {
		b.WriteString("\n" + tail)
	}
	rep.Text, rep.Files = b.String(), files
	return rep
}

// digestGame is the digest's line for game g, where it is userID's turn
// (times offset minutes east of UTC), and its replay for the board, nil
// for a pre-game choice or when the game cannot be replayed (logged).
func (h *Handler) digestGame(g *bot.Game, userID string, offset int, now time.Time) (string, *rules.Game) {
	deadline := "no time limit"
	if !g.Deadline.IsZero() {
		verb := "move"
		if g.Status == bot.GameSetup {
			verb = "choose"
		}
		deadline = fmt.Sprintf("%s before %s (%s)", verb, notify.LocalTime(g.Deadline, offset), timeLeft(g.Deadline, now))
	}
	line := fmt.Sprintf("• **Game #%d** (%s) vs %s: %s.", g.ID, h.variantName(g.Variant, g.Options), mention(opponent(g, userID)), deadline)
	if g.Status == bot.GameSetup {
		return line + " Your pre-game choice.", nil
	}
	rg, err := h.replay(g)
	if err != nil {
		h.log.Error("command: digest: replay", "game", g.ID, "err", err)
		return line, nil
	}
	played := historyLines(gameplay.TurnsSince(g, rg, sinceLastOwn(g, rg, userID)))
	switch {
	case len(played) > 0:
		line += fmt.Sprintf(" Since your last move: %s.", strings.Join(played, "; "))
	case len(rg.Moves()) == 0:
		line += " You begin."
	}
	return line, rg
}
