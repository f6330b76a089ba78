package otelguildkit_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
	"github.com/seed012df1e9/guildkit/otelguildkit"
)

// harness is a guildkittest server and a client whose spans and metrics go
// to in-memory exporters.
type harness struct {
	srv    *guildkittest.Server
	client *guildkit.Client
	spans  *tracetest.SpanRecorder
	reader *sdkmetric.ManualReader
	tp     *sdktrace.TracerProvider
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	h := &harness{srv: guildkittest.NewServer(t), spans: tracetest.NewSpanRecorder(), reader: sdkmetric.NewManualReader()}
	h.tp = sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(h.spans))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(h.reader))
	h.client = h.srv.Client(guildkit.WithObserver(otelguildkit.Observer(
		otelguildkit.WithTracerProvider(h.tp), otelguildkit.WithMeterProvider(mp))))
	return h
}

func (h *harness) metrics(t *testing.T) map[string]metricdata.Aggregation {
	t.Helper()
	var rm metricdata.ResourceMetrics
	require.NoError(t, h.reader.Collect(context.Background(), &rm))
	out := map[string]metricdata.Aggregation{}
	for _, sm := range rm.ScopeMetrics {
		assert.Equal(t, otelguildkit.ScopeName, sm.Scope.Name)
		for _, m := range sm.Metrics {
			out[m.Name] = m.Data
		}
	}
	return out
}

func attrs(kvs []attribute.KeyValue) map[attribute.Key]attribute.Value {
	m := map[attribute.Key]attribute.Value{}
	for _, kv := range kvs {
		m[kv.Key] = kv.Value
	}
	return m
}

func TestRetriedCallIsOneSpanWithAttemptEvents(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	g := h.srv.AddGuild(guildkit.Guild{Name: "otel"})
	require.NoError(t, h.srv.InjectFault("GET /guilds/{guild.id}", 1, guildkittest.Fault{Status: http.StatusServiceUnavailable}))

	ctx, parent := h.tp.Tracer("test").Start(context.Background(), "parent")
	got, err := h.client.Guilds.Get(ctx, g.ID, nil)
	parent.End()
	require.NoError(t, err)
	assert.Equal(t, "otel", got.Name)

	ended := h.spans.Ended()
	require.Len(t, ended, 2)
	span := ended[0]
	assert.Equal(t, "GET /guilds/{guild.id}", span.Name())
	assert.Equal(t, trace.SpanKindClient, span.SpanKind())
	assert.Equal(t, parent.SpanContext().SpanID(), span.Parent().SpanID(), "a child of the caller's span")
	assert.Equal(t, codes.Unset, span.Status().Code)
	a := attrs(span.Attributes())
	assert.Equal(t, "GET", a["http.request.method"].AsString())
	assert.Equal(t, "/guilds/{guild.id}", a["url.template"].AsString())
	assert.Equal(t, "127.0.0.1", a["server.address"].AsString())
	assert.Positive(t, a["server.port"].AsInt64())
	assert.Equal(t, h.srv.BaseURL()+"/guilds/"+g.ID.String(), a["url.full"].AsString())
	assert.Equal(t, int64(200), a["http.response.status_code"].AsInt64())
	assert.Equal(t, int64(1), a["http.request.resend_count"].AsInt64())
	assert.Equal(t, int64(2), a["guildkit.attempts"].AsInt64())
	assert.Equal(t, g.ID.String(), a["guildkit.major_parameter"].AsString())
	_, hasErr := a["error.type"]
	assert.False(t, hasErr)

	ev := span.Events()
	require.Len(t, ev, 2)
	first, second := attrs(ev[0].Attributes), attrs(ev[1].Attributes)
	assert.Equal(t, "attempt", ev[0].Name)
	assert.Equal(t, int64(1), first["guildkit.attempt"].AsInt64())
	assert.Equal(t, int64(503), first["http.response.status_code"].AsInt64())
	assert.Equal(t, "503", first["error.type"].AsString())
	assert.Equal(t, int64(0), first["http.request.resend_count"].AsInt64())
	assert.Equal(t, int64(2), second["guildkit.attempt"].AsInt64())
	assert.Equal(t, int64(200), second["http.response.status_code"].AsInt64())
	assert.Equal(t, int64(1), second["http.request.resend_count"].AsInt64())
	assert.False(t, ev[1].Time.Before(ev[0].Time))
	assert.False(t, span.EndTime().Before(ev[1].Time))

	m := h.metrics(t)
	req := m["http.client.request.duration"].(metricdata.Histogram[float64])
	byStatus := map[int64]uint64{}
	for _, dp := range req.DataPoints {
		st, _ := dp.Attributes.Value("http.response.status_code")
		tmpl, _ := dp.Attributes.Value("url.template")
		assert.Equal(t, "/guilds/{guild.id}", tmpl.AsString())
		byStatus[st.AsInt64()] += dp.Count
	}
	assert.Equal(t, map[int64]uint64{503: 1, 200: 1}, byStatus, "one request duration per attempt")
	calls := m["guildkit.client.calls"].(metricdata.Sum[int64])
	require.Len(t, calls.DataPoints, 1)
	assert.Equal(t, int64(1), calls.DataPoints[0].Value)
	dur := m["guildkit.client.call.duration"].(metricdata.Histogram[float64])
	require.Len(t, dur.DataPoints, 1)
	assert.Equal(t, uint64(1), dur.DataPoints[0].Count)
	_, hasErrors := m["guildkit.client.call.errors"]
	assert.False(t, hasErrors, "no failed calls")
}

