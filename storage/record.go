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
	// Written within schema 3 only: spectators following the game, now
	// follow records (followRecord). Read by the migration to schema 4
	// (migrateNotesAndFollows) alone, never written.
	Followers []string `json:"followers,omitempty"`
	// Added within schema 3: the time bank (absent in games without).
	BankDays  int           `json:"bank_days,omitempty"`
	WhiteBank time.Duration `json:"white_bank,omitempty"`
	BlackBank time.Duration `json:"black_bank,omitempty"`
	// Written within schema 3 only: the players' private notes, now
	// note records (noteRecord). Read by the migration to schema 4
	// alone, never written.
	Notes []legacyNoteRecord `json:"notes,omitempty"`
}

// legacyNoteRecord is a note as schema 3 kept it inside its game record.
type legacyNoteRecord struct {
	UserID string `json:"user"`
	Text   string `json:"text"`
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
		var r forecastRecord
		r.Owner = f.Owner
		r.Base = f.Base
		r.Moves = f.Moves
		out = append(out, r)
	}
	return out
}

func decodeForecasts(rs []forecastRecord) []bot.Forecast {
	var out []bot.Forecast
	for _, r := range rs {
		var f bot.Forecast
		f.Owner = r.Owner
		f.Base = r.Base
		f.Moves = r.Moves
		out = append(out, f)
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
	r := &setupRecord{}
	r.Seed = s.Seed
	r.Challenger = s.Challenger
	r.Challenged = s.Challenged
	r.Chooser = uint8(s.Chooser)
	r.Army = s.Army
	r.FirstMover = s.FirstMover
	return r
}

func decodeSetup(r *setupRecord) *bot.Setup {
	if r == nil {
		return nil
	}
	s := &bot.Setup{}
	s.Seed = r.Seed
	s.Challenger = r.Challenger
	s.Challenged = r.Challenged
	s.Chooser = bot.ArmyChooser(r.Chooser)
	s.Army = r.Army
	s.FirstMover = r.FirstMover
	return s
}

func encodeGame(g *bot.Game) ([]byte, error) {
	r := gameRecord{Schema: SchemaVersion}
	r.ID = g.ID
	r.Version = g.Version
	r.Variant = g.Variant
	r.Options = g.Options
	r.StartFEN = g.StartFEN
	r.Moves = g.Moves
	r.FEN = g.FEN
	r.ToAct = g.ToAct
	r.White = g.White
	r.Black = g.Black
	r.GuildID = g.GuildID
	r.ChannelID = g.ChannelID
	r.ThreadID = g.ThreadID
	r.Status = uint8(g.Status)
	r.Result = uint8(g.Result)
	r.Reason = string(g.Reason)
	r.DaysPerMove = g.DaysPerMove
	r.BankDays = g.BankDays
	r.WhiteBank = g.WhiteBank
	r.BlackBank = g.BlackBank
	r.Deadline = g.Deadline
	r.TurnStarted = g.TurnStarted
	r.Reminded = g.Reminded
	r.RemindAt = g.RemindAt
	r.WhiteAway = g.WhiteAway
	r.BlackAway = g.BlackAway
	r.PauseOffer = g.PauseOffer
	r.PausedAt = g.PausedAt
	r.PausedDeadline = g.PausedDeadline
	r.PausedRemindAt = g.PausedRemindAt
	r.DrawOffer = g.DrawOffer
	r.Takeback = g.Takeback
	r.Forecasts = encodeForecasts(g.Forecasts)
	r.Setup = encodeSetup(g.Setup)
	r.Rated = g.Rated
	r.Ratings = encodeRatingChanges(g.Ratings)
	r.Level = g.Level
	r.Tournament = g.Tournament
	r.Created = g.Created
	r.Updated = g.Updated
	return json.Marshal(r)
}

func decodeGame(b []byte) (*bot.Game, error) {
	var r gameRecord
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("game record: %w", err)
	}
	if !readableSchema(r.Schema) {
		return nil, fmt.Errorf("game %d: record schema %d, want 1 to %d", r.ID, r.Schema, SchemaVersion)
	}
	g := &bot.Game{}
	g.ID = r.ID
	g.Version = r.Version
	g.Variant = r.Variant
	g.Options = r.Options
	g.StartFEN = r.StartFEN
	g.Moves = r.Moves
	g.FEN = r.FEN
	g.ToAct = r.ToAct
	g.White = r.White
	g.Black = r.Black
	g.GuildID = r.GuildID
	g.ChannelID = r.ChannelID
	g.ThreadID = r.ThreadID
	g.Status = bot.GameStatus(r.Status)
	g.Result = bot.Result(r.Result)
	g.Reason = rules.Reason(r.Reason)
	g.DaysPerMove = r.DaysPerMove
	g.BankDays = r.BankDays
	g.WhiteBank = r.WhiteBank
	g.BlackBank = r.BlackBank
	g.Deadline = r.Deadline
	g.TurnStarted = r.TurnStarted
	g.Reminded = r.Reminded
	g.RemindAt = r.RemindAt
	g.WhiteAway = r.WhiteAway
	g.BlackAway = r.BlackAway
	g.PauseOffer = r.PauseOffer
	g.PausedAt = r.PausedAt
	g.PausedDeadline = r.PausedDeadline
	g.PausedRemindAt = r.PausedRemindAt
	g.DrawOffer = r.DrawOffer
	g.Takeback = r.Takeback
	g.Forecasts = decodeForecasts(r.Forecasts)
	g.Setup = decodeSetup(r.Setup)
	g.Rated = r.Rated
	g.Ratings = decodeRatingChanges(r.Ratings)
	g.Level = r.Level
	g.Tournament = r.Tournament
	g.Created = r.Created
	g.Updated = r.Updated
	return g, nil
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
	r := challengeRecord{Schema: SchemaVersion}
	r.ID = c.ID
	r.Version = c.Version
	r.Challenger = c.Challenger
	r.Challenged = c.Challenged
	r.GuildID = c.GuildID
	r.ChannelID = c.ChannelID
	r.Variant = c.Variant
	r.Options = c.Options
	r.DaysPerMove = c.DaysPerMove
	r.BankDays = c.BankDays
	r.Color = uint8(c.Color)
	r.Chooser = uint8(c.Chooser)
	r.Status = uint8(c.Status)
	r.Expires = c.Expires
	r.Rated = c.Rated
	r.Level = c.Level
	r.Created = c.Created
	r.Updated = c.Updated
	return json.Marshal(r)
}

