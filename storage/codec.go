package storage

import "github.com/fairypost/fairypost/bot"

// The record codec is exported so that other backends (package
// storage/etcdstore) keep the very same records as this file: a record
// copied from one backend to the other decodes unchanged. Each encoder
// writes the current SchemaVersion; each decoder accepts every schema up
// to it and refuses a newer one.
//
// Each encoder and decoder maps one field per line, in the order the
// record type declares them, so that a field left out shows in review;
// TestRecordsRoundTripEveryField sets every field of every record type
// (by reflection) and requires it back.

// EncodeGame returns the stored form of g.
func EncodeGame(g *bot.Game) ([]byte, error) { return encodeGame(g) }

// DecodeGame reads a stored game.
func DecodeGame(b []byte) (*bot.Game, error) { return decodeGame(b) }

// EncodeChallenge returns the stored form of c.
func EncodeChallenge(c *bot.Challenge) ([]byte, error) { return encodeChallenge(c) }

// DecodeChallenge reads a stored challenge.
func DecodeChallenge(b []byte) (*bot.Challenge, error) { return decodeChallenge(b) }

// EncodeNotification returns the stored form of n.
func EncodeNotification(n *bot.Notification) ([]byte, error) { return encodeNotification(n) }

// DecodeNotification reads a stored notification.
func DecodeNotification(b []byte) (bot.Notification, error) { return decodeNotification(b) }

// EncodePreferences returns the stored form of p.
func EncodePreferences(p *bot.Preferences) ([]byte, error) { return encodePreferences(p) }

// DecodePreferences reads stored preferences.
func DecodePreferences(b []byte) (*bot.Preferences, error) { return decodePreferences(b) }

// Annotate calls fn with a copy of old and a copy of its annotations
// and returns old with the annotations fn left, as
// bot.GameStore.AnnotateGame stores it: nothing else of the game can
// change.
func Annotate(old *bot.Game, fn func(bot.Game, *bot.Annotations) ([]bot.Notification, error)) (*bot.Game, []bot.Notification, error) {
	return annotate(old, fn)
}
