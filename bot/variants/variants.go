// Package variants is the variants the members of a server define in the
// variants.ini format (package rules/variantsini): defined, checked,
// shown, listed and removed by server. A defined variant belongs to its
// server, which alone sees it, and to its author, who alone removes it.
// It is known to the rules registry under a key of its server (Key), not
// listed among fairypost's variants; once challenged (Lock) its rules are
// locked, since a game of it may start at any time (define it again
// under a new name to change it); its games are casual. The definitions
// are kept in a bot.VariantStore and registered again at start (Load).
package variants

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/rules"
	"github.com/fairypost/fairypost/rules/variantsini"
)

// Service defines the servers' variants. It is safe for concurrent use.
type Service struct {
	store bot.VariantStore
	reg   *rules.Registry
	now   func() time.Time
	mu    sync.Mutex // one registry change (define, remove, load) at a time
}

// lookupTimeout bounds the store read of a variant the registry was
// asked for and does not know.
const lookupTimeout = 10 * time.Second

// New returns the Service keeping its definitions in store and
// registering them in the rules registry of svc. It becomes the
// registry's OnUnknown function: a server's variant defined by another
// process sharing the store (etcd) is registered the first time a game
// or challenge of it is looked up. Call it before svc serves.
func New(store bot.VariantStore, svc *gameplay.Service) *Service {
	s := &Service{store: store, reg: svc.Rules(), now: svc.Now}
	s.reg.OnUnknown(s.lookup)
	return s
}

// lookup registers the stored variant of key (Key) if there is one.
func (s *Service) lookup(key string) {
	i := strings.LastIndexByte(key, '@')
	if i <= 0 || i == len(key)-1 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), lookupTimeout)
	defer cancel()
	if d, err := s.store.DefinedVariant(ctx, key[i+1:], key[:i]); err == nil {
		_ = s.register(d) // a definition that does not compile stays unknown
	}
}

// Key is the rules registry key of the variant name of server: what its
// challenges and games record.
func Key(server, name string) string { return name + "@" + server }

// Load registers every stored definition, of every server: what a
// restarted bot does before it serves. A definition that no longer
// compiles (the format's support changed) is skipped and named in the
// error, the others are registered.
func (s *Service) Load(ctx context.Context) error {
	all, err := s.store.DefinedVariants(ctx, "")
	if err != nil {
		return err
	}
	var errs []error
	for _, d := range all {
		if err := s.register(d); err != nil {
			errs = append(errs, fmt.Errorf("variant %s of server %s: %w", d.Name, d.Server, err))
		}
	}
	return errors.Join(errs...)
}

// register compiles the stored definition d and registers it under its
// key (nothing when it is registered already).
func (s *Service) register(d bot.DefinedVariant) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := Key(d.Server, d.Name)
	if s.reg.Default(key) != nil {
		return nil
	}
	defs, _ := variantsini.CheckEach(d.Text, s.reg)
	for _, def := range defs {
		if def.Name == d.Name {
			return s.reg.RegisterUnlisted(key, constructor(def, key))
		}
	}
	return bot.Errorf(bot.EINTERNAL, "the stored definition of %s no longer compiles", d.Name)
}

// constructor builds def's variant under key.
func constructor(def *variantsini.Definition, key string) rules.Constructor {
	return func(map[string]string) (*rules.Variant, error) {
		v := def.Variant()
		v.Key = key
		return v, nil
	}
}

// needServer refuses what is asked outside a server.
func needServer(server string) error {
	if server == "" {
		return bot.Errorf(bot.EINVALID, "Variants are defined on a server: use this command in one of its channels.")
	}
	return nil
}

// badText is the error of a text with problems: every problem, by line.
func badText(err error) error {
	var l variantsini.ErrorList
	if errors.As(err, &l) {
		return bot.Errorf(bot.EINVALID, "The definition has problems, so nothing was defined:\n%s", l.Error())
	}
	return bot.Errorf(bot.EINVALID, "The definition cannot be read, so nothing was defined: %v", err)
}

