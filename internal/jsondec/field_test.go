package jsondec_test

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Keys find their fields as encoding/json finds them: the exact name
// first, else the first whose name folds to the key, by Unicode's simple
// folding (ſ folds to s, the Kelvin sign to k), in structs of few fields
// and of many, with names that are ASCII and names that are not.

type few struct {
	Sun  int `json:"sun"`
	Kind int `json:"kind"`
	Up   int `json:"UP"`
}

type many struct {
	A, B, C, D, E, F, G int
	Sun                 int `json:"sun"`
	Kind                int `json:"kind"`
	Up                  int `json:"UP"`
	Low                 int `json:"up"`
	Last                int `json:"last_one"`
}

type unicodeNames struct {
	A, B, C, D, E, F, G, H int
	Straße                 int `json:"straße"`
	Kelvin                 int `json:"\u212aelvin"`
}

func TestFieldNamesMatchAsEncodingJSON(t *testing.T) {
	t.Parallel()
	inputs := []string{
		`{"sun":1,"kind":2,"UP":3,"up":4,"last_one":5,"a":6,"G":7}`,
		`{"SUN":1,"KIND":2,"Up":3,"LAST_ONE":5}`,
		`{"\u017fun":1,"\u212aind":2,"uP":3,"last_\u006fne":5}`,
		"{\"s\xffun\":1,\"kind\":2}",
		`{"straße":1,"STRASSE":2,"STRAßE":3,"kelvin":4,"KELVIN":5,"\u212aelvin":6}`,
		`{"unknown":1,"Unknown":2,"a_very_long_key_that_is_longer_than_sixty_four_bytes_of_ascii_text_x":3}`,
	}
	for _, in := range inputs {
		for _, v := range []any{few{}, many{}, unicodeNames{}} {
			assert.True(t, checkAsEncodingJSON(t, in, reflect.TypeOf(v)), "%T %s: declined", v, in)
		}
	}
}
