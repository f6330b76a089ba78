package wire

import (
	"strconv"
	"strings"
	"testing"
)

// FuzzParseSnowflake: parsing never panics, accepts exactly the decimal
// uint64 values, and agrees with the JSON and text decoders; what parses
// round-trips through String and MarshalJSON. Seed corpus in
// testdata/fuzz/FuzzParseSnowflake.
func FuzzParseSnowflake(f *testing.F) {
	for _, s := range []string{"0", "1", "175928847299117063", "18446744073709551615", "18446744073709551616", "-1", "", " 1", "1e3", "0x10", "007", `\u0031`, "١٢", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseSnowflake(s)
		u, uerr := strconv.ParseUint(s, 10, 64)
		if (err == nil) != (uerr == nil) || (err == nil && uint64(v) != u) {
			t.Fatalf("ParseSnowflake(%q) = %v, %v; ParseUint = %v, %v", s, v, err, u, uerr)
		}
		var j Snowflake
		jerr := j.UnmarshalJSON([]byte(strconv.Quote(s)))
		if !strings.ContainsAny(s, "\"\\") && ((jerr == nil) != (err == nil) || j != v) {
			t.Fatalf("UnmarshalJSON(%q) = %v, %v; ParseSnowflake = %v, %v", s, j, jerr, v, err)
		}
		var x Snowflake
		if xerr := x.UnmarshalText([]byte(s)); (xerr == nil) != (err == nil) || x != v {
			t.Fatalf("UnmarshalText(%q) = %v, %v", s, x, xerr)
		}
		if err != nil {
			return
		}
		back, err := ParseSnowflake(v.String())
		if err != nil || back != v {
			t.Fatalf("String round trip of %q: %v, %v", s, back, err)
		}
		b, _ := v.MarshalJSON()
		var r Snowflake
		if err := r.UnmarshalJSON(b); err != nil || r != v {
			t.Fatalf("JSON round trip of %q: %v, %v", s, r, err)
		}
	})
}
