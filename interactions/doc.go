// Package interactions receives the interactions the platform delivers to
// an application's interactions endpoint, and answers them: the button
// clicks, select choices and modal submissions of the components a bot sent,
// and its commands.
//
// A [Handler] is an [http.Handler] for the endpoint. For each POST it:
//
//  1. answers 405 (with Allow: POST) to any other method, before anything
//     else;
//  2. reads at most [DefaultMaxBody] bytes (413 above);
//  3. verifies the Ed25519 signature the platform puts in
//     X-Signature-Ed25519 over X-Signature-Timestamp followed by the body,
//     with the application's public key, and refuses a timestamp outside the
//     replay window: any failure is 401, and nothing has been decoded;
//  4. decodes the interaction (400 when the signed body is not one);
//  5. answers PING with PONG itself (the platform's check of the endpoint);
//  6. routes the interaction to the function registered for its custom_id
//     (exactly, or by a pattern such as "role:{id}") or command name, and
//     answers with what that function responds.
//
// Nothing a sender puts in a request makes the Handler answer 5xx, hang or
// panic.
//
// # Answering
//
// A [HandlerFunc] answers once, through its [Request]: [Request.Reply] (a
// new message; ephemeral with [guildkit.MessageFlagEphemeral]),
// [Request.Update] (edits the clicked message), [Request.ShowModal],
// [Request.Defer], or [Request.Respond] with any [guildkit.InteractionResponse].
// Answers are checked before anything is sent ([guildkit.InteractionResponse.Validate]
// and the platform's rules of which answer fits which interaction): an
// invalid one returns a [*guildkit.ValidationError] to the function and
// nothing leaves. A second answer returns an error matching
// [guildkit.ErrInteractionAcknowledged].
//
// The platform drops an interaction that is not answered within 3 seconds.
// When a function has not answered by the Handler's deadline
// ([DefaultDeadline], 2 s: the platform counts the 3 s from its side, and
// the answer has to travel back), the Handler answers for it with a
// deferral: DEFERRED_UPDATE_MESSAGE for a component, and
// DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE for a command or a modal submission.
// The function's own answer, when it comes, is then delivered as an edit of
// the original response (or, for a new message after a deferred update, as
// a follow-up), so the user never sees "This interaction failed" because a
// database was slow. A late answer, an edit or a follow-up leaves only once
// the deferral is written: the platform refuses an edit of an original
// response it has not received. A MODAL or an autocomplete result cannot
// follow a deferral: such a late answer returns [ErrDeferred].
//
// The context a function gets is not the HTTP request's: it lasts the
// interaction token's 15 minutes, so follow-ups ([Request.Followup],
// [Request.EditOriginal]) work after the answer has gone.
//
// # Two ways to answer, and which host fits which
//
// [AnswerInResponse] (the default) puts the initial answer in the HTTP
// response to the platform's POST. Work after it (follow-ups, a late answer
// after an automatic deferral) runs after ServeHTTP has returned, so the
// process must keep running: fit for servers, containers and VMs.
//
// [AnswerByCallback] sends the initial answer through the REST callback
// route (POST /interactions/{id}/{token}/callback) and answers the
// platform's POST with 202 only when the function has returned. Every piece
// of work then happens inside the HTTP request: fit for serverless hosts,
// which may freeze the process as soon as the response is written. It
// needs the host to allow a request to run as long as the function does.
//
// Both need a [guildkit.Client] for the REST routes (it needs no bot
// token: the interaction's token authenticates them).
//
// # Commands
//
// [Handler.Command] declares a command ([guildkit.CommandCreateParams]) and
// routes it to its function in one place; [Handler.Sync] registers exactly
// the declared commands, globally or in a guild: it checks them, reads what
// is registered, compares each by type and name (ignoring what the
// platform fills: ids, versions, the defaults of fields left out) and sends
// one bulk overwrite only when something was added, changed or removed, so
// an unchanged deploy costs one read and no write. A function reads the
// options typed and by name with [Request.Options] (the chosen group and
// subcommand resolved; members, roles, channels and attachments from the
// resolved data), and answers an autocomplete with [Request.Suggest] (at
// most 25 choices of the focused option's type, checked before sending).
// The platform checks values only in its client: a function still treats
// them as input.
//
// # Over the gateway
//
// An application without an interactions endpoint URL receives its
// interactions over the gateway, as INTERACTION_CREATE events. The same
// functions serve them: build the Handler with [NewGatewayHandler] (no
// public key: there is no signature to check) and hand it the gateway's
// interactions with [Handler.ServeInteraction]; with package
// github.com/seed012df1e9/guildkit/gateway that is one line,
// gateway.OnInteraction(shard, h.ServeInteraction). The answers go through
// the callback route, with the same checks, the same automatic deferral
// and the same one-answer rule. This package does not import the gateway
// package, nor the reverse: ServeInteraction takes the interaction itself.
//
// # Where the documents are silent
//
// The interface's documents say only that button, select and modal
// interactions deliver payloads to the application; the signature scheme,
// the PING check, the 3-second rule, the answers and the one-answer rule
// follow the reference platform's v10 interactions API.
package interactions
