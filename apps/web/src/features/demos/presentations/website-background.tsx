import { Globe } from 'lucide-react';
import { useEffect, useState } from 'react';
import { checkEmbeddable } from '../api';

type State = 'loading' | 'embeddable' | 'blocked';

/** The client's live website behind the widget, or the fallback card when it forbids framing. */
export const WebsiteBackground = ({ url, color }: { url: string; color: string }) => {
  const [state, setState] = useState<State>('loading');
  useEffect(() => {
    let alive = true;
    setState('loading');
    checkEmbeddable(url)
      .then((result) => alive && setState(result.embeddable ? 'embeddable' : 'blocked'))
      // If the check itself fails the frame is shown anyway (section 7).
      .catch(() => alive && setState('embeddable'));
    return () => {
      alive = false;
    };
  }, [url]);

  if (state === 'loading') {
    return (
      <div className="absolute inset-0 flex items-center justify-center" style={{ background: color }}>
        <p role="status" className="text-sm text-white/90">
          Loading website preview...
        </p>
      </div>
    );
  }
  if (state === 'blocked') {
    return (
      <div className="absolute inset-0 flex items-center justify-center p-6" style={{ background: color }}>
        <div className="max-w-sm rounded-2xl border border-white/15 bg-black/40 p-6 text-center text-white">
          <Globe className="mx-auto mb-3" size={32} aria-hidden="true" />
          <h2 className="text-lg font-semibold">This website does not support previews</h2>
          <p className="mt-2 text-sm text-white/85">
            Tip: the site forbids being shown inside other pages. Try its home page or another page of the site, or
            leave the website address empty to show a plain background.
          </p>
        </div>
      </div>
    );
  }
  return (
    <iframe
      title="Website preview"
      src={url}
      className="absolute inset-0 h-full w-full border-0 bg-white"
      sandbox="allow-scripts allow-same-origin allow-forms allow-popups"
      referrerPolicy="no-referrer"
    />
  );
};
