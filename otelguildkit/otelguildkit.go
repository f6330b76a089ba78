// Package otelguildkit records OpenTelemetry spans and metrics for a
// guildkit client, built on its observer hook ([guildkit.WithObserver]):
//
//	c, err := guildkit.New(cred, guildkit.WithBaseURL(base),
//		guildkit.WithObserver(otelguildkit.Observer()))
//
// # Spans
//
// Every call is one span of kind client, named "{method} {route template}"
// ("GET /guilds/{guild.id}") as OpenTelemetry's HTTP client semantic
// conventions name a span whose URL template is known. It is a child of the
// span in the call's context, and the span in the context while the call is
// sent, so spans of an instrumented transport below it nest under it. Each
// attempt is an event named "attempt" on that span, at the attempt's end.
//
// Span attributes follow the conventions: http.request.method, url.template,
// server.address, server.port, url.full (with every webhook token replaced by
// "REDACTED", as the conventions ask of credentials), and at the end
// http.response.status_code, http.request.resend_count (attempts after the
// first, when there were any) and error.type (the status code as text for an
// answer of 400 or above, otherwise the kind of failure: "transport",
// "timeout", "canceled", "rate_limited", "decode"). guildkit adds
// guildkit.major_parameter (the guild, channel or webhook id; never a
// token), guildkit.attempts, guildkit.rate_limit.wait (seconds) and
// guildkit.rate_limit.bucket. A call that failed has status Error.
//
// Attempt events carry guildkit.attempt (1 for the first),
// http.request.resend_count, http.response.status_code (when there was an
// answer), error.type, guildkit.rate_limit.wait, guildkit.rate_limit.bucket
// and guildkit.attempt.duration (seconds).
//
// # Metrics
//
//   - http.client.request.duration (histogram, s): one per attempt, as the
//     conventions define it (from sending to the answer's headers; the
//     rate-limit wait before sending is left out), with http.request.method, url.template,
//     server.address, server.port, http.response.status_code and
//     error.type.
//   - guildkit.client.calls (counter): calls, with the attributes above and
//     guildkit.error.kind.
//   - guildkit.client.call.errors (counter): failed calls by error.type and
//     guildkit.error.kind.
//   - guildkit.client.call.duration (histogram, s): a call from start to
//     end, every retry and wait included.
//   - guildkit.client.rate_limit.wait (histogram, s): waits before sending
//     for a bucket, the global pause or the global limiter, by
//     http.request.method and url.template.
//   - guildkit.client.rate_limit.hits (counter): 429 answers, by method,
//     template, guildkit.rate_limit.scope and guildkit.rate_limit.global.
//
// Metric attributes hold route templates and status codes, never ids, so
// their number stays bounded.
package otelguildkit

import (
	"context"
	"net/url"
	"strconv"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	semconv "go.opentelemetry.io/otel/semconv/v1.39.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/seed012df1e9/guildkit"
)

// ScopeName is the instrumentation scope of the spans and metrics.
const ScopeName = "github.com/seed012df1e9/guildkit/otelguildkit"

// Attribute keys guildkit adds to the conventions'.
const (
	AttrMajorParameter = attribute.Key("guildkit.major_parameter")
	AttrAttempt        = attribute.Key("guildkit.attempt")
	AttrAttempts       = attribute.Key("guildkit.attempts")
	AttrAttemptSeconds = attribute.Key("guildkit.attempt.duration")
	AttrRateLimitWait  = attribute.Key("guildkit.rate_limit.wait")
	AttrBucket         = attribute.Key("guildkit.rate_limit.bucket")
	AttrScope          = attribute.Key("guildkit.rate_limit.scope")
	AttrGlobal         = attribute.Key("guildkit.rate_limit.global")
	AttrErrorKind      = attribute.Key("guildkit.error.kind")
)

// Option configures [Observer].
type Option func(*config)

type config struct {
	tp trace.TracerProvider
	mp metric.MeterProvider
}

// WithTracerProvider sets where spans go; the default is the global
// provider (otel.GetTracerProvider) at the time Observer is called.
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(c *config) { c.tp = tp }
}

// WithMeterProvider sets where metrics go; the default is the global
// provider (otel.GetMeterProvider) at the time Observer is called.
func WithMeterProvider(mp metric.MeterProvider) Option {
	return func(c *config) { c.mp = mp }
}

