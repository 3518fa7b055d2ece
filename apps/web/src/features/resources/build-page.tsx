import { Bot, FlaskConical, Presentation, Rocket, Sparkles } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useSession } from '../session/session';

const CARDS: { to: string; title: string; text: string; icon: ReactNode }[] = [
  {
    to: '/agents/create',
    title: 'New Agent',
    text: 'Start from a one-line idea.',
    icon: <Sparkles aria-hidden="true" />,
  },
  { to: '/agents', title: 'Agents', text: 'Edit prompts, knowledge and tools.', icon: <Bot aria-hidden="true" /> },
  {
    to: '/dashboard',
    title: 'Bulk Tester',
    text: 'Test with simulated users.',
    icon: <FlaskConical aria-hidden="true" />,
  },
  { to: '/demo', title: 'Demo', text: 'Share an agent with a client.', icon: <Presentation aria-hidden="true" /> },
  { to: '/connect', title: 'Launch', text: 'Put an agent on a channel.', icon: <Rocket aria-hidden="true" /> },
];

/** /build: the Dashboard shortcut's target, the starting points of an agency's work. */
export const BuildPage = () => {
  const { user, currentSubaccount } = useSession();
  return (
    <div className="mx-auto max-w-5xl">
      <h2 className="text-2xl font-semibold">Welcome back{user?.name ? `, ${user.name}` : ''}</h2>
      <p className="mt-1 text-sm text-muted">
        Working in {currentSubaccount?.name ?? 'your workspace'}.{' '}
        {currentSubaccount ? (
          <Link className="underline decoration-primary decoration-2" to={`/${currentSubaccount.id}/dashboard`}>
            Open its dashboard
          </Link>
        ) : null}
      </p>
      <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {CARDS.map((card) => (
          <li key={card.to}>
            <Link
              to={card.to}
              className="block h-full rounded-xl border border-border bg-surface p-5 hover:border-primary"
            >
              <span className="text-primary">{card.icon}</span>
              <span className="mt-3 block font-semibold">{card.title}</span>
              <span className="mt-1 block text-sm text-muted">{card.text}</span>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
};
