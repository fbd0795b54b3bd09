package gameplay

import (
	"context"
	"fmt"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/rules"
)

// ChallengeRequest is what a user asks for when challenging.
type ChallengeRequest struct {
	Challenger         string // user ID, required
	Challenged         string // user ID; "" for an open challenge
	GuildID, ChannelID string
	Variant            string // rules registry key
	Options            string // "k=v,k=v", checked against the variant
	DaysPerMove        int    // see ValidDaysPerMove
	BankDays           int    // each player's time bank, see ValidBankDays; needs a DaysPerMove
	// Color is the challenger's colour: 0 means ColorRandom, the only
	// choice a variant with a pre-game choice allows (its colours follow
	// from that choice, see Choose).
	Color bot.ColorChoice
	// Chooser says who picks the army in a variant with a pre-game
	// choice; 0 means ChooserChallenged there, and is the only value
	// other variants allow.
	Chooser bot.ArmyChooser
	// Rated asks for a rated game (see rating.go); false for a casual one.
	Rated bool
	// Level is the computer player's level when Challenged is the
	// computer (Service.ComputerID): 1..MaxComputerLevel, 0 for
	// DefaultComputerLevel. Ignored otherwise.
	Level int
}

// Challenge creates a pending challenge that expires after ChallengeTTL
// and notifies the challenged user (or the channel, for an open
// challenge). Errors: EINVALID for an unknown variant or option, days per
// move not allowed, a missing challenger or a user challenging
// themselves, a colour other than random for a variant with a pre-game
// choice (rules.Variant.PreGame) and an army chooser for a variant
// without one. A challenge to a variant with a pre-game choice records
// its Chooser (ChooserChallenged when not given).
func (sub Challenges) Challenge(ctx context.Context, req ChallengeRequest) (*bot.Challenge, error) {
	s := sub.s

	if req.Challenger == "" {
		return nil, bot.Errorf(bot.EINVALID, "Who is challenging? No user given.")
	}
	if req.Challenged == req.Challenger {
		return nil, bot.Errorf(bot.EINVALID, "You cannot challenge yourself.")
	}
	if !bot.ValidDaysPerMove(req.DaysPerMove) {
		return nil, bot.Errorf(bot.EINVALID, "Days per move must be 1, 2, 3, 5, 7, 14 or unlimited, not %d.", req.DaysPerMove)
	}
	if !bot.ValidBankDays(req.BankDays) {
		return nil, bot.Errorf(bot.EINVALID, "A time bank must be 1, 2, 3, 5, 7, 14 or 30 days, or none, not %d.", req.BankDays)
	}
	if req.BankDays > 0 && req.DaysPerMove == 0 {
		return nil, bot.Errorf(bot.EINVALID, "A time bank needs days per move: without a time limit there is nothing to spend it on.")
	}
	if req.Color == 0 {
		req.Color = bot.ColorRandom
	}
	if req.Color.String() == "unknown" {
		return nil, bot.Errorf(bot.EINVALID, "Unknown colour choice %d.", req.Color)
	}
	v, options, err := s.rules.Resolve(req.Variant, req.Options)
	if err != nil {
		return nil, bot.Errorf(bot.EINVALID, "%s", err.Error())
	}
	if req.Chooser.String() == "unknown" {
		return nil, bot.Errorf(bot.EINVALID, "Unknown army chooser %d.", req.Chooser)
	}
	switch {
	case v.PreGame == nil && req.Chooser != 0:
		return nil, bot.Errorf(bot.EINVALID, "%s has no pre-game choice of armies: leave chooser out (the colours are set by color).", v.Name)
	case v.PreGame != nil && req.Color != bot.ColorRandom:
		return nil, bot.Errorf(bot.EINVALID, "%s has no colour to ask for: it starts from a random position in which one player picks the army they play "+
			"and the other who moves first, and the first mover plays White. Leave color out; chooser says who picks the army "+
			"(challenged, the default, or challenger).", v.Name)
	case v.PreGame != nil && req.Chooser == 0:
		req.Chooser = bot.ChooserChallenged
	}
	computer := s.IsComputer(req.Challenged)
	switch {
	case computer && req.Level == 0:
		req.Level = DefaultComputerLevel
	case computer && (req.Level < 1 || req.Level > MaxComputerLevel):
		return nil, bot.Errorf(bot.EINVALID, "The computer plays at levels 1 (weakest) to %d (strongest), not %d.", MaxComputerLevel, req.Level)
	case !computer:
		req.Level = 0
	}
	if s.IsComputer(req.Challenger) {
		return nil, bot.Errorf(bot.EINVALID, "The computer does not challenge anyone.")
	}
	now := s.now()
	c := &bot.Challenge{
		Level:      req.Level,
		Challenger: req.Challenger, Challenged: req.Challenged,
		GuildID: req.GuildID, ChannelID: req.ChannelID,
		Variant: req.Variant, Options: options,
		DaysPerMove: req.DaysPerMove, BankDays: req.BankDays, Color: req.Color, Chooser: req.Chooser, Rated: req.Rated,
		Status: bot.ChallengePending, Expires: now.Add(ChallengeTTL),
		Created: now, Updated: now,
	}
	invite := bot.Notification{Kind: bot.NotifyChallengeReceived, UserID: req.Challenged,
		GuildID: req.GuildID, ChannelID: req.ChannelID, Created: now,
		Text: fmt.Sprintf("<@%s> challenges you to %s.", req.Challenger, s.describe(c))}
	if c.Open() {
		invite.Text = fmt.Sprintf("<@%s> challenges anyone to %s.", req.Challenger, s.describe(c))
	}
	told := []bot.Notification{invite}
	if computer {
		c.Rated, told = false, nil // games against the computer are casual; it needs no notice
	}
	if err := s.challenges.CreateChallenge(ctx, c, told); err != nil {
		return nil, err
	}
	if computer {
		// The computer accepts at once, where the challenge was made.
		if _, err := s.Challenges().Accept(ctx, c.ID, c.Version, req.Challenged, bot.Where{GuildID: req.GuildID, ChannelID: req.ChannelID}); err != nil {
			return nil, err
		}
		return s.challenges.Challenge(ctx, c.ID)
	}
	return c, nil
}

