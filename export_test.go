package guildkit

import "context"

// ExportDo sends an arbitrary request through the client's transport, for
// tests of the plumbing that no operation exercises alone.
func ExportDo(c *Client, ctx context.Context, method, route string, body, out any, path ...any) (int, error) {
	return exportDo(c, ctx, &request{method: method, route: route, body: body, path: path}, out)
}

// ExportDoNoAuth is ExportDo for a route that sends no credential.
func ExportDoNoAuth(c *Client, ctx context.Context, method, route string, body, out any, path ...any) (int, error) {
	return exportDo(c, ctx, &request{method: method, route: route, body: body, path: path, auth: authNone}, out)
}

// ExportDoAL is ExportDo for an operation that accepts an audit-log reason.
func ExportDoAL(c *Client, ctx context.Context, method, route string, body any, opts ...RequestOption) (int, error) {
	return exportDo(c, ctx, &request{method: method, route: route, body: body, auditLog: true, opts: opts}, nil)
}

func exportDo(c *Client, ctx context.Context, r *request, out any) (int, error) {
	res, err := c.do(ctx, r, out)
	if err != nil {
		return 0, err
	}
	return res.Status, nil
}
