package guildkittest

import (
	"encoding/json"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/seed012df1e9/guildkit"
)

// Details where the documents are silent and the server follows the
// reference platform (v10).

// invalidJSONMessage and invalidPayloadJSONMessage answer a body, or a
// multipart body's payload_json part, that is not JSON: code 50109, as the
// reference platform answers ("The request body contains invalid JSON.").
const (
	invalidJSONMessage        = "The request body contains invalid JSON."
	invalidPayloadJSONMessage = "The payload_json part is not valid JSON."
)

// jsonErrorCode is the code of a 400 answered with msg: 50109 for JSON that
// does not parse, 50035 Invalid Form Body for anything else.
func jsonErrorCode(msg string) guildkit.ErrorCode {
	if msg == invalidJSONMessage || msg == invalidPayloadJSONMessage {
		return guildkit.CodeInvalidRequest
	}
	return guildkit.CodeInvalidFormBody
}

// maxAuditLogReason is how many characters of X-Audit-Log-Reason the
// reference platform keeps; the rest is dropped, not refused.
const maxAuditLogReason = 512

// truncateRunes returns s cut to at most n characters.
func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos]
		}
		i++
	}
	return s
}

// syncRoleColors keeps a seeded role's deprecated color and its
// colors.primary_color the same colour, as the reference platform answers
// them: the one set fills the other (colors wins when both are set and
// differ, as it does through the interface).
func syncRoleColors(r *guildkit.Role) {
	switch {
	case r.Colors.PrimaryColor != 0:
		r.Color = r.Colors.PrimaryColor
	case r.Color != 0:
		r.Colors.PrimaryColor = r.Color
	}
}

// modelledEmbed returns e without the members guildkit.Embed does not
// model (which its decoding keeps, to send them again): the reference
// platform keeps only the embed fields it knows and answers with those.
func modelledEmbed(e guildkit.Embed) guildkit.Embed {
	b, err := json.Marshal(e)
	if err != nil {
		return e
	}
	var raw any
	if json.Unmarshal(b, &raw) != nil {
		return e
	}
	b, err = json.Marshal(onlyModelled(raw, reflect.TypeOf(e)))
	if err != nil {
		return e
	}
	var out guildkit.Embed
	if json.Unmarshal(b, &out) != nil {
		return e
	}
	return out
}

// onlyModelled drops from the decoded JSON v every object member that t's
// fields (by their json names), at every depth, do not name.
func onlyModelled(v any, t reflect.Type) any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch x := v.(type) {
	case []any:
		if t.Kind() != reflect.Slice {
			return v
		}
		for i := range x {
			x[i] = onlyModelled(x[i], t.Elem())
		}
	case map[string]any:
		if t.Kind() != reflect.Struct {
			return v
		}
		fields := map[string]reflect.Type{}
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if f.IsExported() && name != "-" && name != "" {
				fields[name] = f.Type
			}
		}
		for k, m := range x {
			ft, ok := fields[k]
			if !ok {
				delete(x, k)
				continue
			}
			if !reflect.PointerTo(ft).Implements(optType) {
				x[k] = onlyModelled(m, ft)
			}
		}
	}
	return v
}

// optType is the interface guildkit.Opt values implement; the members
// they hold are scalars, kept as they are.
var optType = reflect.TypeFor[interface{ IsNull() bool }]()