// durationBuckets are the conventions' advice for http.client.request.duration.
var durationBuckets = []float64{0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10}

type instruments struct {
	tracer       trace.Tracer
	reqDuration  metric.Float64Histogram
	calls        metric.Int64Counter
	errors       metric.Int64Counter
	callDuration metric.Float64Histogram
	rlWait       metric.Float64Histogram
	rlHits       metric.Int64Counter
}

// Observer returns a [guildkit.Observer] that records the spans and metrics
// the package documentation lists. An instrument the meter cannot create is
// reported to otel.Handle and left out, as OpenTelemetry's own
// instrumentations do.
func Observer(opts ...Option) guildkit.Observer {
	var cfg config
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.tp == nil {
		cfg.tp = otel.GetTracerProvider()
	}
	if cfg.mp == nil {
		cfg.mp = otel.GetMeterProvider()
	}
	m := cfg.mp.Meter(ScopeName)
	in := &instruments{tracer: cfg.tp.Tracer(ScopeName)}
	var err error
	handle := func(e error) {
		if e != nil {
			otel.Handle(e)
		}
	}
	in.reqDuration, err = m.Float64Histogram("http.client.request.duration", metric.WithUnit("s"),
		metric.WithDescription("Duration of HTTP client requests."), metric.WithExplicitBucketBoundaries(durationBuckets...))
	handle(err)
	in.calls, err = m.Int64Counter("guildkit.client.calls", metric.WithUnit("{call}"),
		metric.WithDescription("Calls made by the guildkit client, retries included in one call."))
	handle(err)
	in.errors, err = m.Int64Counter("guildkit.client.call.errors", metric.WithUnit("{call}"),
		metric.WithDescription("Calls that failed, by kind of failure."))
	handle(err)
	in.callDuration, err = m.Float64Histogram("guildkit.client.call.duration", metric.WithUnit("s"),
		metric.WithDescription("Duration of guildkit calls, every attempt and wait included."),
		metric.WithExplicitBucketBoundaries(durationBuckets...))
	handle(err)
	in.rlWait, err = m.Float64Histogram("guildkit.client.rate_limit.wait", metric.WithUnit("s"),
		metric.WithDescription("Time a request waited for its rate limit before being sent."),
		metric.WithExplicitBucketBoundaries(durationBuckets...))
	handle(err)
	in.rlHits, err = m.Int64Counter("guildkit.client.rate_limit.hits", metric.WithUnit("{response}"),
		metric.WithDescription("429 answers."))
	handle(err)

	return guildkit.Observer{
		CallStart: in.callStart,
		Attempt:   in.attempt,
		CallEnd:   in.callEnd,
		RateLimit: in.rateLimit,
	}
}

// server returns server.address and server.port of a URL.
func server(u string) (string, int) {
	pu, err := url.Parse(u)
	if err != nil {
		return "", 0
	}
	host := pu.Hostname()
	if p := pu.Port(); p != "" {
		n, _ := strconv.Atoi(p)
		return host, n
	}
	if pu.Scheme == "https" {
		return host, 443
	}
	return host, 80
}

// common returns the attributes every span and metric of the call carries.
func common(call guildkit.CallInfo) []attribute.KeyValue {
	host, port := server(call.URL)
	attrs := make([]attribute.KeyValue, 0, 8)
	attrs = append(attrs, method(call.Method), semconv.URLTemplate(call.Route))
	if host != "" {
		attrs = append(attrs, semconv.ServerAddress(host), semconv.ServerPort(port))
	}
	return attrs
}

// method returns http.request.method, "_OTHER" for a method the
// conventions do not know.
func method(m string) attribute.KeyValue {
	switch m {
	case "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "CONNECT", "TRACE":
		return semconv.HTTPRequestMethodKey.String(m)
	}
	return semconv.HTTPRequestMethodOther
}

// errorType is error.type: the status code for an answer of 400 or above,
// the kind of failure otherwise, "" on success.
func errorType(status int, kind guildkit.ErrorKind) string {
	if status >= 400 {
		return strconv.Itoa(status)
	}
	return kind.String()
}

func seconds(d time.Duration) float64 { return d.Seconds() }

