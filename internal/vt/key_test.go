package vt

import (
	"bytes"
	"crypto/sha256"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	uv "github.com/charmbracelet/ultraviolet"
)

var updateKeys = flag.Bool("update-keys", false, "rewrite testdata/sendkey.txt from SendKey's output")

// sendKeyModes are the four combinations of the two modes SendKey reads:
// application cursor keys (DECCKM) and application keypad (DECNKM).
var sendKeyModes = []struct{ name, set string }{
	{"normal", ""},
	{"ackm", "\x1b[?1h"},
	{"akkm", "\x1b[?66h"},
	{"both", "\x1b[?1h\x1b[?66h"},
}

// sendKeyCodes are the key codes SendKey is tried with: every ASCII code,
// three beyond it and every special key ultraviolet names.
func sendKeyCodes() []rune {
	var codes []rune
	for c := rune(0); c < 0x80; c++ {
		codes = append(codes, c)
	}
	codes = append(codes, 0xe9, 0x4e16, 0x10ffff)
	for c := KeyExtended; c <= KeyIsoLevel5Shift+1; c++ {
		codes = append(codes, c)
	}
	return codes
}

// sendKeyMods are the modifier sets SendKey is tried with: every subset of
// shift, alt, ctrl and meta, and the lock keys alone and with alt.
func sendKeyMods() []KeyMod {
	var mods []KeyMod
	for m := KeyMod(0); m < 16; m++ {
		mods = append(mods, m)
	}
	return append(mods, uv.ModCapsLock, uv.ModNumLock, uv.ModCapsLock|ModAlt, uv.ModNumLock|ModCtrl)
}

// sendKeyCase is one key event SendKey is tried with, and its name in the
// golden file.
type sendKeyCase struct {
	name  string
	key   uv.KeyEvent
	table bool // written out in the golden file's table (else only hashed)
}

func sendKeyCases() []sendKeyCase {
	var cases []sendKeyCase
	for _, code := range sendKeyCodes() {
		keyName := fmt.Sprintf("%#x %q", code, uv.Key{Code: code}.String())
		for _, mod := range sendKeyMods() {
			k := KeyPressEvent{Code: code, Mod: mod}
			name := fmt.Sprintf("%s mod=%d", keyName, mod)
			// The table shows the modifiers a key map cares about; the
			// other sets and the variants below are only hashed.
			table := mod == 0 || mod == ModAlt || mod == ModCtrl || mod == ModShift ||
				mod == ModCtrl|ModAlt || mod == ModShift|ModAlt
			cases = append(cases, sendKeyCase{name, k, table})
			text := k
			text.Text = string(code)
			repeat := k
			repeat.IsRepeat = true
			extended := k
			extended.BaseCode, extended.ShiftedCode = 'q', 'Q'
			cases = append(cases,
				sendKeyCase{name + " text", text, false},
				sendKeyCase{name + " repeat", repeat, false},
				sendKeyCase{name + " base", extended, false},
				sendKeyCase{name + " release", uv.KeyReleaseEvent{Code: code, Mod: mod}, false})
		}
	}
	return cases
}

// sendKeyOutputs returns what SendKey writes for each case in each of the
// four modes.
func sendKeyOutputs(t *testing.T, cases []sendKeyCase) [][4]string {
	out := make([][4]string, len(cases))
	for m, mode := range sendKeyModes {
		e := NewEmulator(10, 2)
		e.Write([]byte(mode.set))
		var got bytes.Buffer
		done := make(chan error, 1)
		go func() {
			_, err := io.Copy(&got, e)
			done <- err
		}()
		// 0xff is never part of UTF-8: it ends each key's output.
		for _, c := range cases {
			e.SendKey(c.key)
			io.WriteString(e.pw, "\xff") //nolint:errcheck
		}
		e.pw.Close()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		parts := strings.Split(got.String(), "\xff")
		if len(parts) != len(cases)+1 {
			t.Fatalf("%s: %d outputs for %d keys", mode.name, len(parts)-1, len(cases))
		}
		for i := range cases {
			out[i][m] = parts[i]
		}
	}
	return out
}

// sendKeyGolden is the golden file's text: a line for each table case
// that writes anything (its output, or the four modes' outputs where they
// differ), then the SHA-256 of every case's outputs.
func sendKeyGolden(cases []sendKeyCase, out [][4]string) string {
	var b strings.Builder
	b.WriteString("# What Emulator.SendKey writes, per key, modifiers (uv.KeyMod) and mode\n")
	b.WriteString("# (normal, application cursor keys, application keypad, both); a key\n")
	b.WriteString("# that writes nothing is left out. go test ./internal/vt -run TestSendKey -update-keys\n")
	h := sha256.New()
	for i, c := range cases {
		o := out[i]
		fmt.Fprintf(h, "%s\x00%q\x00%q\x00%q\x00%q\n", c.name, o[0], o[1], o[2], o[3])
		if !c.table || o == [4]string{} {
			continue
		}
		if o[0] == o[1] && o[0] == o[2] && o[0] == o[3] {
			fmt.Fprintf(&b, "%s\t%q\n", c.name, o[0])
		} else {
			fmt.Fprintf(&b, "%s\t%q %q %q %q\n", c.name, o[0], o[1], o[2], o[3])
		}
	}
	fmt.Fprintf(&b, "sha256 of every case, variants and other modifiers included: %x\n", h.Sum(nil))
	return b.String()
}

// TestSendKey holds SendKey to the output recorded in testdata: every key
// code ultraviolet names and every ASCII code, with every set of the
// common modifiers, with text, repeat and extended codes, and released,
// in each of the four combinations of cursor-key and keypad modes.
func TestSendKey(t *testing.T) {
	cases := sendKeyCases()
	got := sendKeyGolden(cases, sendKeyOutputs(t, cases))
	path := filepath.Join("testdata", "sendkey.txt")
	if *updateKeys {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./internal/vt -run TestSendKey -update-keys writes it)", err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := 0; i < max(len(gl), len(wl)); i++ {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("SendKey's output differs from %s at line %d:\ngot  %s\nwant %s", path, i+1, g, w)
			}
		}
	}
}
