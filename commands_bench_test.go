package guildkit_test

import (
	"strconv"
	"testing"

	"github.com/seed012df1e9/guildkit"
)

// bigCommand is a command near the platform's limits: 25 options of 25
// choices each, every name and description long, localized in two
// languages (7,650 characters counted).
func bigCommand() guildkit.CommandCreateParams {
	p := guildkit.CommandCreateParams{Name: "big", Description: "A command near every limit"}
	for i := range 25 {
		o := guildkit.CommandOptionDefinition{Type: guildkit.CommandOptionString, Name: "option-" + strconv.Itoa(i), Description: "An option with a description",
			NameLocalizations: map[string]string{"fr": "choix-" + strconv.Itoa(i), "de": "wahl-" + strconv.Itoa(i)}}
		for j := range 25 {
			o.Choices = append(o.Choices, guildkit.CommandOptionChoice{Name: "choice " + strconv.Itoa(j), Value: "v" + strconv.Itoa(j)})
		}
		p.Options = append(p.Options, o)
	}
	return p
}

// BenchmarkCommandValidate: the checks a command goes through before it
// is sent, on a command near the limits.
func BenchmarkCommandValidate(b *testing.B) {
	p := bigCommand()
	if err := p.Validate(guildkit.CommandScopeGlobal); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = p.Validate(guildkit.CommandScopeGlobal)
	}
}
