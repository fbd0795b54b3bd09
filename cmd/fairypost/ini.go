package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/fairypost/fairypost/rules"
	"github.com/fairypost/fairypost/rules/variantsini"
)

// iniFlag is the -ini flag: a file of variant definitions in
// Fairy-Stockfish's variants.ini format, whose sections become variants
// next to fairypost's own, named by -variant.
type iniFlag struct {
	path string
}

// register declares -ini on fs.
func (f *iniFlag) register(fs *flag.FlagSet) {
	fs.StringVar(&f.path, "ini", "", "also load the variants defined in `FILE` (Fairy-Stockfish's variants.ini\n"+
		"format; see 'fairypost variants -ini FILE'); -variant names a section")
}

// apply compiles the file into the app's registry: every later
// a.registry() returns fairypost's variants and the file's. Any problem
// of the file is bad input naming its lines.
func (f *iniFlag) apply(a *app) ([]*variantsini.Definition, error) {
	if f.path == "" {
		return nil, nil
	}
	text, err := readINI(f.path)
	if err != nil {
		return nil, err
	}
	reg, err := a.registry()
	if err != nil {
		return nil, fmt.Errorf("variant registry: %w", err)
	}
	defs, err := variantsini.Compile(text, reg)
	if err != nil {
		return nil, iniError(f.path, err)
	}
	a.registry = func() (*rules.Registry, error) { return reg, nil }
	return defs, nil
}

// readINI reads an ini file, refusing one too large to be a definition.
func readINI(path string) (string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", badInput("-ini: %v", err)
	}
	if st.Size() > variantsini.MaxTextBytes {
		return "", badInput("-ini %s: the file is %d KB; at most %d KB are read", path, st.Size()>>10, variantsini.MaxTextBytes>>10)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", badInput("-ini: %v", err)
	}
	return string(b), nil
}

// iniError is bad input listing every problem of the file, by line.
func iniError(path string, err error) error {
	var list variantsini.ErrorList
	if errors.As(err, &list) {
		var parts []string
		for _, e := range list {
			parts = append(parts, e.Error())
		}
		return badInput("-ini %s: %s", path, strings.Join(parts, "; "))
	}
	return badInput("-ini %s: %v", path, err)
}
