package components_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/wire"
)

// str returns n characters; "é" is two bytes, so limits are checked in
// characters, not bytes.
func str(n int) string { return strings.Repeat("é", n) }

func row(children ...components.Component) *components.ActionRow {
	return components.NewActionRow(children...)
}

func lbl(child components.Component) *components.Label { return components.NewLabel("Label", child) }

func btn(customID string) *components.Button { return components.PrimaryButton(customID, "Go") }

func opts(n int) []components.SelectOption {
	out := make([]components.SelectOption, n)
	for i := range out {
		out[i] = components.NewOption("Option "+strconv.Itoa(i), "v"+strconv.Itoa(i))
	}
	return out
}

func choices(n int) []components.RadioOption {
	out := make([]components.RadioOption, n)
	for i := range out {
		out[i] = components.NewChoice("Choice "+strconv.Itoa(i), "c"+strconv.Itoa(i))
	}
	return out
}

func texts(n int) []components.Component {
	out := make([]components.Component, n)
	for i := range out {
		out[i] = components.NewTextDisplay("line " + strconv.Itoa(i))
	}
	return out
}

func buttons(n int) []components.Component {
	out := make([]components.Component, n)
	for i := range out {
		out[i] = btn("b" + strconv.Itoa(i))
	}
	return out
}

func items(n int) []components.MediaGalleryItem {
	out := make([]components.MediaGalleryItem, n)
	for i := range out {
		out[i] = components.NewGalleryItem("https://cdn.example.com/" + strconv.Itoa(i) + ".png")
	}
	return out
}

func thumb() *components.Thumbnail { return components.NewThumbnail("https://cdn.example.com/t.png") }

func list(cs ...components.Component) []components.Component { return cs }

type vcase struct {
	name   string
	target components.Target
	tree   []components.Component
	want   []string // "path code", in order; nil means valid
}

// problems returns the problems of err as "path code" strings.
func problems(t *testing.T, err error) []string {
	t.Helper()
	if err == nil {
		return nil
	}
	var ve *components.ValidationError
	require.True(t, errors.As(err, &ve), "error is a *ValidationError: %v", err)
	out := make([]string, len(ve.Problems))
	for i, p := range ve.Problems {
		assert.NotEmpty(t, p.Message, "problem %q has a message", p.Path)
		out[i] = strings.TrimSpace(p.Path + " " + p.Code)
	}
	return out
}

func runCases(t *testing.T, tests []vcase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := components.Validate(tt.target, tt.tree...)
			if tt.want == nil {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Equal(t, tt.want, problems(t, err), "all problems, exact paths: %v", err)
		})
	}
}

const (
	V2     = components.V2Message
	Legacy = components.LegacyMessage
	Modal  = components.Modal
)

func TestValidateCommon(t *testing.T) {
	t.Parallel()
	dupButtons := func(a, b string) []components.Component {
		return list(row(btn(a), btn(b)))
	}
	runCases(t, []vcase{
		{"custom_id 100", V2, list(row(btn(str(100)))), nil},
		{"custom_id 101", V2, list(row(btn(str(101)))), []string{"[0].components[0].custom_id length"}},
		{"custom_id empty", V2, list(row(btn(""))), []string{"[0].components[0].custom_id required"}},
		{"custom_id unique", V2, dupButtons("a", "b"), nil},
		{"custom_id repeated in a row", V2, dupButtons("a", "a"), []string{"[0].components[1].custom_id duplicate"}},
		{"custom_id repeated across the tree", V2, list(
			row(btn("x")),
			components.NewContainer(components.NewSection(btn("x"), components.NewTextDisplay("t"))),
		), []string{"[1].components[0].accessory.custom_id duplicate"}},
		{"custom_id repeated in a modal", Modal, list(
			lbl(components.NewTextInput("x", components.TextInputShort)),
			lbl(components.NewCheckbox("x")),
		), []string{"[1].component.custom_id duplicate"}},
		{"id max 2^31-1", V2, list(components.NewContainer(components.NewTextDisplay("a")).WithID(components.MaxID)), nil},
		{"id 2^31", V2, list(components.NewContainer(components.NewTextDisplay("a")).WithID(components.MaxID + 1)), []string{"[0].id range"}},
		{"id negative", V2, list(&components.TextDisplay{ID: -1, Content: "a"}), []string{"[0].id range"}},
		{"id zero repeated is fine", V2, list(&components.TextDisplay{Content: "a"}, &components.TextDisplay{Content: "b"}), nil},
		{"id repeated across the tree", V2, list(
			&components.TextDisplay{ID: 7, Content: "a"},
			&components.Container{ID: 8, Components: components.List{&components.TextDisplay{ID: 7, Content: "b"}}},
		), []string{"[1].components[0].id duplicate"}},
		{"id repeated on an accessory", V2, list(
			&components.Section{ID: 3, Components: components.List{&components.TextDisplay{ID: 4, Content: "a"}}, Accessory: &components.Thumbnail{ID: 3, Media: components.UnfurledMediaItem{URL: "u"}}},
		), []string{"[0].accessory.id duplicate"}},
		{"nil component", V2, list(nil), []string{"[0] required"}},
		{"typed nil component", V2, list((*components.Button)(nil)), []string{"[0] required"}},
		{"unknown component", V2, list(&components.Unknown{Raw: []byte(`{"type":99}`)}), []string{"[0] invalid"}},
		{"unknown target", components.Target(0), list(components.NewTextDisplay("a")), []string{"invalid"}},
		{"unknown target flag", components.V2Message | 1<<6, list(components.NewTextDisplay("a")), []string{"invalid"}},
		{"non-interactive modal", Modal | components.NonInteractive, list(components.NewTextDisplay("a")), []string{"invalid"}},
		{"empty list", V2, nil, nil},
	})
}

