package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// The fairypost binary the tests of this package run as real processes,
// built once per test run (TestMain removes binaryDir).
var (
	binaryOnce sync.Once
	binaryDir  string
	binaryPath string
	binaryErr  error
)

// buildBinary returns the path of the fairypost binary, building it the
// first time. Tests that need it are skipped with -short (the short run
// builds nothing); without the go command, or when the build fails, tb
// fails: a missing binary must not pass as a skipped test.
func buildBinary(tb testing.TB) string {
	tb.Helper()
	if testing.Short() {
		tb.Skip("builds the binary; skipped with -short")
	}
	binaryOnce.Do(func() {
		goCmd, err := exec.LookPath("go")
		if err != nil {
			binaryErr = err
			return
		}
		if binaryDir, err = os.MkdirTemp("", "fairypost-bin-*"); err != nil {
			binaryErr = err
			return
		}
		binaryPath = filepath.Join(binaryDir, "fairypost")
		if out, err := exec.Command(goCmd, "build", "-o", binaryPath, ".").CombinedOutput(); err != nil {
			binaryErr = &buildError{err: err, out: string(out)}
		}
	})
	if binaryErr != nil {
		tb.Fatalf("building the fairypost binary: %v", binaryErr)
	}
	return binaryPath
}

// buildError is a failed go build with its output.
type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }
