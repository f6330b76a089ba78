package jsonscan

import (
	"bytes"
	"encoding/json"
	"github.com/seed012df1e9/guildkit/internal/optstate"
	"reflect"
	"strings"
)

// encoding/json drops two kinds of members when it decodes into a struct: a
// member whose key the struct does not model (a field the interface added
// later, a response-only field), and a modelled member whose value is the
// field's zero value, which the field's omitempty then leaves out on
// encoding ("disabled": false, "label": "", "emoji": null). A type that must
// give back everything it was given holds a Kept: its UnmarshalJSON decodes
// as usual and then calls [Kept.Collect]; its MarshalJSON encodes as usual
// and then calls [Kept.Merge]. A field the caller has given a value since
// decoding wins: a kept member is written only when the encoding does not
// already hold its key.

// Kept holds the members a decoded object would otherwise drop, as the JSON
// text of an object ("{...}"), or "" when there are none. A string, so that
// the types holding it stay comparable.
type Kept string

// FieldSet is what decoding knows of a type's JSON members.
type FieldSet struct {
	names [][]byte
	// drops[i] reports whether the field named names[i] leaves a zero value
	// out of its encoding (omitempty or omitzero on a type that is not an
	// Opt, which keeps an explicit zero by itself).
	drops []bool
}

// FieldsOf lists the JSON members of struct type T, and the names in also
// (members its encoding writes by other means, such as a component's
// "type").
func FieldsOf[T any](also ...string) *FieldSet {
	return FieldsOfType(reflect.TypeFor[T](), also...)
}

// FieldsOfType is [FieldsOf] for the struct type t.
func FieldsOfType(t reflect.Type, also ...string) *FieldSet {
	fs := new(FieldSet)
	for _, name := range also {
		fs.names, fs.drops = append(fs.names, []byte(name)), append(fs.drops, false)
	}
	for _, f := range Fields(t) {
		isOpt := optstate.Is(f.Type)
		fs.names = append(fs.names, []byte(f.Name))
		fs.drops = append(fs.drops, f.Omit && !isOpt)
	}
	return fs
}

// Field is one member of a struct type's JSON form.
type Field struct {
	Index    int          // in the struct
	Name     string       // the JSON name: the tag's, else the Go name
	Type     reflect.Type // the Go type
	Omit     bool         // omitempty or omitzero
	Options  string       // the tag's options, "omitempty,string" say
	Embedded bool         // an embedded field, whose members encoding/json promotes
}

// Fields lists the fields of struct type t that encoding/json reads or
// writes, in order: the exported ones whose tag is not "-", and every
// embedded one.
func Fields(t reflect.Type) []Field {
	var out []Field
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || !f.IsExported() && !f.Anonymous {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = f.Name
		}
		out = append(out, Field{
			Index: i, Name: name, Type: f.Type, Options: opts, Embedded: f.Anonymous,
			Omit: strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero"),
		})
	}
	return out
}

// lookup reports whether key names a modelled member (case-insensitively,
// as encoding/json matches them) and whether that member's zero value is
// left out of the encoding.
func (fs *FieldSet) lookup(key []byte) (known, drops bool) {
	for i, n := range fs.names {
		if bytes.EqualFold(key, n) {
			return true, fs.drops[i]
		}
	}
	return false, false
}

// Collect sets k to the members of the object b that decoding into a type
// described by fs drops (see [FieldSet.Keeps]).
func (k *Kept) Collect(b []byte, fs *FieldSet) error {
	var kb KeptBuilder
	err := EachMember(b, func(key, member, value []byte) error {
		if fs.Keeps(key, value) {
			kb.Add(member)
		}
		return nil
	})
	if err != nil {
		return err
	}
	*k = kb.Kept()
	return nil
}

// Keeps reports whether the member key: value is one a type described by fs
// drops when decoding: a member fs does not know, or one of a field that
// leaves its zero value out whose value may decode to that zero.
func (fs *FieldSet) Keeps(key, value []byte) bool {
	known, drops := fs.lookup(key)
	return !known || drops && mayBeZero(value)
}

// KeptBuilder gathers kept members one at a time; its zero value is ready.
type KeptBuilder struct{ buf []byte }

// Add adds member, the text of one object member ("key": value).
func (kb *KeptBuilder) Add(member []byte) {
	if kb.buf == nil {
		kb.buf = append(make([]byte, 0, len(member)+2), '{')
	} else {
		kb.buf = append(kb.buf, ',')
	}
	kb.buf = append(kb.buf, member...)
}

// Kept returns the members added, or "" when there are none.
func (kb *KeptBuilder) Kept() Kept {
	if kb.buf == nil {
		return ""
	}
	return Kept(append(kb.buf, '}'))
}

// mayBeZero reports whether a JSON value may decode to a Go zero value:
// null, false, "", "0" (a snowflake), a number equal to zero, [] or {}.
// Saying yes too often costs nothing (encoding writes a Kept member only
// when its key is missing); saying no wrongly would lose a member.
func mayBeZero(v []byte) bool {
	switch string(v) {
	case "null", "false", `""`, `"0"`, "[]", "{}":
		return true
	}
	switch v[0] {
	case '[', '{':
		// An empty array or object with white space inside.
		return len(bytes.TrimSpace(v[1:len(v)-1])) == 0
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		// A number is zero when it has no non-zero digit before its exponent.
		for _, c := range v {
			if c == 'e' || c == 'E' {
				break
			}
			if c >= '1' && c <= '9' {
				return false
			}
		}
		return true
	}
	return false
}

// Merge returns the encoding b of an object with the Kept members whose key
// b does not already hold added at its end.
func (k Kept) Merge(b []byte) ([]byte, error) {
	if k == "" {
		return b, nil
	}
	var add []byte
	err := EachMember([]byte(k), func(key, member, _ []byte) error {
		if hasKey(b, key) {
			return nil
		}
		add = append(add, ',')
		add = append(add, member...)
		return nil
	})
	if err != nil || add == nil {
		return b, err
	}
	end := bytes.LastIndexByte(b, '}')
	if end < 0 {
		return nil, ErrMalformed
	}
	out := make([]byte, 0, len(b)+len(add))
	out = append(out, b[:end]...)
	if trimmed := bytes.TrimSpace(out); trimmed[len(trimmed)-1] == '{' {
		add = add[1:] // the object was empty: no comma before the first
	}
	out = append(out, add...)
	return append(out, b[end:]...), nil
}

// Has reports whether a member named name (case-insensitively) was kept.
func (k Kept) Has(name string) bool {
	return k != "" && hasKey([]byte(k), []byte(name))
}

// hasKey reports whether the JSON object b has a member whose key matches
// key case-insensitively.
func hasKey(b, key []byte) bool {
	found := false
	_ = EachMember(b, func(k, _, _ []byte) error {
		if bytes.EqualFold(k, key) {
			found = true
			return ErrStop
		}
		return nil
	})
	return found
}

// Decode decodes the JSON object b into *p, a type without an UnmarshalJSON
// of its own (the plain form of the caller's type), from its zero value, and
// keeps in k what fs says the type drops. null leaves *p zero, as
// encoding/json does.
func Decode[P any](b []byte, p *P, k *Kept, fs *FieldSet) error {
	var zero P
	*p, *k = zero, ""
	if string(bytes.TrimSpace(b)) == "null" {
		return nil
	}
	if err := json.Unmarshal(b, p); err != nil {
		return err
	}
	return k.Collect(b, fs)
}

// MarshalKept encodes v (the plain form of a sub-object) with its Kept
// members.
func MarshalKept(v any, k Kept) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return k.Merge(b)
}
