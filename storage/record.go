package storage

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/rules"
)

// gameRecord is the stored form of a bot.Game.
type gameRecord struct {
	Schema      int       `json:"schema"`
	ID          uint64    `json:"id"`
	Version     uint64    `json:"version"`
	Variant     string    `json:"variant"`
	Options     string    `json:"options,omitempty"`
	StartFEN    string    `json:"start_fen"`
	Moves       []string  `json:"moves"`
	FEN         string    `json:"fen"`
	ToAct       string    `json:"to_act,omitempty"`
	White       string    `json:"white"`
	Black       string    `json:"black"`
	GuildID     string    `json:"guild,omitempty"`
	ChannelID   string    `json:"channel,omitempty"`
	ThreadID    string    `json:"thread,omitempty"`
	Status      uint8     `json:"status"`
	Result      uint8     `json:"result"`
	Reason      string    `json:"reason,omitempty"`
	DaysPerMove int       `json:"days_per_move"`
	Deadline    time.Time `json:"deadline"`
	// Fields added after the first schema-1 records: absent in those, so
	// they decode as the zero value (omitempty/omitzero keep new records
	// small too).
	TurnStarted time.Time    `json:"turn_started,omitzero"`
	Reminded    bool         `json:"reminded,omitempty"`
	DrawOffer   string       `json:"draw_offer,omitempty"`
	Takeback    string       `json:"takeback,omitempty"`
	Setup       *setupRecord `json:"setup,omitempty"`
	Created     time.Time    `json:"created"`
	Updated     time.Time    `json:"updated"`
	// Added by schema 2 (absent from schema-1 records).
	RemindAt time.Time `json:"remind_at,omitzero"`
	// Added within schema 3 (absent from older records: casual, unrated).
	Rated      bool                 `json:"rated,omitempty"`
	Ratings    []ratingChangeRecord `json:"ratings,omitempty"`
	Tournament uint64               `json:"tournament,omitempty"`
	// Added within schema 3: the computer player's level (absent: a game between people).
	Level int `json:"level,omitempty"`
	// Added within schema 3 (absent from older records, and when no
	// player keeps a conditional line).
	Forecasts []forecastRecord `json:"forecasts,omitempty"`
	// Added within schema 3: vacations and pauses (absent when none).
	WhiteAway      time.Time `json:"white_away,omitzero"`
	BlackAway      time.Time `json:"black_away,omitzero"`
	PauseOffer     string    `json:"pause_offer,omitempty"`
	PausedAt       time.Time `json:"paused_at,omitzero"`
	PausedDeadline time.Time `json:"paused_deadline,omitzero"`
	PausedRemindAt time.Time `json:"paused_remind_at,omitzero"`
	// Added within schema 3: spectators following the game.
	Followers []string `json:"followers,omitempty"`
	// Added within schema 3: the time bank (absent in games without).
	BankDays  int           `json:"bank_days,omitempty"`
	WhiteBank time.Duration `json:"white_bank,omitempty"`
	BlackBank time.Duration `json:"black_bank,omitempty"`
	// Added within schema 3: the players' private notes.
	Notes []noteRecord `json:"notes,omitempty"`
}

// noteRecord is the stored form of a bot.Note.
type noteRecord struct {
	UserID string `json:"user"`
	Text   string `json:"text"`
}

func encodeNotes(ns []bot.Note) []noteRecord {
	var out []noteRecord
	for _, n := range ns {
		out = append(out, noteRecord{UserID: n.UserID, Text: n.Text})
	}
	return out
}

func decodeNotes(rs []noteRecord) []bot.Note {
	var out []bot.Note
	for _, r := range rs {
		out = append(out, bot.Note{UserID: r.UserID, Text: r.Text})
	}
	return out
}

// forecastRecord is the stored form of a bot.Forecast.
type forecastRecord struct {
	Owner string   `json:"owner"`
	Base  int      `json:"base"`
	Moves []string `json:"moves"`
}

func encodeForecasts(fs []bot.Forecast) []forecastRecord {
	var out []forecastRecord
	for _, f := range fs {
		out = append(out, forecastRecord{Owner: f.Owner, Base: f.Base, Moves: f.Moves})
	}
	return out
}

func decodeForecasts(rs []forecastRecord) []bot.Forecast {
	var out []bot.Forecast
	for _, r := range rs {
		out = append(out, bot.Forecast{Owner: r.Owner, Base: r.Base, Moves: r.Moves})
	}
	return out
}

