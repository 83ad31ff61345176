//go:build !linux

package host

import "time"

// bornSince is false where fawn does not read a file's birth time.
func bornSince(string, time.Time) bool { return false }