func TestValidatePlacement(t *testing.T) {
	t.Parallel()
	v2Top := func(c components.Component) []components.Component { return list(c) }
	runCases(t, []vcase{
		// Legacy message: action rows only, at most 5.
		{"legacy 5 rows", Legacy, list(row(btn("a")), row(btn("b")), row(btn("c")), row(btn("d")), row(btn("e"))), nil},
		{"legacy 6 rows", Legacy, list(row(btn("a")), row(btn("b")), row(btn("c")), row(btn("d")), row(btn("e")), row(btn("f"))), []string{"length"}},
		{"legacy text display", Legacy, list(components.NewTextDisplay("a")), []string{"[0] placement"}},
		{"legacy container", Legacy, list(components.NewContainer(row(btn("a")))), []string{"[0] placement"}},
		{"legacy button at top", Legacy, list(btn("a")), []string{"[0] placement"}},
		{"legacy select row", Legacy, list(row(components.NewStringSelect("s", opts(1)...))), nil},
		// V2 message top level.
		{"v2 text display", V2, v2Top(components.NewTextDisplay("a")), nil},
		{"v2 separator", V2, v2Top(components.NewSeparator()), nil},
		{"v2 file", V2, v2Top(components.NewFile("a.txt")), nil},
		{"v2 gallery", V2, v2Top(components.NewMediaGallery(items(1)...)), nil},
		{"v2 thumbnail at top", V2, v2Top(thumb()), []string{"[0] placement"}},
		{"v2 thumbnail in container", V2, v2Top(components.NewContainer(thumb())), []string{"[0].components[0] placement"}},
		{"v2 button at top", V2, v2Top(btn("a")), []string{"[0] placement"}},
		{"v2 select at top", V2, v2Top(components.NewUserSelect("u")), []string{"[0] placement"}},
		{"v2 container in container", V2, v2Top(components.NewContainer(components.NewContainer(components.NewTextDisplay("a")))), []string{"[0].components[0] placement"}},
		{"v2 container children", V2, v2Top(components.NewContainer(
			row(btn("a")), components.NewTextDisplay("t"), components.NewSection(thumb(), components.NewTextDisplay("s")),
			components.NewMediaGallery(items(1)...), components.NewSeparator(), components.NewFile("f.txt"))), nil},
		{"v2 empty container", V2, v2Top(components.NewContainer()), []string{"[0].components required"}},
		{"text input in a message", V2, v2Top(row(components.NewTextInput("t", components.TextInputShort))), []string{"[0].components[0] placement"}},
		{"label in a message", V2, v2Top(lbl(components.NewStringSelect("s", opts(1)...))), []string{"[0] placement"}},
		{"checkbox in a message row", Legacy, list(row(components.NewCheckbox("c"))), []string{"[0].components[0] placement"}},
		// Modal.
		{"modal label and text", Modal, list(components.NewTextDisplay("a"), lbl(components.NewTextInput("t", components.TextInputShort))), nil},
		{"modal text input at top", Modal, list(components.NewTextInput("t", components.TextInputShort)), []string{"[0] placement"}},
		{"modal select at top", Modal, list(components.NewStringSelect("s", opts(1)...)), []string{"[0] placement"}},
		{"modal button", Modal, list(row(btn("a"))), []string{"[0].components[0] placement"}},
		{"modal container", Modal, list(components.NewContainer(components.NewTextDisplay("a"))), []string{"[0] placement"}},
		{"modal select in a row", Modal, list(row(components.NewStringSelect("s", opts(1)...))), []string{"[0].components[0] placement"}},
		{"modal deprecated row with text input", Modal, list(row(&components.TextInput{CustomID: "t", Style: components.TextInputShort, Label: str(45)})), nil},
		{"modal deprecated row label 46", Modal, list(row(&components.TextInput{CustomID: "t", Style: components.TextInputShort, Label: str(46)})), []string{"[0].components[0].label length"}},
		{"modal deprecated row without label", Modal, list(row(components.NewTextInput("t", components.TextInputShort))), []string{"[0].components[0].label required"}},
		{"modal deprecated row of two", Modal, list(row(
			&components.TextInput{CustomID: "t", Style: components.TextInputShort, Label: "A"},
			&components.TextInput{CustomID: "u", Style: components.TextInputShort, Label: "B"})), []string{"[0].components length"}},
	})
}

func TestValidateV2Total(t *testing.T) {
	t.Parallel()
	sections := func(n int) []components.Component {
		out := make([]components.Component, n)
		for i := range out {
			out[i] = components.NewSection(thumb(), texts(2)...) // 4 components each
		}
		return out
	}
	runCases(t, []vcase{
		{"40 top level", V2, texts(40), nil},
		{"41 top level", V2, texts(41), []string{"length"}},
		{"40 with accessories", V2, sections(10), nil},
		{"41 with accessories", V2, append(sections(10), components.NewSeparator()), []string{"length"}},
		{"40 nested in a container", V2, list(components.NewContainer(texts(39)...)), nil},
		{"41 nested in a container", V2, list(components.NewContainer(texts(40)...)), []string{"length"}},
		{"legacy has no 40 limit", Legacy, list(row(buttons(5)...), row(buttons(5)...)), []string{"[1].components[0].custom_id duplicate", "[1].components[1].custom_id duplicate", "[1].components[2].custom_id duplicate", "[1].components[3].custom_id duplicate", "[1].components[4].custom_id duplicate"}},
	})
}

func TestValidateActionRow(t *testing.T) {
	t.Parallel()
	runCases(t, []vcase{
		{"5 buttons", V2, list(row(buttons(5)...)), nil},
		{"6 buttons", V2, list(row(buttons(6)...)), []string{"[0].components length"}},
		{"1 select", V2, list(row(components.NewRoleSelect("r"))), nil},
		{"2 selects", V2, list(row(components.NewRoleSelect("r"), components.NewUserSelect("u"))), []string{"[0].components length"}},
		{"button and select", V2, list(row(btn("b"), components.NewRoleSelect("r"))), []string{"[0].components conflict"}},
		{"empty row", V2, list(row()), []string{"[0].components required"}},
		{"text display in a row", V2, list(row(components.NewTextDisplay("a"))), []string{"[0].components[0] placement"}},
		{"row in a row", V2, list(row(row(btn("a")))), []string{"[0].components[0] placement"}},
	})
}

