package guildkittest_test

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// interactionsEndpoint is a minimal interactions endpoint: it checks the
// platform's signature with the application's public key, answers PING,
// and answers every other interaction with answer's response.
func interactionsEndpoint(pub ed25519.PublicKey, answer func(*guildkit.Interaction) *guildkit.InteractionResponse) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		sig, err := hex.DecodeString(r.Header.Get("X-Signature-Ed25519"))
		if err != nil || !ed25519.Verify(pub, append([]byte(r.Header.Get("X-Signature-Timestamp")), body...), sig) {
			http.Error(w, "invalid request signature", http.StatusUnauthorized)
			return
		}
		var it guildkit.Interaction
		if err := json.Unmarshal(body, &it); err != nil {
			http.Error(w, "invalid body", http.StatusBadRequest)
			return
		}
		resp := &guildkit.InteractionResponse{Type: guildkit.InteractionResponsePong}
		if it.Type != guildkit.InteractionTypePing {
			resp = answer(&it)
		}
		ct, out, err := resp.Encode()
		if err != nil {
			http.Error(w, "encoding", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", ct)
		_, _ = io.Copy(w, out)
	})
}

// A user clicks a button of the application's message; the application
// answers with an ephemeral message, which only that user sees.
func ExampleServer_Click() {
	srv := guildkittest.New()
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	alice := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "alice"}}).User
	bob := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "bob"}}).User
	msg := srv.AddApplicationMessage(ch.ID, guildkit.Message{Content: "Daily poll",
		Components: components.List{components.NewActionRow(components.SuccessButton("vote:yes", "Yes"))}})

	srv.SetInteractionsHandler(interactionsEndpoint(srv.Application().PublicKey, func(it *guildkit.Interaction) *guildkit.InteractionResponse {
		return guildkit.MessageResponse(&guildkit.InteractionMessageParams{
			Content: guildkit.Some(it.Invoker().Username + " voted " + it.CustomID()),
			Flags:   guildkit.Some(guildkit.MessageFlagEphemeral),
		})
	}))
	if err := srv.CheckInteractionsEndpoint(context.Background()); err != nil {
		fmt.Println(err)
		return
	}

	out, err := srv.Click(context.Background(), alice.ID, msg.ID, "vote:yes")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out)
	fmt.Println("alice sees", len(srv.ChannelMessages(ch.ID, alice.ID)), "messages, bob", len(srv.ChannelMessages(ch.ID, bob.ID)))

	_, err = srv.Click(context.Background(), alice.ID, msg.ID, "vote:no") // not on the message
	fmt.Println(errors.Is(err, guildkittest.ErrRefused))
	// Output:
	// message (ephemeral): alice voted vote:yes
	// alice sees 2 messages, bob 1
	// true
}

// A button opens a modal; the user fills it in and submits it.
func ExampleServer_SubmitModal() {
	srv := guildkittest.New()
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	alice := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "alice"}}).User
	msg := srv.AddApplicationMessage(ch.ID, guildkit.Message{
		Components: components.List{components.NewActionRow(components.PrimaryButton("feedback", "Give feedback"))}})

	srv.SetInteractionsHandler(interactionsEndpoint(srv.Application().PublicKey, func(it *guildkit.Interaction) *guildkit.InteractionResponse {
		if it.ModalSubmit == nil {
			return guildkit.ModalResponse("feedback-form", "Feedback",
				components.NewLabel("Your feedback", components.NewTextInput("text", components.TextInputParagraph).WithLength(5, 500)),
				components.NewLabel("Rating", components.NewRadioGroup("rating", components.NewChoice("Good", "good"), components.NewChoice("Bad", "bad"))))
		}
		text, _ := it.ModalSubmit.Text("text")
		rating, _, _ := it.ModalSubmit.Selected("rating")
		return guildkit.UpdateResponse(&guildkit.InteractionMessageParams{
			Content: guildkit.Some(fmt.Sprintf("Thanks! (%s: %q)", rating, text)), Components: components.List{}})
	}))

	out, _ := srv.Click(context.Background(), alice.ID, msg.ID, "feedback")
	fmt.Println(out)
	_, err := srv.SubmitModal(context.Background(), alice.ID, out.Modal, guildkittest.ModalValues{"text": "ok", "rating": "good"})
	fmt.Println(err)
	out, _ = srv.SubmitModal(context.Background(), alice.ID, out.Modal, guildkittest.ModalValues{"text": "Works well", "rating": "good"})
	fmt.Println(out)
	// Output:
	// modal "Feedback" (feedback-form)
	// guildkittest: the platform's client would not send this: the text input "text" takes 5 to 500 characters, got 2
	// updated: Thanks! (good: "Works well")
}

// A user picks roles in a role select; the interaction carries the roles
// resolved, and the application updates the message.
func ExampleServer_Select() {
	srv := guildkittest.New()
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "roles", Type: guildkit.ChannelTypeGuildText})
	alice := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "alice"}}).User
	gamer := srv.AddRole(g.ID, guildkit.Role{Name: "Gamer"})
	artist := srv.AddRole(g.ID, guildkit.Role{Name: "Artist"})
	msg := srv.AddApplicationMessage(ch.ID, guildkit.Message{Content: "Pick your roles",
		Components: components.List{components.NewActionRow(components.NewRoleSelect("roles").WithValues(1, 3))}})

	srv.SetInteractionsHandler(interactionsEndpoint(srv.Application().PublicKey, func(it *guildkit.Interaction) *guildkit.InteractionResponse {
		ids, _ := it.Component.Snowflakes()
		names := ""
		for _, id := range ids {
			names += " " + it.Resolved.Roles[id].Name
		}
		return guildkit.UpdateResponse(&guildkit.InteractionMessageParams{Content: guildkit.Some("Chosen:" + names)})
	}))
	out, err := srv.Select(context.Background(), alice.ID, msg.ID, "roles", gamer.ID.String(), artist.ID.String())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out)
	// Output:
	// updated: Chosen: Gamer Artist
}

// Code that keeps deadlines can run on the server's clock: AdvanceClock
// runs what has become due, so a test of a 3-second rule does not wait.
func ExampleServer_AfterFunc() {
	srv := guildkittest.New()
	defer srv.Close()
	srv.AfterFunc(2500*time.Millisecond, func() { fmt.Println("deferred the answer") })
	stop := srv.AfterFunc(time.Minute, func() { fmt.Println("never") })

	srv.AdvanceClock(2 * time.Second)
	fmt.Println("2s")
	srv.AdvanceClock(time.Second)
	fmt.Println("3s")
	fmt.Println(stop())
	// Output:
	// 2s
	// deferred the answer
	// 3s
	// true
}

// A slow application answers after the 3 seconds the platform waits: the
// user sees the interaction fail.
func ExampleOutcome() {
	srv := guildkittest.New()
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	alice := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "alice"}}).User
	msg := srv.AddApplicationMessage(ch.ID, guildkit.Message{
		Components: components.List{components.NewActionRow(components.PrimaryButton("report", "Report"))}})
	srv.SetInteractionsHandler(interactionsEndpoint(srv.Application().PublicKey, func(*guildkit.Interaction) *guildkit.InteractionResponse {
		srv.AdvanceClock(4 * time.Second) // a slow database
		return guildkit.MessageResponse(&guildkit.InteractionMessageParams{Content: guildkit.Some("Here is your report")})
	}))
	out, _ := srv.Click(context.Background(), alice.ID, msg.ID, "report")
	fmt.Println(out)
	fmt.Println(srv.Deliveries()[0].Failure)
	// Output:
	// failed: the application did not answer within 3 seconds
	// the application did not answer within 3 seconds
}
