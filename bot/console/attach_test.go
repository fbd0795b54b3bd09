package console

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/bot/command"
)

// TestAttachmentByPath: the console attaches a file by its path: the
// option holds the file's text; a missing file or one too large is
// refused.
func TestAttachmentByPath(t *testing.T) {
	spec := command.Spec{Name: "variant", Options: []command.OptionSpec{
		{Name: "action", Kind: command.OptionString, Required: true},
		{Name: "file", Kind: command.OptionAttachment},
	}}
	dir := t.TempDir()
	path := filepath.Join(dir, "mine.ini")
	const ini = "[mine:chess]\nking = -\ncommoner = k\n"
	if err := os.WriteFile(path, []byte(ini), 0o600); err != nil {
		t.Fatal(err)
	}
	p := parser{specs: []command.Spec{spec}}
	l, err := p.parse("/variant action:define file:" + path)
	if err != nil {
		t.Fatal(err)
	}
	if l.options["file"] != ini {
		t.Errorf("file option: %q, want the file's text", l.options["file"])
	}
	if _, err := p.parse("/variant action:define file:" + filepath.Join(dir, "none.ini")); err == nil {
		t.Error("a missing file was accepted")
	}
	big := filepath.Join(dir, "big.ini")
	if err := os.WriteFile(big, []byte(strings.Repeat("x", maxAttachment+1)), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := p.parse("/variant action:define file:" + big); err == nil || !strings.Contains(err.Error(), "KB") {
		t.Errorf("a file too large: %v", err)
	}
}