func TestValidateSection(t *testing.T) {
	t.Parallel()
	runCases(t, []vcase{
		{"1 child", V2, list(components.NewSection(thumb(), texts(1)...)), nil},
		{"3 children", V2, list(components.NewSection(btn("a"), texts(3)...)), nil},
		{"4 children", V2, list(components.NewSection(thumb(), texts(4)...)), []string{"[0].components length"}},
		{"no children", V2, list(components.NewSection(thumb())), []string{"[0].components length"}},
		{"no accessory", V2, list(components.NewSection(nil, texts(1)...)), []string{"[0].accessory required"}},
		{"text display accessory", V2, list(components.NewSection(components.NewTextDisplay("x"), texts(1)...)), []string{"[0].accessory placement"}},
		{"button child", V2, list(components.NewSection(thumb(), btn("a"))), []string{"[0].components[0] placement"}},
		{"link accessory", V2, list(components.NewSection(components.LinkButton("https://e.example", "Open"), texts(1)...)), nil},
	})
}

func TestValidateLabel(t *testing.T) {
	t.Parallel()
	ti := func() *components.TextInput { return components.NewTextInput("t", components.TextInputShort) }
	runCases(t, []vcase{
		{"label 45", Modal, list(components.NewLabel(str(45), ti())), nil},
		{"label 46", Modal, list(components.NewLabel(str(46), ti())), []string{"[0].label length"}},
		{"label empty", Modal, list(components.NewLabel("", ti())), []string{"[0].label required"}},
		{"description 100", Modal, list(components.NewLabel("L", ti()).WithDescription(str(100))), nil},
		{"description 101", Modal, list(components.NewLabel("L", ti()).WithDescription(str(101))), []string{"[0].description length"}},
		{"no child", Modal, list(components.NewLabel("L", nil)), []string{"[0].component required"}},
		{"text display child", Modal, list(components.NewLabel("L", components.NewTextDisplay("a"))), []string{"[0].component placement"}},
		{"label in a label", Modal, list(components.NewLabel("L", components.NewLabel("M", ti()))), []string{"[0].component placement"}},
		{"every allowed child", Modal, list(
			lbl(components.NewStringSelect("a", opts(1)...)), lbl(components.NewTextInput("b", components.TextInputParagraph)),
			lbl(components.NewUserSelect("c")), lbl(components.NewRoleSelect("d")), lbl(components.NewMentionableSelect("e")),
			lbl(components.NewChannelSelect("f")), lbl(components.NewFileUpload("g")), lbl(components.NewRadioGroup("h", choices(2)...)),
			lbl(components.NewCheckboxGroup("i", choices(1)...)), lbl(components.NewCheckbox("j"))), nil},
		{"text input own label inside a Label", Modal, list(lbl(&components.TextInput{CustomID: "t", Style: components.TextInputShort, Label: "old"})), []string{"[0].component.label conflict"}},
	})
}

func TestValidateButton(t *testing.T) {
	t.Parallel()
	in := func(b *components.Button) []components.Component { return list(row(b)) }
	emoji := components.UnicodeEmoji("🔥")
	runCases(t, []vcase{
		{"label 80", V2, in(components.PrimaryButton("a", str(80))), nil},
		{"label 81", V2, in(components.PrimaryButton("a", str(81))), []string{"[0].components[0].label length"}},
		{"url 512", V2, in(components.LinkButton("https://e.example/"+strings.Repeat("a", 512-len("https://e.example/")), "Open")), nil},
		{"url 513", V2, in(components.LinkButton("https://e.example/"+strings.Repeat("a", 513-len("https://e.example/")), "Open")), []string{"[0].components[0].url length"}},
		{"style 0", V2, in(&components.Button{CustomID: "a", Label: "A"}), []string{"[0].components[0].style required"}},
		{"style 7", V2, in(&components.Button{Style: 7, CustomID: "a", Label: "A"}), []string{"[0].components[0].style invalid"}},
		{"styles 1-4", V2, list(row(components.PrimaryButton("a", "A"), components.SecondaryButton("b", "B"), components.SuccessButton("c", "C"), components.DangerButton("d", "D"))), nil},
		{"primary emoji only", V2, in(components.PrimaryButton("a", "").WithEmoji(emoji)), nil},
		{"primary without label or emoji", V2, in(components.PrimaryButton("a", "")), []string{"[0].components[0].label required"}},
		{"danger without custom_id", V2, in(components.DangerButton("", "D")), []string{"[0].components[0].custom_id required"}},
		{"secondary with url and sku", V2, in(&components.Button{Style: components.ButtonSecondary, CustomID: "a", Label: "A", URL: "https://e.example", SKUID: 1}),
			[]string{"[0].components[0].url conflict", "[0].components[0].sku_id conflict"}},
		{"link", V2, in(components.LinkButton("https://e.example", "Open")), nil},
		{"link emoji only", V2, in(components.LinkButton("https://e.example", "").WithEmoji(emoji)), nil},
		{"link without url", V2, in(components.LinkButton("", "Open")), []string{"[0].components[0].url required"}},
		{"link with custom_id and sku", V2, in(&components.Button{Style: components.ButtonLink, URL: "https://e.example", Label: "L", CustomID: "x", SKUID: 5}),
			[]string{"[0].components[0].custom_id conflict", "[0].components[0].sku_id conflict"}},
		{"link without label", V2, in(components.LinkButton("https://e.example", "")), []string{"[0].components[0].label required"}},
		{"premium", V2, in(components.PremiumButton(1180218955160375406)), nil},
		{"premium without sku", V2, in(components.PremiumButton(0)), []string{"[0].components[0].sku_id required"}},
		{"premium with everything", V2, in(&components.Button{Style: components.ButtonPremium, SKUID: 1, CustomID: "a", Label: "A", URL: "https://e.example", Emoji: &emoji}),
			[]string{"[0].components[0].custom_id conflict", "[0].components[0].label conflict", "[0].components[0].url conflict", "[0].components[0].emoji conflict"}},
		{"emoji without id or name", V2, in(components.PrimaryButton("a", "A").WithEmoji(components.PartialEmoji{Animated: true})), []string{"[0].components[0].emoji required"}},
		{"custom emoji", V2, in(components.PrimaryButton("a", "").WithEmoji(components.CustomEmoji(41771983429993937, "rocket", false))), nil},
		{"disabled in a message", V2, in(components.PrimaryButton("a", "A").WithDisabled(true)), nil},
	})
}

