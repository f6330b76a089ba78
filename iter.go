package guildkit

import (
	"context"
	"iter"
)

// pager describes how an All method walks the pages of a List operation by a
// snowflake cursor.
type pager[T any] struct {
	// fetch gets the page after (or before) cursor; a zero cursor means "from
	// the start" (the params' own cursor, if any, is in the first call).
	fetch func(ctx context.Context, cursor Snowflake, first bool) ([]T, error)
	// key is the snowflake an item is ordered by (a user id).
	key func(T) Snowflake
	// limit is the page size asked for: a shorter page is the last one.
	limit int
	// backward walks towards smaller ids: the next cursor is the page's
	// lowest key and each page is yielded highest key first, so the whole
	// walk is in descending order. Otherwise the next cursor is the page's
	// highest key and the walk is in ascending order.
	backward bool
}

// all returns the iterator over every item of every page. It makes no request
// until ranged over; it fetches the next page only when the loop wants an
// item from it, so breaking out of the loop stops fetching. A failure is
// yielded once as (zero T, err), and then the iteration stops.
func (p pager[T]) all(ctx context.Context) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var cursor Snowflake
		first := true
		for {
			page, err := p.fetch(ctx, cursor, first)
			first = false
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			if len(page) == 0 {
				return
			}
			next := p.key(page[0])
			for i := range page {
				item := page[i]
				if p.backward {
					item = page[len(page)-1-i]
				}
				k := p.key(item)
				if (p.backward && k < next) || (!p.backward && k > next) {
					next = k
				}
				if !yield(item, nil) {
					return
				}
			}
			if len(page) < p.limit || next == cursor {
				return
			}
			cursor = next
		}
	}
}
