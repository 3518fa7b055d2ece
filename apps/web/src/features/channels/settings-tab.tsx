import type { TChannelConnection, TMessagingSettings, TRole, TSmsSettings } from '@switchboard/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card, Spinner } from '../../components/ui/card';
import { FieldError, Input, Label, Select } from '../../components/ui/input';
import { ApiError, api } from '../../lib/api';
import { toast } from '../../lib/toast';
import { showErrorDialog } from '../errors/error-dialog';

const failWith = (setError: (message: string | null) => void) => (failure: unknown) => {
  if (failure instanceof ApiError && failure.status === 422) setError(failure.message);
  else showErrorDialog(failure);
};

const ConnectionSettings = ({
  connection,
  canEdit,
  sandboxAvailable,
}: {
  connection: TChannelConnection;
  canEdit: boolean;
  sandboxAvailable: boolean;
}) => {
  const client = useQueryClient();
  const [accountSid, setAccountSid] = useState(connection.accountSid ?? '');
  const [authToken, setAuthToken] = useState('');
  const [phoneNumber, setPhoneNumber] = useState(
    connection.transport === 'twilio' ? (connection.sender.phoneNumber ?? '') : '',
  );
  const [rate, setRate] = useState(String(connection.sendRatePerSecond));
  const [price, setPrice] = useState(connection.segmentPrice?.amount ?? '');
  const [currency, setCurrency] = useState(connection.segmentPrice?.currency ?? 'USD');
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (body: object) =>
      api<TChannelConnection>(`/api/channels/${connection.connectionId}`, { method: 'PATCH', body, silent: true }),
    onSuccess: () => {
      toast.success('Connection saved');
      setAuthToken('');
      void client.invalidateQueries({ queryKey: ['channels', connection.subaccountId] });
    },
    onError: failWith(setError),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const priceChanged =
      price.trim() !== (connection.segmentPrice?.amount ?? '') ||
      (price.trim() !== '' && currency.trim().toUpperCase() !== connection.segmentPrice?.currency);
    save.mutate({
      sendRatePerSecond: Number(rate) || 0,
      ...(priceChanged
        ? { segmentPrice: price.trim() ? { amount: price.trim(), currency: currency.trim() } : null }
        : {}),
      ...(authToken
        ? {
            twilio: { accountSid: accountSid.trim(), authToken: authToken.trim() },
            sender: { phoneNumber: phoneNumber.trim() || null },
          }
        : {}),
    });
  };
  return (
    <Card>
      <h2 className="font-semibold">Connection</h2>
      <div className="mt-3">
        <Label htmlFor="webhook-url">Webhook URL (paste into Twilio: “A message comes in” and status callback)</Label>
        <div className="flex gap-2">
          <Input id="webhook-url" readOnly value={connection.webhookUrl} />
          <Button
            variant="secondary"
            onClick={() =>
              void navigator.clipboard?.writeText(connection.webhookUrl).then(() => toast.success('Copied'))
            }
          >
            Copy
          </Button>
        </div>
      </div>
      <form onSubmit={submit} className="mt-4 space-y-3" noValidate>
        <p className="text-sm text-muted">
          {connection.transport === 'sandbox'
            ? 'This connection uses the sandbox. Enter Twilio credentials to send real messages.'
            : `Twilio account ${connection.accountSid}, token ending ${connection.secretLast4}.`}
        </p>
        <div className="grid gap-3 sm:grid-cols-3">
          <div>
            <Label htmlFor="settings-sid">Account SID</Label>
            <Input
              id="settings-sid"
              value={accountSid}
              onChange={(e) => setAccountSid(e.target.value)}
              disabled={!canEdit}
              placeholder="AC..."
            />
          </div>
          <div>
            <Label htmlFor="settings-token">
              {connection.transport === 'twilio' ? 'New auth token' : 'Auth token'}
            </Label>
            <Input
              id="settings-token"
              type="password"
              value={authToken}
              onChange={(e) => setAuthToken(e.target.value)}
              disabled={!canEdit}
              autoComplete="off"
            />
          </div>
          <div>
            <Label htmlFor="settings-phone">Sending number</Label>
            <Input
              id="settings-phone"
              value={phoneNumber}
              onChange={(e) => setPhoneNumber(e.target.value)}
              disabled={!canEdit}
              placeholder="+15555555555"
            />
          </div>
        </div>
        <div className="max-w-xs">
          <Label htmlFor="settings-rate">Campaign messages per second (0 = no limit)</Label>
          <Input
            id="settings-rate"
            type="number"
            min={0}
            max={1000}
            value={rate}
            onChange={(e) => setRate(e.target.value)}
            disabled={!canEdit}
          />
        </div>
        <div className="grid max-w-md grid-cols-[minmax(0,1fr)_6rem] gap-3">
          <div>
            <Label htmlFor="settings-price">Your provider’s price per segment (for campaign estimates)</Label>
            <Input
              id="settings-price"
              inputMode="decimal"
              value={price}
              onChange={(e) => setPrice(e.target.value)}
              disabled={!canEdit}
              placeholder="0.0079"
            />
          </div>
          <div>
            <Label htmlFor="settings-currency">Currency</Label>
            <Input
              id="settings-currency"
              value={currency}
              maxLength={3}
              onChange={(e) => setCurrency(e.target.value)}
              disabled={!canEdit}
            />
          </div>
        </div>
        <FieldError>{error}</FieldError>
        {canEdit ? (
          <div className="flex gap-2">
            <Button type="submit" disabled={save.isPending}>
              Save
            </Button>
            {connection.transport === 'twilio' && sandboxAvailable ? (
              <Button variant="secondary" onClick={() => save.mutate({ twilio: null })}>
                Switch to the sandbox
              </Button>
            ) : null}
          </div>
        ) : null}
      </form>
    </Card>
  );
};

