package components_test

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/seed012df1e9/guildkit/components"
)

func printJSON(v any) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Println(string(b))
}

// A Components V2 message built with the builders: the code has the shape of
// the message.
func Example_v2MessageBuilders() {
	msg := components.List{
		components.NewContainer(
			components.NewTextDisplay("## Build 42 passed"),
			components.NewSection(
				components.NewThumbnail("https://ci.example/badge.png").WithDescription("green badge"),
				components.NewTextDisplay("All 1,204 tests passed in 3m12s."),
			),
			components.NewSeparator().WithSpacing(components.SpacingLarge),
			components.NewActionRow(
				components.LinkButton("https://ci.example/42", "Open the run"),
				components.SecondaryButton("rerun:42", "Re-run").WithEmoji(components.UnicodeEmoji("🔁")),
			),
		).WithAccentColor(0x2ECC71),
	}
	components.AssignIDs(msg...)
	if err := components.Validate(components.V2Message, msg...); err != nil {
		fmt.Println(err)
		return
	}
	printJSON(msg)
	// Output:
	// [
	//   {
	//     "type": 17,
	//     "id": 1,
	//     "components": [
	//       {
	//         "type": 10,
	//         "id": 2,
	//         "content": "## Build 42 passed"
	//       },
	//       {
	//         "type": 9,
	//         "id": 3,
	//         "components": [
	//           {
	//             "type": 10,
	//             "id": 4,
	//             "content": "All 1,204 tests passed in 3m12s."
	//           }
	//         ],
	//         "accessory": {
	//           "type": 11,
	//           "id": 5,
	//           "media": {
	//             "url": "https://ci.example/badge.png"
	//           },
	//           "description": "green badge",
	//           "spoiler": false
	//         }
	//       },
	//       {
	//         "type": 14,
	//         "id": 6,
	//         "spacing": 2
	//       },
	//       {
	//         "type": 1,
	//         "id": 7,
	//         "components": [
	//           {
	//             "type": 2,
	//             "id": 8,
	//             "style": 5,
	//             "label": "Open the run",
	//             "url": "https://ci.example/42"
	//           },
	//           {
	//             "type": 2,
	//             "id": 9,
	//             "style": 2,
	//             "label": "Re-run",
	//             "emoji": {
	//               "name": "🔁"
	//             },
	//             "custom_id": "rerun:42"
	//           }
	//         ]
	//       }
	//     ],
	//     "accent_color": 3066993,
	//     "spoiler": false
	//   }
	// ]
}

// The same kind of message written as struct literals. Optional fields with
// a default in the spec are Opt values: Some(false) sends an explicit false.
func Example_v2MessageStructLiterals() {
	msg := components.List{
		&components.TextDisplay{Content: "Pick your platforms"},
		&components.Separator{Divider: components.Some(false)},
		&components.ActionRow{Components: components.List{
			&components.StringSelect{
				CustomID:  "platforms",
				MinValues: components.Some(0),
				MaxValues: components.Some(2),
				Options: []components.SelectOption{
					{Label: "Windows", Value: "win"},
					{Label: "Linux", Value: "linux", Default: true},
				},
			},
		}},
	}
	fmt.Println(components.Validate(components.V2Message, msg...))
	b, _ := json.Marshal(msg)
	fmt.Println(string(b))
	// Output:
	// <nil>
	// [{"type":10,"content":"Pick your platforms"},{"type":14,"divider":false},{"type":1,"components":[{"type":3,"custom_id":"platforms","options":[{"label":"Windows","value":"win"},{"label":"Linux","value":"linux","default":true}],"min_values":0,"max_values":2}]}]
}

