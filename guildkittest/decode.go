package guildkittest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
)

// bodyProblem is what is wrong with a JSON body, as the reference platform
// answers it: a body that is not JSON is 50109 with a message; valid JSON
// with a field of the wrong type (or a value its type cannot hold) is
// 50035 Invalid Form Body naming each such field by its path.
type bodyProblem struct {
	message  string
	problems map[string]string // path → message, for 50035
}

// code is the error code the problem is answered with.
func (p *bodyProblem) code() guildkit.ErrorCode {
	if len(p.problems) > 0 {
		return guildkit.CodeInvalidFormBody
	}
	return jsonErrorCode(p.message)
}

// String says what is wrong, paths first ("type: Value "x" is not int.").
func (p *bodyProblem) String() string {
	if len(p.problems) == 0 {
		return p.message
	}
	return "Invalid Form Body: " + joinProblems(p.problems)
}

// joinProblems lists problems (path → message) by path: "a: m; b.0: n".
func joinProblems(problems map[string]string) string {
	keys := make([]string, 0, len(problems))
	for k := range problems {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + ": " + problems[k]
	}
	return strings.Join(parts, "; ")
}

// badBody answers p: 400 with its code, and the nested errors object of an
// Invalid Form Body when it names fields.
func (c *call) badBody(p *bodyProblem) {
	if len(p.problems) > 0 {
		c.formError(p.problems)
		return
	}
	c.error(http.StatusBadRequest, p.code(), p.message)
}

// decodeJSON decodes one JSON value, not null, with nothing after it, into
// v; it returns what is wrong, or nil. It is the one decoder of every
// route's JSON body.
func decodeJSON(b []byte, v any) *bodyProblem {
	dec := json.NewDecoder(bytes.NewReader(b))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return &bodyProblem{message: invalidJSONMessage}
	}
	if _, err := dec.Token(); err != io.EOF {
		return &bodyProblem{message: invalidJSONMessage}
	}
	if string(raw) == "null" {
		return &bodyProblem{message: "The request body cannot be null."}
	}
	if err := json.Unmarshal(raw, v); err != nil {
		problems := map[string]string{}
		fieldProblems(raw, reflect.TypeOf(v), "", problems)
		return &bodyProblem{problems: problems}
	}
	return nil
}

// fieldProblems finds where raw (valid JSON) does not decode into t, down
// to the members and items that do not, and adds each one's path
// ("options.1.type") with a message to out. A value that fails as a whole,
// with no member or item failing alone, is reported at path itself.
func fieldProblems(raw json.RawMessage, t reflect.Type, path string, out map[string]string) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if json.Unmarshal(raw, reflect.New(t).Interface()) == nil {
		return
	}
	before := len(out)
	raw = bytes.TrimSpace(raw)
	switch {
	case t == answerType:
		fieldProblemsAnswer(raw, path, out)
	case isOpt(t):
		if inner, ok := t.FieldByName("value"); ok && string(raw) != "null" {
			fieldProblems(raw, inner.Type, path, out)
		}
	case raw[0] == '{' && t.Kind() == reflect.Struct:
		var members map[string]json.RawMessage
		_ = json.Unmarshal(raw, &members)
		fields := jsonFields(t)
		for k, m := range members {
			if ft, ok := fieldNamed(fields, k); ok {
				fieldProblems(m, ft, join(path, k), out)
			}
		}
	case raw[0] == '{' && t.Kind() == reflect.Map:
		var members map[string]json.RawMessage
		_ = json.Unmarshal(raw, &members)
		for k, m := range members {
			fieldProblems(m, t.Elem(), join(path, k), out)
		}
	case raw[0] == '[' && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array):
		var items []json.RawMessage
		_ = json.Unmarshal(raw, &items)
		for i, m := range items {
			fieldProblems(m, t.Elem(), join(path, strconv.Itoa(i)), out)
		}
	}
	if len(out) == before {
		out[path] = wrongType(raw, t)
	}
}

// fieldProblemsAnswer is fieldProblems for an interaction answer, whose
// data decodes by its type: a modal, autocomplete choices or a message.
func fieldProblemsAnswer(raw json.RawMessage, path string, out map[string]string) {
	var r struct {
		Type json.RawMessage `json:"type"`
		Data json.RawMessage `json:"data"`
	}
	if json.Unmarshal(raw, &r) != nil {
		return
	}
	var typ guildkit.InteractionResponseType
	if len(r.Type) > 0 && json.Unmarshal(r.Type, &typ) != nil {
		fieldProblems(r.Type, reflect.TypeFor[guildkit.InteractionResponseType](), join(path, "type"), out)
		return
	}
	if len(r.Data) == 0 || string(r.Data) == "null" {
		return
	}
	var data reflect.Type
	switch typ {
	case guildkit.InteractionResponseModal:
		data = reflect.TypeFor[guildkit.Modal]()
	case guildkit.InteractionResponseAutocompleteResult:
		data = reflect.TypeFor[struct {
			Choices []guildkit.CommandOptionChoice `json:"choices"`
		}]()
	default:
		data = reflect.TypeFor[guildkit.InteractionMessageParams]()
	}
	fieldProblems(r.Data, data, join(path, "data"), out)
}

var (
	answerType = reflect.TypeFor[guildkit.InteractionResponse]()
	listType   = reflect.TypeFor[components.List]()
)

// isOpt reports whether t is a guildkit.Opt.
func isOpt(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && reflect.PointerTo(t).Implements(optType)
}

// jsonFields maps the JSON names of t's fields, those of embedded structs
// included, to their types.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				for k, v := range jsonFields(ft) {
					if _, ok := out[k]; !ok {
						out[k] = v
					}
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}

// fieldNamed finds key among fields as encoding/json does: exactly, else
// without regard to case.
func fieldNamed(fields map[string]reflect.Type, key string) (reflect.Type, bool) {
	if t, ok := fields[key]; ok {
		return t, true
	}
	for name, t := range fields {
		if strings.EqualFold(name, key) {
			return t, true
		}
	}
	return nil, false
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// wrongType is the platform's message for raw where a value of t belongs.
func wrongType(raw json.RawMessage, t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if isOpt(t) {
		if inner, ok := t.FieldByName("value"); ok {
			t = inner.Type
		}
	}
	switch t {
	case reflect.TypeFor[guildkit.Snowflake]():
		return fmt.Sprintf("Value %s is not snowflake.", raw)
	case reflect.TypeFor[guildkit.Permissions]():
		return fmt.Sprintf("Value %s is not a valid permission set.", raw)
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return fmt.Sprintf("Value %s is not int.", raw)
	case reflect.Float32, reflect.Float64:
		return fmt.Sprintf("Value %s is not a number.", raw)
	case reflect.Bool:
		return "Must be either true or false."
	case reflect.String:
		return "Must be a string."
	case reflect.Slice, reflect.Array:
		if t == listType {
			return "Must be an array of components."
		}
		return "Must be an array."
	case reflect.Struct, reflect.Map:
		return "Must be an object."
	}
	return fmt.Sprintf("Value %s is not valid here.", raw)
}
