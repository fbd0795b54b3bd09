package storage

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
)

// Secrets: keys the program keeps in its database so that every process
// of a setup shares them and an operator can revoke what was derived from
// them by rotating one (the web pages' link tokens, package bot/web, are
// an HMAC under the secret PageSecret). A secret is SecretSize random
// bytes, made by the store the first time it is asked for
// (EnsureSecret); it is never written to logs, and Dump copies it so a
// migrated database keeps its links.

// SecretSize is the length in bytes of every secret a store makes.
const SecretSize = 32

// PageSecret is the name of the secret the game pages' tokens are made
// with.
const PageSecret = "web-pages"

// Secret is a named secret as stored: what Dump and Load copy.
type Secret struct {
	Name    string
	Key     []byte // SecretSize bytes
	Created time.Time
}

// secretName is what a secret's name may be: short, lowercase, so that
// it is a safe key in bbolt and in etcd.
var secretName = regexp.MustCompile(`^[a-z0-9][a-z0-9.-]{0,63}$`)

// CheckSecretName returns an EINVALID error for a name a secret cannot
// have (see secretName).
func CheckSecretName(name string) error {
	if !secretName.MatchString(name) {
		return bot.Errorf(bot.EINVALID, "%q is not a secret's name: 1 to 64 lowercase letters, digits, '.' or '-'.", name)
	}
	return nil
}

// NewSecret returns a fresh secret called name, created at now: SecretSize
// bytes from crypto/rand.
func NewSecret(name string, now time.Time) (Secret, error) {
	if err := CheckSecretName(name); err != nil {
		return Secret{}, err
	}
	k := make([]byte, SecretSize)
	if _, err := rand.Read(k); err != nil {
		return Secret{}, err
	}
	return Secret{Name: name, Key: k, Created: now.UTC()}, nil
}

// secretRecord is the stored form of a Secret.
type secretRecord struct {
	Schema  int       `json:"schema"`
	Name    string    `json:"name"`
	Key     []byte    `json:"key"` // base64 in JSON
	Created time.Time `json:"created"`
}

// EncodeSecret returns the stored form of s (EINVALID for a bad name or a
// key that is not SecretSize bytes).
func EncodeSecret(s Secret) ([]byte, error) {
	if err := CheckSecretName(s.Name); err != nil {
		return nil, err
	}
	if len(s.Key) != SecretSize {
		return nil, bot.Errorf(bot.EINVALID, "The secret %s has %d bytes, not %d.", s.Name, len(s.Key), SecretSize)
	}
	return json.Marshal(secretRecord{Schema: SchemaVersion, Name: s.Name, Key: s.Key, Created: s.Created})
}

// DecodeSecret reads a stored secret; a record of a newer schema, or
// whose key is not SecretSize bytes, is an internal error.
func DecodeSecret(b []byte) (Secret, error) {
	var r secretRecord
	if err := json.Unmarshal(b, &r); err != nil {
		return Secret{}, bot.Errorf(bot.EINTERNAL, "a stored secret does not decode: %v", err)
	}
	if r.Schema > SchemaVersion {
		return Secret{}, bot.Errorf(bot.EINTERNAL, "a secret of schema %d is newer than this program's %d", r.Schema, SchemaVersion)
	}
	if len(r.Key) != SecretSize || CheckSecretName(r.Name) != nil {
		return Secret{}, bot.Errorf(bot.EINTERNAL, "the stored secret %q is damaged (%d bytes)", r.Name, len(r.Key))
	}
	return Secret{Name: r.Name, Key: r.Key, Created: r.Created}, nil
}

// noSecret is the error of Secret for a secret never made.
func noSecret(name string) error {
	return bot.Errorf(bot.ENOTFOUND, "There is no secret %s in the database yet.", name)
}

// bucketSecrets holds the secrets by name. Open does not make it: the
// first secret made does, so that files written before it need no
// migration and a read-only Open finds none.
var bucketSecrets = []byte("secrets")

