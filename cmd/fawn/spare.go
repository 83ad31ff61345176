package main

import (
	"sync"

	"github.com/fawn-ide/fawn/terminal"
)

// spareShellName is the tab of the agent's own bash.
const spareShellName = "Agent shell"

// spareShell is the agent's own bash, started the first time the agent
// needs one: when the user replaced the terminal's shell with exec
// (`exec zsh`), which has no fawn markers. It has the agent terminal's
// options; started tells the app, which shows it as a tab.
type spareShell struct {
	opts    terminal.Options
	started func(*terminal.Terminal)

	mu   sync.Mutex
	term *terminal.Terminal
}

func (s *spareShell) get() (*terminal.Terminal, string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.term == nil {
		t, err := terminal.Start(s.opts)
		if err != nil {
			return nil, "", err
		}
		s.term = t
		s.started(t)
	}
	return s.term, spareShellName, nil
}

// Close ends the shell, when it was started.
func (s *spareShell) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.term != nil {
		_ = s.term.Close()
	}
}
