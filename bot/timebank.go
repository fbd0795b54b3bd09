package bot

import "time"

// The time bank (Game Courier's spare time): besides its days per move,
// a game may give each player a bank of extra days for the whole game,
// spent only when a turn takes longer than its days. The Deadline of a
// turn is therefore its days plus what is left of the bank of the
// player to act; when the turn ends, the time it took beyond its days is
// taken from that bank (settle).

// allowedBankDays lists the allowed banks in days; 0 is none.
var allowedBankDays = []int{0, 1, 2, 3, 5, 7, 14, 30}

// ValidBankDays reports whether d is an allowed time bank: 0 (none), 1,
// 2, 3, 5, 7, 14 or 30 days.
func ValidBankDays(d int) bool {
	for _, a := range allowedBankDays {
		if a == d {
			return true
		}
	}
	return false
}

// BankLeft returns what is left of the time bank of userID, a player of
// g (zero for anyone else and in games without a bank).
func (g *Game) BankLeft(userID string) time.Duration {
	switch userID {
	case g.White:
		return g.WhiteBank
	case g.Black:
		return g.BlackBank
	}
	return 0
}

// setBank sets what is left of the bank of userID, a player of g.
func (g *Game) setBank(userID string, d time.Duration) {
	switch userID {
	case g.White:
		g.WhiteBank = d
	case g.Black:
		g.BlackBank = d
	}
}

// fillBanks gives both players of g, a game starting, its whole bank.
func FillBanks(g *Game) {
	g.WhiteBank = time.Duration(g.BankDays) * day
	g.BlackBank = g.WhiteBank
}

// spendBank takes from the bank of userID, whose turn in g began at
// started and ends at now, the time it took beyond the days per move.
func SpendBank(g *Game, userID string, started, now time.Time) {
	if g.BankDays == 0 || g.DaysPerMove <= 0 || started.IsZero() || userID == "" {
		return
	}
	over := now.Sub(started) - time.Duration(g.DaysPerMove)*day
	if over <= 0 {
		return
	}
	g.setBank(userID, max(g.BankLeft(userID)-over, 0))
}

// day is the unit of the time banks and of the days per move.
const day = 24 * time.Hour
