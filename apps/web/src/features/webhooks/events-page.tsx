import { WEBHOOK_EVENTS, WEBHOOK_TEST_EXAMPLE } from '@switchboard/core';
import { PublicHeader } from '../marketing/public-header';

const VERIFY_NODE = `import { Webhook } from 'standardwebhooks';

// The endpoint's signing secret (whsec_...) from Settings > Webhooks.
const webhook = new Webhook(process.env.SWITCHBOARD_WEBHOOK_SECRET);

// rawBody: the request body exactly as received, before JSON parsing.
const event = webhook.verify(rawBody, {
  'webhook-id': request.headers['webhook-id'],
  'webhook-timestamp': request.headers['webhook-timestamp'],
  'webhook-signature': request.headers['webhook-signature'],
});`;

const VERIFY_BY_HAND = `key       = base64_decode(secret without "whsec_")
signed    = webhook-id + "." + webhook-timestamp + "." + raw body
signature = "v1," + base64(HMAC-SHA256(key, signed))
# Compare with each space-separated entry of webhook-signature (constant time);
# refuse timestamps more than 5 minutes away from now.`;

/** A code sample, wrapped rather than scrolled so it reads at phone width. */
const Code = ({ children }: { children: string }) => (
  <pre className="rounded-lg border border-border bg-surface-2 p-3 text-xs leading-relaxed whitespace-pre-wrap break-words">
    <code>{children}</code>
  </pre>
);

/** /docs/webhooks: every outbound webhook event with an example, and how to verify a request. */
export const WebhookEventsPage = () => (
  <div className="min-h-screen bg-background text-foreground">
    <PublicHeader />
    <main className="mx-auto max-w-3xl space-y-8 px-4 py-12">
      <header className="space-y-2">
        <h1 className="text-3xl font-bold">Webhook events</h1>
        <p className="text-muted">
          Switchboard sends an account's events to the endpoints its admins add under Settings &gt; Webhooks. Each event
          is a POST with a JSON body <code>{'{ "type", "timestamp", "data" }'}</code>, signed by the{' '}
          <a
            className="font-medium underline decoration-primary decoration-2"
            href="https://www.standardwebhooks.com"
            rel="noopener noreferrer"
          >
            Standard Webhooks
          </a>{' '}
          scheme, so n8n, Make, Zapier and any Standard Webhooks library take it as it is.
        </p>
      </header>

      <section className="space-y-3" aria-labelledby="delivery">
        <h2 id="delivery" className="text-xl font-semibold">
          Delivery
        </h2>
        <ul className="list-disc space-y-1 pl-5 text-sm text-muted">
          <li>Answer with any 2xx status within 10 seconds. Redirects are not followed: give the final address.</li>
          <li>
            Other answers and timeouts are retried with exponential backoff (1 second, doubling up to 15 minutes) for
            about an hour, honouring Retry-After. A 410 Gone turns the endpoint off.
          </li>
          <li>
            The <code>webhook-id</code> header is the same on every retry and resend of an event: use it to ignore
            duplicates. Events may arrive out of order; sort by <code>timestamp</code>.
          </li>
          <li>Addresses inside a private network are refused. Deliveries are kept in the log for 30 days.</li>
        </ul>
      </section>

      <section className="space-y-3" aria-labelledby="verify">
        <h2 id="verify" className="text-xl font-semibold">
          Verifying a request
        </h2>
        <p className="text-sm text-muted">With the Standard Webhooks library for Node.js:</p>
        <Code>{VERIFY_NODE}</Code>
        <p className="text-sm text-muted">Or by hand, in any language:</p>
        <Code>{VERIFY_BY_HAND}</Code>
      </section>

      <section className="space-y-6" aria-labelledby="events">
        <h2 id="events" className="text-xl font-semibold">
          Events
        </h2>
        {[...WEBHOOK_EVENTS, WEBHOOK_TEST_EXAMPLE].map((event) => (
          <article key={event.type} className="space-y-2" aria-labelledby={`event-${event.type}`}>
            <h3 id={`event-${event.type}`} className="font-semibold">
              {event.label} <code className="text-sm text-muted">{event.type}</code>
            </h3>
            <p className="text-sm text-muted">{event.description}</p>
            <Code>
              {JSON.stringify(
                { type: event.type, timestamp: '2026-11-24T09:30:00.000Z', data: event.example },
                null,
                2,
              )}
            </Code>
          </article>
        ))}
      </section>
    </main>
  </div>
);
