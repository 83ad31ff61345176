// Command acpscript is the scripted ACP agent of package acptest as a
// program: FAWN_ACP_SCRIPT names the scenario, FAWN_ACP_REPORT the report
// file. fawn's end-to-end tests host it with --agent.
package main

import (
	"fmt"
	"os"

	"github.com/fawn-ide/fawn/acp/acptest"
)

func main() {
	if !acptest.Serve() {
		fmt.Fprintln(os.Stderr, "acpscript: set FAWN_ACP_SCRIPT to a scenario (edit, outoforder, write, permcancel, crash, garbage, hang, read, permission)")
		os.Exit(2)
	}
}
