import { Link } from 'react-router';
import { Card, PageHeading } from '../../components/ui/card';
import { BillingSection } from '../billing/billing-section';
import { ClientBillingCard } from '../client-plans/client-billing-card';
import { AgencyBrandingCard } from '../portal/agency-branding-card';
import { useSession } from '../session/session';
import { CustomDomainCard } from '../settings/custom-domain-card';

/** /settings: the signed-in person's profile and the agencies and sub-accounts they belong to. */
export const AccountSettingsPage = () => {
  const { user, accounts } = useSession();
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <PageHeading title="Settings" description="Your profile, billing and the accounts you belong to." />
      <Card>
        <h2 className="font-semibold">Profile</h2>
        <dl className="mt-3 grid gap-2 text-sm sm:grid-cols-[120px_1fr]">
          <dt className="text-muted">Name</dt>
          <dd>{user?.name || '—'}</dd>
          <dt className="text-muted">Email</dt>
          <dd>{user?.email}</dd>
        </dl>
      </Card>
      <BillingSection />
      {accounts.map((account) => (
        <Card key={account.id}>
          <h2 className="font-semibold">{account.name}</h2>
          <p className="text-sm text-muted">
            {account.isOwner ? 'You own this agency.' : 'You are a member of this agency.'}
          </p>
          <ul className="mt-3 divide-y divide-border">
            {account.subaccounts.map((subaccount) => (
              <li key={subaccount.id} className="flex items-center justify-between gap-3 py-2 text-sm">
                <span className="min-w-0 truncate">{subaccount.name}</span>
                <span className="text-muted">{subaccount.role}</span>
                <Link
                  className="font-medium underline decoration-primary decoration-2"
                  to={`/${subaccount.id}/ai-settings`}
                >
                  Open settings
                </Link>
              </li>
            ))}
          </ul>
        </Card>
      ))}
      {accounts
        .filter((account) => account.canManageBilling)
        .map((account) => (
          <div key={`brand-${account.id}`} className="space-y-6">
            <AgencyBrandingCard accountId={account.id} />
            <CustomDomainCard accountId={account.id} accountName={account.name} />
          </div>
        ))}
      {accounts
        .filter((account) => account.canManageBilling)
        .map((account) => (
          <ClientBillingCard key={`client-billing-${account.id}`} accountId={account.id} accountName={account.name} />
        ))}
    </div>
  );
};
