package interactions

import (
	"context"
	"fmt"
	"strings"

	"github.com/seed012df1e9/guildkit"
)

// HandlerFunc handles one interaction: it answers through r, once. An error
// it returns without having answered is logged and answered with an
// ephemeral message saying something went wrong; a panic is treated the
// same way. ctx lasts the interaction token's 15 minutes.
type HandlerFunc func(ctx context.Context, r *Request) error

// route is one registered pattern.
type route struct {
	pattern string
	parts   []segment // nil for an exact pattern
	fn      HandlerFunc
}

// segment is a literal run of a pattern, or a named part ({name}).
type segment struct {
	literal string
	name    string
}

// routes holds the functions of one interaction type.
type routes struct {
	exact    map[string]*route
	patterns []*route
}

// parsePattern splits a pattern into literals and named parts. A pattern
// without braces is exact. Two named parts must be separated by a literal,
// and names are unique.
func parsePattern(p string) ([]segment, error) {
	if !strings.ContainsAny(p, "{}") {
		return nil, nil
	}
	var segs []segment
	seen := map[string]bool{}
	for p != "" {
		open := strings.IndexByte(p, '{')
		if closeAt := strings.IndexByte(p, '}'); closeAt >= 0 && (open < 0 || closeAt < open) {
			return nil, fmt.Errorf("a '}' without its '{'")
		}
		if open < 0 {
			segs = append(segs, segment{literal: p})
			break
		}
		if open > 0 {
			segs = append(segs, segment{literal: p[:open]})
		}
		end := strings.IndexByte(p[open:], '}')
		if end < 0 {
			return nil, fmt.Errorf("a '{' without its '}'")
		}
		name := p[open+1 : open+end]
		if name == "" || strings.ContainsAny(name, "{") {
			return nil, fmt.Errorf("an empty or malformed name")
		}
		if seen[name] {
			return nil, fmt.Errorf("the name %q twice", name)
		}
		seen[name] = true
		if n := len(segs); n > 0 && segs[n-1].name != "" {
			return nil, fmt.Errorf("two named parts without a literal between them")
		}
		segs = append(segs, segment{name: name})
		p = p[open+end+1:]
	}
	return segs, nil
}

// match matches s against the segments; each named part takes at least one
// character, up to the first place where the literal after it occurs (the
// last part takes the rest).
func match(segs []segment, s string, out []Param) ([]Param, bool) {
	if len(segs) == 0 {
		return out, s == ""
	}
	seg := segs[0]
	if seg.literal != "" {
		if !strings.HasPrefix(s, seg.literal) {
			return out, false
		}
		return match(segs[1:], s[len(seg.literal):], out)
	}
	if len(segs) == 1 {
		if s == "" {
			return out, false
		}
		return append(out, Param{seg.name, s}), true
	}
	next := segs[1].literal
	i := strings.Index(s[min(1, len(s)):], next)
	if s == "" || i < 0 {
		return out, false
	}
	i++
	return match(segs[1:], s[i:], append(out, Param{seg.name, s[:i]}))
}

// Param is a named part of a matched pattern.
type Param struct {
	Name, Value string
}

func (rs *routes) add(kind, pattern string, fn HandlerFunc) {
	if fn == nil {
		panic("interactions: nil HandlerFunc for " + kind + " " + pattern)
	}
	if pattern == "" {
		panic("interactions: empty pattern for " + kind)
	}
	segs, err := parsePattern(pattern)
	if err != nil {
		panic(fmt.Sprintf("interactions: %s pattern %q: %v", kind, pattern, err))
	}
	r := &route{pattern: pattern, parts: segs, fn: fn}
	if segs == nil {
		if rs.exact == nil {
			rs.exact = map[string]*route{}
		}
		if _, dup := rs.exact[pattern]; dup {
			panic(fmt.Sprintf("interactions: %s %q registered twice", kind, pattern))
		}
		rs.exact[pattern] = r
		return
	}
	for _, o := range rs.patterns {
		if o.pattern == pattern {
			panic(fmt.Sprintf("interactions: %s %q registered twice", kind, pattern))
		}
	}
	rs.patterns = append(rs.patterns, r)
}

// find returns the function for key: an exact pattern first, then the
// patterns in the order they were registered.
func (rs *routes) find(key string) (HandlerFunc, []Param) {
	if r, ok := rs.exact[key]; ok {
		return r.fn, nil
	}
	for _, r := range rs.patterns {
		if params, ok := match(r.parts, key, nil); ok {
			return r.fn, params
		}
	}
	return nil, nil
}

// HandleComponent registers fn for the button clicks and select choices
// whose custom_id matches pattern: exactly, or by named parts in braces —
// "role:{id}" matches "role:123" and gives fn the parameter id = "123"
// ([Request.Param]). A named part takes at least one character, up to the
// first occurrence of the literal after it. Exact patterns win over the
// others, which are tried in the order they were registered. It panics on
// a malformed pattern or one registered twice, as http.ServeMux does.
func (h *Handler) HandleComponent(pattern string, fn HandlerFunc) {
	h.components.add("component", pattern, fn)
}

// HandleModal registers fn for the submissions of the modals whose
// custom_id matches pattern (as in [Handler.HandleComponent]).
func (h *Handler) HandleModal(pattern string, fn HandlerFunc) {
	h.modals.add("modal", pattern, fn)
}

// HandleCommand registers fn for the application command named name
// (APPLICATION_COMMAND).
func (h *Handler) HandleCommand(name string, fn HandlerFunc) {
	h.commands.add("command", name, fn)
}

// HandleAutocomplete registers fn for the autocomplete interactions of the
// command named name.
func (h *Handler) HandleAutocomplete(name string, fn HandlerFunc) {
	h.autocompletes.add("autocomplete", name, fn)
}

// HandleFallback registers fn for every interaction no other function
// matches. Without one, the Handler answers an unmatched interaction itself
// (an ephemeral message saying it is not handled, or no choices for an
// autocomplete) and logs it.
func (h *Handler) HandleFallback(fn HandlerFunc) { h.fallback = fn }

// lookup finds the function for an interaction.
func (h *Handler) lookup(it *guildkit.Interaction) (HandlerFunc, []Param) {
	var fn HandlerFunc
	var params []Param
	switch it.Type {
	case guildkit.InteractionTypeMessageComponent:
		fn, params = h.components.find(it.CustomID())
	case guildkit.InteractionTypeModalSubmit:
		fn, params = h.modals.find(it.CustomID())
	case guildkit.InteractionTypeApplicationCommand:
		if it.Command != nil {
			fn, params = h.commands.find(it.Command.Name)
		}
	case guildkit.InteractionTypeAutocomplete:
		if it.Command != nil {
			fn, params = h.autocompletes.find(it.Command.Name)
		}
	}
	if fn == nil {
		return h.fallback, nil
	}
	return fn, params
}
