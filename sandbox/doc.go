// Package sandbox owns the operating-system sandbox of the shared shell:
// the policy (sandbox.mode, sandbox.network, sandbox.writable and
// sandbox.deny_read, checked here with errors that say what to write),
// the words that describe it on the terminal pane's title and in /sandbox,
// the start of a new shell confined, and the reading of a failed
// command's output as a refusal of the sandbox.
//
// On Linux the confinement is Landlock (github.com/landlock-lsm/go-landlock)
// plus a seccomp filter (github.com/elastic/go-seccomp-bpf). Landlock binds
// a process and everything it starts, needs no privilege, no user namespace
// and no setuid helper, so it works in an unprivileged container and under
// Ubuntu 24.04's AppArmor restriction of user namespaces, where bubblewrap
// (which Codex and Claude Code use) fails to start. Its TCP rules close
// connect and bind; the seccomp filter closes what they cannot express:
// other socket families, UDP and raw sockets, Multipath TCP and io_uring
// (whose socket operations do not pass through the socket system call).
//
// Landlock grants rights by subtree and only ever adds them, so a path
// that must stay read-only inside a writable one (.git, .fawn, .claude in
// the project) or unreadable inside a readable one (~/.ssh) is carved out:
// the rights go to each sibling on the way down instead of to the parent.
// What that costs: the project's own top directory takes no new entries
// (its subdirectories and its existing files are writable), and entries
// created later directly in a carved directory (a new dotfile in ~) are
// not readable until the next shell. A project inside the temp directory
// carves that too, so such a shell gets a temp directory of its own. Of
// /dev only the terminals and the usual devices are open (fawn may run as
// root, to whom the disks there are), and the seccomp filter refuses the
// ioctls that type into another terminal.
//
// What Landlock does not restrict at all: changing a file's mode, owner
// or times (chmod, chown, touch on an existing file), and writing to
// another terminal of the user in /dev/pts.
//
// A shell starts through Policy.Start (Shell.Start, the terminal's
// Options.Start): a goroutine locked to an OS thread of its own confines
// that thread alone (Landlock and seccomp bind the calling thread unless
// told to sync all), checks that the rules hold and starts bash from it,
// so the child begins confined; the thread then ends with the goroutine,
// and fawn's other threads are never confined. It fails with a message
// rather than run the shell unconfined. (Before, fawn re-executed itself
// as a helper that confined itself and became bash: a second Go runtime's
// start, and every package's init, before bash's own.) Available says,
// before that, whether this kernel can confine at all; where it cannot,
// Shell says so and the caller keeps asking before every command.
//
// It imports nothing of fawn; config (to check the keys) and cmd/fawn
// (which builds the Shell and hands its parts to the terminal, the agent,
// the bash tool and /sandbox) import it.
package sandbox
