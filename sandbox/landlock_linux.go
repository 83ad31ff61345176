//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// Available says whether this kernel can confine a shell: nil, or what
// is missing, in words for the user.
func Available() error {
	abi, err := llsys.LandlockGetABIVersion()
	if err != nil || abi < 1 {
		return errors.New("this kernel offers no Landlock (Linux 5.13+ with landlock in the lsm= boot list)")
	}
	return nil
}

// Rights: what a readable tree, a writable tree, and a directory on the
// way to a carved-out path are given.
const (
	readRights = llsys.AccessFSExecute | llsys.AccessFSReadFile | llsys.AccessFSReadDir
	fileMask   = llsys.AccessFSExecute | llsys.AccessFSWriteFile | llsys.AccessFSTruncate | llsys.AccessFSReadFile | llsys.AccessFSIoctlDev
	// No device nodes: fawn may run as root in a container, where mknod
	// would open the disks.
	writeOnly = llsys.AccessFSWriteFile | llsys.AccessFSRemoveDir | llsys.AccessFSRemoveFile |
		llsys.AccessFSMakeDir | llsys.AccessFSMakeReg | llsys.AccessFSMakeSock | llsys.AccessFSMakeFifo |
		llsys.AccessFSMakeSym | llsys.AccessFSTruncate | llsys.AccessFSRefer
	passRights = llsys.AccessFSReadDir
)

// startConfined starts cmd confined to p. The rules are gathered here;
// a goroutine locked to an OS thread of its own then confines that thread
// (Landlock and the seccomp filter apply to the calling thread alone when
// not asked to sync all of them), checks that the rules hold, and starts
// cmd from it: the kernel copies the thread's confinement into the child,
// which becomes the shell. The goroutine ends still locked, and so the
// thread ends with it: no other goroutine ever runs confined, and the Go
// runtime makes its new threads from a thread of its own, never from a
// locked one. This is the fork-time confinement Go's
// SysProcAttr.UseLandlock brings (Go 1.28), without re-executing fawn as a
// helper, which cost a second Go runtime's start before bash's.
func startConfined(p Policy, cmd *exec.Cmd) error {
	abi, err := llsys.LandlockGetABIVersion()
	if err != nil || abi < 1 {
		return errors.New("this kernel offers no Landlock")
	}
	cfg, rules := landlockRules(p, abi)
	fd, flags, err := cfg.NewRulesetFD(rules...)
	if err != nil {
		return fmt.Errorf("landlock: %w", err)
	}
	if fd < 0 {
		return errors.New("landlock: the kernel would restrict nothing")
	}
	defer syscall.Close(fd)
	return onThreadOfItsOwn(func() error { return confineThreadAndStart(p, abi, fd, flags, cmd) })
}

// onThreadOfItsOwn runs f on a goroutine locked to an OS thread that ends
// with it, never the main thread (which Go does not end but parks for
// good, confined). It returns f's error.
func onThreadOfItsOwn(f func() error) error {
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with this goroutine
		if unix.Gettid() != unix.Getpid() {
			done <- f()
			return
		}
		// The main thread: held here, so that the goroutine below runs on
		// another, and given back once it is done.
		defer runtime.UnlockOSThread()
		done <- onThreadOfItsOwn(f)
	}()
	return <-done
}

// confineThreadAndStart confines the calling thread (locked) with the
// ruleset fd and the seccomp filter, then starts cmd from it.
func confineThreadAndStart(p Policy, abi, fd int, flags uint32, cmd *exec.Cmd) error {
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("prctl(PR_SET_NO_NEW_PRIVS): %w", err)
	}
	if err := llsys.LandlockRestrictSelf(fd, flags); err != nil {
		return fmt.Errorf("landlock: %w", err)
	}
	// The best effort may have restricted nothing (a kernel that refuses
	// quietly): the project's top directory takes no new entry in any
	// mode, so one that can be made says the sandbox did not take.
	probe := filepath.Join(p.Project, ".fawn-sandbox-probe")
	if err := os.Mkdir(probe, 0o700); err == nil {
		os.Remove(probe)
		return errors.New("the project's top directory is still writable, so the rules do not hold (a kernel that does not enforce them, or a sandbox.writable entry that holds the project)")
	}
	// Landlock closes TCP from ABI 4; below, seccomp closes IP.
	if err := loadFilter(!p.Network.All, abi >= 4, len(p.Network.Allow) > 0); err != nil {
		return fmt.Errorf("seccomp: %w", err)
	}
	return cmd.Start()
}

