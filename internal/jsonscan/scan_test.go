package jsonscan

import (
	"encoding/json"
	"strings"
	"testing"
)

var scanInputs = []string{
	`{}`, `[]`, ` [ 1 , "a" , null , true , false , {"a":[{}]} ] `, `{"a":1,"b":"\u00e9\n\"","c":[1.5e-3,-0,2E+7]}`,
	`"x"`, `0`, `-1.25`, `null`, `true`,
	``, ` `, `{`, `[1,]`, `{"a":1,}`, `{"a" 1}`, `{a:1}`, `[1 2]`, `01`, `-`, `1.`, `1e`, `.5`, `+1`,
	`"\x"`, `"\u12"`, "\"a\x01\"", `"abc`, `tru`, `nul`, `[1]]`, `{"a":1}}`, `{"a":1} x`, `[1] [2]`,
	strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth),
	strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1),
}

// TestValidMatchesEncodingJSON: the scanner accepts exactly what json.Valid
// accepts, up to encoding/json's nesting bound.
func TestValidMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, in := range scanInputs {
		if got, want := Valid([]byte(in)), json.Valid([]byte(in)); got != want {
			t.Errorf("Valid(%.40q) = %v, json.Valid says %v", in, got, want)
		}
	}
}

// TestEachElementChecksAndCounts: EachElement sees every element of an
// array, CountElements counts them, and both refuse or miscount nothing on
// valid input; trailing data is malformed.
func TestEachElementChecksAndCounts(t *testing.T) {
	t.Parallel()
	for _, in := range []string{`[]`, ` [ ] `, `[1]`, `[ "a,]" , [1,2] , {"b":"]"} ]`, `[[],[],{}]`} {
		var want []json.RawMessage
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatal(err)
		}
		n := 0
		if err := EachElement([]byte(in), func([]byte) error { n++; return nil }); err != nil || n != len(want) {
			t.Errorf("EachElement(%s): %d elements, %v; want %d", in, n, err, len(want))
		}
		if got := CountElements([]byte(in), SkipSpace([]byte(in), 0)); got != len(want) {
			t.Errorf("CountElements(%s) = %d, want %d", in, got, len(want))
		}
	}
	for _, in := range []string{`[1,]`, `[1] x`, `[1 2]`, `{"a":1}`, `[{"a" 1}]`} {
		if err := EachElement([]byte(in), func([]byte) error { return nil }); err == nil {
			t.Errorf("EachElement(%s) accepted malformed input", in)
		}
	}
	for _, in := range []string{`{"a":1,}`, `{"a":1} x`, `{"a":[1,]}`, `[]`, `{"a":1 "b":2}`} {
		if err := EachMember([]byte(in), func(_, _, _ []byte) error { return nil }); err == nil {
			t.Errorf("EachMember(%s) accepted malformed input", in)
		}
	}
}

func FuzzValidMatchesEncodingJSON(f *testing.F) {
	for _, in := range scanInputs {
		if len(in) < 1000 {
			f.Add([]byte(in))
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := Valid(b), json.Valid(b); got != want {
			t.Fatalf("Valid(%q) = %v, json.Valid says %v", b, got, want)
		}
		if Valid(b) && len(b) > 0 {
			i := SkipSpace(b, 0)
			if b[i] == '[' {
				var els []json.RawMessage
				if err := json.Unmarshal(b, &els); err != nil {
					t.Fatal(err)
				}
				if n := CountElements(b, i); n != len(els) {
					t.Fatalf("CountElements(%q) = %d, want %d", b, n, len(els))
				}
			}
		}
	})
}
