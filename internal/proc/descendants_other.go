//go:build !linux

package proc

// descendants is empty where there is no /proc to read: Kill then ends
// the child's process group only.
func descendants(int) []int { return nil }

func startTime(int) (uint64, bool) { return 0, false }

func killHolders([]uint64) {}
