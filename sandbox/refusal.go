package sandbox

import "strings"

// refusalSigns are how programs report what the sandbox refuses: EACCES
// and EPERM from Landlock and seccomp, as the C library and the common
// tools word them.
var refusalSigns = []string{
	"Permission denied",
	"Operation not permitted",
	"permission denied",
	"operation not permitted",
	"EACCES",
	"EPERM",
}

// networkSigns are how a connection the sandbox closed is reported
// (a refused connect, a name that no DNS answers).
var networkSigns = []string{
	"Couldn't connect to server",
	"Could not resolve host",
	"Temporary failure in name resolution",
	"Network is unreachable",
	"connection refused",
	"Connection refused",
	"no such host",
}

// Refusal reads a failed command's output for a refusal of the sandbox
// and returns the line that says it. With the network closed, a failed
// connection counts too.
func (p Policy) Refusal(output string) (string, bool) {
	if p.Mode == Off || p.Mode == "" {
		return "", false
	}
	signs := refusalSigns
	if !p.Network.All {
		signs = append(append([]string(nil), refusalSigns...), networkSigns...)
	}
	for line := range strings.SplitSeq(output, "\n") {
		for _, s := range signs {
			if strings.Contains(line, s) {
				return strings.TrimSpace(line), true
			}
		}
	}
	return "", false
}
