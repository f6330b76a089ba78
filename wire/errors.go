package wire

import (
	"fmt"
	"strings"
)

// FieldError is one problem with one field: where it is (Path, dotted and
// indexed as in "components[1].accessory.url" or "roles[0]", for problems the
// client finds and for those the service reports alike), a short
// machine-readable Code, and a Message for people.
type FieldError struct {
	Path    string `json:"path"`
	Code    string `json:"code,omitempty"`
	Message string `json:"message"`
}

// Error formats the problem as "path: message".
func (e FieldError) Error() string {
	switch {
	case e.Path == "":
		return e.Message
	case e.Message == "":
		return e.Path + ": " + e.Code
	}
	return e.Path + ": " + e.Message
}

// Codes used in FieldError.Code for problems found before sending.
const (
	CodeRequired   = "required"    // a required field is missing or empty
	CodeLength     = "length"      // a string or list is too short or too long
	CodeRange      = "range"       // a number is outside its allowed range
	CodeInvalid    = "invalid"     // a value is not one of the allowed values or forms
	CodeNotNull    = "not_null"    // Null was given to a field that cannot be null
	CodeConflict   = "conflict"    // fields that cannot be used together
	CodeDuplicate  = "duplicate"   // a value that must be unique is repeated
	CodePlacement  = "placement"   // a component is used where it is not allowed
	CodeNotAllowed = "not_allowed" // a field or value the target does not accept
)

// ValidationError lists every problem found in a request before it was sent.
// Nothing was sent. Each problem is a [FieldError] reachable with errors.As.
type ValidationError struct {
	Problems []FieldError
}

// Error lists the problems, one after another.
//
// One problem reads on one line; several read one a line, indented, after
// a line that counts them:
//
//	guildkit: invalid request, 2 problems:
//		name: at most 100 characters, got 120
//		roles[0]: role id is zero
func (e *ValidationError) Error() string {
	var b strings.Builder
	if len(e.Problems) == 1 {
		b.WriteString("guildkit: invalid request: ")
		b.WriteString(e.Problems[0].Error())
		return b.String()
	}
	fmt.Fprintf(&b, "guildkit: invalid request, %d problems:", len(e.Problems))
	for _, p := range e.Problems {
		b.WriteString("\n\t")
		b.WriteString(p.Error())
	}
	return b.String()
}

// Unwrap returns the problems as errors, for errors.As and errors.Is.
func (e *ValidationError) Unwrap() []error {
	errs := make([]error, len(e.Problems))
	for i, p := range e.Problems {
		errs[i] = p
	}
	return errs
}

// Add records a problem at path.
func (e *ValidationError) Add(path, code, format string, args ...any) {
	e.Problems = append(e.Problems, FieldError{Path: path, Code: code, Message: fmt.Sprintf(format, args...)})
}

// Merge records every problem of other with prefix put before its path
// ("components" + "[1].url" gives "components[1].url"; a prefix and a path
// starting with a letter are joined by a dot).
func (e *ValidationError) Merge(prefix string, other *ValidationError) {
	if other == nil {
		return
	}
	for _, p := range other.Problems {
		p.Path = JoinPath(prefix, p.Path)
		e.Problems = append(e.Problems, p)
	}
}

// Err returns e when it holds a problem, and nil otherwise.
func (e *ValidationError) Err() error {
	if e == nil || len(e.Problems) == 0 {
		return nil
	}
	return e
}

// JoinPath joins two path parts: "a" and "b" give "a.b"; "a" and "[0]" give
// "a[0]"; an empty part is dropped.
func JoinPath(prefix, path string) string {
	switch {
	case prefix == "":
		return path
	case path == "":
		return prefix
	case path[0] == '[':
		return prefix + path
	}
	return prefix + "." + path
}