// Secret returns the secret name, ENOTFOUND when none was ever made. It
// only reads, so it suits a database opened read-only.
func (db *DB) Secret(ctx context.Context, name string) (Secret, error) {
	if err := CheckSecretName(name); err != nil {
		return Secret{}, err
	}
	var s Secret
	err := db.view(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketSecrets)
		if b == nil {
			return noSecret(name)
		}
		v := b.Get([]byte(name))
		if v == nil {
			return noSecret(name)
		}
		var err error
		s, err = DecodeSecret(v)
		return err
	})
	return s, err
}

// EnsureSecret returns the secret name, making it first when there is
// none: every caller, whichever was first, gets the same secret.
func (db *DB) EnsureSecret(ctx context.Context, name string) (Secret, error) {
	if s, err := db.Secret(ctx, name); bot.ErrorCode(err) != bot.ENOTFOUND {
		return s, err
	}
	fresh, err := NewSecret(name, time.Now())
	if err != nil {
		return Secret{}, err
	}
	var s Secret
	err = db.update(ctx, func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketSecrets)
		if err != nil {
			return err
		}
		if v := b.Get([]byte(name)); v != nil { // made meanwhile
			s, err = DecodeSecret(v)
			return err
		}
		s = fresh
		return putSecret(b, fresh)
	})
	return s, err
}

// RotateSecret replaces the secret name with a fresh one (making it when
// there is none) and returns it: whatever was derived from the old one
// (the page links) stops working.
func (db *DB) RotateSecret(ctx context.Context, name string) (Secret, error) {
	fresh, err := NewSecret(name, time.Now())
	if err != nil {
		return Secret{}, err
	}
	err = db.update(ctx, func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketSecrets)
		if err != nil {
			return err
		}
		return putSecret(b, fresh)
	})
	if err != nil {
		return Secret{}, err
	}
	return fresh, nil
}

// putSecret writes s into b, the secrets bucket.
func putSecret(b *bolt.Bucket, s Secret) error {
	v, err := EncodeSecret(s)
	if err != nil {
		return err
	}
	return b.Put([]byte(s.Name), v)
}

// dumpSecrets adds the secrets of tx to d, by name.
func dumpSecrets(tx *bolt.Tx, d *Dump) error {
	b := tx.Bucket(bucketSecrets)
	if b == nil {
		return nil
	}
	return b.ForEach(func(_, v []byte) error {
		s, err := DecodeSecret(v)
		d.Secrets = append(d.Secrets, s)
		return err
	})
}

// loadSecrets writes the secrets of d into tx, refusing a database that
// holds one already (Load copies into a new file only).
func loadSecrets(tx *bolt.Tx, d *Dump) error {
	if len(d.Secrets) == 0 {
		return nil
	}
	b, err := tx.CreateBucketIfNotExists(bucketSecrets)
	if err != nil {
		return err
	}
	for _, s := range d.Secrets {
		if b.Get([]byte(s.Name)) != nil {
			return bot.Errorf(bot.ECONFLICT, "storage: load: the secret %s is there already: load into a new file", s.Name)
		}
		if err := putSecret(b, s); err != nil {
			return err
		}
	}
	return nil
}

// SecretReader is the read side of the secrets (Secret): what Verify
// checks a copy with. Both backends are one.
type SecretReader interface {
	Secret(ctx context.Context, name string) (Secret, error)
}

// verifySecrets checks that the stores st (whose game store must be a
// SecretReader when d has secrets: both backends' are) hold every secret
// of d, equal (key and creation time), and returns the first difference.
func verifySecrets(ctx context.Context, d *Dump, st gameplay.Stores) error {
	if len(d.Secrets) == 0 {
		return nil
	}
	r, ok := st.Games.(SecretReader)
	if !ok {
		return fmt.Errorf("the copy keeps no secrets, and %d were copied", len(d.Secrets))
	}
	for _, want := range d.Secrets {
		got, err := r.Secret(ctx, want.Name)
		if err != nil {
			return err
		}
		if !slices.Equal(got.Key, want.Key) || !got.Created.Equal(want.Created) {
			return bot.Errorf(bot.EINTERNAL, "the secret %s differs from the copied one", want.Name)
		}
	}
	return nil
}
