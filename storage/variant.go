package storage

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
)

// Defined variants (bot.VariantStore): one record per server and name,
// keyed VariantKey(server, name), so that a server's variants are one
// prefix ordered by name.

// VariantKey is the key of the defined variant name of server in both
// backends: the server, a NUL byte, the name (neither holds a NUL).
func VariantKey(server, name string) string { return server + "\x00" + name }

// CheckDefinedVariant returns an EINVALID error for a variant that
// cannot be stored: an empty or NUL-holding server or name, or no text.
func CheckDefinedVariant(v bot.DefinedVariant) error {
	if v.Server == "" || v.Name == "" || v.Text == "" ||
		bytes.IndexByte([]byte(v.Server), 0) >= 0 || bytes.IndexByte([]byte(v.Name), 0) >= 0 {
		return bot.Errorf(bot.EINVALID, "A defined variant needs a server, a name and its text.")
	}
	return nil
}

// variantRecord is the stored form of a bot.DefinedVariant.
type variantRecord struct {
	Schema  int       `json:"schema"`
	Server  string    `json:"server"`
	Name    string    `json:"name"`
	Text    string    `json:"text"`
	Author  string    `json:"author"`
	Created time.Time `json:"created"`
	Locked  bool      `json:"locked,omitempty"`
}

// EncodeDefinedVariant returns the stored form of v.
func EncodeDefinedVariant(v bot.DefinedVariant) ([]byte, error) {
	if err := CheckDefinedVariant(v); err != nil {
		return nil, err
	}
	return json.Marshal(variantRecord{SchemaVersion, v.Server, v.Name, v.Text, v.Author, v.Created.UTC(), v.Locked})
}

// DecodeDefinedVariant reads a stored defined variant; one of a newer
// schema or damaged is an internal error.
func DecodeDefinedVariant(b []byte) (bot.DefinedVariant, error) {
	var r variantRecord
	if err := json.Unmarshal(b, &r); err != nil {
		return bot.DefinedVariant{}, bot.Errorf(bot.EINTERNAL, "a stored variant does not decode: %v", err)
	}
	if r.Schema > SchemaVersion {
		return bot.DefinedVariant{}, bot.Errorf(bot.EINTERNAL, "a variant of schema %d is newer than this program's %d", r.Schema, SchemaVersion)
	}
	v := bot.DefinedVariant{Server: r.Server, Name: r.Name, Text: r.Text, Author: r.Author, Created: r.Created, Locked: r.Locked}
	if CheckDefinedVariant(v) != nil {
		return bot.DefinedVariant{}, bot.Errorf(bot.EINTERNAL, "the stored variant %q is damaged", r.Name)
	}
	return v, nil
}

// NoVariant is the error for a server's variant that does not exist.
func NoVariant(name string) error {
	return bot.Errorf(bot.ENOTFOUND, "There is no variant %s defined on this server.", name)
}

// VariantExists is the error for defining a name a server has already.
func VariantExists(name string) error {
	return bot.Errorf(bot.ECONFLICT, "This server has a variant %s already: choose another name (or remove it first).", name)
}

// VariantLocked is the error for removing a locked variant.
func VariantLocked(name string) error {
	return bot.Errorf(bot.ECONFLICT, "The variant %s has games, so its rules are locked and it stays: define it again under a new name to change it.", name)
}

// bucketVariants holds the defined variants by VariantKey. Open does not
// make it: the first definition does.
var bucketVariants = []byte("variants")

// DefineVariants stores vs in one transaction (bot.VariantStore).
func (db *DB) DefineVariants(ctx context.Context, vs []bot.DefinedVariant) error {
	for _, v := range vs {
		if err := CheckDefinedVariant(v); err != nil {
			return err
		}
	}
	return db.update(ctx, func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketVariants)
		if err != nil {
			return err
		}
		for _, v := range vs {
			k := []byte(VariantKey(v.Server, v.Name))
			if b.Get(k) != nil {
				return VariantExists(v.Name)
			}
			if err := putVariant(b, v); err != nil {
				return err
			}
		}
		return nil
	})
}

// putVariant writes v into b, the variants bucket.
func putVariant(b *bolt.Bucket, v bot.DefinedVariant) error {
	enc, err := EncodeDefinedVariant(v)
	if err != nil {
		return err
	}
	return b.Put([]byte(VariantKey(v.Server, v.Name)), enc)
}