func decodeChallenge(b []byte) (*bot.Challenge, error) {
	var r challengeRecord
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("challenge record: %w", err)
	}
	if !readableSchema(r.Schema) {
		return nil, fmt.Errorf("challenge %d: record schema %d, want 1 to %d", r.ID, r.Schema, SchemaVersion)
	}
	c := &bot.Challenge{}
	c.ID = r.ID
	c.Version = r.Version
	c.Challenger = r.Challenger
	c.Challenged = r.Challenged
	c.GuildID = r.GuildID
	c.ChannelID = r.ChannelID
	c.Variant = r.Variant
	c.Options = r.Options
	c.DaysPerMove = r.DaysPerMove
	c.BankDays = r.BankDays
	c.Color = bot.ColorChoice(r.Color)
	c.Chooser = bot.ArmyChooser(r.Chooser)
	c.Status = bot.ChallengeStatus(r.Status)
	c.Expires = r.Expires
	c.Rated = r.Rated
	c.Level = r.Level
	c.Created = r.Created
	c.Updated = r.Updated
	return c, nil
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
	r := notificationRecord{Schema: SchemaVersion}
	r.ID = n.ID
	r.Kind = uint8(n.Kind)
	r.UserID = n.UserID
	r.GuildID = n.GuildID
	r.ChannelID = n.ChannelID
	r.GameID = n.GameID
	r.ChallengeID = n.ChallengeID
	r.Tournament = n.TournamentID
	r.Text = n.Text
	r.Created = n.Created
	r.Attempts = n.Attempts
	r.NotBefore = n.NotBefore
	return json.Marshal(r)
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
	var n bot.Notification
	n.ID = r.ID
	n.Kind = bot.NotificationKind(r.Kind)
	n.UserID = r.UserID
	n.GuildID = r.GuildID
	n.ChannelID = r.ChannelID
	n.GameID = r.GameID
	n.ChallengeID = r.ChallengeID
	n.TournamentID = r.Tournament
	n.Text = r.Text
	n.Created = r.Created
	n.Attempts = r.Attempts
	n.NotBefore = r.NotBefore
	return n, r.SetAside, nil
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
	r := preferencesRecord{Schema: SchemaVersion}
	r.UserID = p.UserID
	r.Version = p.Version
	r.Delivery = uint8(p.Delivery)
	r.ReminderPercent = p.ReminderPercent
	r.DMBlocked = p.DMBlocked
	r.VacationSince = p.VacationSince
	r.VacationUntil = p.VacationUntil
	r.VacationYear = p.VacationYear
	r.VacationUsed = p.VacationUsed
	r.Digest = p.Digest
	r.DigestHour = p.DigestHour
	r.UTCOffset = p.UTCOffset
	return json.Marshal(r)
}

func decodePreferences(b []byte) (*bot.Preferences, error) {
	var r preferencesRecord
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("preferences record: %w", err)
	}
	if !readableSchema(r.Schema) {
		return nil, fmt.Errorf("preferences of %s: record schema %d, want 1 to %d", r.UserID, r.Schema, SchemaVersion)
	}
	p := &bot.Preferences{}
	p.UserID = r.UserID
	p.Version = r.Version
	p.Delivery = bot.Delivery(r.Delivery)
	p.ReminderPercent = r.ReminderPercent
	p.DMBlocked = r.DMBlocked
	p.VacationSince = r.VacationSince
	p.VacationUntil = r.VacationUntil
	p.VacationYear = r.VacationYear
	p.VacationUsed = r.VacationUsed
	p.Digest = r.Digest
	p.DigestHour = r.DigestHour
	p.UTCOffset = r.UTCOffset
	return p, nil
}
