import { Menu, X } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { openSignIn } from '../auth/sign-in-store';
import { useSession } from '../session/session';

export const HOME_ANCHORS = [
  { id: 'integrations', label: 'Integrations' },
  { id: 'pricing', label: 'Pricing' },
  { id: 'faq', label: 'FAQ' },
  { id: 'community', label: 'Community' },
];

export const scrollToSection = (id: string) => {
  document.getElementById(id)?.scrollIntoView({ behavior: 'smooth', block: 'start' });
};

/** The public marketing header: home anchors, Sign in or Go to Workspace, and a mobile menu. */
export const PublicHeader = () => {
  const { user } = useSession();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);

  const signIn = () => {
    setOpen(false);
    scrollToSection('pricing');
    openSignIn({ scrollToPricing: true });
  };

  const anchorLink = (anchor: (typeof HOME_ANCHORS)[number]) => (
    <a
      key={anchor.id}
      href={`/#${anchor.id}`}
      onClick={(event) => {
        if (window.location.pathname === '/') {
          event.preventDefault();
          scrollToSection(anchor.id);
          setOpen(false);
        }
      }}
      className="rounded-md px-3 py-2 text-sm text-muted hover:text-foreground"
    >
      {anchor.label}
    </a>
  );

  const action = user ? (
    <Button onClick={() => navigate('/agents')}>Go to Workspace</Button>
  ) : (
    <Button onClick={signIn}>Sign in</Button>
  );

  return (
    <header className="sticky top-0 z-40 border-b border-border bg-background/90 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-4 px-4">
        <Link to="/" className="flex items-center gap-2 font-semibold">
          <img src="/favicon.svg" alt="" width={28} height={28} />
          Switchboard
        </Link>
        <nav aria-label="Main" className="ml-auto hidden items-center gap-1 md:flex">
          {HOME_ANCHORS.map(anchorLink)}
        </nav>
        <div className="ml-auto hidden md:ml-2 md:block">{action}</div>
        <button
          type="button"
          className="ml-auto rounded-md p-2 hover:bg-surface-2 md:hidden"
          aria-label={open ? 'Close menu' : 'Open menu'}
          aria-expanded={open}
          aria-controls="mobile-menu"
          onClick={() => setOpen((value) => !value)}
        >
          {open ? <X size={20} /> : <Menu size={20} />}
        </button>
      </div>
      {open ? (
        <nav
          id="mobile-menu"
          aria-label="Mobile"
          className="flex flex-col gap-1 border-t border-border px-4 py-3 md:hidden"
        >
          {HOME_ANCHORS.map(anchorLink)}
          <div className="pt-2">{action}</div>
        </nav>
      ) : null}
    </header>
  );
};
