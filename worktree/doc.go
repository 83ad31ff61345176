// Package worktree owns the git side of fawn's tasks: each task works on a
// branch fawn/NAME of its own, checked out in a git worktree outside the
// project, and is merged back into the branch it started from, or thrown
// away.
//
// A [Manager] is one repository, opened from the project directory (which
// may be a subdirectory of the repository: a task's [Tree.Project] is the
// same subdirectory of its worktree) with the directory worktrees live in.
// Worktrees are <dir>/<repo-id>/<NAME>, repo-id being the repository's
// directory name and a short hash of where its git directory is, so two
// repositories of one name never share a directory.
//
// What a later run needs is kept in the repository's own git config, in
// the branch's section: branch.fawn/NAME.fawnBase (the branch the task
// started from, empty when HEAD was detached) and fawnBaseCommit (the
// commit). git writes its config with a lock and a rename, so it survives
// a kill -9, and deleting the branch deletes the section with it: nothing
// outlives the branch it describes. It is written before the worktree is
// made, so a crash between the two leaves a branchless section that a
// later Create of the name overwrites. Values read back are validated
// before they reach a git command line (a branch name, a hex commit).
//
// Which fawn has a task open is kept beside the worktrees, in
// <dir>/<repo-id>/.open/NAME (a name never starts with '.'): the process
// and its start time while it runs, "closed" once it closed the task as it
// quit. A later fawn reopens the tasks that were open (--continue), and
// tells those a killed fawn left behind (a process that is gone, never
// closed) from those another fawn has open now (a live process).
//
// A merge never leaves anything half-merged: the merge is computed without
// touching any checkout (git merge-tree --write-tree), a conflict is
// reported with the files and changes nothing (Preview finds it before
// anything is asked), and a clean result is made a commit (git
// commit-tree) that the main checkout, clean and on the base branch,
// fast-forwards to: git checks every file before it writes one, so that
// step either happens whole or not at all.
//
// Every git command runs through internal/gitcmd, so a repository's hooks,
// file-system monitor, filters and merge drivers run nothing: commits fawn
// makes never run the repository's hooks, and are never signed
// (--no-gpg-sign: the repository could name the signing program).
//
// It imports internal/gitcmd; cmd/fawn imports it.
package worktree