// Define compiles every section of text (Fairy-Stockfish's variants.ini
// format) and defines each on server as author's: all of them, or none
// when one has a problem (EINVALID naming each problem's line) or a name
// the server has already (ECONFLICT). Returns the definitions made, in
// the text's order.
func (s *Service) Define(ctx context.Context, server, author, text string) ([]bot.DefinedVariant, error) {
	if err := needServer(server); err != nil {
		return nil, err
	}
	defs, err := variantsini.Check(text, s.reg)
	if err != nil {
		return nil, badText(err)
	}
	if len(defs) == 0 {
		return nil, bot.Errorf(bot.EINVALID, "The text defines no variant: a definition starts with a section header such as [myvariant:chess].")
	}
	now := s.now().UTC()
	made := make([]bot.DefinedVariant, len(defs))
	for i, d := range defs {
		made[i] = bot.DefinedVariant{Server: server, Name: d.Name, Text: text, Author: author, Created: now}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var done []string
	undo := func() {
		for _, k := range done {
			s.reg.Unregister(k)
		}
	}
	for _, d := range defs {
		key := Key(server, d.Name)
		if err := s.reg.RegisterUnlisted(key, constructor(d, key)); err != nil {
			undo()
			return nil, bot.Errorf(bot.ECONFLICT, "This server has a variant %s already: choose another name (or remove it first).", d.Name)
		}
		done = append(done, key)
	}
	if err := s.store.DefineVariants(ctx, made); err != nil {
		undo()
		return nil, err
	}
	return made, nil
}

// Checked is what Check found in a text: the sections that compile, and
// the problems of the others.
type Checked struct {
	Good     []string // the names of the sections that compile
	Problems []string // "line N: what is wrong", by line
}

// Check reads text as Define would, changing nothing: which sections
// compile and what is wrong with the others, line by line (a name server
// has already is a problem of its section's line).
func (s *Service) Check(ctx context.Context, server, text string) (Checked, error) {
	if err := needServer(server); err != nil {
		return Checked{}, err
	}
	defs, err := variantsini.CheckEach(text, s.reg)
	var c Checked
	var l variantsini.ErrorList
	switch {
	case errors.As(err, &l):
		for _, e := range l {
			c.Problems = append(c.Problems, e.Error())
		}
	case err != nil:
		return Checked{}, badText(err)
	}
	for _, d := range defs {
		_, err := s.store.DefinedVariant(ctx, server, d.Name)
		switch {
		case err == nil:
			c.Problems = append(c.Problems, fmt.Sprintf("line %d: this server has a variant %s already; choose another name", d.Line, d.Name))
		case bot.ErrorCode(err) != bot.ENOTFOUND:
			return Checked{}, err
		default:
			c.Good = append(c.Good, d.Name)
		}
	}
	return c, nil
}

// Variant returns the variant name of server and its rules, ENOTFOUND
// when the server has none of that name.
func (s *Service) Variant(ctx context.Context, server, name string) (bot.DefinedVariant, *rules.Variant, error) {
	if err := needServer(server); err != nil {
		return bot.DefinedVariant{}, nil, err
	}
	d, err := s.store.DefinedVariant(ctx, server, name)
	if err != nil {
		return bot.DefinedVariant{}, nil, err
	}
	if err := s.register(d); err != nil {
		return bot.DefinedVariant{}, nil, err
	}
	v := s.reg.Default(Key(server, name))
	if v == nil {
		return bot.DefinedVariant{}, nil, bot.Errorf(bot.EINTERNAL, "the variant %s was removed meanwhile", name)
	}
	return d, v, nil
}

// List returns the variants of server, by name.
func (s *Service) List(ctx context.Context, server string) ([]bot.DefinedVariant, error) {
	if err := needServer(server); err != nil {
		return nil, err
	}
	return s.store.DefinedVariants(ctx, server)
}

// Remove removes the variant name of server for user, its author:
// EFORBIDDEN for anyone else, ECONFLICT once it is locked.
func (s *Service) Remove(ctx context.Context, server, user, name string) error {
	d, _, err := s.Variant(ctx, server, name)
	if err != nil {
		return err
	}
	if d.Author != user {
		return bot.Errorf(bot.EFORBIDDEN, "Only <@%s>, who defined %s, may remove it.", d.Author, name)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.store.RemoveVariant(ctx, server, name); err != nil {
		return err
	}
	s.reg.Unregister(Key(server, name))
	return nil
}

// Find returns the registry key of the variant name of server (found
// false, with no error, when server has none of that name: name may then
// be one of fairypost's). A challenge with it must Lock it first.
func (s *Service) Find(ctx context.Context, server, name string) (key string, found bool, err error) {
	if server == "" || name == "" || s.reg.Default(name) != nil {
		return "", false, nil
	}
	if _, _, err := s.Variant(ctx, server, name); err != nil {
		if bot.ErrorCode(err) == bot.ENOTFOUND {
			return "", false, nil
		}
		return "", false, err
	}
	return Key(server, name), true, nil
}

// Lock locks the rules of the variant name of server: what a challenge
// with it does before it is made, since a game of it may start at any
// time from then on (define it again under a new name to change it).
func (s *Service) Lock(ctx context.Context, server, name string) error {
	return s.store.LockVariant(ctx, server, name)
}

// Names returns the names of server's variants, for autocomplete; none
// outside a server or on an error.
func (s *Service) Names(ctx context.Context, server string) []string {
	if server == "" {
		return nil
	}
	vs, err := s.store.DefinedVariants(ctx, server)
	if err != nil {
		return nil
	}
	names := make([]string, len(vs))
	for i, v := range vs {
		names[i] = v.Name
	}
	return names
}

// Describe is one line on d for a list: its name, author and whether it
// is locked.
func Describe(d bot.DefinedVariant, v *rules.Variant) string {
	var b strings.Builder
	fmt.Fprintf(&b, "`%s` by <@%s>", d.Name, d.Author)
	if v != nil {
		fmt.Fprintf(&b, ", %dx%d", v.Files, v.Ranks)
	}
	if d.Locked {
		b.WriteString(", locked (it has games)")
	}
	return b.String()
}