// describe returns "Chess (3 days per move)" and the like; for a
// variant with a pre-game choice, who picks the army too
// ("Crazyhouse Annihilation (3 days per move, the challenged player picks the army)").
func (s *Service) describe(c *bot.Challenge) string {
	text := s.VariantName(c.Variant, c.Options)
	days := fmt.Sprintf("%d days per move", c.DaysPerMove)
	switch c.DaysPerMove {
	case 0:
		days = "no time limit"
	case 1:
		days = "1 day per move"
	}
	if c.BankDays > 0 {
		days += fmt.Sprintf(" + %d days in the bank", c.BankDays)
	}
	switch {
	case c.Chooser == bot.ChooserChallenged && c.Open():
		days += ", whoever accepts picks the army"
	case c.Chooser == bot.ChooserChallenged:
		days += ", the challenged player picks the army"
	case c.Chooser == bot.ChooserChallenger:
		days += ", the challenger picks the army"
	}
	return text + " (" + days + ")"
}

// pending refuses a challenge that can no longer be answered.
func (s *Service) pending(c *bot.Challenge) error {
	if c.Status != bot.ChallengePending {
		return bot.Errorf(bot.EINVALID, "Challenge %d is %s.", c.ID, c.Status)
	}
	if !s.now().Before(c.Expires) {
		return bot.Errorf(bot.EINVALID, "Challenge %d has expired.", c.ID)
	}
	return nil
}

// Accept accepts challenge id for userID and starts its game (with the
// challenge's ID), notifying the challenger and the player to act.
// expected is the challenge version the user saw, or AnyVersion. Only the
// challenged user may accept, or anyone but the challenger when the
// challenge is open (EFORBIDDEN otherwise), and only from where the
// challenge may be accepted (at: see Challenge.acceptableFrom; EFORBIDDEN
// otherwise); a challenge that is no longer pending or has expired is
// EINVALID; ENOTFOUND, ECONFLICT as the store
// says. Nothing changes on error.
//
// The game starts from the variant's start position, the challenger
// playing the colour they chose (a coin decides "random"), and the clock
// of the first player to act starts (waiting for the end of a vacation
// the player is on, see StartVacation). A variant with a pre-game choice
// (rules.Variant.PreGame, see Choose) has no colour to ask for: the game
// starts in GameSetup from a random position and the player the
// challenge's Chooser names is asked to pick the army (NotifyChoice)
// instead.
func (sub Challenges) Accept(ctx context.Context, id, expected uint64, userID string, at bot.Where) (*bot.Game, error) {
	s := sub.s

	// The players' reminder settings, for the first turn's reminder: the
	// challenger is read from the challenge (an unknown challenge gives
	// none; the update says what is wrong with it).
	challenger := ""
	if c, err := s.challenges.Challenge(ctx, id); err == nil {
		challenger = c.Challenger
	}
	reminders := s.ReadReminders(ctx, challenger, userID)
	away, err := s.awayFor(ctx, id, userID)
	if err != nil {
		return nil, err
	}
	_, g, err := s.challenges.UpdateChallenge(ctx, id, expected, func(c *bot.Challenge) (bot.ChallengeChange, error) {
		if userID == "" || userID == c.Challenger || (!c.Open() && userID != c.Challenged) {
			return bot.ChallengeChange{}, bot.Errorf(bot.EFORBIDDEN, "Only the challenged player can accept challenge %d.", c.ID)
		}
		if err := c.AcceptableFrom(at); err != nil {
			return bot.ChallengeChange{}, err
		}
		if err := s.pending(c); err != nil {
			return bot.ChallengeChange{}, err
		}
		v, err := s.rules.Variant(c.Variant, c.Options)
		if err != nil {
			return bot.ChallengeChange{}, fmt.Errorf("challenge %d: %w", c.ID, err)
		}
		now := s.now()
		c.Status, c.Challenged, c.Updated = bot.ChallengeAccepted, userID, now
		g := &bot.Game{
			ID: c.ID, Variant: c.Variant, Options: c.Options,
			GuildID: c.GuildID, ChannelID: c.ChannelID,
			DaysPerMove: c.DaysPerMove, BankDays: c.BankDays, Rated: c.Rated, Level: c.Level, Created: now, Updated: now,
		}
		bot.FillBanks(g)
		told := []bot.Notification{
			{Kind: bot.NotifyChallengeAccepted, UserID: c.Challenger, GuildID: c.GuildID, ChannelID: c.ChannelID,
				ChallengeID: c.ID, GameID: c.ID, Created: now,
				Text: fmt.Sprintf("<@%s> accepted your challenge: game %d, %s.", userID, c.ID, s.describe(c))},
		}
		if v.PreGame != nil {
			told = append(told, s.startSetup(g, v, &bot.Setup{Challenger: c.Challenger, Challenged: userID, Chooser: c.Chooser}, now, reminders))
			return bot.ChallengeChange{Game: g, Notifications: s.notComputer(told)}, nil
		}
		white := c.Color == bot.ColorWhite || (c.Color == bot.ColorRandom && s.coin())
		g.White, g.Black = c.Challenger, userID
		if !white {
			g.White, g.Black = userID, c.Challenger
		}
		// A player on vacation: their clock waits (see StartVacation).
		g.WhiteAway, g.BlackAway = away[g.White], away[g.Black]
		start := v.Start()
		g.StartFEN, g.Status = start.FEN(), bot.GameActive
		_, more := s.settle(g, rules.NewGame(start), "", now, reminders)
		return bot.ChallengeChange{Game: g, Notifications: s.notComputer(append(told, more...))}, nil
	})
	if err != nil {
		return nil, err
	}
	s.gameCommitted(ctx, g)
	return s.recheckReminder(ctx, g, reminders), nil
}

