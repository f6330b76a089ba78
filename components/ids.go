package components

import (
	"math"
	"slices"
	"strings"
)

// AssignIDs fills every empty (0) id in the trees of components in place, as
// the service does: sequentially from 1, skipping ids already used anywhere
// in the trees. It mutates the components passed (they are pointers) and
// leaves non-zero ids, even invalid ones, for [Validate] to report.
//
// The service numbers the components of every message so, a legacy
// (non-V2) message's too: one line of the components document says legacy
// messages carry id 0, but the reference platform (v10) answers, and its
// published schema requires, an id on every component of every message,
// generated sequentially when left empty. The in-memory server follows the
// reference platform.
//
// The order is depth-first, parent before children, in JSON field order: a
// component, then its "components" in order, then a section's accessory; a
// label, then its component. For example a container holding a section with
// a thumbnail gets 1 (container), 2 (section), 3 (its first text display),
// 4 (thumbnail). An [*Unknown] component keeps its JSON untouched; its id, if
// any, is not reused.
func AssignIDs(components ...Component) {
	used := make(map[int]bool)
	walk(components, func(c Component) {
		if id := c.ComponentID(); id != 0 {
			used[id] = true
		}
	})
	next := 1
	walk(components, func(c Component) {
		ref := c.idRef()
		if ref == nil || *ref != 0 {
			return
		}
		for used[next] && next < math.MaxInt32 {
			next++
		}
		*ref = next
		used[next] = true
	})
}

// walk calls fn for every non-nil component of the trees, depth-first,
// parent before children.
func walk(list []Component, fn func(Component)) {
	for _, c := range list {
		walkOne(c, fn)
	}
}

func walkOne(c Component, fn func(Component)) {
	if isNil(c) {
		return
	}
	fn(c)
	switch c := c.(type) {
	case *ActionRow:
		walk(c.Components, fn)
	case *Section:
		walk(c.Components, fn)
		walkOne(c.Accessory, fn)
	case *Container:
		walk(c.Components, fn)
	case *Label:
		walkOne(c.Component, fn)
	}
}

// AttachmentRefs returns the file names the trees reference with
// "attachment://<filename>" URLs — File components, thumbnails and media
// gallery items — in tree order, each once. A Components V2 message shows an
// uploaded file only through such a reference.
func AttachmentRefs(components ...Component) []string {
	var out []string
	add := func(u string) {
		if name, ok := strings.CutPrefix(u, attachmentScheme); ok && name != "" && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	walk(components, func(c Component) {
		switch c := c.(type) {
		case *File:
			add(c.File.URL)
		case *Thumbnail:
			add(c.Media.URL)
		case *MediaGallery:
			for _, it := range c.Items {
				add(it.Media.URL)
			}
		}
	})
	return out
}
