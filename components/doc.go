// Package components models the message and modal components of the
// interface (spec: "Message Components and Webhooks Interface"), builds and
// validates component trees before they are sent, and reads the data that
// component interactions and modal submissions bring back.
//
// # Types
//
// Each of the 20 component types of the spec has a Go type: [ActionRow],
// [Button], [StringSelect], [TextInput], [UserSelect], [RoleSelect],
// [MentionableSelect], [ChannelSelect], [Section], [TextDisplay],
// [Thumbnail], [MediaGallery], [File], [Separator], [Container], [Label],
// [FileUpload], [RadioGroup], [CheckboxGroup] and [Checkbox]. They are used
// as pointers and implement [Component]. Encoding writes the "type" field;
// decoding a [List] (or one component with [Unmarshal]) picks the Go type
// from "type". A type this package does not know decodes into [Unknown],
// which keeps the raw JSON and encodes it back unchanged, nested ones too.
//
// Optional fields with a default in the spec that differs from Go's zero
// value are [Opt] values (min_values defaults to 1, required and divider to
// true, ...): the zero Opt leaves the field out, Some(v) sends v, so
// Some(false) and Some(0) are explicit. Nullable fields (a thumbnail's
// description, a container's accent_color, media height and width) are Opt
// too and accept Null. Optional fields whose default is Go's zero value
// (spoiler, disabled, an option's default, all false) are plain values and
// are left out when zero. Response-only fields (an unfurled media item's
// id, proxy_url, height, width, content_type, attachment_id; a file's name and
// size) decode and re-encode. So do members this package does not model and
// explicit zero values ("disabled": false): see [List].
//
// Ids are 32-bit integers; this package reads them as signed, 0..[MaxID]
// (2^31-1), and 0 means empty. [AssignIDs] fills empty ids the way the
// service does.
//
// # Modes
//
// The same components appear in three places, the [Target]s of [Validate]:
//
//   - [LegacyMessage]: a message without the IS_COMPONENTS_V2 flag. Its top
//     level holds at most 5 action rows; content and embeds sit beside them.
//   - [V2Message]: a message with IS_COMPONENTS_V2 (1 << 15). Layout and
//     content components (sections, text displays, galleries, files,
//     separators, containers) replace content and embeds; up to 40
//     components in total, nested ones included.
//   - [Modal]: text displays and labels wrapping one input each (text
//     input, select, file upload, radio group, checkbox group, checkbox).
//     The deprecated form, an action row holding one text input (with its
//     own label), is accepted.
//
// Or a message target with [NonInteractive] for webhooks not owned by an
// application, which may send only non-interactive components. Link
// buttons are allowed there (they send no interaction); Premium buttons are
// not, as they belong to an application's SKU.
//
// # Builders
//
// Constructors and chained With... methods read like the tree they make:
//
//	msg := components.List{
//		components.NewContainer(
//			components.NewTextDisplay("## Build 42 passed"),
//			components.NewActionRow(
//				components.LinkButton("https://ci.example/42", "Open"),
//				components.SecondaryButton("rerun:42", "Re-run"),
//			),
//		).WithAccentColor(0x2ECC71),
//	}
//
// Struct literals build the same values (&components.Container{...}); the
// examples show both.
//
// # Validation
//
// [Validate] checks a tree against every rule and limit of the spec for
// its target and returns every problem at once as a [*ValidationError]
// (the type package guildkit reports), each a [FieldError] with a path such
// as "[1].components[0].custom_id" and a code such as "length" or
// "placement". See [Validate] for the list of rules, including those this
// package adds where the spec is silent.
//
// # Interaction data
//
// [InteractionData] is the data of a message component interaction
// (interaction type 3): component_type, custom_id, values and the raw
// resolved data. [ModalSubmitData] is a modal submission; its look-ups by
// custom_id ([ModalSubmitData.Text], [ModalSubmitData.Values],
// [ModalSubmitData.Snowflakes], [ModalSubmitData.Files],
// [ModalSubmitData.Selected], [ModalSubmitData.Checked]) search labels and
// deprecated action rows and report a missing field ([ErrNoSuchField]) or
// one of another type ([*FieldTypeError]). Resolved data (users, members,
// roles, channels, attachments) stays raw JSON: its types live in package
// guildkit, which this package does not import.
package components
