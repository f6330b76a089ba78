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

// ErrStop ends EachMember or EachElement early without an error.
var ErrStop = errors.New("stop")

// EachElement calls fn for every element of the JSON array b, in order,
// with the element's bytes. It stops at the first error of fn; ErrStop
// stops without an error.
func EachElement(b []byte, fn func(value []byte) error) error {
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '[' {
		return ErrMalformed
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == ']' {
		return nil
	}
	for {
		i = skipWS(b, i)
		j, err := skipValue(b, i)
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
	i = skipWS(b, j)
	switch {
	case i >= len(b):
		return 0, true, ErrMalformed
	case b[i] == ',':
		return i + 1, false, nil
	case b[i] == closer:
		return 0, true, nil
	}
	return 0, true, ErrMalformed
}

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
		var done bool
		if i, done, err = next(b, j, fn(key, b[start:j], b[i:j]), '}'); done {
			return err
		}
	}
}
