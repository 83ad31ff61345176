//go:build !linux

package host

import "time"

// bornSince is false where fawn does not read a file's birth time.
func bornSince(string, time.Time) bool { return false }

// fsBoundary is the zero time where fawn does not read birth times.
func fsBoundary(string) time.Time { return time.Time{} }
