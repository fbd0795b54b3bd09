package bot

import (
	"context"
	"time"
)

// DefinedVariant is a variant a member of a server defined in the
// variants.ini format (package rules/variantsini): it belongs to its
// server (only that server sees it) and to its author (only they remove
// it). Text is the whole text it was defined with, so that a section
// whose parent is another section of the same text compiles again from
// it alone; Name picks the section. Once a game of it exists it is
// Locked: its rules no longer change, nor is it removed.
type DefinedVariant struct {
	Server  string // the server's (guild's) ID
	Name    string // the section's name, unique on its server
	Text    string
	Author  string // the user ID of who defined it
	Created time.Time
	Locked  bool
}

// VariantStore keeps the servers' defined variants, one record per server
// and name. Implementations are safe for concurrent use; every error of
// a missing or conflicting record carries its code (ENOTFOUND,
// ECONFLICT).
type VariantStore interface {
	// DefineVariants stores every variant of vs in one transaction, or
	// none: ECONFLICT when one's server has a variant of that name
	// already.
	DefineVariants(ctx context.Context, vs []DefinedVariant) error

	// DefinedVariant returns the variant name of server, ENOTFOUND when
	// there is none.
	DefinedVariant(ctx context.Context, server, name string) (DefinedVariant, error)

	// DefinedVariants returns the variants of server ordered by name, or
	// of every server ordered by server then name when server is "".
	DefinedVariants(ctx context.Context, server string) ([]DefinedVariant, error)

	// LockVariant marks the variant name of server locked (ENOTFOUND when
	// there is none); locking a locked variant changes nothing.
	LockVariant(ctx context.Context, server, name string) error

	// RemoveVariant removes the variant name of server: ENOTFOUND when
	// there is none, ECONFLICT when it is locked.
	RemoveVariant(ctx context.Context, server, name string) error
}
