// Package jsonscan is the JSON scanner of guildkit's decoders, and the
// keeping of the members a Go type would drop when it decodes (see [Kept]).
//
// The scanner checks what it reads as it goes, by encoding/json's grammar
// (and its bound of 10000 nested arrays and objects): whatever it accepts,
// json.Valid accepts, and it reports ErrMalformed, never panics, on
// anything else. So a decoder built on it needs no json.Valid pass first.
// Two decoders are: internal/jsondec reads answers (SkipSpace, SkipString,
// SkipNumber, SkipValue by position) and package components reads component
// trees ([EachMember], [EachElement]).
package jsonscan

import (
	"bytes"
	"errors"
)

// ErrMalformed is the error of input that is not JSON.
var ErrMalformed = errors.New("malformed JSON")

// MaxDepth is encoding/json's bound on nested arrays and objects; deeper
// input is malformed.
const MaxDepth = 10000

// SkipSpace returns the index of the first byte at or after i that is not
// JSON white space.
func SkipSpace(b []byte, i int) int {
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

// SkipLiteral checks that lit (true, false or null) starts at b[i] and
// returns the index after it.
func SkipLiteral(b []byte, i int, lit string) (int, error) {
	if !bytes.HasPrefix(b[i:], []byte(lit)) {
		return 0, ErrMalformed
	}
	return i + len(lit), nil
}

// SkipString checks the JSON string that starts at b[i] ('"') and returns
// the index after it and whether it holds an escape.
func SkipString(b []byte, i int) (end int, escaped bool, err error) {
	for i++; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			return i + 1, escaped, nil
		case c == '\\':
			escaped = true
			i++
			if i >= len(b) {
				return 0, false, ErrMalformed
			}
			switch b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(b) {
					return 0, false, ErrMalformed
				}
				for _, h := range b[i+1 : i+5] {
					if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
						return 0, false, ErrMalformed
					}
				}
				i += 4
			default:
				return 0, false, ErrMalformed
			}
		case c < 0x20:
			return 0, false, ErrMalformed
		}
	}
	return 0, false, ErrMalformed
}

// SkipNumber checks the JSON number that starts at b[i] and returns the
// index after it: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func SkipNumber(b []byte, i int) (int, error) {
	digits := func(i int) (int, bool) {
		j := i
		for j < len(b) && '0' <= b[j] && b[j] <= '9' {
			j++
		}
		return j, j > i
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		i, _ = digits(i)
	default:
		return 0, ErrMalformed
	}
	var ok bool
	if i < len(b) && b[i] == '.' {
		if i, ok = digits(i + 1); !ok {
			return 0, ErrMalformed
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i, ok = digits(i); !ok {
			return 0, ErrMalformed
		}
	}
	return i, nil
}

// SkipValue checks the JSON value that starts at b[i], inside depth open
// arrays and objects, and returns the index after it.
func SkipValue(b []byte, i, depth int) (int, error) {
	if i >= len(b) {
		return 0, ErrMalformed
	}
	switch c := b[i]; c {
	case '"':
		end, _, err := SkipString(b, i)
		return end, err
	case '{', '[':
		if depth++; depth > MaxDepth {
			return 0, ErrMalformed
		}
		closer := byte('}')
		if c == '[' {
			closer = ']'
		}
		i = SkipSpace(b, i+1)
		if i < len(b) && b[i] == closer {
			return i + 1, nil
		}
		for {
			var err error
			if c == '{' {
				if i >= len(b) || b[i] != '"' {
					return 0, ErrMalformed
				}
				if i, _, err = SkipString(b, i); err != nil {
					return 0, err
				}
				if i = SkipSpace(b, i); i >= len(b) || b[i] != ':' {
					return 0, ErrMalformed
				}
				i = SkipSpace(b, i+1)
			}
			if i, err = SkipValue(b, i, depth); err != nil {
				return 0, err
			}
			switch i = SkipSpace(b, i); {
			case i < len(b) && b[i] == ',':
				i = SkipSpace(b, i+1)
			case i < len(b) && b[i] == closer:
				return i + 1, nil
			default:
				return 0, ErrMalformed
			}
		}
	case 't':
		return SkipLiteral(b, i, "true")
	case 'f':
		return SkipLiteral(b, i, "false")
	case 'n':
		return SkipLiteral(b, i, "null")
	}
	return SkipNumber(b, i)
}