func TestValidateSelects(t *testing.T) {
	t.Parallel()
	msg := func(c components.Component) []components.Component { return list(row(c)) }
	modal := func(c components.Component) []components.Component { return list(lbl(c)) }
	const p = "[0].components[0]"
	ss := func(n int) *components.StringSelect { return components.NewStringSelect("s", opts(n)...) }
	runCases(t, []vcase{
		{"placeholder 150", V2, msg(ss(1).WithPlaceholder(str(150))), nil},
		{"placeholder 151", V2, msg(ss(1).WithPlaceholder(str(151))), []string{p + ".placeholder length"}},
		{"custom_id 101", V2, msg(components.NewUserSelect(str(101))), []string{p + ".custom_id length"}},
		{"min 0", V2, msg(ss(1).WithMinValues(0)), nil},
		{"min 25 max 25", V2, msg(ss(25).WithValues(25, 25)), nil},
		{"min 26", V2, msg(ss(25).WithMinValues(26).WithMaxValues(25)), []string{p + ".min_values range"}},
		{"min -1", V2, msg(ss(1).WithMinValues(-1)), []string{p + ".min_values range"}},
		{"max 0", V2, msg(ss(1).WithMinValues(0).WithMaxValues(0)), []string{p + ".max_values range"}},
		{"max 26", V2, msg(ss(25).WithMaxValues(26)), []string{p + ".max_values range", p + ".max_values range"}},
		{"max equal to the options", V2, msg(ss(3).WithMaxValues(3)), nil},
		{"max above the options", V2, msg(ss(3).WithMaxValues(4)), []string{p + ".max_values range"}},
		{"min above max", V2, msg(ss(5).WithMinValues(3).WithMaxValues(2)), []string{p + ".min_values range"}},
		{"min above default max", V2, msg(ss(5).WithMinValues(2)), []string{p + ".min_values range"}},
		{"min null", V2, msg(&components.StringSelect{CustomID: "s", Options: opts(1), MinValues: components.Null[int]()}), []string{p + ".min_values not_null"}},
		{"max null", V2, msg(&components.RoleSelect{CustomID: "s", MaxValues: components.Null[int]()}), []string{p + ".max_values not_null"}},
		{"required null", V2, msg(&components.RoleSelect{CustomID: "s", Required: components.Null[bool]()}), []string{p + ".required not_null"}},
		{"required false in a message is ignored", V2, msg(ss(1).WithRequired(false)), nil},
		{"required false in a modal", Modal, modal(ss(1).WithRequired(false)), nil},
		{"disabled in a message", V2, msg(ss(1).WithDisabled(true)), nil},
		{"disabled in a modal", Modal, modal(ss(1).WithDisabled(true)), []string{"[0].component.disabled not_allowed"}},
		{"channel types known", V2, msg(components.NewChannelSelect("c", components.ChannelType(0), components.ChannelType(15))), nil},
		{"channel type unknown", V2, msg(components.NewChannelSelect("c", components.ChannelType(0), components.ChannelType(99))), []string{p + ".channel_types[1] invalid"}},
		{"channel type repeated", V2, msg(components.NewChannelSelect("c", components.ChannelType(2), components.ChannelType(2))), []string{p + ".channel_types[1] duplicate"}},
		{"disabled user select in a modal", Modal, modal(components.NewUserSelect("u").WithDisabled(true)), []string{"[0].component.disabled not_allowed"}},
		// String select options.
		{"25 options", V2, msg(ss(25)), nil},
		{"26 options", V2, msg(ss(26)), []string{p + ".options length"}},
		{"no options", V2, msg(ss(0)), []string{p + ".options required"}},
		{"fewer options than min", V2, msg(ss(2).WithMinValues(3).WithMaxValues(3)), []string{p + ".options length", p + ".max_values range"}},
		{"option bounds 100", V2, msg(components.NewStringSelect("s", components.NewOption(str(100), str(100)).WithDescription(str(100)))), nil},
		{"option bounds 101", V2, msg(components.NewStringSelect("s", components.NewOption(str(101), str(101)).WithDescription(str(101)))),
			[]string{p + ".options[0].label length", p + ".options[0].value length", p + ".options[0].description length"}},
		{"option empty", V2, msg(components.NewStringSelect("s", components.NewOption("", ""))),
			[]string{p + ".options[0].label required", p + ".options[0].value required"}},
		{"option value repeated", V2, msg(components.NewStringSelect("s", components.NewOption("A", "x"), components.NewOption("B", "x"))),
			[]string{p + ".options[1].value duplicate"}},
		{"option emoji empty", V2, msg(components.NewStringSelect("s", components.NewOption("A", "x").WithEmoji(components.PartialEmoji{}))),
			[]string{p + ".options[0].emoji required"}},
		{"defaults up to max", V2, msg(components.NewStringSelect("s", components.NewOption("A", "a").AsDefault(), components.NewOption("B", "b").AsDefault()).WithMaxValues(2)), nil},
		{"defaults above max", V2, msg(components.NewStringSelect("s", components.NewOption("A", "a").AsDefault(), components.NewOption("B", "b").AsDefault())),
			[]string{p + ".options length"}},
		// Default values.
		{"user select user default", V2, msg(components.NewUserSelect("u", components.DefaultUser(1))), nil},
		{"user select role default", V2, msg(components.NewUserSelect("u", components.DefaultRole(1))), []string{p + ".default_values[0].type invalid"}},
		{"role select user default", V2, msg(components.NewRoleSelect("r", components.DefaultUser(1))), []string{p + ".default_values[0].type invalid"}},
		{"mentionable user and role", V2, msg(components.NewMentionableSelect("m", components.DefaultUser(1), components.DefaultRole(2)).WithValues(0, 2)), nil},
		{"mentionable channel", V2, msg(components.NewMentionableSelect("m", components.DefaultChannel(1))), []string{p + ".default_values[0].type invalid"}},
		{"channel select channel", V2, msg(components.NewChannelSelect("c", wire.ChannelTypeGuildText).WithDefaults(components.DefaultChannel(1))), nil},
		{"channel select user", V2, msg(components.NewChannelSelect("c").WithDefaults(components.DefaultUser(1))), []string{p + ".default_values[0].type invalid"}},
		{"bad default type", V2, msg(components.NewUserSelect("u", components.DefaultValue{ID: 1, Type: "guild"})), []string{p + ".default_values[0].type invalid"}},
		{"defaults equal max", V2, msg(components.NewUserSelect("u", components.DefaultUser(1), components.DefaultUser(2), components.DefaultUser(3)).WithValues(1, 3)), nil},
		{"defaults above max", V2, msg(components.NewUserSelect("u", components.DefaultUser(1), components.DefaultUser(2))), []string{p + ".default_values length"}},
		{"defaults equal min", V2, msg(components.NewRoleSelect("r", components.DefaultRole(1), components.DefaultRole(2)).WithValues(2, 3)), nil},
		{"defaults below min", V2, msg(components.NewRoleSelect("r", components.DefaultRole(1)).WithValues(2, 3)), []string{p + ".default_values length"}},
		{"default id zero", V2, msg(components.NewUserSelect("u", components.DefaultUser(0))), []string{p + ".default_values[0].id required"}},
		{"default repeated", V2, msg(components.NewUserSelect("u", components.DefaultUser(1), components.DefaultUser(1)).WithValues(1, 2)), []string{p + ".default_values[1].id duplicate"}},
	})
}

