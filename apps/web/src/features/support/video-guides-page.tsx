import type { TVideoGuides } from '@switchboard/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Card, Spinner } from '../../components/ui/card';
import { api } from '../../lib/api';
import { GUIDE_TASKS, HELP_ARTICLES } from './articles';
import { Markdown } from './markdown';

/**
 * /howitworks: guides grouped by task. A guide plays its video when the operator configured one
 * (HOWITWORKS_VIDEOS, privacy-friendly players), and shows its written guide otherwise.
 */
export const VideoGuidesPage = () => {
  const videos = useQuery({
    queryKey: ['video-guides'],
    queryFn: () => api<TVideoGuides>('/api/support/videos', { silent: true }),
    staleTime: 5 * 60_000,
  });
  if (videos.isLoading) return <Spinner label="Loading guides" />;
  const urls = videos.data?.videos ?? {};
  return (
    <div className="mx-auto w-full max-w-5xl space-y-8">
      <p className="text-sm text-muted">
        Short guides for the tasks of an AI agency. More help and a contact form are in the{' '}
        <Link className="underline" to="/support">
          Support Center
        </Link>
        .
      </p>
      {GUIDE_TASKS.map((task) => {
        const guides = HELP_ARTICLES.filter((article) => article.task === task.key);
        if (!guides.length) return null;
        return (
          <section key={task.key} aria-labelledby={`task-${task.key}`} className="space-y-3">
            <h2 id={`task-${task.key}`} className="text-lg font-semibold">
              {task.title}
            </h2>
            {guides.map((guide) => {
              const video = urls[guide.slug];
              return (
                <Card key={guide.slug} className="space-y-3">
                  <h3 className="font-semibold">{guide.title}</h3>
                  {video ? (
                    <div className="aspect-video overflow-hidden rounded-lg bg-black">
                      <iframe
                        src={video}
                        title={`Video: ${guide.title}`}
                        className="h-full w-full"
                        loading="lazy"
                        referrerPolicy="strict-origin-when-cross-origin"
                        allow="encrypted-media; picture-in-picture; fullscreen"
                        allowFullScreen
                      />
                    </div>
                  ) : (
                    <details>
                      <summary className="cursor-pointer text-sm underline">
                        {guide.summary} Read the written guide
                      </summary>
                      <div className="mt-3">
                        <Markdown source={guide.body} />
                      </div>
                    </details>
                  )}
                </Card>
              );
            })}
          </section>
        );
      })}
    </div>
  );
};