// DefinedVariant returns the variant name of server (bot.VariantStore).
func (db *DB) DefinedVariant(ctx context.Context, server, name string) (bot.DefinedVariant, error) {
	var v bot.DefinedVariant
	err := db.view(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketVariants)
		if b == nil {
			return NoVariant(name)
		}
		enc := b.Get([]byte(VariantKey(server, name)))
		if enc == nil {
			return NoVariant(name)
		}
		var err error
		v, err = DecodeDefinedVariant(enc)
		return err
	})
	return v, err
}

// DefinedVariants returns the variants of server, or of all servers for
// "" (bot.VariantStore).
func (db *DB) DefinedVariants(ctx context.Context, server string) ([]bot.DefinedVariant, error) {
	var vs []bot.DefinedVariant
	err := db.view(ctx, func(tx *bolt.Tx) error {
		var err error
		vs, err = readVariants(tx, server)
		return err
	})
	return vs, err
}

// readVariants returns the variants of server in tx ("" for all).
func readVariants(tx *bolt.Tx, server string) ([]bot.DefinedVariant, error) {
	b := tx.Bucket(bucketVariants)
	if b == nil {
		return nil, nil
	}
	var prefix []byte
	if server != "" {
		prefix = []byte(server + "\x00")
	}
	var vs []bot.DefinedVariant
	c := b.Cursor()
	for k, enc := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, enc = c.Next() {
		v, err := DecodeDefinedVariant(enc)
		if err != nil {
			return nil, err
		}
		vs = append(vs, v)
	}
	return vs, nil
}

// LockVariant marks the variant locked (bot.VariantStore).
func (db *DB) LockVariant(ctx context.Context, server, name string) error {
	return db.changeVariant(ctx, server, name, func(b *bolt.Bucket, v bot.DefinedVariant) error {
		if v.Locked {
			return nil
		}
		v.Locked = true
		return putVariant(b, v)
	})
}

// RemoveVariant removes an unlocked variant (bot.VariantStore).
func (db *DB) RemoveVariant(ctx context.Context, server, name string) error {
	return db.changeVariant(ctx, server, name, func(b *bolt.Bucket, v bot.DefinedVariant) error {
		if v.Locked {
			return VariantLocked(name)
		}
		return b.Delete([]byte(VariantKey(server, name)))
	})
}

// changeVariant runs fn on the stored variant name of server in one
// write transaction, ENOTFOUND when there is none.
func (db *DB) changeVariant(ctx context.Context, server, name string, fn func(*bolt.Bucket, bot.DefinedVariant) error) error {
	return db.update(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketVariants)
		if b == nil {
			return NoVariant(name)
		}
		enc := b.Get([]byte(VariantKey(server, name)))
		if enc == nil {
			return NoVariant(name)
		}
		v, err := DecodeDefinedVariant(enc)
		if err != nil {
			return err
		}
		return fn(b, v)
	})
}

// dumpVariants adds the defined variants of tx to d.
func dumpVariants(tx *bolt.Tx, d *Dump) error {
	vs, err := readVariants(tx, "")
	d.Variants = append(d.Variants, vs...)
	return err
}

// loadVariants writes the defined variants of d into tx, refusing one
// that is there already (Load copies into a new file only).
func loadVariants(tx *bolt.Tx, d *Dump) error {
	if len(d.Variants) == 0 {
		return nil
	}
	b, err := tx.CreateBucketIfNotExists(bucketVariants)
	if err != nil {
		return err
	}
	for _, v := range d.Variants {
		if b.Get([]byte(VariantKey(v.Server, v.Name))) != nil {
			return bot.Errorf(bot.ECONFLICT, "storage: load: the variant %s of server %s is there already: load into a new file", v.Name, v.Server)
		}
		if err := putVariant(b, v); err != nil {
			return err
		}
	}
	return nil
}

// verifyVariants checks that the stores st (whose game store must be a
// bot.VariantStore when d has variants: both backends' are) hold every
// defined variant of d, equal, and returns the first difference.
func verifyVariants(ctx context.Context, d *Dump, st gameplay.Stores) error {
	if len(d.Variants) == 0 {
		return nil
	}
	r, ok := st.Games.(bot.VariantStore)
	if !ok {
		return fmt.Errorf("the copy keeps no defined variants, and %d were copied", len(d.Variants))
	}
	for _, want := range d.Variants {
		got, err := r.DefinedVariant(ctx, want.Server, want.Name)
		if err != nil {
			return err
		}
		if got.Text != want.Text || got.Author != want.Author || got.Locked != want.Locked || !got.Created.Equal(want.Created) {
			return bot.Errorf(bot.EINTERNAL, "the variant %s of server %s differs from the copied one", want.Name, want.Server)
		}
	}
	return nil
}
