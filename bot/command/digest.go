package command

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/fairypost/fairypost/bot"
)

// /settings digest: and utc: (bot.Service.SetDigest).
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
	p, err := h.svc.Preferences(ctx, req.UserID)
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
	return h.svc.SetDigest(ctx, req.UserID, on, hour, offset)
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
	if m < -bot.MaxUTCOffset || m > bot.MaxUTCOffset {
		return 0, bad
	}
	return m, nil
}

// digestText says whether p asks for a digest.
func digestText(p *bot.Preferences) string {
	if !p.Digest {
		return "No daily digest: one message per event."
	}
	sign, m := "+", p.UTCOffset
	if m < 0 {
		sign, m = "-", -m
	}
	return fmt.Sprintf("A daily digest at %02d:00 (UTC%s%d:%02d) instead of one message per event; reminders still come at once.", p.DigestHour, sign, m/60, m%60)
}
