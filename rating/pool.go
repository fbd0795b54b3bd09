package rating

import (
	"fmt"
	"strings"
)

// Pool names what one rating is for: a variant key, the variant's
// canonical options (as stored in a game: "k=v,k=v" with sorted keys and
// the defaults left out, so "" for the defaults) and a scope, the guild
// whose players it ranks ("" for the global pool). Games of one pool are
// the same game with the same rules; see the package documentation for why
// every option makes its own pool.
type Pool struct {
	Variant string
	Options string
	Guild   string
}

// NewPool returns the pool of variant with options in guild ("" for the
// global pool), or an error wrapping ErrInvalid that names what is wrong:
// an empty or malformed variant key, options not in canonical form (empty
// parts, a part without "=", keys not sorted or repeated), a guild with a
// '/' in it.
func NewPool(variant, options, guild string) (Pool, error) {
	p := Pool{Variant: variant, Options: options, Guild: guild}
	if variant == "" || strings.ToLower(variant) != variant || strings.ContainsAny(variant, " \t,=/") {
		return Pool{}, fmt.Errorf("%w: variant key %q must be a lowercase word", ErrInvalid, variant)
	}
	if strings.ContainsAny(guild, "/ \t") {
		return Pool{}, fmt.Errorf("%w: guild %q must not contain '/' or spaces", ErrInvalid, guild)
	}
	if options != "" {
		prev := ""
		for _, part := range strings.Split(options, ",") {
			k, v, ok := strings.Cut(part, "=")
			if !ok || k == "" || v == "" || strings.ContainsAny(part, " \t/") || strings.Contains(v, "=") {
				return Pool{}, fmt.Errorf("%w: option %q of %s is not key=value", ErrInvalid, part, variant)
			}
			if k <= prev {
				return Pool{}, fmt.Errorf("%w: options %q of %s are not in canonical order (sorted keys, each once)", ErrInvalid, options, variant)
			}
			prev = k
		}
	}
	return p, nil
}

// PoolsForGame returns the pools a rated game of variant with options,
// played in guild, updates: the guild's pool and the global pool, or the
// global pool alone when guild is "" (a game outside any guild). Errors as
// NewPool.
func PoolsForGame(variant, options, guild string) ([]Pool, error) {
	global, err := NewPool(variant, options, "")
	if err != nil {
		return nil, err
	}
	if guild == "" {
		return []Pool{global}, nil
	}
	local, err := NewPool(variant, options, guild)
	if err != nil {
		return nil, err
	}
	return []Pool{local, global}, nil
}

// Global reports whether p is a global pool.
func (p Pool) Global() bool { return p.Guild == "" }

// Name is the pool's game for people: the variant key, then its options
// separated by spaces ("winning ranks=10"); the scope is not part of it.
func (p Pool) Name() string {
	if p.Options == "" {
		return p.Variant
	}
	return p.Variant + " " + strings.ReplaceAll(p.Options, ",", " ")
}

// Key is the pool's stable storage key: "global/<variant>[,<options>]" or
// "guild/<guild>/<variant>[,<options>]". ParsePool reads it back.
func (p Pool) Key() string {
	game := p.Variant
	if p.Options != "" {
		game += "," + p.Options
	}
	if p.Guild == "" {
		return "global/" + game
	}
	return "guild/" + p.Guild + "/" + game
}

// ParsePool reads a Key back; anything else gives an error wrapping
// ErrInvalid.
func ParsePool(key string) (Pool, error) {
	var guild, game string
	switch {
	case strings.HasPrefix(key, "global/"):
		game = strings.TrimPrefix(key, "global/")
	case strings.HasPrefix(key, "guild/"):
		var ok bool
		guild, game, ok = strings.Cut(strings.TrimPrefix(key, "guild/"), "/")
		if !ok || guild == "" {
			return Pool{}, fmt.Errorf("%w: pool key %q has no guild", ErrInvalid, key)
		}
	default:
		return Pool{}, fmt.Errorf("%w: pool key %q must start with global/ or guild/", ErrInvalid, key)
	}
	variant, options, _ := strings.Cut(game, ",")
	return NewPool(variant, options, guild)
}
