package main

// monorepoRows are the measures on the big trees (internal/monorepo): the
// 200,000-file fixture `make bench` makes, and Go's own source.
func monorepoRows() []row {
	var out []row
	for _, tr := range []struct{ sub, name string }{{"monorepo", "200,000-file monorepo"}, {"goroot", "Go's source"}} {
		at := func(bench string) string { return bench + "/" + tr.sub }
		in := ", " + tr.name
		out = append(out,
			row{measure: "exec → first frame" + in, bench: at("BenchmarkMonorepoStartup"), fawn: "big-ms", ref: "small-ms", refName: "a 3-file project", unit: "ms",
				goal: "≤ 1.1× small project", met: func(_, r float64) bool { return r <= 1.1 }},
			row{measure: "CPU while idle" + in, bench: at("BenchmarkMonorepoStartup"), fawn: "big-idle-cpu-ms", ref: "small-idle-cpu-ms", refName: "a 3-file project", unit: "ms per 10 s",
				goal: "≤ 1.1× small project", met: func(_, r float64) bool { return r <= 1.1 }, zeroes: true},
			row{measure: "@-mention: first key → first matches, index being built" + in, bench: at("BenchmarkMonorepoMention"), fawn: "first-ms", unit: "ms",
				goal: "≤ 50 ms", met: func(f, _ float64) bool { return f <= 50 }},
			row{measure: "@-mention: a key, index built" + in, bench: at("BenchmarkMonorepoMention"), fawn: "key-ms", unit: "ms",
				goal: "≤ 10 ms", met: func(f, _ float64) bool { return f <= 10 }},
			row{measure: "@-mention: a key's CPU, index built" + in, bench: at("BenchmarkMonorepoMention"), fawn: "key-cpu-ms", unit: "ms"},
			row{measure: "index: first paths" + in, bench: at("BenchmarkMonorepoIndex"), fawn: "first-ms", unit: "ms",
				goal: "≤ 50 ms", met: func(f, _ float64) bool { return f <= 50 }},
			row{measure: "index: built" + in, bench: at("BenchmarkMonorepoIndex"), fawn: "built-ms", ref: "rg-files-ms", refName: "rg --files", unit: "ms"},
			row{measure: "index: a stale one's check, nothing changed" + in, bench: at("BenchmarkMonorepoIndex"), fawn: "recheck-ms", ref: "built-ms", refName: "its walk", unit: "ms"},
			row{measure: "Ctrl-P: first files listed" + in, bench: at("BenchmarkMonorepoFinder"), fawn: "first-ms", unit: "ms",
				goal: "≤ 50 ms", met: func(f, _ float64) bool { return f <= 50 }},
			row{measure: "Ctrl-P: a key, all listed" + in, bench: at("BenchmarkMonorepoFinder"), fawn: "key-ms", unit: "ms",
				goal: "≤ 10 ms", met: func(f, _ float64) bool { return f <= 10 }},
			row{measure: "index: memory" + in, bench: at("BenchmarkMonorepoIndex"), fawn: "index-MiB", unit: "MiB",
				goal: "≤ 60 MiB", met: func(f, _ float64) bool { return f <= 60 }},
			row{measure: "grep tool, 5 queries" + in, bench: at("BenchmarkMonorepoGrep"), fawn: "grep-ms", ref: "rg-ms", refName: "rg", unit: "ms",
				goal: "≤ 1.2× rg", met: func(_, r float64) bool { return r <= 1.2 }},
			row{measure: "glob tool, 3 patterns" + in, bench: at("BenchmarkMonorepoGlob"), fawn: "glob-ms", ref: "fd-ms", refName: "fd", unit: "ms",
				goal: "≤ 1.2× fd", met: func(_, r float64) bool { return r <= 1.2 }},
			row{measure: "checkpoint scans around an agent command" + in, bench: at("BenchmarkMonorepoCommandScan"), fawn: "command-scans-ms", ref: "two-walks-ms", refName: "two walks", unit: "ms",
				goal: "≤ 20 ms", met: func(f, _ float64) bool { return f <= 20 }},
		)
	}
	out = append(out,
		row{measure: "explorer: open a 20,000-entry directory", bench: "BenchmarkMonorepoExplorer", fawn: "open-ms", ref: "ls-ms", refName: "ls", unit: "ms",
			goal: "≤ 50 ms", met: func(f, _ float64) bool { return f <= 50 }},
		row{measure: "explorer: a frame scrolling it", bench: "BenchmarkMonorepoExplorer", fawn: "frame-ms", unit: "ms",
			goal: "≤ 16 ms", met: func(f, _ float64) bool { return f <= 16 }},
	)
	return out
}
