import { Link, useLocation } from 'react-router';
import { cn } from '../../lib/cn';

const TABS = [
  ['/integrations', 'Apps'],
  ['/integrations/mcp', 'MCP servers'],
] as const;

/** The Integrations page's sections: connected apps and MCP servers, each at its own address. */
export const IntegrationsTabs = () => {
  const { pathname } = useLocation();
  return (
    <nav aria-label="Integrations sections" className="relative mb-5 flex gap-1 overflow-x-auto border-b border-border">
      {TABS.map(([path, name]) => {
        const current = pathname === path || (path !== '/integrations' && pathname.startsWith(`${path}/`));
        return (
          <Link
            key={path}
            to={path}
            aria-current={current ? 'page' : undefined}
            className={cn(
              'whitespace-nowrap border-b-2 px-3 py-2 text-sm font-medium',
              current ? 'border-primary text-foreground' : 'border-transparent text-muted hover:text-foreground',
            )}
          >
            {name}
          </Link>
        );
      })}
    </nav>
  );
};
