package discordtest

import (
	"encoding/json"
	"time"
	"unicode/utf8"
)

// nonceWindow is how long a nonce sent with enforce_nonce keeps a second
// message from being created (Discord: "the past few minutes").
const nonceWindow = 5 * time.Minute

// maxNonce is the longest nonce Discord accepts, in characters.
const maxNonce = 25

// nonceBook remembers the messages created with enforce_nonce, by
// channel, author and nonce; guarded by Server.mu.
type nonceBook struct {
	seen   map[nonceKey]nonceEntry
	dedups int
}

type nonceKey struct{ channel, author, nonce string }

type nonceEntry struct {
	msg *Message
	at  time.Time
}

// lookup returns the message created in channel by author with nonce
// within nonceWindow before now, nil if none (or if it was deleted).
func (b *nonceBook) lookup(channel, author, nonce string, now time.Time) *Message {
	e, ok := b.seen[nonceKey{channel, author, nonce}]
	if !ok || now.Sub(e.at) > nonceWindow || e.msg.deleted {
		return nil
	}
	return e.msg
}

// remember records m as created with nonce at now.
func (b *nonceBook) remember(author, nonce string, m *Message, now time.Time) {
	if b.seen == nil {
		b.seen = map[nonceKey]nonceEntry{}
	}
	b.seen[nonceKey{m.ChannelID, author, nonce}] = nonceEntry{m, now}
}

// nonceOf returns the nonce of a message create payload ("" when none):
// a string or an integer of at most 25 characters, as Discord takes it.
func nonceOf(p *messagePayload) (string, *apiError) {
	if !present(p.Nonce) {
		return "", nil
	}
	var text string
	if err := json.Unmarshal(p.Nonce, &text); err != nil {
		var n json.Number
		if err := json.Unmarshal(p.Nonce, &n); err != nil {
			return "", formError("nonce", "BASE_TYPE_INVALID", "Nonce must be a string or an integer.")
		}
		if _, err := n.Int64(); err != nil {
			return "", formError("nonce", "BASE_TYPE_INVALID", "Nonce must be a string or an integer.")
		}
		text = n.String()
	}
	if utf8.RuneCountInString(text) > maxNonce {
		return "", formError("nonce", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
	}
	return text, nil
}

// NonceDedups counts the message creations answered with an existing
// message because they repeated, with enforce_nonce, the nonce of a
// message the same author created in the same channel within the last
// few minutes (no message was created for them).
func (s *Server) NonceDedups() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.nonces.dedups
}
