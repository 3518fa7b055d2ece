import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../testing/free-port';
import { stubContent } from '../../testing/twilio-stub';
import { approvedTemplateOf, ContentApiTemplateSource } from './whatsapp-templates-source';

let garbled: Server;
let garbledUrl: string;

beforeAll(async () => {
  // Answers 200 with a page that is not the Content API's JSON (a captive portal, a misrouted proxy).
  garbled = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<html>Welcome</html>');
  });
  await new Promise<void>((resolve) => garbled.listen(0, '127.0.0.1', resolve));
  garbledUrl = `http://127.0.0.1:${(garbled.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => garbled.close(resolve)));

const source = (baseUrl: string) =>
  new ContentApiTemplateSource({ baseUrl, username: 'AC1', password: 'x', timeoutMs: 2000 });

describe('the Content API adapter', () => {
  it('reads the approval in either shape Twilio answers, and skips the rest', () => {
    const flat = stubContent({ sid: `HX${'a'.repeat(32)}`, name: 'flat', body: 'Hi {{1}}' });
    expect(approvedTemplateOf(flat)?.variables).toEqual([{ key: '1', example: '' }]);
    const nested = { ...flat, approval_requests: { whatsapp: { status: 'approved', name: 'nested' } } };
    expect(approvedTemplateOf(nested)?.name).toBe('nested');
    expect(approvedTemplateOf({ ...flat, approval_requests: { status: 'paused' } })).toBeNull();
    expect(approvedTemplateOf({ ...flat, approval_requests: null })).toBeNull();
    expect(approvedTemplateOf({ nonsense: true })).toBeNull();
  });

  it('turns Twilio out of reach into TWILIO_API_ERROR (502)', async () => {
    const error = await source(`http://127.0.0.1:${await freePort()}`)
      .list()
      .catch((e) => e);
    expect(error).toMatchObject({ code: 'TWILIO_API_ERROR', status: 502 });
    expect(error.message).toContain('Twilio could not be reached');
  });

  it('turns an answer that is not the Content API’s into TWILIO_API_ERROR (502)', async () => {
    const error = await source(garbledUrl)
      .list()
      .catch((e) => e);
    expect(error).toMatchObject({ code: 'TWILIO_API_ERROR', status: 502 });
    expect(error.message).toContain('something unexpected');
  });
});