const MessagingProfile = ({ connectId, canEdit }: { connectId: string; canEdit: boolean }) => {
  const profile = useQuery({
    queryKey: ['messaging-settings', connectId],
    queryFn: () => api<TMessagingSettings>(`/api/channels/${connectId}/messaging-settings`, { silent: true }),
  });
  // The fields start from the saved settings once loaded; a refetch never overwrites what is typed.
  if (profile.isLoading) return <Spinner label="Loading messaging settings" />;
  return <MessagingProfileFields connectId={connectId} canEdit={canEdit} saved={profile.data} />;
};

const MessagingProfileFields = ({
  connectId,
  canEdit,
  saved,
}: {
  connectId: string;
  canEdit: boolean;
  saved: TMessagingSettings | undefined;
}) => {
  const client = useQueryClient();
  const [timeZone, setTimeZone] = useState(saved?.timeZone ?? 'UTC');
  const [country, setCountry] = useState(saved?.defaultCountry ?? 'US');
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () =>
      api<TMessagingSettings>(`/api/channels/${connectId}/messaging-settings`, {
        method: 'PATCH',
        body: { timeZone, defaultCountry: country },
        silent: true,
      }),
    onSuccess: () => {
      toast.success('Messaging settings saved');
      void client.invalidateQueries({ queryKey: ['messaging-settings', connectId] });
    },
    onError: failWith(setError),
  });
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['UTC'];
  return (
    <Card>
      <h2 className="font-semibold">Messaging</h2>
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        <div>
          <Label htmlFor="profile-zone">Sub-account time zone (campaign schedules)</Label>
          <Select id="profile-zone" value={timeZone} onChange={(e) => setTimeZone(e.target.value)} disabled={!canEdit}>
            {[...new Set(['UTC', ...zones])].map((zone) => (
              <option key={zone} value={zone}>
                {zone}
              </option>
            ))}
          </Select>
        </div>
        <div>
          <Label htmlFor="profile-country">Country of numbers written without +code</Label>
          <Input
            id="profile-country"
            value={country}
            onChange={(e) => setCountry(e.target.value.toUpperCase())}
            maxLength={2}
            disabled={!canEdit}
          />
        </div>
      </div>
      <FieldError>{error}</FieldError>
      {canEdit ? (
        <Button className="mt-3" onClick={() => save.mutate()} disabled={save.isPending}>
          Save
        </Button>
      ) : null}
    </Card>
  );
};

