package guildkittest_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// applicationForm is a modal with every field type.
func applicationForm(roleID guildkit.Snowflake) *guildkit.InteractionResponse {
	return guildkit.ModalResponse("apply", "Apply",
		components.NewLabel("Name", components.NewTextInput("name", components.TextInputShort).WithLength(2, 20)),
		components.NewLabel("Why", components.NewTextInput("why", components.TextInputParagraph).WithRequired(false).WithValue("because")),
		components.NewLabel("Team", components.NewRadioGroup("team", components.NewChoice("Red", "red"), components.NewChoice("Blue", "blue"))),
		components.NewLabel("Extras", components.NewCheckboxGroup("extras", components.NewChoice("News", "news"), components.NewChoice("Beta", "beta")).
			WithValues(0, 2).WithRequired(false)),
		components.NewLabel("Role", components.NewRoleSelect("role", components.DefaultRole(roleID))),
	)
}

// modalApp opens resp's modal on a click and answers the submission with a
// message, keeping what it received.
func modalApp(t *testing.T, modal *guildkit.InteractionResponse) func(http.ResponseWriter, *http.Request, *guildkit.Interaction) {
	return func(w http.ResponseWriter, _ *http.Request, it *guildkit.Interaction) {
		if it.Type == guildkit.InteractionTypeMessageComponent {
			reply(t, w, modal)
			return
		}
		reply(t, w, guildkit.MessageResponse(text("Thanks")))
	}
}

func TestSubmitModal(t *testing.T) {
	var f *fixture
	var role guildkit.Role
	f = newFixture(t, func(w http.ResponseWriter, r *http.Request, it *guildkit.Interaction) {
		modalApp(t, applicationForm(role.ID))(w, r, it)
	})
	role = f.srv.AddRole(f.guild.ID, guildkit.Role{Name: "Applicant"})
	out, err := f.srv.Click(t.Context(), f.alice, f.msg.ID, "go")
	require.NoError(t, err)
	require.Equal(t, guildkittest.OutcomeModal, out.Kind, out.String())
	modal := out.Modal
	assert.Equal(t, "Apply", modal.Modal.Title)
	assert.Equal(t, 1, modal.Modal.Components[0].ComponentID(), "the platform numbers the modal's components")

	sub, err := f.srv.SubmitModal(t.Context(), f.alice, modal, guildkittest.ModalValues{
		"name": "Alice", "team": "blue", "extras": []string{"beta"},
	})
	require.NoError(t, err)
	assert.Equal(t, "message: Thanks", sub.String())
	it := f.app.last().it
	assert.Equal(t, guildkit.InteractionTypeModalSubmit, it.Type)
	require.NotNil(t, it.Message, "opened from a component: the submission carries the message")
	assert.Equal(t, f.msg.ID, it.Message.ID)
	d := it.ModalSubmit
	require.NotNil(t, d)
	assert.Equal(t, "apply", d.CustomID)
	name, err := d.Text("name")
	require.NoError(t, err)
	assert.Equal(t, "Alice", name)
	why, err := d.Text("why")
	require.NoError(t, err)
	assert.Equal(t, "because", why, "an untouched input submits its pre-filled value")
	team, ok, err := d.Selected("team")
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, "blue", team)
	extras, err := d.Values("extras")
	require.NoError(t, err)
	assert.Equal(t, []string{"beta"}, extras)
	roles, err := d.Snowflakes("role")
	require.NoError(t, err)
	assert.Equal(t, []guildkit.Snowflake{role.ID}, roles, "the select's default")
	require.NotNil(t, it.Resolved)
	assert.Equal(t, "Applicant", it.Resolved.Roles[role.ID].Name)

	// The response shape: labels wrap their child under "component".
	var raw struct {
		Components []map[string]json.RawMessage `json:"components"`
	}
	require.NoError(t, json.Unmarshal(it.Data, &raw))
	require.Len(t, raw.Components, 5)
	assert.JSONEq(t, `"18"`, `"`+string(raw.Components[0]["type"])+`"`)
	assert.JSONEq(t, `{"type":4,"id":2,"custom_id":"name","value":"Alice"}`, string(raw.Components[0]["component"]))
	assert.JSONEq(t, `{"type":22,"id":8,"custom_id":"extras","values":["beta"]}`, string(raw.Components[3]["component"]))

	_, err = f.srv.SubmitModal(t.Context(), f.alice, modal, guildkittest.ModalValues{"name": "Alice", "team": "red"})
	require.ErrorIs(t, err, guildkittest.ErrRefused, "a modal closes once its submission is answered")
}