func TestValidateTextInput(t *testing.T) {
	t.Parallel()
	in := func(ti *components.TextInput) []components.Component { return list(lbl(ti)) }
	short := func() *components.TextInput { return components.NewTextInput("t", components.TextInputShort) }
	const p = "[0].component"
	runCases(t, []vcase{
		{"paragraph", Modal, in(components.NewTextInput("t", components.TextInputParagraph)), nil},
		{"style 0", Modal, in(components.NewTextInput("t", 0)), []string{p + ".style required"}},
		{"style 3", Modal, in(components.NewTextInput("t", 3)), []string{p + ".style invalid"}},
		{"custom_id empty", Modal, in(components.NewTextInput("", components.TextInputShort)), []string{p + ".custom_id required"}},
		{"min 0 max 4000", Modal, in(short().WithLength(0, 4000)), nil},
		{"min 4000 max 4000", Modal, in(short().WithLength(4000, 4000)), nil},
		{"min 4001", Modal, in(&components.TextInput{CustomID: "t", Style: 1, MinLength: components.Some(4001)}), []string{p + ".min_length range"}},
		{"min -1", Modal, in(&components.TextInput{CustomID: "t", Style: 1, MinLength: components.Some(-1)}), []string{p + ".min_length range"}},
		{"max 1", Modal, in(short().WithLength(0, 1)), nil},
		{"max 0", Modal, in(short().WithLength(0, 0)), []string{p + ".max_length range"}},
		{"max 4001", Modal, in(short().WithLength(0, 4001)), []string{p + ".max_length range"}},
		{"min above max", Modal, in(short().WithLength(10, 9)), []string{p + ".min_length range"}},
		{"min null", Modal, in(&components.TextInput{CustomID: "t", Style: 1, MinLength: components.Null[int]()}), []string{p + ".min_length not_null"}},
		{"max null", Modal, in(&components.TextInput{CustomID: "t", Style: 1, MaxLength: components.Null[int]()}), []string{p + ".max_length not_null"}},
		{"value 4000", Modal, in(short().WithValue(str(4000))), nil},
		{"value 4001", Modal, in(short().WithValue(str(4001))), []string{p + ".value length"}},
		{"value at min", Modal, in(short().WithLength(3, 5).WithValue(str(3))), nil},
		{"value below min", Modal, in(short().WithLength(3, 5).WithValue(str(2))), []string{p + ".value length"}},
		{"value at max", Modal, in(short().WithLength(3, 5).WithValue(str(5))), nil},
		{"value above max", Modal, in(short().WithLength(3, 5).WithValue(str(6))), []string{p + ".value length"}},
		{"placeholder 100", Modal, in(short().WithPlaceholder(str(100))), nil},
		{"placeholder 101", Modal, in(short().WithPlaceholder(str(101))), []string{p + ".placeholder length"}},
		{"required false", Modal, in(short().WithRequired(false)), nil},
		{"required null", Modal, in(&components.TextInput{CustomID: "t", Style: 1, Required: components.Null[bool]()}), []string{p + ".required not_null"}},
	})
}