// readableSchema reports whether a record of schema v decodes: records
// of every schema up to SchemaVersion do, since each schema so far only
// added fields (2: a game's remind_at), which an older record lacks and
// decodes as the zero value.
func readableSchema(v int) bool { return v >= 1 && v <= SchemaVersion }

// setupRecord is the stored form of a bot.Setup. The seed is a string of
// decimal digits so that readers whose numbers are float64 keep all 64 bits.
type setupRecord struct {
	Seed       uint64 `json:"seed,string"`
	Challenger string `json:"challenger"`
	Challenged string `json:"challenged"`
	Army       string `json:"army,omitempty"`
	FirstMover string `json:"first_mover,omitempty"`
	// Added within schema 2: absent from older records, whose zero value
	// means the challenged player picks the army (bot.ArmyChooser).
	Chooser uint8 `json:"chooser,omitempty"`
}

func encodeSetup(s *bot.Setup) *setupRecord {
	if s == nil {
		return nil
	}
	return &setupRecord{Seed: s.Seed, Challenger: s.Challenger, Challenged: s.Challenged, Army: s.Army, FirstMover: s.FirstMover,
		Chooser: uint8(s.Chooser)}
}

func decodeSetup(r *setupRecord) *bot.Setup {
	if r == nil {
		return nil
	}
	return &bot.Setup{Seed: r.Seed, Challenger: r.Challenger, Challenged: r.Challenged, Army: r.Army, FirstMover: r.FirstMover,
		Chooser: bot.ArmyChooser(r.Chooser)}
}

func encodeGame(g *bot.Game) ([]byte, error) {
	return json.Marshal(gameRecord{Schema: SchemaVersion, ID: g.ID, Version: g.Version,
		Variant: g.Variant, Options: g.Options, StartFEN: g.StartFEN, Moves: g.Moves, FEN: g.FEN, ToAct: g.ToAct,
		White: g.White, Black: g.Black, GuildID: g.GuildID, ChannelID: g.ChannelID, ThreadID: g.ThreadID,
		Status: uint8(g.Status), Result: uint8(g.Result), Reason: string(g.Reason),
		DaysPerMove: g.DaysPerMove, Deadline: g.Deadline, TurnStarted: g.TurnStarted, Reminded: g.Reminded,
		DrawOffer: g.DrawOffer, Takeback: g.Takeback, Setup: encodeSetup(g.Setup),
		Created: g.Created, Updated: g.Updated, RemindAt: g.RemindAt,
		Rated: g.Rated, Ratings: encodeRatingChanges(g.Ratings), Tournament: g.Tournament, Level: g.Level, Forecasts: encodeForecasts(g.Forecasts),
		WhiteAway: g.WhiteAway, BlackAway: g.BlackAway, PauseOffer: g.PauseOffer, PausedAt: g.PausedAt,
		PausedDeadline: g.PausedDeadline, PausedRemindAt: g.PausedRemindAt, Followers: g.Followers,
		BankDays: g.BankDays, WhiteBank: g.WhiteBank, BlackBank: g.BlackBank, Notes: encodeNotes(g.Notes)})
}

func decodeGame(b []byte) (*bot.Game, error) {
	var r gameRecord
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("game record: %w", err)
	}
	if !readableSchema(r.Schema) {
		return nil, fmt.Errorf("game %d: record schema %d, want 1 to %d", r.ID, r.Schema, SchemaVersion)
	}
	return &bot.Game{ID: r.ID, Version: r.Version, Variant: r.Variant, Options: r.Options,
		StartFEN: r.StartFEN, Moves: r.Moves, FEN: r.FEN, ToAct: r.ToAct, White: r.White, Black: r.Black,
		GuildID: r.GuildID, ChannelID: r.ChannelID, ThreadID: r.ThreadID, Status: bot.GameStatus(r.Status), Result: bot.Result(r.Result),
		Reason: rules.Reason(r.Reason), DaysPerMove: r.DaysPerMove, Deadline: r.Deadline, TurnStarted: r.TurnStarted,
		Reminded: r.Reminded, RemindAt: r.RemindAt, DrawOffer: r.DrawOffer, Takeback: r.Takeback,
		Setup: decodeSetup(r.Setup), Created: r.Created, Updated: r.Updated,
		Rated: r.Rated, Ratings: decodeRatingChanges(r.Ratings), Tournament: r.Tournament, Level: r.Level, Forecasts: decodeForecasts(r.Forecasts),
		WhiteAway: r.WhiteAway, BlackAway: r.BlackAway, PauseOffer: r.PauseOffer, PausedAt: r.PausedAt,
		PausedDeadline: r.PausedDeadline, PausedRemindAt: r.PausedRemindAt, Followers: r.Followers,
		BankDays: r.BankDays, WhiteBank: r.WhiteBank, BlackBank: r.BlackBank, Notes: decodeNotes(r.Notes)}, nil
}

