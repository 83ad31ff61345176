package main

import (
	"context"
	"fmt"
	"io"

	"github.com/fawn-ide/fawn/config"
)

func headless(ctx context.Context, c *cli, cfg *config.Config, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "fawn: headless mode is not wired yet")
	return exitFailure
}

func interactive(ctx context.Context, c *cli, cfg *config.Config, rep *config.Report, stderr io.Writer) int {
	fmt.Fprintln(stderr, "fawn: the IDE is not wired yet")
	return exitFailure
}