func TestValidateModalInputs(t *testing.T) {
	t.Parallel()
	in := func(c components.Component) []components.Component { return list(lbl(c)) }
	const p = "[0].component"
	fu := func() *components.FileUpload { return components.NewFileUpload("f") }
	cg := func(n int) *components.CheckboxGroup { return components.NewCheckboxGroup("g", choices(n)...) }
	runCases(t, []vcase{
		// File upload.
		{"upload 0-10", Modal, in(fu().WithValues(0, 10).WithRequired(false)), nil},
		{"upload min 10", Modal, in(fu().WithValues(10, 10)), nil},
		{"upload min 11", Modal, in(fu().WithValues(11, 10)), []string{p + ".min_values range"}},
		{"upload min -1", Modal, in(fu().WithValues(-1, 10)), []string{p + ".min_values range"}},
		{"upload max 11", Modal, in(fu().WithValues(1, 11)), []string{p + ".max_values range"}},
		{"upload max 0", Modal, in(fu().WithValues(0, 0)), []string{p + ".max_values range"}},
		{"upload min above max", Modal, in(fu().WithValues(4, 3)), []string{p + ".min_values range"}},
		{"upload custom_id empty", Modal, in(components.NewFileUpload("")), []string{p + ".custom_id required"}},
		{"upload required null", Modal, in(&components.FileUpload{CustomID: "f", Required: components.Null[bool]()}), []string{p + ".required not_null"}},
		// Radio group.
		{"radio 2 options", Modal, in(components.NewRadioGroup("r", choices(2)...)), nil},
		{"radio 10 options", Modal, in(components.NewRadioGroup("r", choices(10)...)), nil},
		{"radio 1 option", Modal, in(components.NewRadioGroup("r", choices(1)...)), []string{p + ".options length"}},
		{"radio 11 options", Modal, in(components.NewRadioGroup("r", choices(11)...)), []string{p + ".options length"}},
		{"radio one default", Modal, in(components.NewRadioGroup("r", choices(1)[0].AsDefault(), components.NewChoice("B", "b"))), nil},
		{"radio two defaults", Modal, in(components.NewRadioGroup("r", components.NewChoice("A", "a").AsDefault(), components.NewChoice("B", "b").AsDefault())),
			[]string{p + ".options[1].default conflict"}},
		{"radio value repeated", Modal, in(components.NewRadioGroup("r", components.NewChoice("A", "a"), components.NewChoice("B", "a"))),
			[]string{p + ".options[1].value duplicate"}},
		{"radio option bounds 100", Modal, in(components.NewRadioGroup("r", components.NewChoice(str(100), str(100)).WithDescription(str(100)), components.NewChoice("B", "b"))), nil},
		{"radio option bounds 101", Modal, in(components.NewRadioGroup("r", components.NewChoice(str(101), str(101)).WithDescription(str(101)), components.NewChoice("B", "b"))),
			[]string{p + ".options[0].value length", p + ".options[0].label length", p + ".options[0].description length"}},
		{"radio option empty", Modal, in(components.NewRadioGroup("r", components.NewChoice("", ""), components.NewChoice("B", "b"))),
			[]string{p + ".options[0].value required", p + ".options[0].label required"}},
		{"radio required false", Modal, in(components.NewRadioGroup("r", choices(2)...).WithRequired(false)), nil},
		// Checkbox group.
		{"checkbox group 1 option", Modal, in(cg(1)), nil},
		{"checkbox group 10 options", Modal, in(cg(10)), nil},
		{"checkbox group 0 options", Modal, in(cg(0)), []string{p + ".options length"}},
		{"checkbox group 11 options", Modal, in(cg(11)), []string{p + ".options length"}},
		{"checkbox min 0 required false", Modal, in(cg(3).WithValues(0, 3).WithRequired(false)), nil},
		{"checkbox min 0 required omitted", Modal, in(cg(3).WithValues(0, 3)), []string{p + ".min_values conflict"}},
		{"checkbox min 0 required true", Modal, in(cg(3).WithValues(0, 3).WithRequired(true)), []string{p + ".min_values conflict"}},
		{"checkbox min 10", Modal, in(cg(10).WithValues(10, 10)), nil},
		{"checkbox min 11", Modal, in(cg(10).WithValues(11, 10)), []string{p + ".min_values range"}},
		{"checkbox max 11", Modal, in(cg(10).WithValues(1, 11)), []string{p + ".max_values range"}},
		{"checkbox max 0", Modal, in(cg(10).WithValues(1, 0)), []string{p + ".max_values range"}},
		{"checkbox max = options", Modal, in(cg(3).WithValues(1, 3)), nil},
		{"checkbox max above options", Modal, in(cg(3).WithValues(1, 4)), []string{p + ".max_values range"}},
		{"checkbox min above max", Modal, in(cg(5).WithValues(3, 2)), []string{p + ".min_values range"}},
		{"checkbox min above options (default max)", Modal, in(&components.CheckboxGroup{CustomID: "g", Options: choices(2), MinValues: components.Some(3)}), []string{p + ".min_values range"}},
		{"checkbox defaults above max", Modal, in(components.NewCheckboxGroup("g", components.NewChoice("A", "a").AsDefault(), components.NewChoice("B", "b").AsDefault()).WithValues(1, 1)),
			[]string{p + ".options length"}},
		{"checkbox value repeated", Modal, in(components.NewCheckboxGroup("g", components.NewChoice("A", "a"), components.NewChoice("B", "a"))), []string{p + ".options[1].value duplicate"}},
		// Checkbox.
		{"checkbox", Modal, in(components.NewCheckbox("c").WithDefault(true)), nil},
		{"checkbox custom_id 101", Modal, in(components.NewCheckbox(str(101))), []string{p + ".custom_id length"}},
	})
}

