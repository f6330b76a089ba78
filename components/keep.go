package components

import "github.com/seed012df1e9/guildkit/internal/jsonscan"

// Nothing a decoded component was given is lost when it is encoded again.
//
// Every component type and sub-object of this package keeps, in an
// unexported field, the members of its JSON that its Go fields would drop
// (members this package does not model, such as one the interface adds
// later or a media item's response-only "placeholder", and explicit zero
// values its omitempty fields leave out, such as "disabled": false), and
// writes them back when it is encoded (see [List]).
//
// [Validate] reads the kept members where the documents forbid a field in
// some context whatever its value (a select's "disabled" in a modal, a
// Premium button's "label", a Text Input's "label" inside a Label), so an
// input that would be refused is still refused after decoding. Members this
// package does not model are not reported: they are the service's to judge.
type kept = jsonscan.Kept