func (in *instruments) callStart(ctx context.Context, call guildkit.CallInfo) context.Context {
	attrs := common(call)
	attrs = append(attrs, semconv.URLFull(call.URL))
	if call.Major != "" {
		attrs = append(attrs, AttrMajorParameter.String(call.Major))
	}
	ctx, _ = in.tracer.Start(ctx, call.Method+" "+call.Route,
		trace.WithSpanKind(trace.SpanKindClient), trace.WithTimestamp(call.Start), trace.WithAttributes(attrs...))
	return ctx
}

func (in *instruments) attempt(ctx context.Context, e guildkit.AttemptEvent) {
	et := errorType(e.Status, e.ErrorKind)
	ev := []attribute.KeyValue{
		AttrAttempt.Int(e.Attempt),
		semconv.HTTPRequestResendCount(e.Attempt - 1),
		AttrAttemptSeconds.Float64(seconds(e.Duration)),
		AttrRateLimitWait.Float64(seconds(e.RateLimitWait)),
	}
	if e.Status != 0 {
		ev = append(ev, semconv.HTTPResponseStatusCode(e.Status))
	}
	if et != "" {
		ev = append(ev, semconv.ErrorTypeKey.String(et))
	}
	if e.Bucket != "" {
		ev = append(ev, AttrBucket.String(e.Bucket))
	}
	trace.SpanFromContext(ctx).AddEvent("attempt", trace.WithTimestamp(e.Start.Add(e.Duration)), trace.WithAttributes(ev...))

	attrs := common(e.Call)
	if e.Status != 0 {
		attrs = append(attrs, semconv.HTTPResponseStatusCode(e.Status))
	}
	if et != "" {
		attrs = append(attrs, semconv.ErrorTypeKey.String(et))
	}
	if in.reqDuration != nil {
		in.reqDuration.Record(ctx, seconds(e.Duration-e.RateLimitWait), metric.WithAttributes(attrs...))
	}
	if e.RateLimitWait > 0 && in.rlWait != nil {
		in.rlWait.Record(ctx, seconds(e.RateLimitWait),
			metric.WithAttributes(method(e.Call.Method), semconv.URLTemplate(e.Call.Route)))
	}
}

func (in *instruments) callEnd(ctx context.Context, e guildkit.CallEvent) {
	et := errorType(e.Status, e.ErrorKind)
	span := trace.SpanFromContext(ctx)
	sa := []attribute.KeyValue{AttrAttempts.Int(e.Attempts), AttrRateLimitWait.Float64(seconds(e.RateLimitWait))}
	if e.Status != 0 {
		sa = append(sa, semconv.HTTPResponseStatusCode(e.Status))
	}
	if e.Attempts > 1 {
		sa = append(sa, semconv.HTTPRequestResendCount(e.Attempts-1))
	}
	if e.Bucket != "" {
		sa = append(sa, AttrBucket.String(e.Bucket))
	}
	if et != "" {
		sa = append(sa, semconv.ErrorTypeKey.String(et))
	}
	span.SetAttributes(sa...)
	if e.Err != nil {
		span.SetStatus(codes.Error, e.Err.Error())
	}
	span.End(trace.WithTimestamp(e.Call.Start.Add(e.Duration)))

	attrs := common(e.Call)
	if e.Status != 0 {
		attrs = append(attrs, semconv.HTTPResponseStatusCode(e.Status))
	}
	if et != "" {
		attrs = append(attrs, semconv.ErrorTypeKey.String(et), AttrErrorKind.String(e.ErrorKind.String()))
	}
	set := metric.WithAttributes(attrs...)
	if in.calls != nil {
		in.calls.Add(ctx, 1, set)
	}
	if in.callDuration != nil {
		in.callDuration.Record(ctx, seconds(e.Duration), set)
	}
	if e.Err != nil && in.errors != nil {
		in.errors.Add(ctx, 1, set)
	}
}

func (in *instruments) rateLimit(e guildkit.RateLimitEvent) {
	if e.Kind != guildkit.RateLimitHit || in.rlHits == nil {
		return
	}
	attrs := []attribute.KeyValue{method(e.Method), semconv.URLTemplate(e.Route), AttrGlobal.Bool(e.Global)}
	if e.Scope != "" {
		attrs = append(attrs, AttrScope.String(e.Scope))
	}
	in.rlHits.Add(context.Background(), 1, metric.WithAttributes(attrs...))
}