func TestValidateContent(t *testing.T) {
	t.Parallel()
	runCases(t, []vcase{
		{"text display empty", V2, list(components.NewTextDisplay("")), []string{"[0].content required"}},
		{"gallery 1", V2, list(components.NewMediaGallery(items(1)...)), nil},
		{"gallery 10", V2, list(components.NewMediaGallery(items(10)...)), nil},
		{"gallery 0", V2, list(components.NewMediaGallery()), []string{"[0].items length"}},
		{"gallery 11", V2, list(components.NewMediaGallery(items(11)...)), []string{"[0].items length"}},
		{"gallery description 1024", V2, list(components.NewMediaGallery(components.NewGalleryItem("u").WithDescription(str(1024)).WithSpoiler(true))), nil},
		{"gallery description 1025", V2, list(components.NewMediaGallery(components.NewGalleryItem("u").WithDescription(str(1025)))), []string{"[0].items[0].description length"}},
		{"gallery description null", V2, list(components.NewMediaGallery(components.MediaGalleryItem{Media: components.UnfurledMediaItem{URL: "u"}, Description: components.Null[string]()})), nil},
		{"gallery url empty", V2, list(components.NewMediaGallery(components.NewGalleryItem(""))), []string{"[0].items[0].media.url required"}},
		{"thumbnail description 1024", V2, list(components.NewSection(thumb().WithDescription(str(1024)).WithSpoiler(true), texts(1)...)), nil},
		{"thumbnail description 1025", V2, list(components.NewSection(thumb().WithDescription(str(1025)), texts(1)...)), []string{"[0].accessory.description length"}},
		{"thumbnail url empty", V2, list(components.NewSection(components.NewThumbnail(""), texts(1)...)), []string{"[0].accessory.media.url required"}},
		{"file attachment", V2, list(components.NewFile("report.pdf").WithSpoiler(true)), nil},
		{"file https url", V2, list(&components.File{File: components.UnfurledMediaItem{URL: "https://e.example/a.pdf"}}), []string{"[0].file.url invalid"}},
		{"file attachment without name", V2, list(&components.File{File: components.UnfurledMediaItem{URL: "attachment://"}}), []string{"[0].file.url invalid"}},
		{"file url empty", V2, list(&components.File{}), []string{"[0].file.url required"}},
		{"separator large", V2, list(components.NewSeparator().WithSpacing(components.SpacingLarge).WithDivider(false)), nil},
		{"separator spacing 3", V2, list(components.NewSeparator().WithSpacing(3)), []string{"[0].spacing invalid"}},
		{"separator divider null", V2, list(&components.Separator{Divider: components.Null[bool]()}), []string{"[0].divider not_null"}},
		{"accent 0xFFFFFF", V2, list(components.NewContainer(texts(1)...).WithAccentColor(0xFFFFFF)), nil},
		{"accent 0", V2, list(components.NewContainer(texts(1)...).WithAccentColor(0)), nil},
		{"accent 0x1000000", V2, list(components.NewContainer(texts(1)...).WithAccentColor(0x1000000)), []string{"[0].accent_color range"}},
		{"accent -1", V2, list(components.NewContainer(texts(1)...).WithAccentColor(-1)), []string{"[0].accent_color range"}},
		{"accent null", V2, list(&components.Container{Components: texts(1), AccentColor: components.Null[int]()}), nil},
		{"container spoiler", V2, list(components.NewContainer(texts(1)...).WithSpoiler(true)), nil},
	})
}

func TestValidateNonInteractive(t *testing.T) {
	t.Parallel()
	ni := V2 | components.NonInteractive
	runCases(t, []vcase{
		{"link button", ni, list(components.NewContainer(components.NewTextDisplay("a"), row(components.LinkButton("https://e.example", "Open")))), nil},
		{"link accessory", ni, list(components.NewSection(components.LinkButton("https://e.example", "Open"), texts(1)...)), nil},
		{"content only", ni, list(components.NewTextDisplay("a"), components.NewMediaGallery(items(1)...), components.NewFile("a.txt"), components.NewSeparator()), nil},
		{"primary button", ni, list(row(btn("a"))), []string{"[0].components[0] not_allowed"}},
		{"premium button", ni, list(row(components.PremiumButton(1))), []string{"[0].components[0] not_allowed"}},
		{"select", ni, list(row(components.NewChannelSelect("c"))), []string{"[0].components[0] not_allowed"}},
		{"button accessory in a container", ni, list(components.NewContainer(components.NewSection(btn("b"), texts(1)...))), []string{"[0].components[0].accessory not_allowed"}},
		{"legacy link row", Legacy | components.NonInteractive, list(row(components.LinkButton("https://e.example", "Open"))), nil},
		{"legacy select row", Legacy | components.NonInteractive, list(row(components.NewStringSelect("s", opts(1)...))), []string{"[0].components[0] not_allowed"}},
	})
}

// TestValidateAllAtOnce checks that one call reports every problem of a
// tree, in tree order, each with its own path.
func TestValidateAllAtOnce(t *testing.T) {
	t.Parallel()
	tree := list(
		components.NewTextDisplay(""),
		components.NewContainer(
			components.NewSection(components.NewThumbnail(""), texts(4)...),
			row(btn(""), btn("dup"), components.LinkButton("", "x")),
			components.NewMediaGallery(),
		).WithAccentColor(0x1000000),
		row(components.NewStringSelect("dup", opts(26)...).WithPlaceholder(str(151))),
		thumb(),
	)
	err := components.Validate(V2, tree...)
	require.Error(t, err)
	assert.Equal(t, []string{
		"[0].content required",
		"[1].accent_color range",
		"[1].components[0].components length",
		"[1].components[0].accessory.media.url required",
		"[1].components[1].components[0].custom_id required",
		"[1].components[1].components[2].url required",
		"[1].components[2].items length",
		"[2].components[0].custom_id duplicate",
		"[2].components[0].placeholder length",
		"[2].components[0].options length",
		"[3] placement",
	}, problems(t, err))
	assert.Contains(t, err.Error(), "[2].components[0].custom_id: custom_id \"dup\" is already used at [1].components[1].components[1]")

	var fe components.FieldError
	require.ErrorAs(t, err, &fe, "a single problem is reachable with errors.As")
	assert.Equal(t, "[0].content", fe.Path)

	var root wire.ValidationError
	root.Merge("components", err.(*components.ValidationError))
	assert.Equal(t, "components[0].content", root.Problems[0].Path, "the root package can prefix the paths")
}