func TestSubmitModalRefusals(t *testing.T) {
	var f *fixture
	var role guildkit.Role
	f = newFixture(t, func(w http.ResponseWriter, r *http.Request, it *guildkit.Interaction) {
		modalApp(t, applicationForm(role.ID))(w, r, it)
	})
	role = f.srv.AddRole(f.guild.ID, guildkit.Role{Name: "Applicant"})
	out, err := f.srv.Click(t.Context(), f.alice, f.msg.ID, "go")
	require.NoError(t, err)
	modal := out.Modal
	delivered := f.app.count()
	ok := guildkittest.ModalValues{"name": "Alice", "team": "red"}
	with := func(k string, v any) guildkittest.ModalValues {
		m := guildkittest.ModalValues{}
		for kk, vv := range ok {
			m[kk] = vv
		}
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
		return m
	}
	tests := []struct {
		name   string
		user   guildkit.Snowflake
		values guildkittest.ModalValues
		want   string
	}{
		{"another user", f.bob, ok, "shown to user"},
		{"required text missing", f.alice, with("name", nil), `"name" is required`},
		{"required text empty", f.alice, with("name", ""), `"name" is required`},
		{"text too short", f.alice, with("name", "A"), "2 to 20 characters"},
		{"text too long", f.alice, with("name", strings.Repeat("x", 21)), "2 to 20 characters"},
		{"text of wrong type", f.alice, with("name", 3), "takes a string"},
		{"radio required", f.alice, with("team", nil), `"team" is required`},
		{"radio not an option", f.alice, with("team", "green"), "no option"},
		{"checkbox group not an option", f.alice, with("extras", []string{"spam"}), "not an option"},
		{"checkbox group twice", f.alice, with("extras", []string{"news", "news"}), "twice"},
		{"select not a role", f.alice, with("role", []string{f.alice.String()}), "not a role"},
		{"select too many", f.alice, with("role", []string{role.ID.String(), f.guild.ID.String()}), "takes 1 to 1"},
		{"unknown field", f.alice, with("age", "3"), `no field "age"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := f.srv.SubmitModal(t.Context(), tt.user, modal, tt.values)
			require.ErrorIs(t, err, guildkittest.ErrRefused)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
	assert.Equal(t, delivered, f.app.count(), "nothing delivered")
	_, err = f.srv.SubmitModal(t.Context(), f.alice, nil, ok)
	require.ErrorIs(t, err, guildkittest.ErrRefused)
}

// TestSubmitModalFieldsOfEveryKind: checkboxes, uploads and the
// deprecated action row of a text input.
func TestSubmitModalFieldsOfEveryKind(t *testing.T) {
	modal := guildkit.ModalResponse("kit", "Kit",
		components.NewLabel("Agree", components.NewCheckbox("agree")),
		components.NewLabel("Files", components.NewFileUpload("files").WithValues(1, 2)),
		components.NewLabel("Who", components.NewUserSelect("who").WithValues(1, 2)),
		components.NewTextDisplay("Fill it in"),
	)
	f := newFixture(t, modalApp(t, modal))
	out, err := f.srv.Click(t.Context(), f.alice, f.msg.ID, "go")
	require.NoError(t, err)
	require.Equal(t, guildkittest.OutcomeModal, out.Kind, out.String())

	_, err = f.srv.SubmitModal(t.Context(), f.alice, out.Modal, guildkittest.ModalValues{"agree": "yes", "who": []string{f.bob.String()}})
	require.ErrorIs(t, err, guildkittest.ErrRefused, "a checkbox takes a bool")
	_, err = f.srv.SubmitModal(t.Context(), f.alice, out.Modal, guildkittest.ModalValues{"who": []string{f.bob.String()}})
	require.ErrorIs(t, err, guildkittest.ErrRefused, "the upload is required")
	_, err = f.srv.SubmitModal(t.Context(), f.alice, out.Modal, guildkittest.ModalValues{"who": []string{f.bob.String()},
		"files": []guildkit.File{{Name: "a.txt", Reader: strings.NewReader("a")}, {Name: "b.txt", Reader: strings.NewReader("b")},
			{Name: "c.txt", Reader: strings.NewReader("c")}}})
	require.ErrorIs(t, err, guildkittest.ErrRefused, "at most 2 files")

	sub, err := f.srv.SubmitModal(t.Context(), f.alice, out.Modal, guildkittest.ModalValues{
		"agree": true, "who": []string{f.bob.String()},
		"files": []guildkit.File{{Name: "cv.pdf", ContentType: "application/pdf", Reader: strings.NewReader("%PDF")}},
	})
	require.NoError(t, err)
	assert.Equal(t, guildkittest.OutcomeMessage, sub.Kind)
	d := f.app.last().it
	checked, err := d.ModalSubmit.Checked("agree")
	require.NoError(t, err)
	assert.True(t, checked)
	ids, err := d.ModalSubmit.Files("files")
	require.NoError(t, err)
	require.Len(t, ids, 1)
	att := d.Resolved.Attachments[ids[0]]
	assert.Equal(t, "cv.pdf", att.Filename)
	assert.Equal(t, int64(4), att.Size)
	assert.Equal(t, "bob", d.Resolved.Users[f.bob].Username)
	assert.Contains(t, d.Resolved.Members, f.bob)
	var raw struct {
		Components []map[string]any `json:"components"`
	}
	require.NoError(t, json.Unmarshal(d.Data, &raw))
	assert.Equal(t, map[string]any{"type": float64(10), "id": float64(7)}, raw.Components[3], "a text display submits its type and id")
}

// TestModalAnswers: a modal submission cannot be answered with a modal;
// one from a command-less modal... (opened from a component) may update
// the message.
func TestModalAnswers(t *testing.T) {
	modal := guildkit.ModalResponse("m", "M", components.NewLabel("Name", components.NewTextInput("name", components.TextInputShort)))
	var second *guildkit.InteractionResponse
	f := newFixture(t, func(w http.ResponseWriter, _ *http.Request, it *guildkit.Interaction) {
		if it.Type == guildkit.InteractionTypeMessageComponent {
			reply(t, w, modal)
			return
		}
		reply(t, w, second)
	})
	open := func() *guildkittest.OpenModal {
		out, err := f.srv.Click(t.Context(), f.alice, f.msg.ID, "go")
		require.NoError(t, err)
		return out.Modal
	}
	second = modal
	out, err := f.srv.SubmitModal(t.Context(), f.alice, open(), guildkittest.ModalValues{"name": "x"})
	require.NoError(t, err)
	assert.Equal(t, guildkittest.OutcomeFailed, out.Kind)
	assert.Contains(t, out.Failure, "MODAL cannot answer MODAL_SUBMIT interactions")

	second = guildkit.UpdateResponse(text("Saved"))
	m := open()
	out, err = f.srv.SubmitModal(t.Context(), f.alice, m, guildkittest.ModalValues{"name": "x"})
	require.NoError(t, err)
	assert.Equal(t, "updated: Saved", out.String())
	_, err = f.srv.SubmitModal(t.Context(), f.alice, m, guildkittest.ModalValues{"name": "y"})
	require.ErrorIs(t, err, guildkittest.ErrRefused)
}

// TestRunCommand: a command's interaction, a modal opened from it (whose
// submission carries no message and cannot update one), autocomplete.
func TestRunCommand(t *testing.T) {
	modal := guildkit.ModalResponse("ask", "Ask", components.NewLabel("Q", components.NewTextInput("q", components.TextInputShort)))
	var submitAnswer *guildkit.InteractionResponse
	f := newFixture(t, func(w http.ResponseWriter, _ *http.Request, it *guildkit.Interaction) {
		switch it.Type {
		case guildkit.InteractionTypeApplicationCommand:
			reply(t, w, modal)
		case guildkit.InteractionTypeAutocomplete:
			o, _ := it.Command.Focused()
			reply(t, w, guildkit.AutocompleteResponse(guildkit.CommandOptionChoice{Name: o.StringValue() + "1", Value: o.StringValue() + "1"},
				guildkit.CommandOptionChoice{Name: o.StringValue() + "2", Value: o.StringValue() + "2"}))
		default:
			reply(t, w, submitAnswer)
		}
	})
	f.srv.AddCommand(f.guild.ID, guildkit.CommandCreateParams{Name: "ask", Description: "Ask a question", Options: []guildkit.CommandOptionDefinition{
		{Type: guildkit.CommandOptionString, Name: "topic", Description: "What about", Autocomplete: true},
	}})
	out, err := f.srv.RunCommand(t.Context(), f.alice, f.ch.ID, "ask", guildkit.CommandOption{Name: "topic", Type: guildkit.CommandOptionString, Value: json.RawMessage(`"go"`)})
	require.NoError(t, err)
	require.Equal(t, guildkittest.OutcomeModal, out.Kind, out.String())
	it := f.app.last().it
	require.NotNil(t, it.Command)
	assert.Equal(t, "ask", it.Command.Name)
	assert.Equal(t, guildkit.CommandTypeChatInput, it.Command.Type)
	assert.NotZero(t, it.Command.ID)
	topic, ok := it.Command.Option("topic")
	require.True(t, ok)
	assert.Equal(t, "go", topic.StringValue())
	assert.Nil(t, it.Message)

	submitAnswer = guildkit.UpdateResponse(text("no message to update"))
	sub, err := f.srv.SubmitModal(t.Context(), f.alice, out.Modal, guildkittest.ModalValues{"q": "why"})
	require.NoError(t, err)
	assert.Equal(t, guildkittest.OutcomeFailed, sub.Kind)
	assert.Contains(t, sub.Failure, "not opened from a component")
	assert.Nil(t, f.app.last().it.Message)
	submitAnswer = guildkit.MessageResponse(text("Answered"))
	sub, err = f.srv.SubmitModal(t.Context(), f.alice, out.Modal, guildkittest.ModalValues{"q": "why"})
	require.NoError(t, err)
	assert.Equal(t, "message: Answered", sub.String())

	ac, err := f.srv.Autocomplete(t.Context(), f.alice, f.ch.ID, "ask",
		guildkit.CommandOption{Name: "topic", Type: guildkit.CommandOptionString, Value: json.RawMessage(`"ru"`), Focused: true})
	require.NoError(t, err)
	assert.Equal(t, "autocomplete: 2 choices", ac.String())
	assert.Equal(t, "ru1", ac.Response.Choices[0].Name)
	assert.Equal(t, it.Command.ID, f.app.last().it.Command.ID, "a command keeps its id")

	_, err = f.srv.Autocomplete(t.Context(), f.alice, f.ch.ID, "ask")
	require.ErrorIs(t, err, guildkittest.ErrRefused)
	_, err = f.srv.RunCommand(t.Context(), f.alice, f.ch.ID, "Not A Name")
	require.ErrorIs(t, err, guildkittest.ErrRefused)
	stranger := f.srv.AddUser(guildkit.User{}).ID
	_, err = f.srv.RunCommand(t.Context(), stranger, f.ch.ID, "ask")
	require.ErrorIs(t, err, guildkittest.ErrRefused)
}

// TestModalSubmittedOnce: a second submission while the first is on its
// way is refused at once, so the application gets one MODAL_SUBMIT; a
// failed submission leaves the modal open to submit again.
func TestModalSubmittedOnce(t *testing.T) {
	var submits atomic.Int32
	entered, release := make(chan struct{}), make(chan struct{})
	f := newFixture(t, func(w http.ResponseWriter, _ *http.Request, it *guildkit.Interaction) {
		if it.Type == guildkit.InteractionTypeMessageComponent {
			reply(t, w, guildkit.ModalResponse("m", "One field",
				components.NewLabel("Name", components.NewTextInput("name", components.TextInputShort))))
			return
		}
		if submits.Add(1) == 1 {
			close(entered)
			<-release
			w.WriteHeader(http.StatusInternalServerError) // the first fails
			return
		}
		reply(t, w, guildkit.MessageResponse(text("Thanks")))
	})
	out, err := f.srv.Click(t.Context(), f.alice, f.msg.ID, "go")
	require.NoError(t, err)
	require.NotNil(t, out.Modal)
	first := make(chan *guildkittest.Outcome, 1)
	go func() {
		o, err := f.srv.SubmitModal(context.Background(), f.alice, out.Modal, guildkittest.ModalValues{"name": "Ada"})
		assert.NoError(t, err)
		first <- o
	}()
	<-entered
	_, err = f.srv.SubmitModal(t.Context(), f.alice, out.Modal, guildkittest.ModalValues{"name": "Ada"})
	assert.ErrorIs(t, err, guildkittest.ErrRefused, "submitted twice at once")
	close(release)
	assert.Equal(t, guildkittest.OutcomeFailed, (<-first).Kind)
	again, err := f.srv.SubmitModal(t.Context(), f.alice, out.Modal, guildkittest.ModalValues{"name": "Ada"})
	require.NoError(t, err, "a failed submission leaves the modal open")
	assert.Equal(t, "message: Thanks", again.String())
	assert.EqualValues(t, 2, submits.Load())
}
