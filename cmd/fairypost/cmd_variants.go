package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/fairypost/fairypost/rules"
	"github.com/fairypost/fairypost/rules/variantsini"
)

// variantsCommand is "fairypost variants [-json] [-ini FILE]".
func variantsCommand() command {
	return command{
		name:     "variants",
		synopsis: "[-json] [-ini FILE]",
		summary:  "list every variant: key, name, board size, options, rules page",
		doc: `
Prints one line per variant (key, name, board size FILESxRANKS), followed by
one indented line per option: key=value|value... (default), and what it does,
and an indented line naming the variant's rules page in the repository
(docs/variants/KEY.md). Give options to other commands as
-options key=value,key=value.

With -json, prints one JSON array of objects with the fields key, name,
files, ranks, summary (the rules in short), rules_page and options
([{key, values, default, doc}]).

With -ini FILE, checks the variants FILE defines in Fairy-Stockfish's
variants.ini format and lists only them: each section's line is followed
by its parent and one indented line per piece (letter, name, moves in
Betza). A file with problems prints nothing and fails with every problem
by line ("line 12: ` + "`wallingRule`" + ` is not supported"). With -json the objects
add parent and pieces ([{letter, name, betza, royal}]). The same -ini
flag on perft, analyze, render, arena and console loads the file's
variants, named with -variant.`,
		setup: func(fs *flag.FlagSet) runFunc {
			asJSON := fs.Bool("json", false, "print a JSON array instead of text")
			var ini iniFlag
			fs.StringVar(&ini.path, "ini", "", "list and check only the sections of `FILE` (Fairy-Stockfish's variants.ini format)")
			return func(ctx context.Context, a *app) error {
				defs, err := ini.apply(a)
				if err != nil {
					return err
				}
				reg, err := a.registry()
				if err != nil {
					return fmt.Errorf("variant registry: %w", err)
				}
				list := describeVariants(reg)
				if ini.path != "" {
					list = describeSections(reg, defs)
				}
				if *asJSON {
					return a.writeJSON(list)
				}
				return a.writeLines(formatVariants(list))
			}
		},
	}
}

// variantInfo is a variant as "fairypost variants -json" shows it.
type variantInfo struct {
	Key   string `json:"key"`
	Name  string `json:"name"`
	Files int    `json:"files"`
	Ranks int    `json:"ranks"`
	// Summary is the rules in short (rules.VariantHelp.Summary).
	Summary string `json:"summary"`
	// RulesPage is the path of the variant's rules page in the repository.
	RulesPage string       `json:"rules_page"`
	Options   []optionInfo `json:"options"`
	// Parent and Pieces describe a section of an -ini file.
	Parent string      `json:"parent,omitempty"`
	Pieces []pieceInfo `json:"pieces,omitempty"`
}

// pieceInfo is a piece of a section of an -ini file.
type pieceInfo struct {
	Letter string `json:"letter"`
	Name   string `json:"name"`
	Betza  string `json:"betza"`
	Royal  bool   `json:"royal"`
}

// describeSections lists the variants an -ini file defined, in its order.
func describeSections(reg *rules.Registry, defs []*variantsini.Definition) []variantInfo {
	out := []variantInfo{}
	for _, d := range defs {
		v := reg.Default(d.Name)
		parent := d.Parent
		if parent == "" {
			parent = "(none: the empty template)"
		}
		vi := variantInfo{Key: v.Key, Name: v.Name, Files: v.Files, Ranks: v.Ranks, Summary: v.Help.Summary,
			Options: []optionInfo{}, Parent: parent}
		for _, p := range v.Pieces {
			vi.Pieces = append(vi.Pieces, pieceInfo{Letter: string(p.Letter), Name: p.Name, Betza: p.Betza, Royal: p.Royal})
		}
		out = append(out, vi)
	}
	return out
}

// optionInfo is a variant option as "fairypost variants -json" shows it.
type optionInfo struct {
	Key     string   `json:"key"`
	Values  []string `json:"values"`
	Default string   `json:"default"`
	Doc     string   `json:"doc"`
}

// describeVariants lists reg's variants in listing order.
func describeVariants(reg *rules.Registry) []variantInfo {
	out := []variantInfo{}
	for _, key := range reg.Keys() {
		v := reg.Default(key)
		vi := variantInfo{Key: v.Key, Name: v.Name, Files: v.Files, Ranks: v.Ranks,
			Summary: v.Help.Summary, RulesPage: v.RulesPage(), Options: []optionInfo{}}
		for _, o := range v.Options {
			vi.Options = append(vi.Options, optionInfo{
				Key:     o.Key,
				Values:  append([]string{}, o.Values...),
				Default: o.Values[0], // Register guarantees at least one value
				Doc:     o.Doc,
			})
		}
		out = append(out, vi)
	}
	return out
}

// formatVariants returns the text form: one aligned line per variant,
// then its options and its rules page indented below it.
func formatVariants(list []variantInfo) []string {
	keyW, nameW := 0, 0
	for _, v := range list {
		keyW, nameW = max(keyW, len(v.Key)), max(nameW, len(v.Name))
	}
	var lines []string
	for _, v := range list {
		lines = append(lines, fmt.Sprintf("%-*s  %-*s  %dx%d", keyW, v.Key, nameW, v.Name, v.Files, v.Ranks))
		for _, o := range v.Options {
			line := fmt.Sprintf("%*s  option %s=%s (default %s)", keyW, "", o.Key, strings.Join(o.Values, "|"), o.Default)
			if o.Doc != "" {
				line += ": " + o.Doc
			}
			lines = append(lines, line)
		}
		if v.Parent != "" {
			lines = append(lines, fmt.Sprintf("%*s  parent: %s", keyW, "", v.Parent))
		}
		for _, p := range v.Pieces {
			royal := ""
			if p.Royal {
				royal = " (royal)"
			}
			lines = append(lines, fmt.Sprintf("%*s  piece %s %s: %s%s", keyW, "", p.Letter, p.Name, p.Betza, royal))
		}
		if v.RulesPage != "" {
			lines = append(lines, fmt.Sprintf("%*s  rules: %s", keyW, "", v.RulesPage))
		}
	}
	return lines
}