func TestTargetString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		t    components.Target
		want string
	}{
		{components.LegacyMessage, "legacy message"},
		{components.V2Message, "V2 message"},
		{components.Modal, "modal"},
		{components.V2Message | components.NonInteractive, "V2 message+non-interactive"},
		{components.Target(9), "Target(9)"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.t.String())
	}
}

func TestEnumStrings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		got  fmt.Stringer
		want string
	}{
		{components.TypeActionRow, "Action Row"},
		{components.TypeCheckbox, "Checkbox"},
		{components.Type(15), "Type(15)"},
		{components.ButtonPremium, "Premium"},
		{components.ButtonPrimary, "Primary"},
		{components.ButtonStyle(9), "ButtonStyle(9)"},
		{components.TextInputParagraph, "Paragraph"},
		{components.TextInputStyle(0), "TextInputStyle(0)"},
		{components.SpacingLarge, "Large"},
		{components.SeparatorSpacing(0), "Unset"},
		{components.SeparatorSpacing(5), "SeparatorSpacing(5)"},
		{components.DefaultValueChannel, "channel"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.got.String())
	}
	known := 0
	for i := range 30 {
		if components.Type(i).Known() {
			known++
		}
	}
	assert.Equal(t, 20, known, "the spec lists 20 component types")
	assert.True(t, components.TypeChannelSelect.IsSelect())
	assert.False(t, components.TypeTextInput.IsSelect())
}

// TestDecodedForbiddenValuesAreReported: a value the documents forbid that
// arrives in JSON is kept through decoding, reported by Validate with its
// exact path, and re-encoded as it came, so an edit never turns a refused
// tree into an accepted one.
func TestDecodedForbiddenValuesAreReported(t *testing.T) {
	t.Parallel()
	inModal := func(c string) string { return `[{"type":18,"label":"L","component":` + c + `}]` }
	inRow := func(c string) string { return `[{"type":1,"components":[` + c + `]}]` }
	const opt = `"options":[{"label":"A","value":"a"}]`
	for _, tc := range []struct {
		name   string
		target components.Target
		json   string
		want   []string // every problem, "path code"
	}{
		{"checkbox marked required", components.Modal,
			inModal(`{"type":23,"custom_id":"ok","required":true}`), []string{"[0].component.required not_allowed"}},
		{"checkbox marked not required", components.Modal,
			inModal(`{"type":23,"custom_id":"ok","required":false}`), []string{"[0].component.required not_allowed"}},
		{"separator spacing 0", components.V2Message, `[{"type":14,"spacing":0}]`, []string{"[0].spacing invalid"}},
		{"separator spacing 3", components.V2Message, `[{"type":14,"spacing":3}]`, []string{"[0].spacing invalid"}},
		// "disabled ... (messages only; using it in a modal is an error)": an
		// explicit false is a use too.
		{"string select disabled false in a modal", components.Modal,
			inModal(`{"type":3,"custom_id":"s",` + opt + `,"disabled":false}`), []string{"[0].component.disabled not_allowed"}},
		{"user select disabled false in a modal", components.Modal,
			inModal(`{"type":5,"custom_id":"s","disabled":false}`), []string{"[0].component.disabled not_allowed"}},
		{"role select disabled false in a modal", components.Modal,
			inModal(`{"type":6,"custom_id":"s","disabled":false}`), []string{"[0].component.disabled not_allowed"}},
		{"mentionable select disabled false in a modal", components.Modal,
			inModal(`{"type":7,"custom_id":"s","disabled":false}`), []string{"[0].component.disabled not_allowed"}},
		{"channel select disabled false in a modal", components.Modal,
			inModal(`{"type":8,"custom_id":"s","disabled":false}`), []string{"[0].component.disabled not_allowed"}},
		// "Premium ... must not have custom_id, label, url or emoji", even empty.
		{"premium with empty custom_id, label, url and a null emoji", components.V2Message,
			inRow(`{"type":2,"style":6,"sku_id":"1","custom_id":"","label":"","url":"","emoji":null}`),
			[]string{"[0].components[0].custom_id conflict", "[0].components[0].label conflict", "[0].components[0].url conflict", "[0].components[0].emoji conflict"}},
		// "Link needs url and no custom_id"; sku_id is for Premium only.
		{"link with an empty custom_id and sku_id 0", components.V2Message,
			inRow(`{"type":2,"style":5,"url":"https://e.example","label":"L","custom_id":"","sku_id":"0"}`),
			[]string{"[0].components[0].custom_id conflict", "[0].components[0].sku_id conflict"}},
		// "styles 1-4 need custom_id and must not have url or sku_id".
		{"primary with an empty url and sku_id 0", components.V2Message,
			inRow(`{"type":2,"style":1,"custom_id":"b","label":"B","url":"","sku_id":"0"}`),
			[]string{"[0].components[0].url conflict", "[0].components[0].sku_id conflict"}},
		// "The label field on a Text Input is deprecated in favour of the Label
		// component's label": inside a Label it may not be sent at all.
		{"text input with an empty label inside a Label", components.Modal,
			inModal(`{"type":4,"custom_id":"t","style":1,"label":""}`), []string{"[0].component.label conflict"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var list components.List
			require.NoError(t, json.Unmarshal([]byte(tc.json), &list))
			err := components.Validate(tc.target, list...)
			var v *wire.ValidationError
			require.ErrorAs(t, err, &v)
			var got []string
			for _, p := range v.Problems {
				got = append(got, p.Path+" "+p.Code)
			}
			assert.Equal(t, tc.want, got)
			again, err := json.Marshal(list)
			require.NoError(t, err)
			assert.JSONEq(t, tc.json, string(again), "re-encoded as it came")
		})
	}
	// Unset stays unset.
	var list components.List
	require.NoError(t, json.Unmarshal([]byte(`[{"type":14}]`), &list))
	require.NoError(t, components.Validate(components.V2Message, list...))
	again, _ := json.Marshal(list)
	assert.JSONEq(t, `[{"type":14}]`, string(again))
}
