//go:build race

package ai

// raceBuild says that the tests run with the race detector, under which
// sync.Pool drops what it is given at random: allocation counts then mean
// nothing.
const raceBuild = true
