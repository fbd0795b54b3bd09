package web

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"
	"sync"
	"time"
)

// TokenLength is the length of a page token: 16 bytes of an HMAC-SHA256
// in unpadded base64url.
const TokenLength = 22

// KeyTTL is how long a Server trusts the key it read: a secret rotated in
// the store revokes every link within this time, and a flood of forged
// tokens costs no store read.
const KeyTTL = time.Minute

// Key returns the current secret the page tokens are made with (the
// store's storage.PageSecret). It is asked once per KeyTTL at most.
type Key func(ctx context.Context) ([]byte, error)

// Token returns the page token of game id under key: the first 16 bytes
// of HMAC-SHA256(key, "fairypost game page "+id), base64url without
// padding. Anyone with the token may see the game's page; nobody can
// make one without the key.
func Token(key []byte, id uint64) string {
	return base64.RawURLEncoding.EncodeToString(mac(key, id))
}

// mac is the raw 16 bytes of Token.
func mac(key []byte, id uint64) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("fairypost game page "))
	m.Write(strconv.AppendUint(nil, id, 10))
	return m.Sum(nil)[:16]
}

// validToken reports whether token is the page token of game id under
// key, compared in constant time. The text is compared, not what it
// decodes to: base64 would read two texts differing in the unused bits of
// their last character as the same bytes, and a page has one address.
func validToken(key []byte, id uint64, token string) bool {
	if len(token) != TokenLength {
		return false
	}
	return hmac.Equal([]byte(token), []byte(Token(key, id)))
}

// keyCache holds the key read last and when, so that checking a token
// does not read the store.
type keyCache struct {
	read Key
	now  func() time.Time

	mu   sync.Mutex
	key  []byte
	when time.Time
}

// get returns the key, reading it again when older than KeyTTL.
func (c *keyCache) get(ctx context.Context) ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.key != nil && c.now().Sub(c.when) < KeyTTL {
		return c.key, nil
	}
	k, err := c.read(ctx)
	if err != nil {
		return nil, err
	}
	c.key, c.when = k, c.now()
	return k, nil
}

// Linker makes the page addresses of games where no Server runs (a bot
// whose pages another process serves): the same addresses as
// Server.Link, the key read at most once per KeyTTL. Safe for concurrent
// use.
type Linker struct {
	base string
	keys *keyCache
}

// NewLinker returns a Linker of addresses starting with base (the public
// address of the pages) with tokens under the key key reads.
func NewLinker(base string, key Key) *Linker {
	return &Linker{base: strings.TrimRight(base, "/"), keys: &keyCache{read: key, now: time.Now}}
}

// Link returns the public address of game id's page.
func (l *Linker) Link(ctx context.Context, id uint64) (string, error) {
	key, err := l.keys.get(ctx)
	if err != nil {
		return "", err
	}
	return Link(l.base, key, id), nil
}
