// Command example prints the span tree OpenTelemetry records for guildkit
// calls, one of them retried.
//
// With no GUILDKIT_TOKEN set it starts the in-memory server from
// guildkittest, seeds a guild and makes its first Get Guild answer 503, so
// the call is retried once (run it from the otelguildkit directory):
//
//	go run ./example
//
// Against a real deployment, name the address, the bot token and a guild
// (whether a call is retried is then up to the deployment):
//
//	GUILDKIT_BASE_URL=https://chat.example.com/api/v10 GUILDKIT_TOKEN=... GUILDKIT_GUILD_ID=123 go run ./example
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
	"github.com/seed012df1e9/guildkit/otelguildkit"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := run(ctx, os.Stdout, os.Getenv); err != nil {
		log.Fatal(err)
	}
}

// run makes two calls under one parent span and prints the spans they made.
func run(ctx context.Context, out io.Writer, getenv func(string) string) error {
	// Spans go to an in-memory recorder here; a program would use an
	// exporter (OTLP, stdout) in a batch span processor instead.
	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	defer tp.Shutdown(ctx)
	obs := guildkit.WithObserver(otelguildkit.Observer(otelguildkit.WithTracerProvider(tp)))

	client, guildID, cleanup, err := connect(out, getenv, obs)
	if err != nil {
		return err
	}
	defer cleanup()

	ctx, parent := tp.Tracer("example").Start(ctx, "show guild")
	g, err := client.Guilds.Get(ctx, guildID, nil)
	if err != nil {
		parent.End()
		return err
	}
	roles, err := client.Roles.List(ctx, guildID)
	parent.End()
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "guild %q, roles: %d\n\n", g.Name, len(roles))
	printTree(out, spans.Ended())
	return nil
}

// connect returns a client with the observer and the guild to look at: the
// deployment named by the environment, or an in-memory server whose first
// Get Guild answers 503.
func connect(out io.Writer, getenv func(string) string, obs guildkit.Option) (*guildkit.Client, guildkit.Snowflake, func(), error) {
	token := getenv("GUILDKIT_TOKEN")
	if token == "" {
		fmt.Fprintln(out, "GUILDKIT_TOKEN is not set: running against the in-memory server, whose first Get Guild answers 503")
		srv := guildkittest.New()
		g := srv.AddGuild(guildkit.Guild{Name: "Gopher Guild"})
		if err := srv.InjectFault("GET /guilds/{guild.id}", 1, guildkittest.Fault{Status: http.StatusServiceUnavailable}); err != nil {
			srv.Close()
			return nil, 0, nil, err
		}
		return srv.Client(obs), g.ID, srv.Close, nil
	}
	guildID, err := guildkit.ParseSnowflake(getenv("GUILDKIT_GUILD_ID"))
	if err != nil {
		return nil, 0, nil, fmt.Errorf("GUILDKIT_GUILD_ID: %w", err)
	}
	client, err := guildkit.New(guildkit.BotToken(token), guildkit.WithBaseURL(getenv("GUILDKIT_BASE_URL")), obs)
	if err != nil {
		return nil, 0, nil, err
	}
	return client, guildID, func() {}, nil
}

// printTree prints spans as a tree under their parents, each span's events
// under it, with times from the start of the root.
func printTree(out io.Writer, spans []sdktrace.ReadOnlySpan) {
	children := map[trace.SpanID][]sdktrace.ReadOnlySpan{}
	var roots []sdktrace.ReadOnlySpan
	ids := map[trace.SpanID]bool{}
	for _, s := range spans {
		ids[s.SpanContext().SpanID()] = true
	}
	for _, s := range spans {
		if p := s.Parent().SpanID(); p.IsValid() && ids[p] {
			children[p] = append(children[p], s)
		} else {
			roots = append(roots, s)
		}
	}
	byStart := func(a, b sdktrace.ReadOnlySpan) int { return a.StartTime().Compare(b.StartTime()) }
	slices.SortFunc(roots, byStart)
	for _, r := range roots {
		fmt.Fprintf(out, "%s (%s)\n", r.Name(), ms(r.EndTime().Sub(r.StartTime())))
		kids := children[r.SpanContext().SpanID()]
		slices.SortFunc(kids, byStart)
		for i, k := range kids {
			printSpan(out, k, r.StartTime(), "", i == len(kids)-1)
		}
	}
}

func printSpan(out io.Writer, s sdktrace.ReadOnlySpan, t0 time.Time, indent string, last bool) {
	branch, next := "├─ ", "│  "
	if last {
		branch, next = "└─ ", "   "
	}
	a := attrMap(s.Attributes())
	fmt.Fprintf(out, "%s%s%s [%s] status %s, attempts %s (%s)\n", indent, branch, s.Name(), s.SpanKind(),
		a["http.response.status_code"], a["guildkit.attempts"], ms(s.EndTime().Sub(s.StartTime())))
	keys := []string{"url.template", "server.address", "guildkit.major_parameter", "http.request.resend_count", "guildkit.rate_limit.bucket"}
	for _, k := range keys {
		if v, ok := a[k]; ok {
			fmt.Fprintf(out, "%s%s  %s = %s\n", indent, next, k, v)
		}
	}
	for i, e := range s.Events() {
		eb := "├─ "
		if i == len(s.Events())-1 {
			eb = "└─ "
		}
		ea := attrMap(e.Attributes)
		var extra []string
		if v, ok := ea["error.type"]; ok {
			extra = append(extra, "error.type "+v)
		}
		if v, ok := ea["guildkit.rate_limit.bucket"]; ok {
			extra = append(extra, "bucket "+v)
		}
		status := "no answer"
		if v, ok := ea["http.response.status_code"]; ok {
			status = "status " + v
		}
		fmt.Fprintf(out, "%s%s%sevent %s %s: %s (at +%s)\n", indent, next, eb, e.Name, ea["guildkit.attempt"],
			strings.Join(append([]string{status}, extra...), ", "), ms(e.Time.Sub(t0)))
	}
}

func attrMap(kvs []attribute.KeyValue) map[string]string {
	m := make(map[string]string, len(kvs))
	for _, kv := range kvs {
		m[string(kv.Key)] = kv.Value.Emit()
	}
	return m
}

func ms(d time.Duration) string { return d.Round(100 * time.Microsecond).String() }
