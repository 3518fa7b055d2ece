import { PublicHeader } from '../marketing/public-header';

const TEXT = {
  terms: {
    title: 'Terms of Service',
    body: 'Switchboard is provided by the operator of this installation. By using it you agree to use it lawfully, to keep your credentials safe and to respect the privacy of the people your agents talk to. The operator may suspend accounts that abuse the service.',
  },
  privacy: {
    title: 'Privacy Policy',
    body: 'This installation stores your account, your agents and the conversations they hold in its own database. Model providers you configure receive the messages your agents answer. Nothing is shared with anyone else. Ask the operator to export or delete your data at any time.',
  },
};

export const LegalPage = ({ kind }: { kind: keyof typeof TEXT }) => (
  <div className="min-h-screen bg-background text-foreground">
    <PublicHeader />
    <main className="mx-auto max-w-3xl px-4 py-12">
      <h1 className="text-3xl font-bold">{TEXT[kind].title}</h1>
      <p className="mt-4 text-muted">{TEXT[kind].body}</p>
    </main>
  </div>
);
