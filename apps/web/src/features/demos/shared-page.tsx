import { DEMO_MESSAGES, type TPublicDemo } from '@switchboard/core';
import { useEffect } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { ApiError } from '../../lib/api';
import { useOwnDemo, usePublicDemo } from './api';
import { DemoView } from './presentations/demo-view';
import type { DemoMode } from './presentations/parts';

const Centered = ({ children, role }: { children: string; role?: 'status' | 'alert' }) => (
  <main className="flex min-h-screen items-center justify-center bg-[#1a1d23] p-6 text-center text-white">
    <p role={role} className="text-base">
      {children}
    </p>
  </main>
);

const DemoScreen = ({ demo, error, mode }: { demo: TPublicDemo | undefined; error: unknown; mode: DemoMode }) => {
  useEffect(() => {
    if (demo) document.title = demo.settings.backgroundSettings.customTitle || demo.name;
  }, [demo]);
  if (error) {
    const message = error instanceof ApiError && error.status === 404 ? DEMO_MESSAGES.notFound : DEMO_MESSAGES.failed;
    return <Centered role="alert">{message}</Centered>;
  }
  if (!demo) return <Centered role="status">Loading demo...</Centered>;
  return (
    <main className={mode === 'embedded' ? 'h-screen' : 'min-h-screen'}>
      <DemoView demo={demo} mode={mode} />
    </main>
  );
};

/** /shared/{demoId}: the public demo; `?embed=1` is the embedded variant for a client's iframe. */
export const SharedDemoPage = () => {
  const { demoId } = useParams();
  const [search] = useSearchParams();
  const query = usePublicDemo(demoId);
  const embedded = search.get('embed') === '1' || search.get('embed') === 'true';
  return <DemoScreen demo={query.data} error={query.error} mode={embedded ? 'embedded' : 'shared'} />;
};

/** /demo/{demoId}/preview: the creator's full-page preview, with the client message card. */
export const DemoPreviewPage = () => {
  const { demoId } = useParams();
  const query = useOwnDemo(demoId);
  return <DemoScreen demo={query.data} error={query.error} mode="preview-page" />;
};
