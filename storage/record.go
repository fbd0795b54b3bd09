package storage

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/fairypost/fairypost/bot"
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
	Status      uint8     `json:"status"`
	Result      uint8     `json:"result"`
	Reason      string    `json:"reason,omitempty"`
	DaysPerMove int       `json:"days_per_move"`
	Deadline    time.Time `json:"deadline"`
	Created     time.Time `json:"created"`
	Updated     time.Time `json:"updated"`
}

func encodeGame(g *bot.Game) ([]byte, error) {
	return json.Marshal(gameRecord{Schema: SchemaVersion, ID: g.ID, Version: g.Version,
		Variant: g.Variant, Options: g.Options, StartFEN: g.StartFEN, Moves: g.Moves, FEN: g.FEN, ToAct: g.ToAct,
		White: g.White, Black: g.Black, GuildID: g.GuildID, ChannelID: g.ChannelID,
		Status: uint8(g.Status), Result: uint8(g.Result), Reason: g.Reason,
		DaysPerMove: g.DaysPerMove, Deadline: g.Deadline, Created: g.Created, Updated: g.Updated})
}

func decodeGame(b []byte) (*bot.Game, error) {
	var r gameRecord
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("game record: %w", err)
	}
	if r.Schema != SchemaVersion {
		return nil, fmt.Errorf("game %d: record schema %d, want %d", r.ID, r.Schema, SchemaVersion)
	}
	return &bot.Game{ID: r.ID, Version: r.Version, Variant: r.Variant, Options: r.Options,
		StartFEN: r.StartFEN, Moves: r.Moves, FEN: r.FEN, ToAct: r.ToAct, White: r.White, Black: r.Black,
		GuildID: r.GuildID, ChannelID: r.ChannelID, Status: bot.GameStatus(r.Status), Result: bot.Result(r.Result),
		Reason: r.Reason, DaysPerMove: r.DaysPerMove, Deadline: r.Deadline, Created: r.Created, Updated: r.Updated}, nil
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
}

func encodeChallenge(c *bot.Challenge) ([]byte, error) {
	return json.Marshal(challengeRecord{Schema: SchemaVersion, ID: c.ID, Version: c.Version,
		Challenger: c.Challenger, Challenged: c.Challenged, GuildID: c.GuildID, ChannelID: c.ChannelID,
		Variant: c.Variant, Options: c.Options, DaysPerMove: c.DaysPerMove, Color: uint8(c.Color),
		Status: uint8(c.Status), Expires: c.Expires, Created: c.Created, Updated: c.Updated})
}

func decodeChallenge(b []byte) (*bot.Challenge, error) {
	var r challengeRecord
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("challenge record: %w", err)
	}
	if r.Schema != SchemaVersion {
		return nil, fmt.Errorf("challenge %d: record schema %d, want %d", r.ID, r.Schema, SchemaVersion)
	}
	return &bot.Challenge{ID: r.ID, Version: r.Version, Challenger: r.Challenger, Challenged: r.Challenged,
		GuildID: r.GuildID, ChannelID: r.ChannelID, Variant: r.Variant, Options: r.Options,
		DaysPerMove: r.DaysPerMove, Color: bot.ColorChoice(r.Color), Status: bot.ChallengeStatus(r.Status),
		Expires: r.Expires, Created: r.Created, Updated: r.Updated}, nil
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
}

func encodeNotification(n *bot.Notification) ([]byte, error) {
	return json.Marshal(notificationRecord{Schema: SchemaVersion, ID: n.ID, Kind: uint8(n.Kind), UserID: n.UserID,
		GuildID: n.GuildID, ChannelID: n.ChannelID, GameID: n.GameID, ChallengeID: n.ChallengeID,
		Text: n.Text, Created: n.Created})
}

func decodeNotification(b []byte) (bot.Notification, error) {
	var r notificationRecord
	if err := json.Unmarshal(b, &r); err != nil {
		return bot.Notification{}, fmt.Errorf("notification record: %w", err)
	}
	if r.Schema != SchemaVersion {
		return bot.Notification{}, fmt.Errorf("notification %d: record schema %d, want %d", r.ID, r.Schema, SchemaVersion)
	}
	return bot.Notification{ID: r.ID, Kind: bot.NotificationKind(r.Kind), UserID: r.UserID, GuildID: r.GuildID,
		ChannelID: r.ChannelID, GameID: r.GameID, ChallengeID: r.ChallengeID, Text: r.Text, Created: r.Created}, nil
}
