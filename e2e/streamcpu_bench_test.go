package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// The stream's own cost: headless fawn (-p) reading one long answer from the
// scripted server over real HTTP and server-sent events, beside `curl -sN`
// reading the same stream from the same server, interleaved (curl, fawn,
// curl, fawn, …) so that the load of the machine lands on both.

const (
	cpuStreamChunks = 10000                   // 5-byte chunks: a 10,000-token answer of 50 KB
	cpuStreamPace   = 1100 * time.Microsecond // between chunks: ~900 tokens/s
)

func cpuStreamScript(text string) llmtest.Script {
	return llmtest.Script{Loop: true, Responses: []llmtest.Response{{
		Text: text, ChunkSize: bytesPerToken, Delay: llmtest.Duration(cpuStreamPace),
		Usage: &llmtest.Usage{PromptTokens: 1000, CompletionTokens: len(text) / bytesPerToken},
	}}}
}

// childCPU runs cmd to its end and returns the CPU (user+system) it and
// the children it waited for used.
func childCPU(b *testing.B, cmd *exec.Cmd) time.Duration {
	b.Helper()
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%v: %v\n%.2000s", cmd.Args, err, out)
	}
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

// BenchmarkStreamCPU reports the CPU headless fawn spends on a 10,000-chunk
// streamed answer (its bash shell included: fawn starts one, and a user pays
// for it) against curl's on the same stream, and fawn's CPU for a one-chunk
// answer measured the same way: the start-up, the shell and the turn
// around the stream, which fawn-net-cpu-s leaves out.
func BenchmarkStreamCPU(b *testing.B) {
	curl, err := exec.LookPath("curl")
	if err != nil {
		fmt.Printf("%s skipped: curl is not installed\n", b.Name())
		b.Skip("skipped: curl is not installed")
	}
	bin := plainFawn(b)
	text := benchAnswer(cpuStreamChunks)[:cpuStreamChunks*bytesPerToken]
	long := llmtest.NewServer(cpuStreamScript(text))
	defer long.Close()
	short := llmtest.NewServer(cpuStreamScript("Done."))
	defer short.Close()

	home, project := b.TempDir(), b.TempDir()
	env := []string{"HOME=" + home, "FAWN_HOME=" + home, "PATH=" + os.Getenv("PATH"), "OPENAI_API_KEY=", "ANTHROPIC_API_KEY="}
	fawn := func(srv *llmtest.Server) *exec.Cmd {
		cmd := exec.Command(bin, "--base-url", srv.URL(), "--model", "scripted", "-p", "explain", project)
		cmd.Env = env
		return cmd
	}
	body := `{"model":"scripted","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"explain"}]}`
	curlCmd := func() *exec.Cmd {
		return exec.Command(curl, "-sN", "-o", "/dev/null", "-H", "Content-Type: application/json", "-d", body, long.URL()+"/chat/completions")
	}

	var curlCPU, fawnCPU, oneCPU time.Duration
	for i := 0; i < b.N; i++ {
		curlCPU += childCPU(b, curlCmd())
		fawnCPU += childCPU(b, fawn(long))
		oneCPU += childCPU(b, fawn(short))
	}
	n := float64(b.N)
	b.ReportMetric(curlCPU.Seconds()/n, "curl-cpu-s")
	b.ReportMetric(fawnCPU.Seconds()/n, "fawn-cpu-s")
	b.ReportMetric(oneCPU.Seconds()/n, "one-chunk-cpu-s")
	b.ReportMetric((fawnCPU-oneCPU).Seconds()/n, "fawn-net-cpu-s")
	b.ReportMetric(float64(fawnCPU)/float64(curlCPU), "fawn/curl-cpu")
	b.ReportMetric(cpuStreamChunks, "chunks")
}
