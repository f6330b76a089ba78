package guildkit

import "context"

// ExportDo sends an arbitrary request through the client's transport, for
// tests of the plumbing that no operation exercises alone yet.
func ExportDo(c *Client, ctx context.Context, method, route string, body, out any, path ...any) (int, error) {
	r := &request{method: method, route: route, path: path}
	if body != nil {
		r.body = body
	}
	res, err := c.do(ctx, r, out)
	if err != nil {
		return 0, err
	}
	return res.Status, nil
}

// ExportDoNoAuth is ExportDo for a route that sends no credential.
func ExportDoNoAuth(c *Client, ctx context.Context, method, route string, body, out any, path ...any) (int, error) {
	r := &request{method: method, route: route, path: path, auth: authNone}
	if body != nil {
		r.body = body
	}
	res, err := c.do(ctx, r, out)
	if err != nil {
		return 0, err
	}
	return res.Status, nil
}

// ExportDoAL is ExportDo for an operation that accepts an audit-log reason.
func ExportDoAL(c *Client, ctx context.Context, method, route string, body any, opts ...RequestOption) (int, error) {
	res, err := c.do(ctx, &request{method: method, route: route, body: body, auditLog: true, opts: opts}, nil)
	if err != nil {
		return 0, err
	}
	return res.Status, nil
}
