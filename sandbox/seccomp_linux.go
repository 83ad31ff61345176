//go:build linux

package sandbox

import (
	seccomp "github.com/elastic/go-seccomp-bpf"
	"golang.org/x/sys/unix"
)

// loadFilter loads, on the calling thread, the seccomp filter for what
// Landlock cannot say.
//
// Always: no TIOCSTI or TIOCLINUX ioctl, which would type into a terminal
// outside the sandbox (another of the user's ptys, the console).
//
// With closeNet: local (AF_UNIX) sockets stay open. IP sockets may only
// be plain TCP, which Landlock then filters by port (when tcpRules;
// without them no IP socket at all), or UDP when udp (DNS for an allowed
// host); every other family, raw and datagram sockets, Multipath TCP and
// SCTP fail with EPERM, and so does io_uring, whose socket operations
// would pass beside the filter.
func loadFilter(closeNet, tcpRules, udp bool) error {
	groups := []seccomp.SyscallGroup{{Action: seccomp.ActionErrno, NamesWithCondtions: []seccomp.NameWithConditions{
		{Name: "ioctl", Conditions: request(unix.TIOCSTI)},
		{Name: "ioctl", Conditions: request(unix.TIOCLINUX)},
	}}}
	if closeNet {
		groups = append(groups,
			seccomp.SyscallGroup{Action: seccomp.ActionErrno, NamesWithCondtions: socketRules(tcpRules, udp)},
			seccomp.SyscallGroup{Action: seccomp.ActionErrno, Names: []string{"io_uring_setup"}})
	}
	// No FilterFlagTSync: the filter binds the calling thread alone, the
	// one the shell is started from (startConfined).
	return seccomp.LoadFilter(seccomp.Filter{
		NoNewPrivs: true,
		Policy:     seccomp.Policy{DefaultAction: seccomp.ActionAllow, Syscalls: groups},
	})
}

// request matches an ioctl request by its low 32 bits only, as the kernel
// reads it (an unsigned int): a request with high bits set is the same
// request, and must not slip past a 64-bit comparison.
func request(code uint64) seccomp.ArgumentConditions {
	// Bits not in code: none set; each bit of code: set. With the high
	// word of the value 0, both tests look at the low word alone.
	conds := seccomp.ArgumentConditions{{Argument: 1, Operation: seccomp.BitsNotSet, Value: 0xffffffff &^ code}}
	for bit := uint64(1); bit <= 0x80000000; bit <<= 1 {
		if code&bit != 0 {
			conds = append(conds, seccomp.Condition{Argument: 1, Operation: seccomp.BitsSet, Value: bit})
		}
	}
	return conds
}

// socketRules are the socket(2) calls the closed network refuses.
func socketRules(tcpRules, udp bool) []seccomp.NameWithConditions {
	const (
		family = 0
		typ    = 1
		proto  = 2
	)
	var deny []seccomp.NameWithConditions
	add := func(conds ...seccomp.Condition) {
		deny = append(deny, seccomp.NameWithConditions{Name: "socket", Conditions: conds})
	}
	is := func(arg uint32, v uint64) seccomp.Condition {
		return seccomp.Condition{Argument: arg, Operation: seccomp.Equal, Value: v}
	}
	not := func(arg uint32, v uint64) seccomp.Condition {
		return seccomp.Condition{Argument: arg, Operation: seccomp.NotEqual, Value: v}
	}
	bits := func(op seccomp.Operation, v uint64) seccomp.Condition {
		return seccomp.Condition{Argument: typ, Operation: op, Value: v}
	}
	if !tcpRules {
		add(not(family, unix.AF_UNIX))
	} else {
		add(not(family, unix.AF_UNIX), not(family, unix.AF_INET), not(family, unix.AF_INET6))
		for _, f := range []uint64{unix.AF_INET, unix.AF_INET6} {
			// The socket type is its low four bits (SOCK_STREAM 1,
			// SOCK_DGRAM 2); above them are SOCK_NONBLOCK and SOCK_CLOEXEC.
			if udp {
				add(is(family, f), bits(seccomp.BitsSet, 0xc))
				add(is(family, f), bits(seccomp.BitsSet, 1), bits(seccomp.BitsSet, 2))
				add(is(family, f), bits(seccomp.BitsNotSet, 3))
				add(is(family, f), not(proto, 0), not(proto, unix.IPPROTO_TCP), not(proto, unix.IPPROTO_UDP))
			} else {
				add(is(family, f), bits(seccomp.BitsSet, 0xe))
				add(is(family, f), bits(seccomp.BitsNotSet, 1))
				add(is(family, f), not(proto, 0), not(proto, unix.IPPROTO_TCP))
			}
		}
	}
	return deny
}
