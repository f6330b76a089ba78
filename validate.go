package guildkit

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/seed012df1e9/guildkit/wire"
)

// Every input with rules (a params type, or a small unexported type naming
// the arguments of a method that has none) checks itself with one method of
// one signature,
//
//	func (p *XParams) validate(vc validation) error
//
// which is nil-safe where the receiver is a pointer, returns a
// [*ValidationError] listing every problem (or nil), and is called first
// thing in its service method, before anything is sent. The rules shared by
// several inputs live in this file.

// validation is what a validate method may read besides its input: the time
// that limits relative to now are checked against, and the client's
// settings that change a rule.
type validation struct {
	now                  time.Time
	reservedWebhookNames []string // the words a webhook name must not contain
}

// validation returns the checking context of a call made now.
func (c *Client) validation() validation {
	words := c.reservedWebhookNames
	if words == nil {
		words = defaultReservedWebhookNames
	}
	return validation{now: time.Now(), reservedWebhookNames: words}
}

// notNull refuses Null for a field the interface does not allow to be null.
func notNull[T any](v *ValidationError, path string, o Opt[T]) {
	if o.IsNull() {
		v.Add(path, wire.CodeNotNull, "cannot be null")
	}
}

// validateLimit checks an optional integer against lo-hi; Null is refused.
func validateLimit(v *ValidationError, path string, o Opt[int], lo, hi int) {
	notNull(v, path, o)
	if n, ok := o.Get(); ok && (n < lo || n > hi) {
		v.Add(path, wire.CodeRange, "%d-%d, got %d", lo, hi, n)
	}
}

// validateIDs checks a list of ids: none zero, none listed twice. noun
// names what an id stands for in the messages ("role", "user"); the path
// of item i is path[i] (or [i] when path is empty) followed by field.
func validateIDs(v *ValidationError, path, field, noun string, ids []Snowflake) {
	seen := make(map[Snowflake]bool, len(ids))
	for i, id := range ids {
		p := path + indexPath(i, field)
		switch {
		case id == 0:
			v.Add(p, wire.CodeRequired, "%s id is zero", noun)
		case seen[id]:
			v.Add(p, wire.CodeDuplicate, "%s %s is listed twice", noun, id)
		}
		seen[id] = true
	}
}

// validatePositionItems checks the body of a Modify ... Positions call: at
// least one item, each with a non-zero id listed once.
func validatePositionItems[P any](v *ValidationError, noun string, items []P, id func(P) Snowflake) {
	if len(items) == 0 {
		v.Add("", wire.CodeRequired, "at least one %s position is required", noun)
	}
	ids := make([]Snowflake, len(items))
	for i, p := range items {
		ids[i] = id(p)
	}
	validateIDs(v, "", "id", noun, ids)
}

// roundDuration rounds d for a person to read: days and hours from a day
// up ("29 days", "2 days 3h"), hours and minutes from an hour ("3h25m"),
// minutes and seconds below ("4m10s", "59s").
func roundDuration(d time.Duration) string {
	d = d.Abs()
	if d >= 24*time.Hour {
		d = d.Round(time.Hour)
		days, h := int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour)
		s := fmt.Sprintf("%d days", days)
		if days == 1 {
			s = "1 day"
		}
		if h > 0 {
			s += fmt.Sprintf(" %dh", h)
		}
		return s
	}
	unit := time.Second
	if d >= time.Hour {
		unit = time.Minute
	}
	s := d.Round(unit).String()
	if len(s) > 2 && strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	return s
}

// MaxNickLength is the longest nickname, in characters. The interface's
// documents do not give it; it is the reference platform's limit.
const MaxNickLength = 32

// validateNick checks a nickname, when one is given, against
// [MaxNickLength].
func validateNick(v *ValidationError, o Opt[string]) {
	if n, ok := o.Get(); ok {
		if l := utf8.RuneCountInString(n); l > MaxNickLength {
			v.Add("nick", wire.CodeLength, "at most %d characters, got %d", MaxNickLength, l)
		}
	}
}

// validateRoleIDs checks an optional list of role ids with validateIDs.
func validateRoleIDs(v *ValidationError, path string, o Opt[[]Snowflake]) {
	ids, _ := o.Get()
	validateIDs(v, path, "", "role", ids)
}

// validateImage checks that an image, when given, is a data URI the
// interface accepts.
func validateImage(v *ValidationError, path string, o Opt[ImageData]) {
	if d, ok := o.Get(); ok && !d.valid() {
		v.Add(path, wire.CodeInvalid, "not a base64 data URI of a png, jpeg, gif or webp image")
	}
}

// validateWebhookName checks a webhook name or username override: 1-80
// characters, not blank, none of the reserved words.
func (vc validation) validateWebhookName(v *ValidationError, path, name string) {
	n := utf8.RuneCountInString(name)
	switch {
	case strings.TrimSpace(name) == "":
		v.Add(path, wire.CodeRequired, "1-%d characters, not blank", MaxWebhookName)
	case n > MaxWebhookName:
		v.Add(path, wire.CodeLength, "1-%d characters, got %d", MaxWebhookName, n)
	}
	lower := strings.ToLower(name)
	for _, w := range vc.reservedWebhookNames {
		if strings.Contains(lower, strings.ToLower(w)) {
			v.Add(path, wire.CodeInvalid, "must not contain %q", w)
		}
	}
}

// indexPath returns "[i].field" (or "[i]" for an empty field).
func indexPath(i int, field string) string {
	return wire.JoinPath("["+strconv.Itoa(i)+"]", field)
}

// problem returns a [*ValidationError] with one problem.
func problem(path, code, format string, args ...any) error {
	var v ValidationError
	v.Add(path, code, format, args...)
	return v.Err()
}
