import { describe, expect, it } from 'vitest';
import { mcpToolNameOf, ZCreateMcpServerRequest, ZUpdateMcpServerRequest } from './schemas';

describe('MCP server schemas', () => {
  it('makes agent names safe tool names', () => {
    expect(mcpToolNameOf('Front Desk: Hours & Prices')).toBe('front_desk_hours_prices');
    expect(mcpToolNameOf('Café Crème')).toBe('cafe_creme');
    expect(mcpToolNameOf('***')).toBe('agent');
    expect(mcpToolNameOf('x'.repeat(100))).toHaveLength(60);
  });

  it('takes header rows, refusing repeats and the headers the transport sets', () => {
    const ok = ZCreateMcpServerRequest.parse({
      name: 'Weather',
      url: 'https://mcp.example.com/mcp',
      headers: [{ name: 'Authorization', value: 'Bearer abc' }],
    });
    expect(ok.headers).toEqual([{ name: 'Authorization', value: 'Bearer abc' }]);
    const repeated = ZCreateMcpServerRequest.safeParse({
      name: 'Weather',
      url: 'https://mcp.example.com/mcp',
      headers: [
        { name: 'X-Key', value: 'a' },
        { name: 'x-key', value: 'b' },
      ],
    });
    expect(repeated.success).toBe(false);
    const reserved = ZCreateMcpServerRequest.safeParse({
      name: 'Weather',
      url: 'https://mcp.example.com/mcp',
      headers: [{ name: 'Mcp-Session-Id', value: 'x' }],
    });
    expect(reserved.error?.issues[0]?.path).toEqual(['headers', 0, 'name']);
    expect(ZCreateMcpServerRequest.safeParse({ name: 'W', url: 'ftp://example.com' }).success).toBe(false);
  });

  it('needs something to change on an edit; a header without a value keeps the stored one', () => {
    expect(ZUpdateMcpServerRequest.safeParse({}).success).toBe(false);
    expect(ZUpdateMcpServerRequest.parse({ headers: [{ name: 'Authorization' }] })).toEqual({
      headers: [{ name: 'Authorization' }],
    });
  });
});