/** The SMS settings of the spec (section 3/7): company name, logo, theme, primary colour. */
const Branding = ({ connectId, role }: { connectId: string; role: TRole }) => {
  const settings = useQuery({
    queryKey: ['sms-settings', connectId],
    queryFn: () => api<TSmsSettings>(`/api/sms/${connectId}/settings`, { silent: true }),
  });
  if (settings.isLoading) return <Spinner label="Loading branding" />;
  return <BrandingFields connectId={connectId} role={role} saved={settings.data} />;
};

const BrandingFields = ({
  connectId,
  role,
  saved,
}: {
  connectId: string;
  role: TRole;
  saved: TSmsSettings | undefined;
}) => {
  const client = useQueryClient();
  const [companyName, setCompanyName] = useState(saved?.companyName ?? '');
  const [logoUrl, setLogoUrl] = useState(saved?.logoUrl ?? '');
  const [primaryColor, setPrimaryColor] = useState(saved?.primaryColor ?? '#43c0b8');
  const [theme, setTheme] = useState<'dark' | 'light'>(saved?.theme ?? 'dark');
  const [error, setError] = useState<string | null>(null);
  const admin = role === 'admin';
  const save = useMutation({
    mutationFn: () =>
      api<TSmsSettings>(`/api/sms/${connectId}/settings`, {
        method: 'PATCH',
        silent: true,
        body: admin ? { companyName, logoUrl: logoUrl || null, primaryColor, theme } : { theme },
      }),
    onSuccess: () => {
      toast.success('Settings saved');
      void client.invalidateQueries({ queryKey: ['sms-settings', connectId] });
    },
    onError: failWith(setError),
  });
  return (
    <Card>
      <h2 className="font-semibold">Branding</h2>
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        <div>
          <Label htmlFor="brand-company">Company name</Label>
          <Input
            id="brand-company"
            value={companyName}
            onChange={(e) => setCompanyName(e.target.value)}
            disabled={!admin}
          />
        </div>
        <div>
          <Label htmlFor="brand-logo">Logo URL</Label>
          <Input
            id="brand-logo"
            value={logoUrl}
            onChange={(e) => setLogoUrl(e.target.value)}
            disabled={!admin}
            placeholder="https://..."
          />
        </div>
        <div>
          <Label htmlFor="brand-color">Primary colour</Label>
          <Input
            id="brand-color"
            value={primaryColor}
            onChange={(e) => setPrimaryColor(e.target.value)}
            disabled={!admin}
          />
        </div>
        <div>
          <Label htmlFor="brand-theme">Theme</Label>
          <Select
            id="brand-theme"
            value={theme}
            onChange={(e) => setTheme(e.target.value as 'dark' | 'light')}
            disabled={role === 'viewer'}
          >
            <option value="dark">Dark</option>
            <option value="light">Light</option>
          </Select>
        </div>
      </div>
      <FieldError>{error}</FieldError>
      {role !== 'viewer' ? (
        <Button className="mt-3" onClick={() => save.mutate()} disabled={save.isPending}>
          Save
        </Button>
      ) : null}
    </Card>
  );
};

export const SettingsTab = ({
  connection,
  connectId,
  canEdit,
  role,
  sandboxAvailable,
}: {
  connection: TChannelConnection;
  connectId: string;
  canEdit: boolean;
  role: TRole;
  /** Whether this server runs the sandbox: only then can credentials be removed. */
  sandboxAvailable: boolean;
}) => (
  <div className="grid gap-4 lg:grid-cols-2">
    <ConnectionSettings connection={connection} canEdit={canEdit} sandboxAvailable={sandboxAvailable} />
    <div className="space-y-4">
      <MessagingProfile connectId={connectId} canEdit={canEdit} />
      <Branding connectId={connectId} role={role} />
    </div>
  </div>
);
