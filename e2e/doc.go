// Package e2e drives the real fawn binary in a real terminal (tmux), the way a
// user would: it types, presses keys and reads the screen back with
// `tmux capture-pane`. Without tmux the tests skip and say so; .ci/run installs it.
package e2e
