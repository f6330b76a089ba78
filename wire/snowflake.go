package wire

import (
	"errors"
	"fmt"
	"strconv"
	"time"
)

// Epoch is the first millisecond of 2015, the origin of the timestamp held in
// the top 42 bits of every [Snowflake].
const Epoch = 1420070400000

// Snowflake is a 64-bit identifier. On the wire it is a JSON string holding
// the decimal value; decoding also accepts a bare JSON number and null (as 0).
// The zero Snowflake means "no id".
type Snowflake uint64

// ParseSnowflake parses the decimal form of a snowflake.
func ParseSnowflake(s string) (Snowflake, error) {
	if s == "" {
		return 0, errors.New("guildkit: ParseSnowflake(\"\"): an empty string is not a snowflake")
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		// errors.Is(err, strconv.ErrSyntax) and strconv.ErrRange still work.
		return 0, fmt.Errorf("guildkit: ParseSnowflake(%q): not a snowflake, a decimal id below 2^64: %w", s, errors.Unwrap(err))
	}
	return Snowflake(v), nil
}

// String returns the decimal form of s.
func (s Snowflake) String() string { return strconv.FormatUint(uint64(s), 10) }

// IsZero reports whether s is the zero id.
func (s Snowflake) IsZero() bool { return s == 0 }

// Time returns the creation time encoded in s, in UTC.
func (s Snowflake) Time() time.Time {
	return time.UnixMilli(int64(s>>22) + Epoch).UTC()
}

// SnowflakeFromTime returns the smallest snowflake created at t. It is useful
// as a pagination cursor ("everything after this moment").
func SnowflakeFromTime(t time.Time) Snowflake {
	ms := t.UnixMilli() - Epoch
	if ms < 0 {
		return 0
	}
	return Snowflake(uint64(ms) << 22)
}

// MarshalJSON encodes s as a JSON string.
func (s Snowflake) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 22)
	b = append(b, '"')
	b = strconv.AppendUint(b, uint64(s), 10)
	return append(b, '"'), nil
}

// UnmarshalJSON decodes a JSON string or number; null decodes to 0.
func (s *Snowflake) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*s = 0
		return nil
	}
	if len(b) >= 2 && b[0] == '"' && b[len(b)-1] == '"' {
		b = b[1 : len(b)-1]
	}
	v, err := strconv.ParseUint(string(b), 10, 64)
	if err != nil {
		// No package prefix: this error is read inside a decoding error
		// that has one.
		return errors.New("not a snowflake id (a decimal id below 2^64): " + strconv.Quote(truncate(string(b), 32)))
	}
	*s = Snowflake(v)
	return nil
}

// MarshalText encodes s in decimal, so a Snowflake can key a JSON object.
func (s Snowflake) MarshalText() ([]byte, error) {
	return strconv.AppendUint(nil, uint64(s), 10), nil
}

// UnmarshalText decodes the decimal form of a snowflake.
func (s *Snowflake) UnmarshalText(b []byte) error {
	v, err := ParseSnowflake(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
