package rules

import (
	"fmt"
	"strings"
)

// optionValue is one value of a variant option: its text, as players
// write it and stored games keep it, and what it means to the variant's
// constructor.
type optionValue[T any] struct {
	text  string
	value T
}

// onOff are the values of an option that turns a rule off (the default)
// or on.
func onOff() []optionValue[bool] {
	return []optionValue[bool]{{"off", false}, {"on", true}}
}

// optionDecl declares one option of a variant whose typed options are O:
// its key, values and doc as players see them (def), and how the chosen
// value is stored in O.
type optionDecl[O any] struct {
	def OptionDef
	set func(o *O, i int) // stores the value def.Values[i]
}

// choice declares an option: its key, what it does (doc), and its values
// in the order players see them, the first being the default. The chosen
// value is stored in the field of O that field returns.
func choice[O, T any](key, doc string, field func(o *O) *T, values []optionValue[T]) optionDecl[O] {
	def := OptionDef{Key: key, Doc: doc}
	for _, v := range values {
		def.Values = append(def.Values, v.text)
	}
	return optionDecl[O]{def: def, set: func(o *O, i int) { *field(o) = values[i].value }}
}

// optionSet is the one declaration of a variant's options: each option's
// text for players and its typed value for the constructor.
type optionSet[O any] []optionDecl[O]

// defs returns the options as Variant.Options lists them.
func (s optionSet[O]) defs() []OptionDef {
	out := make([]OptionDef, len(s))
	for i, d := range s {
		out[i] = d.def
		out[i].Values = append([]string(nil), d.def.Values...)
	}
	return out
}

// build is the Constructor of variant key: it reads opts (option key to
// value text; a missing or empty value takes the default) into the typed
// options, hands them to newVariant, and sets the variant's Options to the
// declaration. An unknown option or a value not declared is refused with
// an error wrapping ErrInvalidVariant, before newVariant runs: it receives
// only declared values and checks nothing.
func (s optionSet[O]) build(key string, opts map[string]string, newVariant func(O) *Variant) (*Variant, error) {
	var o O
	for k := range opts {
		known := false
		for _, d := range s {
			known = known || d.def.Key == k
		}
		if !known {
			return nil, fmt.Errorf("%w %q: unknown option %q", ErrInvalidVariant, key, k)
		}
	}
	for _, d := range s {
		i := 0
		if val := opts[d.def.Key]; val != "" {
			i = -1
			for j, a := range d.def.Values {
				if a == val {
					i = j
				}
			}
			if i < 0 {
				return nil, fmt.Errorf("%w %q: option %s=%s: allowed values are %s", ErrInvalidVariant, key, d.def.Key, val, strings.Join(d.def.Values, ", "))
			}
		}
		d.set(&o, i)
	}
	v := newVariant(o)
	v.Options = s.defs()
	return v, nil
}
