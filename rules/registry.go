package rules

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Constructor builds a variant from option values (every declared option
// is present, with a default where none was given, when the registry
// calls it). It must refuse an unknown option or an undeclared value with
// an error: the variants of this package do so in optionSet.build, once,
// before their typed constructor runs.
type Constructor func(options map[string]string) (*Variant, error)

// Registry knows every variant by its stable key and builds each variant
// and option combination once. It is safe for concurrent use, Register,
// RegisterUnlisted and Unregister included.
type Registry struct {
	mu       sync.Mutex
	keys     []string // the listed keys, in order
	ctors    map[string]Constructor
	defaults map[string]*Variant // built with default options, for listing
	cache    map[string]*Variant // key + canonical options
	unknown  func(key string)    // OnUnknown's function, nil for none
}

// OnUnknown sets fn to be called, once per lookup, when Resolve (and
// Variant) is asked for a key the registry does not know: fn may
// register it (the variants a server defined in another process), and
// the lookup is then tried again. It replaces any earlier fn; set it
// before the registry is shared.
func (r *Registry) OnUnknown(fn func(key string)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.unknown = fn
}

// NewRegistry returns a registry of all of fairypost's variants, in the
// order they are listed to players.
func NewRegistry() (*Registry, error) {
	r := &Registry{ctors: map[string]Constructor{}, defaults: map[string]*Variant{}, cache: map[string]*Variant{}}
	for _, e := range []struct {
		key  string
		ctor Constructor
	}{
		{"chess", newChess},
		{"crazyhouse", newCrazyhouse},
		{"grand", newGrand},
		{"trainwreck", newTrainWreck},
		{"trainwreck-berolina", newTrainWreckBerolina},
		{"trainwreck-almost", newTrainWreckAlmost},
		{"trainwreck-threemove", newTrainWreckThreeMove},
		{"winning", newWinning},
		{"easymate", newEasymate},
		{"coldfusion", newColdFusion},
		{"tank", newTank},
		{"annihilation", newAnnihilation},
	} {
		if err := r.Register(e.key, e.ctor); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Register adds a variant under key. The constructor is run once with the
// default options to validate it; an error (a broken Betza string, a bad
// start position, a duplicate key, a missing Help.Summary or an
// incomplete Help entry) is returned.
func (r *Registry) Register(key string, ctor Constructor) error {
	return r.register(key, ctor, true)
}

// RegisterUnlisted adds a variant under key as Register does, but leaves
// it out of Keys: it is known to whoever names its key (the variants a
// server defined, listed by their own feature).
func (r *Registry) RegisterUnlisted(key string, ctor Constructor) error {
	return r.register(key, ctor, false)
}

// Unregister removes the variant key (listed or not) and every variant
// built from it; an unknown key changes nothing. Games already built
// keep their variant.
func (r *Registry) Unregister(key string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.ctors[key]; !ok {
		return
	}
	delete(r.ctors, key)
	delete(r.defaults, key)
	if i := slices.Index(r.keys, key); i >= 0 {
		r.keys = slices.Delete(r.keys, i, i+1)
	}
	for ck, v := range r.cache {
		if v.Key == key {
			delete(r.cache, ck)
		}
	}
}

func (r *Registry) register(key string, ctor Constructor, listed bool) error {
	r.mu.Lock()
	_, dup := r.ctors[key]
	r.mu.Unlock()
	if dup {
		return fmt.Errorf("%w: key %q registered twice", ErrInvalidVariant, key)
	}
	v, err := ctor(map[string]string{})
	if err != nil {
		return err
	}
	if v.Key != key {
		return fmt.Errorf("%w: constructor for %q returned key %q", ErrInvalidVariant, key, v.Key)
	}
	defaults := map[string]string{}
	for _, o := range v.Options {
		if len(o.Values) == 0 {
			return fmt.Errorf("%w %q: option %q has no values", ErrInvalidVariant, key, o.Key)
		}
		defaults[o.Key] = o.Values[0]
	}
	if v, err = ctor(defaults); err != nil {
		return err
	}
	if err := v.compile(); err != nil {
		return err
	}
	if err := v.Help.check(v); err != nil {
		return fmt.Errorf("%w %q: %v", ErrInvalidVariant, key, err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.ctors[key]; dup {
		return fmt.Errorf("%w: key %q registered twice", ErrInvalidVariant, key)
	}
	if listed {
		r.keys = append(r.keys, key)
	}
	r.ctors[key] = ctor
	r.defaults[key] = v
	r.cache[cacheKey(key, defaults)] = v
	return nil
}

// Keys returns the listed variant keys in listing order.
func (r *Registry) Keys() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.keys...)
}

// Default returns the variant with its default options, or nil for an unknown key.
func (r *Registry) Default(key string) *Variant {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.defaults[key]
}

// Variant returns the variant key with the given options ("k=v,k=v" or
// empty). Unknown keys, unknown options and values not allowed give an
// error that names them.
func (r *Registry) Variant(key, options string) (*Variant, error) {
	v, _, err := r.Resolve(key, options)
	return v, err
}

// Resolve returns the variant key with the given options, as Variant
// does, and the canonical form of the options: "k=v,k=v" with the keys
// sorted and the options at their default left out, "" for the defaults
// ("size=10" for " size = 10 "). It is the one place options are
// canonicalised: what stores or compares options (records, rating
// pools, tournaments) stores what Resolve returns.
func (r *Registry) Resolve(key, options string) (*Variant, string, error) {
	r.mu.Lock()
	def, ok := r.defaults[key]
	ctor := r.ctors[key]
	known := strings.Join(r.keys, ", ")
	unknown := r.unknown
	r.mu.Unlock()
	if !ok && unknown != nil {
		unknown(key)
		r.mu.Lock()
		def, ok = r.defaults[key]
		ctor = r.ctors[key]
		r.mu.Unlock()
	}
	if !ok {
		return nil, "", fmt.Errorf("unknown variant %q (known: %s)", key, known)
	}
	opts, err := parseOptions(def.Options, options)
	if err != nil {
		return nil, "", fmt.Errorf("variant %s: %w", key, err)
	}
	canonical := formatOptions(def.Options, opts)
	ck := cacheKey(key, opts)
	r.mu.Lock()
	defer r.mu.Unlock()
	if v, ok := r.cache[ck]; ok {
		return v, canonical, nil
	}
	v, err := ctor(opts)
	if err != nil {
		return nil, "", err
	}
	if err := v.compile(); err != nil {
		return nil, "", err
	}
	r.cache[ck] = v
	return v, canonical, nil
}

// parseOptions reads "k=v,k=v" against the declared options and returns
// every declared option's value (defaults filled in).
func parseOptions(defs []OptionDef, s string) (map[string]string, error) {
	out := map[string]string{}
	for _, d := range defs {
		out[d.Key] = d.Values[0]
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return out, nil
	}
	seen := map[string]bool{}
	for _, kv := range strings.Split(s, ",") {
		if f := strings.Fields(kv); len(f) > 1 && strings.Count(kv, "=") > 1 {
			// "queencastle=both penalty=on": the value is not to blame.
			return nil, fmt.Errorf("options are separated by commas: write %s",
				strings.Join(strings.Fields(strings.ReplaceAll(s, ",", " ")), ","))
		}
		k, val, ok := strings.Cut(strings.TrimSpace(kv), "=")
		k, val = strings.TrimSpace(k), strings.TrimSpace(val)
		if !ok || k == "" || val == "" {
			return nil, fmt.Errorf("option %q: want key=value", kv)
		}
		var def *OptionDef
		for i := range defs {
			if defs[i].Key == k {
				def = &defs[i]
			}
		}
		if def == nil {
			if len(defs) == 0 {
				return nil, fmt.Errorf("unknown option %q (this variant has no options)", k)
			}
			var names []string
			for _, d := range defs {
				names = append(names, d.Key)
			}
			return nil, fmt.Errorf("unknown option %q (options: %s)", k, strings.Join(names, ", "))
		}
		if seen[k] {
			return nil, fmt.Errorf("option %q given twice", k)
		}
		seen[k] = true
		allowed := false
		for _, a := range def.Values {
			allowed = allowed || a == val
		}
		if !allowed {
			return nil, fmt.Errorf("option %s=%s: allowed values are %s", k, val, strings.Join(def.Values, ", "))
		}
		out[k] = val
	}
	return out, nil
}

// formatOptions returns the canonical "k=v,k=v" form of options (sorted
// keys; options at their default are left out when defs is given).
func formatOptions(defs []OptionDef, options map[string]string) string {
	var parts []string
	for k, v := range options {
		isDefault := false
		for _, d := range defs {
			if d.Key == k && d.Values[0] == v {
				isDefault = true
			}
		}
		if !isDefault {
			parts = append(parts, k+"="+v)
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

func cacheKey(key string, opts map[string]string) string {
	return key + "|" + formatOptions(nil, opts)
}
