package terminfo

import (
	"math/rand"
	"strconv"
	"testing"
)

// TParm remembers its results (fawn's patch): what it returns is what
// evaluating the string gives, on the first call and on later ones, for
// strings of real terminals' capabilities, past the memo's size, and for
// strings whose result depends on variables (never remembered).
func TestTParmRemembersWhatItWouldEvaluate(t *testing.T) {
	ti := &Terminfo{}
	formats := []string{
		"\x1b[%i%p1%d;%p2%dH", // cup
		"\x1b[%?%p1%{8}%<%t3%p1%d%e%p1%{16}%<%t9%p1%{8}%-%d%e38;5;%p1%d%;m", // setaf, 256 colours
		"\x1b[%?%p1%{8}%<%t4%p1%d%e%p1%{16}%<%t10%p1%{8}%-%d%e48;5;%p1%d%;m",
		"\x1b[38;2;%p1%d;%p2%d;%p3%dm", // setrgbf
		"\x1b[38;2;%p1%d;%p2%d;%p3%d;48;2;%p4%d;%p5%d;%p6%dm",
		"\x1b[%p1%dA",
		"\x1b[%p1%d;%p2%dr", // csr
	}
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 3*tparmMemoSize; i++ {
		f := formats[rng.Intn(len(formats))]
		p := make([]any, 1+rng.Intn(6))
		for j := range p {
			p[j] = rng.Intn(300)
		}
		want := ti.tparm(f, p...)
		for k := 0; k < 2; k++ {
			if got := ti.TParm(f, p...); got != want {
				t.Fatalf("TParm(%q, %v) call %d = %q, evaluated %q", f, p, k+1, got, want)
			}
		}
	}
	// A string that reads a static variable gives what was stored last.
	for _, v := range []int{5, 7, 5, 9} {
		ti.TParm("%p1%PA", v)
		if got, want := ti.TParm("%gA%d"), ti.tparm("%gA%d"); got != want || got != strconv.Itoa(v) {
			t.Fatalf("after storing %d: TParm gives %q, evaluation %q", v, got, want)
		}
	}
	// Parameters that are not ints are evaluated every time.
	if got, want := ti.TParm("%p1%s", "x"), "x"; got != want {
		t.Fatalf("string parameter: %q, want %q", got, want)
	}
}
