package command

import (
	"fmt"
	"strconv"
	"time"

	"github.com/fairypost/fairypost/bot"
)

// optBank is /challenge's time bank option (bot.ChallengeRequest.BankDays).
const optBank = "bank"

// bankOption is the spec of /challenge's bank: option.
func bankOption() OptionSpec {
	var cs []Choice
	for _, d := range []int{1, 2, 3, 5, 7, 14, 30} {
		cs = append(cs, Choice{Name: counted(d, "extra day") + " for the game", Value: strconv.Itoa(d)})
	}
	return OptionSpec{Name: optBank, Kind: OptionInteger, Choices: append([]Choice{{Name: "none", Value: "0"}}, cs...),
		Description: "Time bank: extra days for the whole game, spent only when a move takes longer than its days"}
}

// bankDays reads the bank: option ("" is none).
func bankDays(s string) (int, error) {
	if s == "" {
		return 0, nil
	}
	d, err := strconv.Atoi(s)
	if err != nil || !bot.ValidBankDays(d) {
		return 0, bot.Errorf(bot.EINVALID, "bank: choose 1, 2, 3, 5, 7, 14 or 30 days, or 0 for none.")
	}
	return d, nil
}

// bankText is " plus a time bank of N days each" for a bank of N days,
// "" for none.
func bankText(days int) string {
	if days == 0 {
		return ""
	}
	return " plus a time bank of " + counted(days, "day") + " each"
}

// duration writes a time left in days, hours and minutes ("2d 3h",
// "5h 12m", "none").
func duration(d time.Duration) string {
	if d <= 0 {
		return "none"
	}
	days, hours, mins := int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour), int(d%time.Hour/time.Minute)
	switch {
	case days > 0:
		return fmt.Sprintf("%dd %dh", days, hours)
	case hours > 0:
		return fmt.Sprintf("%dh %dm", hours, mins)
	}
	return fmt.Sprintf("%dm", max(mins, 1))
}