func TestFailedCallsCountedByKind(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx := context.Background()
	_, err := h.client.Guilds.Get(ctx, 123456789, nil)
	require.ErrorIs(t, err, guildkit.ErrNotFound)
	g := h.srv.AddGuild(guildkit.Guild{Name: "x"})
	require.NoError(t, h.srv.InjectFault("GET /guilds/{guild.id}/roles", 5,
		guildkittest.Fault{Status: http.StatusTooManyRequests, RetryAfter: guildkittest.Duration(time.Hour)}))
	_, err = h.client.Roles.List(ctx, g.ID)
	var rl *guildkit.RateLimitError
	require.ErrorAs(t, err, &rl)

	ended := h.spans.Ended()
	require.Len(t, ended, 2)
	assert.Equal(t, codes.Error, ended[0].Status().Code)
	assert.Equal(t, "404", attrs(ended[0].Attributes())["error.type"].AsString())
	assert.Equal(t, "429", attrs(ended[1].Attributes())["error.type"].AsString())

	m := h.metrics(t)
	errs := m["guildkit.client.call.errors"].(metricdata.Sum[int64])
	kinds := map[string]int64{}
	for _, dp := range errs.DataPoints {
		k, _ := dp.Attributes.Value("guildkit.error.kind")
		kinds[k.AsString()] += dp.Value
	}
	assert.Equal(t, map[string]int64{"api": 1, "rate_limited": 1}, kinds)
	hits := m["guildkit.client.rate_limit.hits"].(metricdata.Sum[int64])
	require.Len(t, hits.DataPoints, 1)
	assert.Equal(t, int64(1), hits.DataPoints[0].Value)
}

func TestRateLimitWaitRecorded(t *testing.T) {
	t.Parallel()
	spans := tracetest.NewSpanRecorder()
	reader := sdkmetric.NewManualReader()
	srv := guildkittest.NewServer(t, guildkittest.WithRouteLimit("GET /guilds/{guild.id}/roles", 1, 50*time.Millisecond))
	c := srv.Client(guildkit.WithObserver(otelguildkit.Observer(
		otelguildkit.WithTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))),
		otelguildkit.WithMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))))))
	g := srv.AddGuild(guildkit.Guild{Name: "rl"})
	ctx := context.Background()
	for range 2 {
		_, err := c.Roles.List(ctx, g.ID)
		require.NoError(t, err)
	}
	var rm metricdata.ResourceMetrics
	require.NoError(t, reader.Collect(ctx, &rm))
	var waits uint64
	for _, m := range rm.ScopeMetrics[0].Metrics {
		if m.Name == "guildkit.client.rate_limit.wait" {
			for _, dp := range m.Data.(metricdata.Histogram[float64]).DataPoints {
				waits += dp.Count
				assert.Positive(t, dp.Sum)
			}
		}
	}
	assert.Equal(t, uint64(1), waits, "the second call waited for the bucket")
	ended := spans.Ended()
	require.Len(t, ended, 2)
	a := attrs(ended[1].Attributes())
	assert.Positive(t, a["guildkit.rate_limit.wait"].AsFloat64())
	assert.NotEmpty(t, a["guildkit.rate_limit.bucket"].AsString())
}

// No span, event or metric holds a webhook token.
func TestNoWebhookTokenInTelemetry(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	g := h.srv.AddGuild(guildkit.Guild{Name: "wh"})
	ch := h.srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	wh := h.srv.AddWebhook(ch.ID, "hook")
	require.NotEmpty(t, wh.Token)
	ctx := context.Background()
	_, err := h.client.Webhooks.Execute(ctx, wh.ID, wh.Token, &guildkit.WebhookExecuteParams{Content: guildkit.Some("hi")})
	require.NoError(t, err)
	_, err = h.client.Webhooks.GetWithToken(ctx, wh.ID, wh.Token+"x") // refused: the error path too
	require.Error(t, err)

	ended := h.spans.Ended()
	require.Len(t, ended, 2)
	var all string
	for _, s := range ended {
		all += fmt.Sprintf("%s %v %v %v\n", s.Name(), s.Attributes(), s.Events(), s.Status())
		assert.Equal(t, wh.ID.String(), attrs(s.Attributes())["guildkit.major_parameter"].AsString())
		assert.Contains(t, attrs(s.Attributes())["url.full"].AsString(), "/webhooks/"+wh.ID.String()+"/REDACTED")
	}
	var rm metricdata.ResourceMetrics
	require.NoError(t, h.reader.Collect(ctx, &rm))
	all += fmt.Sprintf("%+v", rm)
	assert.NotContains(t, all, wh.Token)
	assert.Contains(t, all, "/webhooks/{webhook.id}/{webhook.token}")
}
