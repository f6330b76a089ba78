// Package jsonscan is a small scanner over JSON that encoding/json has
// already checked, and the keeping of the members a Go type would drop
// when it decodes (see [Kept]).
package jsonscan

import (
	"bytes"
	"encoding/json"
	"errors"
)

// A small scanner over JSON that encoding/json has already checked, used to
// split an array and to walk an object's members without decoding (and
// re-scanning) the whole value. Every function returns an error rather
// than panicking on malformed input; callers that cannot rely on prior
// validation check with json.Valid first.

// ErrMalformed is the error of JSON the scanner cannot read.
var ErrMalformed = errors.New("malformed JSON")

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
	return 0, ErrMalformed
}

// skipValue returns the index just past the value starting at b[i].
func skipValue(b []byte, i int) (int, error) {
	if i >= len(b) {
		return 0, ErrMalformed
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
		return 0, ErrMalformed
	}
	start := i
	for i < len(b) {
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			if i == start {
				return 0, ErrMalformed
			}
			return i, nil
		}
		i++
	}
	if i == start {
		return 0, ErrMalformed
	}
	return i, nil
}

// SplitArray returns the elements of the JSON array b, or nil for null.
func SplitArray(b []byte) ([]json.RawMessage, bool, error) {
	i := skipWS(b, 0)
	if bytes.HasPrefix(b[i:], []byte("null")) {
		return nil, true, nil
	}
	if i >= len(b) || b[i] != '[' {
		return nil, false, ErrMalformed
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
			return nil, false, ErrMalformed
		}
		switch b[i] {
		case ',':
			i++
		case ']':
			return out, false, nil
		default:
			return nil, false, ErrMalformed
		}
	}
}

// ErrStop ends EachMember early without an error.
var ErrStop = errors.New("stop")

// EachMember calls fn for every member of the JSON object b, in order, with
// its key (unescaped when it holds an escape), the member's bytes from the
// key's opening quote to the end of its value, and the value's bytes. It
// stops at the first error of fn; ErrStop stops without an error.
func EachMember(b []byte, fn func(key, member, value []byte) error) error {
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '{' {
		return ErrMalformed
	}
	i++
	for {
		i = skipWS(b, i)
		if i >= len(b) {
			return ErrMalformed
		}
		if b[i] == '}' {
			return nil
		}
		if b[i] != '"' {
			return ErrMalformed
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
			return ErrMalformed
		}
		i = skipWS(b, i+1)
		j, err = skipValue(b, i)
		if err != nil {
			return err
		}
		if err := fn(key, b[start:j], b[i:j]); err != nil {
			if err == ErrStop {
				return nil
			}
			return err
		}
		i = skipWS(b, j)
		if i >= len(b) {
			return ErrMalformed
		}
		switch b[i] {
		case ',':
			i++
		case '}':
			return nil
		default:
			return ErrMalformed
		}
	}
}

// CutMembers returns the object b without the members whose key matches
// one of keys (case-insensitively, as encoding/json matches fields), and for
// each key the value of its last such member (nil when absent). Decoding the
// rest with encoding/json then checks only the component's own fields, and
// the children are decoded once, by the caller.
func CutMembers(b []byte, keys ...string) ([]byte, []json.RawMessage, error) {
	vals := make([]json.RawMessage, len(keys))
	rest := make([]byte, 1, 64)
	rest[0] = '{'
	err := EachMember(b, func(key, member, value []byte) error {
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
