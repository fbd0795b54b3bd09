//go:build !linux

package main

import "os"

// isTTY reports whether f is a terminal. Outside Linux, every character
// device other than the null device counts as one.
func isTTY(f *os.File) bool {
	null, err := os.Stat(os.DevNull)
	if err != nil {
		return true
	}
	st, err := f.Stat()
	return err != nil || !os.SameFile(st, null)
}