// CountElements returns the number of elements of the JSON array that
// starts at b[i] ('['), so that a decoder can size a slice before reading
// them. It does not check them, which reading them does; on malformed input
// its count is merely wrong.
func CountElements(b []byte, i int) int {
	commas, depth, empty := 0, 0, true
	for ; i < len(b); i++ {
		c := b[i]
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		case '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
		case '[', '{':
			depth++
		case ']', '}':
			if depth--; depth == 0 {
				if empty {
					return 0
				}
				return commas + 1
			}
		case ',':
			if depth == 1 {
				commas++
			}
		}
		if depth > 1 || depth == 1 && c != '[' {
			empty = false
		}
	}
	return commas + 1
}

// Valid reports whether b is one JSON value with nothing but white space
// around it, as json.Valid does.
func Valid(b []byte) bool {
	end, err := SkipValue(b, SkipSpace(b, 0), 0)
	return err == nil && SkipSpace(b, end) == len(b)
}

// ErrStop ends EachMember or EachElement early without an error.
var ErrStop = errors.New("stop")

// EachElement calls fn for every element of the JSON array b (white space
// around it allowed, nothing else), in order, with the element's bytes,
// each checked before fn sees it. It stops at the first error of fn;
// ErrStop stops without an error, leaving the rest unchecked.
func EachElement(b []byte, fn func(value []byte) error) error {
	i := SkipSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return ErrMalformed
	}
	i = SkipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return end(b, i+1)
	}
	for {
		j, err := SkipValue(b, i, 1)
		if err != nil {
			return err
		}
		var done bool
		if i, done, err = next(b, j, fn(b[i:j]), ']'); done {
			return err
		}
	}
}

// next reads what follows a value that ends at j in an array or an object
// closed by closer, once fn has returned fnErr for it: where the next
// element starts, or done, with the error to return (nil at the end or on
// ErrStop).
func next(b []byte, j int, fnErr error, closer byte) (i int, done bool, err error) {
	if fnErr != nil {
		if fnErr == ErrStop {
			fnErr = nil
		}
		return 0, true, fnErr
	}
	i = SkipSpace(b, j)
	switch {
	case i >= len(b):
		return 0, true, ErrMalformed
	case b[i] == ',':
		return SkipSpace(b, i+1), false, nil
	case b[i] == closer:
		return 0, true, end(b, i+1)
	}
	return 0, true, ErrMalformed
}

// end checks that nothing but white space follows b[i-1].
func end(b []byte, i int) error {
	if SkipSpace(b, i) != len(b) {
		return ErrMalformed
	}
	return nil
}

// EachMember calls fn for every member of the JSON object b (white space
// around it allowed, nothing else), in order, with its key (unescaped when
// it holds an escape), the member's bytes from the key's opening quote to
// the end of its value, and the value's bytes, each checked before fn sees
// it. It stops at the first error of fn; ErrStop stops without an error,
// leaving the rest unchecked.
func EachMember(b []byte, fn func(key, member, value []byte) error) error {
	i := SkipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return ErrMalformed
	}
	i = SkipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return end(b, i+1)
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return ErrMalformed
		}
		start := i
		j, escaped, err := SkipString(b, i)
		if err != nil {
			return err
		}
		key := b[i+1 : j-1]
		if escaped {
			key = AppendUnquoted(nil, key)
		}
		if i = SkipSpace(b, j); i >= len(b) || b[i] != ':' {
			return ErrMalformed
		}
		i = SkipSpace(b, i+1)
		if j, err = SkipValue(b, i, 1); err != nil {
			return err
		}
		var done bool
		if i, done, err = next(b, j, fn(key, b[start:j], b[i:j]), '}'); done {
			return err
		}
	}
}