// Decline declines challenge id for userID, who must be the challenged
// user (EFORBIDDEN otherwise; an open challenge cannot be declined, only
// left to expire), and notifies the challenger. Errors as for Accept.
func (sub Challenges) Decline(ctx context.Context, id, expected uint64, userID string) (*bot.Challenge, error) {
	s := sub.s

	c, _, err := s.challenges.UpdateChallenge(ctx, id, expected, func(c *bot.Challenge) (bot.ChallengeChange, error) {
		if c.Open() || userID != c.Challenged {
			return bot.ChallengeChange{}, bot.Errorf(bot.EFORBIDDEN, "Only the challenged player can decline challenge %d.", c.ID)
		}
		if err := s.pending(c); err != nil {
			return bot.ChallengeChange{}, err
		}
		now := s.now()
		c.Status, c.Updated = bot.ChallengeDeclined, now
		return bot.ChallengeChange{Notifications: []bot.Notification{{Kind: bot.NotifyChallengeDeclined, UserID: c.Challenger,
			GuildID: c.GuildID, ChannelID: c.ChannelID, ChallengeID: c.ID, Created: now,
			Text: fmt.Sprintf("<@%s> declined your challenge to %s.", userID, s.describe(c))}}}, nil
	})
	return c, err
}

// Cancel withdraws challenge id; only its challenger may (EFORBIDDEN).
// Errors as for Accept. Nobody is notified.
func (sub Challenges) Cancel(ctx context.Context, id, expected uint64, userID string) (*bot.Challenge, error) {
	s := sub.s

	c, _, err := s.challenges.UpdateChallenge(ctx, id, expected, func(c *bot.Challenge) (bot.ChallengeChange, error) {
		if userID != c.Challenger {
			return bot.ChallengeChange{}, bot.Errorf(bot.EFORBIDDEN, "Only the challenger can cancel challenge %d.", c.ID)
		}
		if c.Status != bot.ChallengePending {
			return bot.ChallengeChange{}, bot.Errorf(bot.EINVALID, "Challenge %d is %s.", c.ID, c.Status)
		}
		c.Status, c.Updated = bot.ChallengeCancelled, s.now()
		return bot.ChallengeChange{}, nil
	})
	return c, err
}

// awayFor returns, for the challenger of challenge id and for userID who
// accepts it, when a vacation of theirs running now ends at the latest
// (absent when none runs): read before the challenge's update, so that
// the game starts with their clocks waiting. A challenge that cannot be
// read gives none: the update reports it.
func (s *Service) awayFor(ctx context.Context, id uint64, userID string) (map[string]time.Time, error) {
	away := map[string]time.Time{}
	c, err := s.challenges.Challenge(ctx, id)
	if err != nil {
		return away, nil
	}
	now := s.now()
	for _, u := range []string{c.Challenger, userID} {
		if u == "" {
			continue
		}
		p, err := s.users.Preferences(ctx, u)
		if err != nil {
			return nil, err
		}
		if until, on := p.OnVacation(now); on {
			away[u] = until
		}
	}
	return away, nil
}

// Challenges makes, answers and lists challenges, and rematches: how a
// game begins. Obtained from Service.Challenges.
type Challenges struct{ s *Service }

// Challenges returns the Service's challenges.
func (s *Service) Challenges() Challenges { return Challenges{s} }
