import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from './read-body';

/**
 * A local stand-in of Composio's REST API v3 on a real socket: two toolkits (gmail by OAuth,
 * serpapi by API key), connected accounts, tools and execution. `mode` makes execution succeed,
 * report an expired account, answer 503 or drop the connection.
 */
export const startComposioStub = async (apiKey: string) => {
  const state = {
    mode: 'ok' as 'ok' | 'expired' | 'down' | 'hangup',
    requests: [] as { method: string; path: string; body: unknown; key: string | undefined }[],
  };
  const toolkits = [
    { slug: 'gmail', name: 'Gmail', meta: { description: 'Email by Google', logo: null }, auth_schemes: ['OAUTH2'] },
    { slug: 'serpapi', name: 'SerpApi', meta: { description: 'Search results' }, auth_schemes: ['API_KEY'] },
  ];
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://stub');
    const text = await readBody(request);
    const body = text ? JSON.parse(text) : null;
    state.requests.push({
      method: request.method ?? '',
      path: url.pathname,
      body,
      key: request.headers['x-api-key'] as string,
    });
    const send = (status: number, payload: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(payload));
    };
    if (request.headers['x-api-key'] !== apiKey) return send(401, { error: { message: 'Invalid API key' } });
    const path = url.pathname.replace(/^\/api\/v3\//, '');
    if (request.method === 'GET' && path === 'toolkits') return send(200, { items: toolkits });
    if (request.method === 'GET' && path.startsWith('toolkits/')) {
      // A single toolkit describes its auth schemes in auth_config_details, as Composio does.
      const found = toolkits.find((item) => item.slug === path.slice(9));
      if (!found) return send(404, { error: { message: 'Toolkit not found' } });
      const { auth_schemes, ...rest } = found;
      return send(200, { ...rest, auth_config_details: auth_schemes.map((mode) => ({ mode, name: mode })) });
    }
    if (request.method === 'GET' && path === 'auth_configs') {
      return send(200, {
        items: [
          { id: `ac_${url.searchParams.get('toolkit_slug')}`, toolkit: { slug: url.searchParams.get('toolkit_slug') } },
        ],
      });
    }
    if (request.method === 'POST' && path === 'connected_accounts') {
      const apiKeyGiven = body?.connection?.state?.val?.api_key;
      if (body?.auth_config?.id === 'ac_serpapi') {
        return apiKeyGiven === 'good-serp-key'
          ? send(201, { id: 'ca_serp', status: 'ACTIVE' })
          : send(400, { error: { message: 'The API key was refused by SerpApi' } });
      }
      return send(201, {
        id: 'ca_gmail',
        status: 'INITIATED',
        redirect_url: 'https://connect.composio.dev/link/ln_test',
      });
    }
    if (request.method === 'GET' && path.startsWith('connected_accounts/'))
      return send(200, { id: path.slice(19), status: 'ACTIVE' });
    if (request.method === 'DELETE' && path.startsWith('connected_accounts/')) return send(200, { success: true });
    if (request.method === 'GET' && path === 'tools') {
      return send(200, {
        items: [
          {
            slug: 'GMAIL_SEND_EMAIL',
            name: 'Send email',
            description: 'Sends an email',
            input_parameters: {
              type: 'object',
              properties: {
                recipient_email: { type: 'string' },
                subject: { type: 'string' },
                body: { type: 'string' },
              },
              required: ['recipient_email', 'body'],
            },
            version: '20250909_00',
            toolkit: { slug: 'gmail' },
          },
        ],
      });
    }
    if (request.method === 'POST' && path.startsWith('tools/execute/')) {
      if (state.mode === 'hangup') return request.socket.destroy();
      if (state.mode === 'down') return send(503, { error: { message: 'Service unavailable' } });
      if (state.mode === 'expired') {
        return send(400, {
          error: { slug: 'ConnectedAccountExpired', message: 'The connected account is expired; re-authenticate' },
        });
      }
      return send(200, {
        successful: true,
        data: { message_id: 'msg_1', to: body?.arguments?.recipient_email },
        error: null,
      });
    }
    return send(404, { error: { message: `No route ${request.method} ${url.pathname}` } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