// challengeRecord is the stored form of a bot.Challenge.
type challengeRecord struct {
	Schema      int       `json:"schema"`
	ID          uint64    `json:"id"`
	Version     uint64    `json:"version"`
	Challenger  string    `json:"challenger"`
	Challenged  string    `json:"challenged,omitempty"`
	GuildID     string    `json:"guild,omitempty"`
	ChannelID   string    `json:"channel,omitempty"`
	Variant     string    `json:"variant"`
	Options     string    `json:"options,omitempty"`
	DaysPerMove int       `json:"days_per_move"`
	Color       uint8     `json:"color"`
	Status      uint8     `json:"status"`
	Expires     time.Time `json:"expires"`
	Created     time.Time `json:"created"`
	Updated     time.Time `json:"updated"`
	// Added within schema 2: absent from older records and for variants
	// without a pre-game choice (bot.ArmyChooser's zero value).
	Chooser uint8 `json:"chooser,omitempty"`
	// Added within schema 3: absent from older records (casual).
	Rated bool `json:"rated,omitempty"`
	// Added within schema 3: the computer player's level (absent: a challenge to a person).
	Level int `json:"level,omitempty"`
	// Added within schema 3: the time bank in days (absent when none).
	BankDays int `json:"bank_days,omitempty"`
}

func encodeChallenge(c *bot.Challenge) ([]byte, error) {
	return json.Marshal(challengeRecord{Schema: SchemaVersion, ID: c.ID, Version: c.Version,
		Challenger: c.Challenger, Challenged: c.Challenged, GuildID: c.GuildID, ChannelID: c.ChannelID,
		Variant: c.Variant, Options: c.Options, DaysPerMove: c.DaysPerMove, Color: uint8(c.Color),
		Status: uint8(c.Status), Expires: c.Expires, Created: c.Created, Updated: c.Updated, Chooser: uint8(c.Chooser),
		Rated: c.Rated, BankDays: c.BankDays, Level: c.Level})
}

func decodeChallenge(b []byte) (*bot.Challenge, error) {
	var r challengeRecord
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("challenge record: %w", err)
	}
	if !readableSchema(r.Schema) {
		return nil, fmt.Errorf("challenge %d: record schema %d, want 1 to %d", r.ID, r.Schema, SchemaVersion)
	}
	return &bot.Challenge{ID: r.ID, Version: r.Version, Challenger: r.Challenger, Challenged: r.Challenged,
		GuildID: r.GuildID, ChannelID: r.ChannelID, Variant: r.Variant, Options: r.Options,
		DaysPerMove: r.DaysPerMove, BankDays: r.BankDays, Color: bot.ColorChoice(r.Color), Chooser: bot.ArmyChooser(r.Chooser),
		Status: bot.ChallengeStatus(r.Status), Expires: r.Expires, Created: r.Created, Updated: r.Updated,
		Rated: r.Rated, Level: r.Level}, nil
}

// notificationRecord is the stored form of a bot.Notification.
type notificationRecord struct {
	Schema      int       `json:"schema"`
	ID          uint64    `json:"id"`
	Kind        uint8     `json:"kind"`
	UserID      string    `json:"user,omitempty"`
	GuildID     string    `json:"guild,omitempty"`
	ChannelID   string    `json:"channel,omitempty"`
	GameID      uint64    `json:"game,omitempty"`
	ChallengeID uint64    `json:"challenge,omitempty"`
	Text        string    `json:"text"`
	Created     time.Time `json:"created"`
	Attempts    int       `json:"attempts,omitempty"`  // added within schema 1
	NotBefore   time.Time `json:"not_before,omitzero"` // added within schema 1
	// SetAside, added within schema 2, says why delivery gave up on the
	// notification for good ("" for one still to deliver).
	SetAside string `json:"set_aside,omitempty"`
	// Tournament, added within schema 3, is the tournament of a
	// tournament notification.
	Tournament uint64 `json:"tournament,omitempty"`
}