// A modal's components built with the builders: each input sits in a Label.
func Example_modal() {
	modal := components.List{
		components.NewTextDisplay("Tell us what broke."),
		components.NewLabel("Summary",
			components.NewTextInput("summary", components.TextInputShort).WithLength(5, 100),
		).WithDescription("One line"),
		components.NewLabel("Severity",
			components.NewRadioGroup("severity",
				components.NewChoice("Low", "low"),
				components.NewChoice("High", "high").AsDefault(),
			),
		),
		components.NewLabel("Screenshots",
			components.NewFileUpload("shots").WithValues(0, 3).WithRequired(false),
		),
		components.NewLabel("Contact me", components.NewCheckbox("contact")),
	}
	fmt.Println(components.Validate(components.Modal, modal...))
	b, _ := json.Marshal(modal[1])
	fmt.Println(string(b))
	// Output:
	// <nil>
	// {"type":18,"label":"Summary","description":"One line","component":{"type":4,"custom_id":"summary","style":1,"min_length":5,"max_length":100}}
}

// Validate reports every problem at once, each with its path.
func ExampleValidate() {
	msg := components.List{
		components.NewActionRow(
			components.PrimaryButton("", "Go"),
			components.LinkButton("https://example.com", "Docs"),
		),
		components.NewTextDisplay("Only in V2 messages"),
	}
	err := components.Validate(components.LegacyMessage, msg...)
	var ve *components.ValidationError
	if errors.As(err, &ve) {
		for _, p := range ve.Problems {
			fmt.Printf("%s (%s)\n", p.Path, p.Code)
		}
	}
	// A webhook not owned by an application may send link buttons only.
	err = components.Validate(components.V2Message|components.NonInteractive,
		components.NewActionRow(components.PrimaryButton("ok", "OK")))
	fmt.Println(err)
	// Output:
	// [0].components[0].custom_id (required)
	// [1] (placement)
	// guildkit: invalid request: [0].components[0]: a Button is interactive; a webhook not owned by an application may only send non-interactive components (and link buttons)
}

// AssignIDs numbers the tree depth-first, skipping ids already used.
func ExampleAssignIDs() {
	tree := components.List{
		components.NewContainer(
			&components.TextDisplay{ID: 2, Content: "kept"},
			components.NewTextDisplay("filled"),
		),
		components.NewTextDisplay("filled too"),
	}
	components.AssignIDs(tree...)
	c := tree[0].(*components.Container)
	fmt.Println(c.ID, c.Components[0].ComponentID(), c.Components[1].ComponentID(), tree[1].ComponentID())
	// Output:
	// 1 2 3 4
}

// Reading a modal submission by custom_id.
func ExampleModalSubmitData() {
	payload := `{"custom_id":"bug","components":[
		{"type":18,"id":1,"component":{"type":4,"id":2,"custom_id":"summary","value":"Crash on start"}},
		{"type":18,"id":3,"component":{"type":21,"id":4,"custom_id":"severity","value":null}},
		{"type":18,"id":5,"component":{"type":22,"id":6,"custom_id":"os","values":[]}},
		{"type":18,"id":7,"component":{"type":23,"id":8,"custom_id":"contact","value":true}}]}`
	var data components.ModalSubmitData
	if err := json.Unmarshal([]byte(payload), &data); err != nil {
		fmt.Println(err)
		return
	}
	summary, _ := data.Text("summary")
	severity, picked, _ := data.Selected("severity")
	oses, _ := data.Values("os")
	contact, _ := data.Checked("contact")
	fmt.Printf("%q %q %v %d %v\n", summary, severity, picked, len(oses), contact)

	_, err := data.Text("severity")
	fmt.Println(err)
	_, err = data.Text("title")
	fmt.Println(errors.Is(err, components.ErrNoSuchField))
	// Output:
	// "Crash on start" "" false 0 true
	// components: field "severity" is a Radio Group, want Text Input
	// true
}

// Decoding the data of a select interaction (interaction type 3).
func ExampleInteractionData() {
	var data components.InteractionData
	_ = json.Unmarshal([]byte(`{"custom_id":"who","component_type":5,"values":["80351110224678912"],"resolved":{}}`), &data)
	ids, _ := data.Snowflakes()
	fmt.Println(data.ComponentType, data.CustomID, ids)
	// Output:
	// User Select who [80351110224678912]
}
