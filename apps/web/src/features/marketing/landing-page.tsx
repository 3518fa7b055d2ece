import { safeReturnPath } from '@switchboard/core';
import { Bot, FlaskConical, Globe, MessageSquare, Presentation, ShieldCheck } from 'lucide-react';
import { type ReactNode, useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { openSignIn } from '../auth/sign-in-store';
import { useHasAccess } from '../billing/billing-api';
import { useSession } from '../session/session';
import { Avatar } from '../workspace/account-menu';
import { PricingSection } from './pricing-section';
import { PublicHeader, scrollToSection } from './public-header';

const FEATURES: { icon: ReactNode; title: string; text: string }[] = [
  {
    icon: <Bot aria-hidden="true" />,
    title: 'Agents from one idea',
    text: 'Describe the agent in a sentence; get its prompt, greeting and suggested replies.',
  },
  {
    icon: <Globe aria-hidden="true" />,
    title: 'Website widget',
    text: 'One script tag puts a fast, branded chat on any client site.',
  },
  {
    icon: <FlaskConical aria-hidden="true" />,
    title: 'Test before launch',
    text: 'Simulated users, compliance and red-team questions, graded by a judge.',
  },
  {
    icon: <Presentation aria-hidden="true" />,
    title: 'Client demos',
    text: 'Share a link that shows the agent on the client’s own website.',
  },
  {
    icon: <MessageSquare aria-hidden="true" />,
    title: 'Every channel',
    text: 'Website widget and block, SMS, WhatsApp and Instagram; Launch shows what is live and pauses a channel in one click.',
  },
  {
    icon: <ShieldCheck aria-hidden="true" />,
    title: 'Self-hostable',
    text: 'Your server, your keys, your clients’ data.',
  },
];

/** What each integration does, and what works before it is configured (a labelled sandbox or offline model). */
const INTEGRATIONS: { name: string; use: string }[] = [
  { name: 'OpenAI, Anthropic, OpenRouter', use: 'Models with your own key; a labelled offline model until one is set' },
  { name: 'Ollama, vLLM, LM Studio', use: 'Any OpenAI-compatible model URL on your own servers' },
  { name: 'Twilio', use: 'SMS and WhatsApp agents and campaigns; a sandbox phone until it is connected' },
  { name: 'Meta (Instagram)', use: 'Instagram direct messages answered by an agent' },
  { name: 'Stripe', use: 'Plans and credits; a sandbox checkout until it is connected' },
];

const FAQ = [
  {
    q: 'Do I need an API key to try it?',
    a: 'No. Without a key every agent answers with the offline model, clearly labelled, so you can try the whole product first.',
  },
  {
    q: 'What is a sub-account?',
    a: 'Each of your clients gets a sub-account with its own agents, widgets, team and branding.',
  },
  {
    q: 'How do credits work?',
    a: 'Every model call spends credits from your plan; bonus and promo credits add to it. Usage is logged per call.',
  },
  {
    q: 'Can my clients see my other clients?',
    a: 'Never. Every request is checked against the sub-account and role on the server.',
  },
];

/** The public home page with its integrations, pricing, faq and community anchors. */
export const LandingPage = () => {
  const { user } = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const hasAccess = useHasAccess();

  useEffect(() => {
    if (params.get('scrollToPricing') === 'true') setTimeout(() => scrollToSection('pricing'), 50);
    if (params.get('signin') === '1' && !user) {
      openSignIn({ returnUrl: safeReturnPath(params.get('returnUrl'), '') || undefined });
    }
    const hash = window.location.hash.replace('#', '');
    if (hash) setTimeout(() => scrollToSection(hash), 50);
  }, [params, user]);

  const getStarted = () =>
    openSignIn({
      returnUrl: safeReturnPath(params.get('returnUrl'), '') || undefined,
      scrollToPricing: true,
      promoCode: params.get('promo') ?? undefined,
    });

  return (
    <div className="min-h-screen bg-background text-foreground">
      <PublicHeader />
      <main>
        <section className="mx-auto max-w-6xl px-4 pt-16 pb-20 text-center sm:pt-24">
          <p className="text-sm font-semibold tracking-wide text-primary uppercase">For AI automation agencies</p>
          <h1 className="mx-auto mt-3 max-w-3xl text-4xl font-bold tracking-tight sm:text-5xl">
            Build, test and launch AI agents for every client
          </h1>
          <p className="mx-auto mt-5 max-w-2xl text-lg text-muted">
            Switchboard turns an idea into an agent, puts it on your client’s website and channels, proves it with
            simulated users before it goes live, and shows it off in a demo link.
          </p>
          <div className="mt-8 flex justify-center">
            {user ? (
              <Button size="lg" onClick={() => (hasAccess ? navigate('/build') : scrollToSection('pricing'))}>
                <Avatar name={user.name || user.email} image={user.image} size={24} /> Dashboard
              </Button>
            ) : (
              <Button size="lg" onClick={getStarted}>
                Get started
              </Button>
            )}
          </div>
        </section>

        <section aria-labelledby="features-title" className="mx-auto max-w-6xl px-4 pb-20">
          <h2 id="features-title" className="sr-only">
            Features
          </h2>
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {FEATURES.map((feature) => (
              <li key={feature.title} className="rounded-xl border border-border bg-surface p-5">
                <span className="text-primary">{feature.icon}</span>
                <h3 className="mt-3 font-semibold">{feature.title}</h3>
                <p className="mt-1 text-sm text-muted">{feature.text}</p>
              </li>
            ))}
          </ul>
        </section>

        <section
          id="integrations"
          aria-labelledby="integrations-title"
          className="scroll-mt-20 border-y border-border bg-surface py-16"
        >
          <div className="mx-auto max-w-6xl px-4 text-center">
            <h2 id="integrations-title" className="text-3xl font-bold">
              Integrations
            </h2>
            <p className="mt-2 text-muted">Bring your own model provider and channels.</p>
            <ul className="mt-8 grid gap-3 text-left sm:grid-cols-2 lg:grid-cols-3">
              {INTEGRATIONS.map((item) => (
                <li key={item.name} className="rounded-xl border border-border px-4 py-3">
                  <span className="block text-sm font-semibold">{item.name}</span>
                  <span className="block text-sm text-muted">{item.use}</span>
                </li>
              ))}
            </ul>
          </div>
        </section>

        <section id="pricing" aria-labelledby="pricing-title" className="scroll-mt-20 py-16">
          <PricingSection />
        </section>

        <section id="faq" aria-labelledby="faq-title" className="scroll-mt-20 border-t border-border py-16">
          <div className="mx-auto max-w-3xl px-4">
            <h2 id="faq-title" className="text-center text-3xl font-bold">
              Frequently asked questions
            </h2>
            <div className="mt-8 space-y-3">
              {FAQ.map((item) => (
                <details key={item.q} className="rounded-xl border border-border bg-surface p-4">
                  <summary className="cursor-pointer font-medium">{item.q}</summary>
                  <p className="mt-2 text-sm text-muted">{item.a}</p>
                </details>
              ))}
            </div>
          </div>
        </section>

        <section
          id="community"
          aria-labelledby="community-title"
          className="scroll-mt-20 border-t border-border bg-surface py-16"
        >
          <div className="mx-auto max-w-3xl px-4 text-center">
            <h2 id="community-title" className="text-3xl font-bold">
              Community
            </h2>
            <p className="mt-2 text-muted">
              Guides for every task of an agency, with videos where your operator has added them, in the Community area
              of your workspace.
            </p>
          </div>
        </section>
      </main>
      <footer className="border-t border-border py-8 text-center text-sm text-muted">
        <a href="/terms" className="underline">
          Terms of Service
        </a>{' '}
        ·{' '}
        <a href="/privacy-policy" className="underline">
          Privacy Policy
        </a>
      </footer>
    </div>
  );
};