func encodeNotification(n *bot.Notification) ([]byte, error) {
	return json.Marshal(notificationRecord{Schema: SchemaVersion, ID: n.ID, Kind: uint8(n.Kind), UserID: n.UserID,
		GuildID: n.GuildID, ChannelID: n.ChannelID, GameID: n.GameID, ChallengeID: n.ChallengeID,
		Text: n.Text, Created: n.Created, Attempts: n.Attempts, NotBefore: n.NotBefore, Tournament: n.TournamentID})
}

// decodeOutboxEntry decodes a notification record and says why it was
// set aside ("" when it was not).
func decodeOutboxEntry(b []byte) (bot.Notification, string, error) {
	var r notificationRecord
	if err := json.Unmarshal(b, &r); err != nil {
		return bot.Notification{}, "", fmt.Errorf("notification record: %w", err)
	}
	if !readableSchema(r.Schema) {
		return bot.Notification{}, "", fmt.Errorf("notification %d: record schema %d, want 1 to %d", r.ID, r.Schema, SchemaVersion)
	}
	return bot.Notification{ID: r.ID, Kind: bot.NotificationKind(r.Kind), UserID: r.UserID, GuildID: r.GuildID,
		ChannelID: r.ChannelID, GameID: r.GameID, ChallengeID: r.ChallengeID, Text: r.Text, Created: r.Created,
		Attempts: r.Attempts, NotBefore: r.NotBefore, TournamentID: r.Tournament}, r.SetAside, nil
}

// decodeNotification decodes a notification record (whether it was set
// aside is dropped: decodeOutboxEntry says).
func decodeNotification(b []byte) (bot.Notification, error) {
	n, _, err := decodeOutboxEntry(b)
	return n, err
}

// preferencesRecord is the stored form of a bot.Preferences.
type preferencesRecord struct {
	Schema          int    `json:"schema"`
	UserID          string `json:"user"`
	Version         uint64 `json:"version"`
	Delivery        uint8  `json:"delivery"`
	ReminderPercent int    `json:"reminder_percent"`
	DMBlocked       bool   `json:"dm_blocked,omitempty"`
	// Added within schema 3: the vacation (absent when never taken).
	VacationSince time.Time `json:"vacation_since,omitzero"`
	VacationUntil time.Time `json:"vacation_until,omitzero"`
	VacationYear  int       `json:"vacation_year,omitempty"`
	VacationUsed  int       `json:"vacation_used,omitempty"`
	// Added within schema 3: the digest (absent when never asked for).
	Digest     bool `json:"digest,omitempty"`
	DigestHour int  `json:"digest_hour,omitempty"`
	UTCOffset  int  `json:"utc_offset,omitempty"`
}

func encodePreferences(p *bot.Preferences) ([]byte, error) {
	return json.Marshal(preferencesRecord{Schema: SchemaVersion, UserID: p.UserID, Version: p.Version,
		Delivery: uint8(p.Delivery), ReminderPercent: p.ReminderPercent, DMBlocked: p.DMBlocked,
		VacationSince: p.VacationSince, VacationUntil: p.VacationUntil, VacationYear: p.VacationYear, VacationUsed: p.VacationUsed,
		Digest: p.Digest, DigestHour: p.DigestHour, UTCOffset: p.UTCOffset})
}

func decodePreferences(b []byte) (*bot.Preferences, error) {
	var r preferencesRecord
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("preferences record: %w", err)
	}
	if !readableSchema(r.Schema) {
		return nil, fmt.Errorf("preferences of %s: record schema %d, want 1 to %d", r.UserID, r.Schema, SchemaVersion)
	}
	return &bot.Preferences{UserID: r.UserID, Version: r.Version, Delivery: bot.Delivery(r.Delivery),
		ReminderPercent: r.ReminderPercent, DMBlocked: r.DMBlocked,
		VacationSince: r.VacationSince, VacationUntil: r.VacationUntil, VacationYear: r.VacationYear, VacationUsed: r.VacationUsed,
		Digest: r.Digest, DigestHour: r.DigestHour, UTCOffset: r.UTCOffset}, nil
}
