package discord

import (
	"math"
	"testing"
)

// TestNonceFor: a nonce is the same for the same notification and place,
// differs between places and IDs, and fits Discord's 25 characters for
// every ID.
func TestNonceFor(t *testing.T) {
	if n := nonceFor(nonceDM, math.MaxUint64); len(n) > maxNonce {
		t.Errorf("nonce of the largest ID %q has %d characters, over %d", n, len(n), maxNonce)
	}
	if nonceFor(nonceDM, 42) != nonceFor(nonceDM, 42) {
		t.Error("two nonces of the same notification and place differ")
	}
	seen := map[string]bool{}
	for _, place := range []byte{nonceDM, noncePost, nonceAnswer, nonceDigest} {
		for _, id := range []uint64{1, 2, 36, 1296} {
			n := nonceFor(place, id)
			if seen[n] {
				t.Errorf("nonce %q repeats", n)
			}
			seen[n] = true
		}
	}
}
