package jsonscan

import (
	"encoding/json"
	"testing"
)

// unquoteInputs are JSON strings with every kind of escape, surrogate
// pairs whole and broken, and invalid UTF-8.
var unquoteInputs = []string{
	`""`, `"plain"`, `"Nelly the \"Gopher\""`, `"a\\b\/c\b\f\n\r\t"`, `"line one\nline two\n"`,
	`"caf\u00e9 caf\u00C9"`, `"\ud83d\ude00 grin"`, `"\uD83D\uDE00"`, `"\ud83d"`, `"\ude00"`,
	`"\ud83d\u0041"`, `"\ud83d\ud83d\ude00"`, `"\ude00\ud83d"`, `"\ud83dx"`, `"x\ud83d\\"`,
	`"\u0000\u001f\u2028\u2029\ufffd\uffff"`, `"é😀 ok"`, "\"bad \xff byte\"", "\"\xed\xa0\x80\"",
	"\"cut \xe2\x82\"", "\"\xf0\x9f\x98\"", "\"\xc3\"", `"\u00e9` + "\xff" + `\n"`,
}

func checkUnquoted(t *testing.T, in []byte) {
	t.Helper()
	end, _, err := SkipString(in, 0)
	if len(in) == 0 || in[0] != '"' || err != nil || end != len(in) {
		return
	}
	var want string
	if err := json.Unmarshal(in, &want); err != nil {
		t.Fatalf("json.Unmarshal(%q): %v, but SkipString accepts it", in, err)
	}
	inner := in[1 : len(in)-1]
	got := AppendUnquoted([]byte("prefix"), inner)
	if string(got) != "prefix"+want {
		t.Fatalf("AppendUnquoted(%q) = %q, encoding/json gives %q", inner, got[6:], want)
	}
	if len(got)-6 > 3*len(inner) {
		t.Fatalf("AppendUnquoted(%q) appended %d bytes, more than 3×%d", inner, len(got)-6, len(inner))
	}
	if Unquoted(inner) != (string(inner) == want) {
		t.Fatalf("Unquoted(%q) = %v, but it unquotes to %q", inner, Unquoted(inner), want)
	}
}

// TestAppendUnquotedMatchesEncodingJSON: every escape, pair, lone surrogate
// and invalid byte reads as encoding/json reads it.
func TestAppendUnquotedMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, in := range unquoteInputs {
		checkUnquoted(t, []byte(in))
	}
}

func FuzzAppendUnquotedMatchesEncodingJSON(f *testing.F) {
	for _, in := range unquoteInputs {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		checkUnquoted(t, in)
		checkUnquoted(t, append(append([]byte{'"'}, in...), '"'))
	})
}
