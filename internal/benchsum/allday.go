package main

// alldayRows are the measures of the all-day session (e2e's
// BenchmarkAllDay): 2,000 turns through the real binary, then a resume of
// the session they leave.
func alldayRows() []row {
	const bench = "BenchmarkAllDay"
	return []row{
		{measure: "all-day session: RSS after the last turn (fawn and its shell)", bench: bench, fawn: "rss-end-MiB", ref: "rss-checkpoint+20-MiB", refName: "RSS after turn 100 + 20 MiB", unit: "MiB",
			goal: "≤ turn 100's + 20 MiB", met: func(_, r float64) bool { return r > 0 && r <= 1 }},
		{measure: "all-day session: frame time p99, the whole run", bench: bench, fawn: "frame-p99-ms", unit: "ms",
			goal: "≤ 16 ms", met: func(f, _ float64) bool { return f <= 16 }},
		{measure: "all-day session: frame time p99, the UI thread's own (the rest of a frame waited: FAWN_FRAMELOG)", bench: bench, fawn: "frame-cpu-p99-ms", ref: "frame-p99-ms", refName: "the frames' p99", unit: "ms",
			goal: "≤ 16 ms", met: func(f, _ float64) bool { return f <= 16 }},
		{measure: "all-day session: frame time p99, the worst 100 turns", bench: bench, fawn: "frame-p99-worst-window-ms", ref: "frame-p99-first-window-ms", refName: "the first 100 turns", unit: "ms",
			goal: "≤ 16 ms", met: func(f, _ float64) bool { return f <= 16 }},
		{measure: "all-day session: key echo in the chat at the end, p99", bench: bench, fawn: "echo-p99-ms", ref: "fresh-echo-p99-ms", refName: "a new session's", unit: "ms",
			goal: "≤ 5 ms", met: func(f, _ float64) bool { return f <= 5 }},
		{measure: "all-day session: --continue to the last answer on the screen", bench: bench, fawn: "resume-ms", ref: "fresh-ms", refName: "fresh start", unit: "ms",
			goal: "≤ 150 ms", met: func(f, _ float64) bool { return f <= 150 }},
		{measure: "all-day session: messages kept (resumed above)", bench: bench, fawn: "messages", unit: "",
			goal: "≥ 10,000", met: func(f, _ float64) bool { return f >= 10000 }},
	}
}
