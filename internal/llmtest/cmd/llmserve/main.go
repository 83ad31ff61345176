// Command llmserve serves a scripted OpenAI-compatible model from a JSON or
// YAML file, so fawn can be run against a known conversation:
//
//	go run ./internal/llmtest/cmd/llmserve -script demo.yaml -addr 127.0.0.1:8089
//	fawn --base-url http://127.0.0.1:8089/v1 --model scripted .
//
// It speaks Anthropic's Messages API at the same address too (models.chat_model.type
// anthropic, base_url http://127.0.0.1:8089).
//
// Each chat completion request gets the next response of the script; with
// -loop the script starts over at its end. Every request is logged to stderr
// in one line (and in full with -v).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"
	"syscall"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

func main() {
	os.Exit(run())
}

func run() int {
	addr := flag.String("addr", "127.0.0.1:8089", "address to listen on (port 0 picks a free one)")
	script := flag.String("script", "", "script file (.json, .yaml or .yml); required")
	dialect := flag.String("dialect", "", "tool-call dialect for every response without its own: "+dialectList())
	loop := flag.Bool("loop", false, "start the script over when it runs out")
	verbose := flag.Bool("v", false, "log every request body in full")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: llmserve -script FILE [-addr HOST:PORT] [-dialect D] [-loop] [-v]\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *script == "" || flag.NArg() > 0 {
		flag.Usage()
		return 2
	}
	s, err := llmtest.LoadScript(*script)
	if err != nil {
		fmt.Fprintln(os.Stderr, "llmserve:", err)
		return 2
	}
	if *dialect != "" {
		s.Dialect = llmtest.Dialect(*dialect)
	}
	if *loop {
		s.Loop = true
	}
	if err := s.Validate(); err != nil {
		fmt.Fprintln(os.Stderr, "llmserve:", err)
		return 2
	}

	var n atomic.Int64
	srv, err := llmtest.Serve(*addr, s, func(r llmtest.Request) {
		line := fmt.Sprintf("llmserve: #%d %s %s", n.Add(1), r.Method, r.Path)
		if c := r.Chat; c != nil && len(c.Messages) > 0 {
			last := c.Messages[len(c.Messages)-1]
			line += fmt.Sprintf(" model=%s stream=%v messages=%d last=%s %q", c.Model, c.Stream, len(c.Messages), last.Role, clip(string(last.Content), 60))
		}
		if c := r.Messages; c != nil && len(c.Messages) > 0 {
			last := c.Messages[len(c.Messages)-1]
			line += fmt.Sprintf(" model=%s stream=%v messages=%d last=%s %q", c.Model, c.Stream, len(c.Messages), last.Role, clip(last.Content.Text(), 60))
		}
		fmt.Fprintln(os.Stderr, line)
		if *verbose && len(r.Body) > 0 {
			fmt.Fprintf(os.Stderr, "%s\n", r.Body)
		}
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "llmserve:", err)
		return 1
	}
	defer srv.Close()
	fmt.Printf("llmserve: %d responses at %s (use --base-url %s)\n", len(s.Responses), srv.URL(), srv.URL())

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	<-ctx.Done()
	return 0
}

func dialectList() string {
	var names []string
	for _, d := range llmtest.Dialects() {
		names = append(names, string(d))
	}
	return strings.Join(names, ", ")
}

func clip(s string, n int) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
