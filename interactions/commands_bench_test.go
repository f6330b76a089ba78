package interactions_test

import (
	"strconv"
	"testing"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/interactions"
)

// BenchmarkSameCommand: Sync's comparison of a declaration with what is
// registered, for a command of 25 options of 25 choices.
func BenchmarkSameCommand(b *testing.B) {
	p := guildkit.CommandCreateParams{Name: "big", Description: "A command near every limit"}
	for i := range 25 {
		o := guildkit.CommandOptionDefinition{Type: guildkit.CommandOptionString, Name: "option-" + strconv.Itoa(i), Description: "An option"}
		for j := range 25 {
			o.Choices = append(o.Choices, guildkit.CommandOptionChoice{Name: "choice " + strconv.Itoa(j), Value: "v" + strconv.Itoa(j)})
		}
		p.Options = append(p.Options, o)
	}
	registered := guildkit.Command{ID: 1, Type: guildkit.CommandTypeChatInput, Name: p.Name, Description: p.Description, Options: p.Options, Version: 2}
	if !interactions.SameCommand(guildkit.CommandScopeGlobal, p, &registered) {
		b.Fatal("not the same")
	}
	b.ReportAllocs()
	for b.Loop() {
		interactions.SameCommand(guildkit.CommandScopeGlobal, p, &registered)
	}
}
