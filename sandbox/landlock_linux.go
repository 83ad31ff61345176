//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
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

func selfExe() (string, error) {
	// /proc/self/exe still executes when the file was replaced (a new
	// build while fawn runs).
	if _, err := os.Stat("/proc/self/exe"); err == nil {
		return "/proc/self/exe", nil
	}
	return os.Executable()
}

func execve(path string, argv, env []string) error { return syscall.Exec(path, argv, env) }

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

// restrict confines this process (and so the shell it becomes) to s.
func restrict(s spec) error {
	abi, err := llsys.LandlockGetABIVersion()
	if err != nil || abi < 1 {
		return errors.New("this kernel offers no Landlock")
	}
	p := s.Policy
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
	if err := cfg.Restrict(rules...); err != nil {
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
	return nil
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
	if slices.Contains(holes, root) {
		return nil
	}
	st, err := os.Lstat(root)
	if err != nil || st.Mode()&os.ModeSymlink != 0 {
		return nil
	}
	if !st.IsDir() {
		return []landlock.Rule{landlock.PathAccess(rights&fileMask, root).IgnoreIfMissing()}
	}
	inside := false
	for _, h := range holes {
		if strings.HasPrefix(h, strings.TrimSuffix(root, "/")+"/") {
			inside = true
			break
		}
	}
	if !inside {
		return []landlock.Rule{landlock.PathAccess(rights, root).IgnoreIfMissing()}
	}
	var out []landlock.Rule
	if pass != 0 {
		out = append(out, landlock.PathAccess(pass, root).IgnoreIfMissing())
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return out
	}
	for _, e := range entries {
		out = append(out, carve(filepath.Join(root, e.Name()), rights, pass, holes)...)
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