// landlockRules are the Landlock configuration and rules of p.
func landlockRules(p Policy, abi int) (landlock.Config, []landlock.Rule) {
	deny := resolveAll(p.DenyRead)
	var rules []landlock.Rule
	// /dev is not read whole: fawn may run as root, to whom the disks
	// there are open.
	rules = append(rules, carve("/", readRights, passRights, append(slices.Clone(deny), "/dev"))...)
	rules = append(rules, devRules()...)
	write := []string{p.Temp, "/dev/shm"}
	if p.Mode == WorkspaceWrite {
		write = append(write, p.Project)
		for _, w := range p.Writable {
			// A cache a build will fill is made now, while fawn may.
			_ = os.MkdirAll(w, 0o755)
		}
		write = append(write, p.Writable...)
	}
	holes := append(slices.Clone(deny), resolveAll(p.ReadOnly)...)
	switch p.Mode {
	case WorkspaceWrite:
		// The project's read-only parts are holes even before they exist:
		// the top directory is then carved, so none can be created.
		for _, ro := range p.ReadOnly {
			holes = append(holes, realPath(ro))
		}
	case ReadOnly:
		// All of it, should it lie in the temp directory.
		holes = append(holes, realPath(p.Project))
	}
	writeRights := landlock.AccessFSSet(readRights | writeOnly)
	if abi < 2 {
		// A rule asking for "refer", which ABI 1 lacks, would make
		// go-landlock's best effort restrict nothing at all; without
		// it, files just cannot move between directories.
		writeRights &^= llsys.AccessFSRefer
	}
	for _, w := range resolveAll(write) {
		rules = append(rules, carve(w, writeRights, 0, holes)...)
	}
	cfg := landlock.V7.BestEffort()
	if p.Network.All {
		cfg.HandledAccessNet = 0
	} else {
		// A listed port may be reached and listened on (a dev server the
		// agent starts, then asks).
		for _, port := range p.Network.ports() {
			rules = append(rules, landlock.ConnectTCP(port), landlock.BindTCP(port))
		}
	}
	return cfg, rules
}

// devRules open the devices programs need: the terminals (their ioctls
// too: a program that opens /dev/tty sets its modes), /dev/null and the
// like; /dev itself is listed.
func devRules() []landlock.Rule {
	dev := landlock.AccessFSSet((readRights | llsys.AccessFSWriteFile | llsys.AccessFSTruncate | llsys.AccessFSIoctlDev) & fileMask)
	rules := []landlock.Rule{
		landlock.PathAccess(passRights, "/dev").IgnoreIfMissing(),
		landlock.PathAccess(dev, "/dev/pts").IgnoreIfMissing(),
	}
	for _, name := range []string{"null", "zero", "full", "random", "urandom", "tty", "ptmx"} {
		rules = append(rules, landlock.PathAccess(dev, "/dev/"+name).IgnoreIfMissing())
	}
	return rules
}

// carve grants rights on root's tree except the holes and what is beneath
// them: the directories on the way down to a hole get only pass, their
// other entries the rights. Symbolic links are not followed (a rule on a
// link would grant its target).
func carve(root string, rights, pass landlock.AccessFSSet, holes []string) []landlock.Rule {
	st, err := os.Lstat(root)
	if err != nil {
		return nil
	}
	return carveEntry(root, st.Mode().Type(), rights, pass, holes)
}

// carveEntry is carve of path, whose type is known: below the root the
// listing of its directory says it, so a carved directory of many entries
// (a temp directory holding the project) costs no lstat of each.
func carveEntry(path string, typ fs.FileMode, rights, pass landlock.AccessFSSet, holes []string) []landlock.Rule {
	if slices.Contains(holes, path) || typ&fs.ModeSymlink != 0 {
		return nil
	}
	if !typ.IsDir() {
		return []landlock.Rule{landlock.PathAccess(rights&fileMask, path).IgnoreIfMissing()}
	}
	inside := false
	for _, h := range holes {
		if strings.HasPrefix(h, strings.TrimSuffix(path, "/")+"/") {
			inside = true
			break
		}
	}
	if !inside {
		return []landlock.Rule{landlock.PathAccess(rights, path).IgnoreIfMissing()}
	}
	var out []landlock.Rule
	if pass != 0 {
		out = append(out, landlock.PathAccess(pass, path).IgnoreIfMissing())
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return out
	}
	for _, e := range entries {
		out = append(out, carveEntry(filepath.Join(path, e.Name()), e.Type(), rights, pass, holes)...)
	}
	return out
}

// realPath is p with its symbolic links resolved as far as it exists.
func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	dir, base := filepath.Split(filepath.Clean(p))
	if dir == "" || dir == p || filepath.Clean(dir) == p {
		return filepath.Clean(p)
	}
	return filepath.Join(realPath(filepath.Clean(dir)), base)
}

// resolveAll is realPath of each existing path.
func resolveAll(paths []string) []string {
	var out []string
	for _, p := range paths {
		if r, err := filepath.EvalSymlinks(p); err == nil && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}
