package components_test

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit/components"
)

// fortyComponents builds a valid V2 message of exactly 40 components, the
// spec's maximum, mixing every message component type.
func fortyComponents() components.List {
	sec := func(i int) components.Component {
		return components.NewSection(
			components.NewThumbnail("https://cdn.example.com/"+strconv.Itoa(i)+".png").WithDescription("thumb"),
			components.NewTextDisplay("Section "+strconv.Itoa(i)),
		)
	}
	return components.List{
		components.NewTextDisplay("# Weekly report"),
		components.NewContainer(
			components.NewTextDisplay("## Highlights"),
			sec(1), sec(2), sec(3),
			components.NewSeparator().WithSpacing(components.SpacingLarge),
			components.NewMediaGallery(components.NewGalleryItem("https://cdn.example.com/a.png"), components.NewGalleryItem("attachment://b.png")),
			components.NewFile("report.pdf"),
			components.NewActionRow(buttons(5)...),
		).WithAccentColor(0x5865F2),
		components.NewActionRow(components.NewStringSelect("pick", opts(10)...).WithMaxValues(3)),
		components.NewActionRow(components.NewMentionableSelect("who", components.DefaultUser(1), components.DefaultRole(2)).WithValues(1, 5)),
		components.NewContainer(
			components.NewSection(components.PrimaryButton("more", "More"), texts(3)...),
			components.NewActionRow(
				components.LinkButton("https://example.com", "Docs"),
				components.SecondaryButton("s1", "One"),
				components.SecondaryButton("s2", "Two"),
				components.SuccessButton("s3", "Three"),
				components.DangerButton("s4", "Four"),
			),
			components.NewTextDisplay("footer"),
			components.NewSeparator(),
		),
		components.NewTextDisplay("-# generated"),
	}
}

func TestFortyComponents(t *testing.T) {
	t.Parallel()
	msg := fortyComponents()
	require.Len(t, typesOf(msg), components.MaxV2Components)
	components.AssignIDs(msg...)
	require.NoError(t, components.Validate(components.V2Message, msg...))
}

func BenchmarkValidate40(b *testing.B) {
	msg := fortyComponents()
	components.AssignIDs(msg...)
	b.ReportAllocs()
	for b.Loop() {
		if err := components.Validate(components.V2Message, msg...); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecode40(b *testing.B) {
	msg := fortyComponents()
	components.AssignIDs(msg...)
	data, err := json.Marshal(msg)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		var l components.List
		if err := json.Unmarshal(data, &l); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncode40(b *testing.B) {
	msg := fortyComponents()
	components.AssignIDs(msg...)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(msg); err != nil {
			b.Fatal(err)
		}
	}
}

// TestValidateAllocationBound keeps the allocations of validating a
// 40-component message from growing unnoticed; the bound is a little above
// what Validate makes today.
func TestValidateAllocationBound(t *testing.T) {
	msg := fortyComponents()
	components.AssignIDs(msg...)
	allocs := testing.AllocsPerRun(50, func() {
		if err := components.Validate(components.V2Message, msg...); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 2 {
		t.Errorf("Validate of 40 components: %.0f allocations, want at most 2", allocs)
	}
}

// TestDecodeAllocationBound does the same for decoding the message: one
// allocation for each component, list and sub-object slice, and one copy of
// the input.
func TestDecodeAllocationBound(t *testing.T) {
	raw, err := json.Marshal(components.List(fortyComponents()))
	if err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(50, func() {
		var l components.List
		if err := json.Unmarshal(raw, &l); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 80 {
		t.Errorf("decoding 40 components: %.0f allocations, want at most 80", allocs)
	}
}
