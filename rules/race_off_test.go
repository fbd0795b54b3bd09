//go:build !race

package rules

// raceBuild says that the tests run with the race detector (see
// race_on_test.go).
const raceBuild = false
