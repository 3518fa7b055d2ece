import { useSearchParams } from 'react-router';
import { cn } from '../../lib/cn';

/**
 * The sections of a channel page, kept in `?tab=` so a reload or a shared link opens the same one.
 * `clears` names query parameters a section change drops (a one-time OAuth outcome).
 */
export const SectionTabs = <T extends string>({
  label,
  tabs,
  current,
  clears = [],
}: {
  label: string;
  tabs: readonly (readonly [T, string])[];
  current: T;
  clears?: string[];
}) => {
  const [params, setParams] = useSearchParams();
  return (
    <nav aria-label={label} className="relative mb-5 flex gap-1 overflow-x-auto border-b border-border">
      {tabs.map(([key, name]) => (
        <button
          key={key}
          type="button"
          aria-current={current === key ? 'page' : undefined}
          onClick={() => {
            const next = new URLSearchParams(params);
            next.set('tab', key);
            for (const param of clears) next.delete(param);
            setParams(next, { replace: true });
          }}
          className={cn(
            'whitespace-nowrap border-b-2 px-3 py-2 text-sm font-medium',
            current === key ? 'border-primary text-foreground' : 'border-transparent text-muted hover:text-foreground',
          )}
        >
          {name}
        </button>
      ))}
    </nav>
  );
};
