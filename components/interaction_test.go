package components_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit/components"
)

func decodeSubmit(t *testing.T) (components.ModalSubmitData, []byte) {
	t.Helper()
	golden := readGolden(t, "modal_submit.json")
	var d components.ModalSubmitData
	require.NoError(t, json.Unmarshal(golden, &d))
	return d, golden
}

func TestModalSubmitRoundTrip(t *testing.T) {
	t.Parallel()
	d, golden := decodeSubmit(t)
	assert.Equal(t, "bug_report", d.CustomID)
	require.Len(t, d.Components, 14)
	assert.Equal(t, components.TypeTextDisplay, d.Components[0].Type)
	assert.Equal(t, 1, d.Components[0].ID)
	require.NotNil(t, d.Components[1].Component)
	assert.Equal(t, components.TypeTextInput, d.Components[1].Component.Type)
	assert.Equal(t, components.TypeActionRow, d.Components[12].Type)
	assert.NotNil(t, d.Components[5].Component.Values, "an empty values array stays non-nil")
	assert.Equal(t, "null", string(d.Components[13].Component.Value), "a null radio value is kept")
	assert.Contains(t, string(d.Resolved), "attachments")

	out, err := json.Marshal(d)
	require.NoError(t, err)
	assert.JSONEq(t, string(golden), string(out))
}

func TestModalSubmitLookups(t *testing.T) {
	t.Parallel()
	d, _ := decodeSubmit(t)

	s, err := d.Text("summary")
	require.NoError(t, err)
	assert.Equal(t, "Crash on start", s)
	s, err = d.Text("steps")
	require.NoError(t, err)
	assert.Equal(t, "", s)
	s, err = d.Text("legacy_note")
	require.NoError(t, err)
	assert.Equal(t, "old style", s, "text inputs in deprecated action rows are found")

	v, err := d.Values("area")
	require.NoError(t, err)
	assert.Equal(t, []string{"client"}, v)
	v, err = d.Values("platforms")
	require.NoError(t, err)
	assert.Equal(t, []string{}, v, "a checkbox group with nothing checked gives an empty list")
	v, err = d.Values("team")
	require.NoError(t, err)
	assert.Empty(t, v)

	ids, err := d.Snowflakes("cc")
	require.NoError(t, err)
	assert.Equal(t, []components.Snowflake{80351110224678912, 41771983423143936}, ids)
	ids, err = d.Snowflakes("where")
	require.NoError(t, err)
	assert.Equal(t, []components.Snowflake{41771983423143937}, ids)

	files, err := d.Files("shots")
	require.NoError(t, err)
	assert.Equal(t, []components.Snowflake{1234567890123456789, 1234567890123456790}, files)

	val, ok, err := d.Selected("severity")
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, "high", val)
	val, ok, err = d.Selected("optional_radio")
	require.NoError(t, err)
	assert.False(t, ok, "null means nothing selected")
	assert.Equal(t, "", val)

	checked, err := d.Checked("contact")
	require.NoError(t, err)
	assert.True(t, checked)

	r, err := d.Field("assignee")
	require.NoError(t, err)
	assert.Equal(t, 9, r.ID)
}

func TestModalSubmitLookupErrors(t *testing.T) {
	t.Parallel()
	d, _ := decodeSubmit(t)
	tests := []struct {
		name string
		call func() error
		want components.Type
		got  components.Type
	}{
		{"Text of a select", func() error { _, err := d.Text("area"); return err }, components.TypeTextInput, components.TypeStringSelect},
		{"Values of a text input", func() error { _, err := d.Values("summary"); return err }, components.TypeStringSelect, components.TypeTextInput},
		{"Snowflakes of a string select", func() error { _, err := d.Snowflakes("area"); return err }, components.TypeUserSelect, components.TypeStringSelect},
		{"Files of a user select", func() error { _, err := d.Files("assignee"); return err }, components.TypeFileUpload, components.TypeUserSelect},
		{"Selected of a checkbox", func() error { _, _, err := d.Selected("contact"); return err }, components.TypeRadioGroup, components.TypeCheckbox},
		{"Checked of a radio group", func() error { _, err := d.Checked("severity"); return err }, components.TypeCheckbox, components.TypeRadioGroup},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := tt.call()
			var fte *components.FieldTypeError
			require.ErrorAs(t, err, &fte)
			assert.Equal(t, tt.want, fte.Want[0])
			assert.Equal(t, tt.got, fte.Got)
			assert.NotEmpty(t, fte.CustomID)
			assert.Contains(t, err.Error(), fte.CustomID)
			assert.Contains(t, err.Error(), tt.got.String())
		})
	}

	_, err := d.Text("nope")
	require.Error(t, err)
	assert.True(t, errors.Is(err, components.ErrNoSuchField))
	assert.Contains(t, err.Error(), `"nope"`)
	_, _, err = d.Selected("nope")
	assert.ErrorIs(t, err, components.ErrNoSuchField)
	_, err = d.Checked("nope")
	assert.ErrorIs(t, err, components.ErrNoSuchField)
}

func TestModalSubmitBadValues(t *testing.T) {
	t.Parallel()
	var d components.ModalSubmitData
	require.NoError(t, json.Unmarshal([]byte(`{"custom_id":"m","components":[
		{"type":18,"id":1,"component":{"type":4,"id":2,"custom_id":"t","value":5}},
		{"type":18,"id":3,"component":{"type":23,"id":4,"custom_id":"c","value":"yes"}},
		{"type":18,"id":5,"component":{"type":21,"id":6,"custom_id":"r","value":false}},
		{"type":18,"id":7,"component":{"type":19,"id":8,"custom_id":"f","values":["x"]}}]}`), &d))
	var fte *components.FieldTypeError
	_, err := d.Text("t")
	require.ErrorAs(t, err, &fte)
	assert.Contains(t, err.Error(), "not a string")
	_, err = d.Checked("c")
	require.ErrorAs(t, err, &fte)
	assert.Contains(t, err.Error(), "not a boolean")
	_, _, err = d.Selected("r")
	require.ErrorAs(t, err, &fte)
	_, err = d.Files("f")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"x"`)
}

func TestSelectInteractionRoundTrip(t *testing.T) {
	t.Parallel()
	golden := readGolden(t, "select_interaction.json")
	var d components.InteractionData
	require.NoError(t, json.Unmarshal(golden, &d))
	assert.Equal(t, "notify", d.CustomID)
	assert.Equal(t, components.TypeMentionableSelect, d.ComponentType)
	assert.Equal(t, 28, d.ID)
	assert.Equal(t, []string{"80351110224678912", "41771983423143936"}, d.Values)
	ids, err := d.Snowflakes()
	require.NoError(t, err)
	assert.Equal(t, []components.Snowflake{80351110224678912, 41771983423143936}, ids)
	assert.Contains(t, string(d.Resolved), `"members"`)

	out, err := json.Marshal(d)
	require.NoError(t, err)
	assert.JSONEq(t, string(golden), string(out))

	var button components.InteractionData
	require.NoError(t, json.Unmarshal([]byte(`{"custom_id":"ok","component_type":2,"id":3}`), &button))
	assert.Nil(t, button.Values)
	out, err = json.Marshal(button)
	require.NoError(t, err)
	assert.JSONEq(t, `{"custom_id":"ok","component_type":2,"id":3}`, string(out))
}
