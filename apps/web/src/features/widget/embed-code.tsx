import type { TConnection } from '@switchboard/core';
import { Copy, KeyRound } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { api } from '../../lib/api';
import { cn } from '../../lib/cn';
import { toast } from '../../lib/toast';

type Variant = 'script' | 'react' | 'wordpress' | 'shopify' | 'webflow' | 'iframe';

const LABELS: Record<Variant, string> = {
  script: 'HTML',
  react: 'React / Next.js',
  wordpress: 'WordPress',
  shopify: 'Shopify',
  webflow: 'Webflow',
  iframe: 'Iframe',
};

const WHERE: Record<Variant, string> = {
  script: 'Paste it into the <head> of every page of your site (it loads without blocking the page).',
  react:
    'Next.js: add the Script to app/layout.tsx (or pages/_app.tsx). Plain React: run the effect once in your root component.',
  wordpress:
    "Add it to your theme's functions.php (a child theme) or a code snippets plugin; WordPress prints the script on every page.",
  shopify: 'Online Store → Themes → Edit code → layout/theme.liquid: paste it just before </head>.',
  webflow: 'Site settings → Custom code → Footer code: paste it, save, and publish the site.',
  iframe: 'A fixed chat window in the page (no launcher). Paste it where the chat should appear.',
};

/** The embed code of a connection for each kind of site, and the iframe variant. */
export const embedCodes = (connection: TConnection, origin = window.location.origin): Record<Variant, string> => {
  const { widgetId, settings } = connection;
  const src = `${origin}/widget/${widgetId}/widget.js`;
  return {
    script: `<script src="${src}" async fetchpriority="high"></script>`,
    react: [
      "// Next.js (app/layout.tsx): import Script from 'next/script';",
      `<Script src="${src}" strategy="afterInteractive" />`,
      '',
      '// React: in your root component',
      'useEffect(() => {',
      "  const script = document.createElement('script');",
      `  script.src = '${src}';`,
      '  script.async = true;',
      '  document.head.appendChild(script);',
      '}, []);',
    ].join('\n'),
    wordpress: [
      "add_action('wp_enqueue_scripts', function () {",
      `  wp_enqueue_script('switchboard-widget', '${src}', [], null, ['strategy' => 'async', 'in_footer' => true]);`,
      '});',
    ].join('\n'),
    shopify: `<script src="${src}" defer></script>`,
    webflow: `<script src="${src}" async></script>`,
    iframe: `<iframe src="${origin}/widget/${widgetId}" title="${settings.widgetTitle.replace(/"/g, '&quot;')}" width="${settings.width}" height="${settings.height}" style="border:0;border-radius:12px;max-width:100%" allow="clipboard-write"></iframe>`,
  };
};

const HOST_API = `<script>
  // After the widget's script: open, close, toggle, identify, setContext, events.
  window.addEventListener('load', function () {
    Switchboard.on('message', function (m) { console.log(m.role, m.content); });
    Switchboard.setContext({ page: location.pathname });
    // Signed-in users: your server computes hmac = HMAC-SHA256(user.id, IDENTITY_SECRET) in hex.
    // Switchboard.identify({ id: 'user_42', name: 'Ada', email: 'ada@example.com' }, hmac);
  });
</script>
<button onclick="Switchboard.open()">Chat with us</button>`;

const copyText = async (text: string) => {
  try {
    await navigator.clipboard.writeText(text);
    toast.success('Code copied to clipboard!');
  } catch {
    toast.error('Copy failed. Select the code and copy it by hand.', 10_000);
  }
};

export const EmbedCode = ({ connection, admin = false }: { connection: TConnection; admin?: boolean }) => {
  const block = connection.type === 'website-block';
  const variants: Variant[] = block
    ? ['script', 'iframe']
    : ['script', 'react', 'wordpress', 'shopify', 'webflow', 'iframe'];
  const [variant, setVariant] = useState<Variant>('script');
  const [secret, setSecret] = useState<string | null>(null);
  const code = embedCodes(connection)[variant];
  const showSecret = async () => {
    const answer = await api<{ secret: string }>(`/api/connections/${connection.connectionId}/identity-secret`);
    setSecret(answer.secret);
  };
  return (
    <Card>
      <h2 className="font-semibold">Embed code</h2>
      <p className="mt-1 text-sm text-muted">
        {block && variant === 'script'
          ? 'Paste it where the chat should appear in your page. Changes reach your site after Deploy.'
          : `${WHERE[variant]} Changes reach your site after Deploy.`}
      </p>
      <div role="tablist" aria-label="Embed variant" className="mt-3 flex flex-wrap gap-2">
        {variants.map((item) => (
          <button
            key={item}
            type="button"
            role="tab"
            aria-selected={variant === item}
            onClick={() => setVariant(item)}
            className={cn(
              'h-8 rounded-lg border px-3 text-sm',
              variant === item
                ? 'border-primary bg-primary text-primary-foreground'
                : 'border-border hover:bg-surface-2',
            )}
          >
            {item === 'script' && block ? 'Script tag' : LABELS[item]}
          </button>
        ))}
      </div>
      <textarea
        readOnly
        aria-label="Embed code"
        value={code}
        rows={variant === 'script' ? 3 : 6}
        onFocus={(event) => event.currentTarget.select()}
        // As tall as its text at any width, so a long address is never cut off.
        className="mt-3 w-full resize-none rounded-lg border border-border bg-surface-2 p-3 font-mono text-xs break-all text-foreground [field-sizing:content]"
      />
      <Button className="mt-3" variant="secondary" onClick={() => void copyText(code)}>
        <Copy size={16} aria-hidden="true" /> Copy code
      </Button>
      {block ? null : (
        <details className="mt-4 text-sm">
          <summary className="cursor-pointer font-medium">JavaScript API: open, close, identify, events</summary>
          <p className="mt-2 text-muted">
            <code>Switchboard.open()</code>, <code>close()</code>, <code>toggle()</code>,{' '}
            <code>identify(user, hmac)</code>, <code>setContext(values)</code> and{' '}
            <code>on('ready' | 'open' | 'close' | 'message', fn)</code>. A page can also send{' '}
            <code>{"window.postMessage({ source: 'switchboard-host', type: 'open' }, '*')"}</code>.
          </p>
          <textarea
            readOnly
            aria-label="JavaScript API example"
            value={HOST_API}
            rows={10}
            className="mt-2 w-full resize-none rounded-lg border border-border bg-surface-2 p-3 font-mono text-xs text-foreground [field-sizing:content]"
          />
          {admin ? (
            <div className="mt-2 flex flex-wrap items-center gap-2">
              {secret ? (
                <code className="rounded bg-surface-2 px-2 py-1 text-xs break-all" data-testid="identity-secret">
                  {secret}
                </code>
              ) : (
                <Button size="sm" variant="secondary" onClick={() => void showSecret()}>
                  <KeyRound size={14} aria-hidden="true" /> Show identity secret
                </Button>
              )}
              <span className="text-xs text-muted">Keep it on your server: it signs your users' ids.</span>
            </div>
          ) : null}
        </details>
      )}
    </Card>
  );
};
