import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing/harness';
import { OPERATION_DOCS } from './catalogue';

type Operation = {
  summary?: string;
  description?: string;
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> }; example?: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown; example?: unknown }> }>;
};

describe('the API reference', () => {
  let t: TestApp;
  let doc: {
    paths: Record<string, Record<string, Operation>>;
    components: { securitySchemes: Record<string, { type: string; scheme?: string }> };
  };
  beforeAll(async () => {
    t = await startTestApp();
    const res = await t.app.inject({ url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });
  afterAll(() => t.close());

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })),
    );

  it('gives every operation a written summary and description', () => {
    const missing = operations()
      .filter(({ key }) => !OPERATION_DOCS[key])
      .map(({ key }) => key);
    expect(missing).toEqual([]);
    for (const { key, op } of operations()) {
      expect(op.summary, key).toBe(OPERATION_DOCS[key]?.[0]);
      expect(op.description, key).toBe(OPERATION_DOCS[key]?.[1]);
    }
  });

  it('declares the bearer API key scheme, used by every operation that is not public', () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/v1/chat/completions']?.post?.security).toEqual([{ bearerAuth: [] }, { cookieAuth: [] }]);
    expect(doc.paths['/api/pricing/plans']?.get?.security).toEqual([]);
  });

  it('lists the error answers of each operation in the one envelope, with an example', () => {
    for (const { key, op } of operations()) {
      const errors = Object.keys(op.responses).filter((status) => /^[45]/.test(status));
      expect(errors, key).toContain('500');
      const example = op.responses['500']?.content?.['application/json'];
      expect(JSON.stringify(example), key).toContain('support_id');
    }
    const chat = doc.paths['/v1/chat/completions']?.post;
    expect(Object.keys(chat?.responses ?? {})).toEqual(expect.arrayContaining(['200', '400', '401', '402', '422']));
    expect(Object.keys(doc.paths['/api/agents/{agentId}']?.get?.responses ?? {})).toContain('404');
  });

  it('shows request schemas of billing and examples of the main calls', () => {
    const checkout = doc.paths['/api/stripe/create-checkout']?.post;
    expect(Object.keys(checkout?.requestBody?.content['application/json']?.schema.properties ?? {})).toContain(
      'priceId',
    );
    expect(doc.paths['/api/stripe/schedule-downgrade']?.post?.requestBody).toBeDefined();
    expect(doc.paths['/api/openrouter/credits/redeem']?.post?.requestBody).toBeDefined();
    const chat = doc.paths['/v1/chat/completions']?.post?.requestBody?.content['application/json'];
    expect(JSON.stringify(chat)).toContain('Can I book a check-up on Monday?');
    for (const property of ['tools', 'response_format', 'tool_choice', 'stream_options']) {
      expect(Object.keys(chat?.schema.properties ?? {})).toContain(property);
    }
  });

  it('serves the reference page with the Authorize button configured', async () => {
    const page = await t.app.inject({ url: '/api/docs' });
    expect(page.statusCode).toBeLessThan(400);
    const init = await t.app.inject({ url: '/api/docs/static/swagger-initializer.js' });
    expect(init.statusCode).toBe(200);
    expect(init.body).toContain('persistAuthorization');
  });
});
