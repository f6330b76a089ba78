package components

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
)

// A small scanner over JSON that encoding/json has already checked, used to
// split a component array and to find a component's "type" without decoding
// (and re-scanning) the whole object. Every function returns an error rather
// than panicking on malformed input; callers that cannot rely on prior
// validation check with json.Valid first.

var errScan = errors.New("components: malformed JSON")

func skipWS(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\r', '\n':
			i++
		default:
			return i
		}
	}
	return i
}

// skipString returns the index just past the string starting at b[i] ('"').
func skipString(b []byte, i int) (int, error) {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1, nil
		}
	}
	return 0, errScan
}

// skipValue returns the index just past the value starting at b[i].
func skipValue(b []byte, i int) (int, error) {
	if i >= len(b) {
		return 0, errScan
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				j, err := skipString(b, i)
				if err != nil {
					return 0, err
				}
				i = j - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1, nil
				}
			}
		}
		return 0, errScan
	}
	start := i
	for i < len(b) {
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			if i == start {
				return 0, errScan
			}
			return i, nil
		}
		i++
	}
	if i == start {
		return 0, errScan
	}
	return i, nil
}

// splitArray returns the elements of the JSON array b, or nil for null.
func splitArray(b []byte) ([]json.RawMessage, bool, error) {
	i := skipWS(b, 0)
	if bytes.HasPrefix(b[i:], []byte("null")) {
		return nil, true, nil
	}
	if i >= len(b) || b[i] != '[' {
		return nil, false, errScan
	}
	var out []json.RawMessage
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == ']' {
		return []json.RawMessage{}, false, nil
	}
	for {
		i = skipWS(b, i)
		j, err := skipValue(b, i)
		if err != nil {
			return nil, false, err
		}
		out = append(out, b[i:j])
		i = skipWS(b, j)
		if i >= len(b) {
			return nil, false, errScan
		}
		switch b[i] {
		case ',':
			i++
		case ']':
			return out, false, nil
		default:
			return nil, false, errScan
		}
	}
}

// errStop ends eachMember early without an error.
var errStop = errors.New("stop")

// eachMember calls fn for every member of the JSON object b, in order, with
// its key (unescaped when it holds an escape), the member's bytes from the
// key's opening quote to the end of its value, and the value's bytes. It
// stops at the first error of fn; errStop stops without an error.
func eachMember(b []byte, fn func(key, member, value []byte) error) error {
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '{' {
		return errScan
	}
	i++
	for {
		i = skipWS(b, i)
		if i >= len(b) {
			return errScan
		}
		if b[i] == '}' {
			return nil
		}
		if b[i] != '"' {
			return errScan
		}
		start := i
		j, err := skipString(b, i)
		if err != nil {
			return err
		}
		key := b[i+1 : j-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			var s string
			if json.Unmarshal(b[i:j], &s) == nil {
				key = []byte(s)
			}
		}
		i = skipWS(b, j)
		if i >= len(b) || b[i] != ':' {
			return errScan
		}
		i = skipWS(b, i+1)
		j, err = skipValue(b, i)
		if err != nil {
			return err
		}
		if err := fn(key, b[start:j], b[i:j]); err != nil {
			if err == errStop {
				return nil
			}
			return err
		}
		i = skipWS(b, j)
		if i >= len(b) {
			return errScan
		}
		switch b[i] {
		case ',':
			i++
		case '}':
			return nil
		default:
			return errScan
		}
	}
}

var typeKey = []byte("type")

// peekType finds the first top-level key of the object b that encoding/json
// would match to "type" (case-insensitively) with a non-null value, and
// parses that value as an integer. found is false when there is none.
func peekType(b []byte) (t Type, found bool, err error) {
	err = eachMember(b, func(key, _, v []byte) error {
		if !bytes.EqualFold(key, typeKey) || string(v) == "null" {
			return nil
		}
		n, perr := strconv.ParseInt(string(v), 10, strconv.IntSize)
		if perr != nil {
			return errors.New("components: type is not an integer: " + strconv.Quote(truncate(string(v), 32)))
		}
		t, found = Type(n), true
		return errStop
	})
	if err != nil {
		return 0, false, err
	}
	return t, found, nil
}

// cutMembers returns the object b without the members whose key matches
// one of keys (case-insensitively, as encoding/json matches fields), and for
// each key the value of its last such member (nil when absent). Decoding the
// rest with encoding/json then checks only the component's own fields, and
// the children are decoded once, by the caller.
func cutMembers(b []byte, keys ...string) ([]byte, []json.RawMessage, error) {
	vals := make([]json.RawMessage, len(keys))
	rest := make([]byte, 1, 64)
	rest[0] = '{'
	err := eachMember(b, func(key, member, value []byte) error {
		for k, name := range keys {
			if bytes.EqualFold(key, []byte(name)) {
				vals[k] = value
				return nil
			}
		}
		if len(rest) > 1 {
			rest = append(rest, ',')
		}
		rest = append(rest, member...)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return append(rest, '}'), vals, nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
