package components

import (
	"bytes"
	"errors"
	"strconv"

	"github.com/seed012df1e9/guildkit/internal/jsonscan"
)

// errScan is the error of JSON the scanner cannot read.
var errScan = jsonscan.ErrMalformed

var typeKey = []byte("type")

// peekType finds the first top-level key of the object b that encoding/json
// would match to "type" (case-insensitively) with a non-null value, and
// parses that value as an integer. found is false when there is none.
func peekType(b []byte) (t Type, found bool, err error) {
	err = jsonscan.EachMember(b, func(key, _, v []byte) error {
		if !bytes.EqualFold(key, typeKey) || string(v) == "null" {
			return nil
		}
		n, perr := strconv.ParseInt(string(v), 10, strconv.IntSize)
		if perr != nil {
			return errors.New("components: type is not an integer: " + strconv.Quote(truncate(string(v), 32)))
		}
		t, found = Type(n), true
		return jsonscan.ErrStop
	})
	if err != nil {
		return 0, false, err
	}
	return t, found, nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
