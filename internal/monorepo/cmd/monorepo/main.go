// Command monorepo makes the benchmark's big project (package
// internal/monorepo) in a directory, or says it is there already:
//
//	go run ./internal/monorepo/cmd/monorepo -o /tmp/fawn-monorepo
//	go run ./internal/monorepo/cmd/monorepo -o DIR -files 5000 -dirs 500 -size 24MiB -commits 5
//
// It prints what it made as one JSON line.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"

	"github.com/fawn-ide/fawn/internal/monorepo"
)

func main() {
	d := monorepo.Default()
	out := flag.String("o", "", "the directory to make it in (empty, new, or made by this command before)")
	files := flag.Int("files", d.Files, "files, ignored ones included")
	dirs := flag.Int("dirs", d.Dirs, "directories")
	size := flag.String("size", "2GiB", "the files' sizes together (KiB, MiB, GiB)")
	commits := flag.Int("commits", d.Commits, "commits of history (0: no repository)")
	seed := flag.Uint64("seed", d.Seed, "the seed: the same seed makes the same tree")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "monorepo: give the directory to make it in: -o DIR")
		os.Exit(2)
	}
	n, err := parseSize(*size)
	if err != nil {
		fmt.Fprintln(os.Stderr, "monorepo:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	st, err := monorepo.Generate(ctx, *out, monorepo.Options{Files: *files, Dirs: *dirs, Bytes: n, Commits: *commits, Seed: *seed})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	b, _ := json.Marshal(st)
	fmt.Println(string(b))
}

// parseSize reads 2GiB, 500MiB, 64KiB or a number of bytes.
func parseSize(s string) (int64, error) {
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		m      int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSuffix(s, u.suffix), u.m
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("size %q: give a number of bytes or of KiB, MiB, GiB (2GiB)", s)
	}
	return n * mult, nil
}
