import { ROLES, type TMembersResponse, type TRole, ZInviteMemberRequest } from '@switchboard/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useOutletContext } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card, PageHeading, Spinner } from '../../components/ui/card';
import { FieldError, Input, Label, Select } from '../../components/ui/input';
import { ApiError, api } from '../../lib/api';
import { toast } from '../../lib/toast';
import type { ConnectContext } from '../connection/connection-layout';
import { showErrorDialog } from '../errors/error-dialog';
import { AgencyBrandingCard } from '../portal/agency-branding-card';
import { ClientAccessCard } from '../portal/client-access-card';
import { useSession } from '../session/session';
import { TransferOwnershipDialog } from './transfer-ownership-dialog';

const roleLabel: Record<TRole, string> = {
  admin: 'Admin',
  member: 'Member',
  viewer: 'Viewer',
  client: 'Client (portal)',
};

/** The Team page: invite by email, change roles, remove members (admins only). */
export const TeamPage = () => {
  const context = useOutletContext<ConnectContext>();
  const { user, accounts } = useSession();
  const account = accounts.find((item) => item.id === context.accountId);
  const subaccountName = account?.subaccounts.find((item) => item.id === context.subaccountId)?.name ?? 'this client';
  const queryClient = useQueryClient();
  const base = `/api/subaccounts/${context.subaccountId}`;
  const queryKey = ['members', context.subaccountId];
  const members = useQuery({ queryKey, queryFn: () => api<TMembersResponse>(`${base}/members`) });
  const isAdmin = members.data?.myRole === 'admin';
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<TRole>('member');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [transferTo, setTransferTo] = useState<{ userId: string; email: string } | null>(null);
  const iAmOwner = members.data?.iAmOwner === true;

  const update = useMutation({
    mutationFn: (request: { path: string; method: 'POST' | 'PATCH' | 'DELETE'; body?: unknown }) =>
      api<TMembersResponse>(`${base}${request.path}`, { method: request.method, body: request.body, silent: true }),
    onSuccess: (data) => queryClient.setQueryData(queryKey, data),
    onError: (error) => showErrorDialog(error),
  });

  const invite = async (event: FormEvent) => {
    event.preventDefault();
    setEmailError(null);
    const parsed = ZInviteMemberRequest.safeParse({ email, role });
    if (!parsed.success) {
      setEmailError(parsed.error.issues[0]?.message ?? 'Email is required');
      return;
    }
    try {
      await api<TMembersResponse>(`${base}/members`, { body: parsed.data, silent: true }).then((data) =>
        queryClient.setQueryData(queryKey, data),
      );
      setEmail('');
      toast.success(`Invitation sent to ${parsed.data.email}`);
    } catch (error) {
      setEmailError(error instanceof ApiError ? error.message : 'Failed to invite');
    }
  };

  return (
    <div className="mx-auto max-w-4xl">
      <PageHeading title="Team" description="People who can work in this account, and what they may do." />
      {isAdmin ? (
        <Card className="mb-6">
          <h2 className="mb-3 font-semibold">Invite a teammate</h2>
          <form onSubmit={invite} noValidate className="grid gap-3 sm:grid-cols-[1fr_160px_auto] sm:items-start">
            <div>
              <Label htmlFor="invite-email" className="sr-only">
                Email
              </Label>
              <Input
                id="invite-email"
                type="email"
                placeholder="teammate@agency.com"
                value={email}
                onChange={(event) => setEmail(event.target.value)}
                aria-describedby={emailError ? 'invite-email-error' : undefined}
              />
              <FieldError id="invite-email-error">{emailError}</FieldError>
            </div>
            <div>
              <Label htmlFor="invite-role" className="sr-only">
                Role
              </Label>
              <Select id="invite-role" value={role} onChange={(event) => setRole(event.target.value as TRole)}>
                {ROLES.map((value) => (
                  <option key={value} value={value}>
                    {roleLabel[value]}
                  </option>
                ))}
              </Select>
            </div>
            <Button type="submit">Invite</Button>
          </form>
        </Card>
      ) : null}
      <Card className="p-0">
        {members.isLoading ? (
          <div className="p-5">
            <Spinner label="Loading team" />
          </div>
        ) : (
          <ul className="divide-y divide-border">
            {members.data?.members.map((member) => {
              const key = member.userId ?? member.inviteId ?? member.email;
              const path = member.userId ? `/members/${member.userId}` : `/invites/${member.inviteId}`;
              const self = member.userId === user?.id;
              return (
                <li key={key} className="flex flex-wrap items-center gap-3 p-4">
                  <div className="min-w-0 flex-1">
                    <div className="truncate font-medium">{member.name || member.email}</div>
                    <div className="truncate text-sm text-muted">
                      {member.email}
                      {member.status === 'invited' ? ' · invitation pending' : ''}
                      {self ? ' · you' : ''}
                    </div>
                  </div>
                  {member.isOwner ? (
                    <span className="rounded-full border border-primary px-3 py-1 text-xs font-medium">Owner</span>
                  ) : null}
                  {iAmOwner && member.userId && member.role === 'admin' && !member.isOwner ? (
                    <Button
                      variant="secondary"
                      size="sm"
                      onClick={() => setTransferTo({ userId: member.userId as string, email: member.email })}
                    >
                      Make owner
                    </Button>
                  ) : null}
                  {member.isOwner ? null : isAdmin ? (
                    <>
                      <label className="sr-only" htmlFor={`role-${key}`}>
                        Role of {member.email}
                      </label>
                      <Select
                        id={`role-${key}`}
                        className="w-32"
                        value={member.role}
                        disabled={update.isPending}
                        onChange={(event) =>
                          update.mutate({ path, method: 'PATCH', body: { role: event.target.value } })
                        }
                      >
                        {ROLES.map((value) => (
                          <option key={value} value={value}>
                            {roleLabel[value]}
                          </option>
                        ))}
                      </Select>
                      <Button
                        variant="ghost"
                        size="icon"
                        aria-label={`Remove ${member.email}`}
                        disabled={update.isPending}
                        onClick={() => update.mutate({ path, method: 'DELETE' })}
                      >
                        <Trash2 size={16} />
                      </Button>
                    </>
                  ) : (
                    <span className="rounded-full border border-border px-3 py-1 text-xs">
                      {roleLabel[member.role]}
                    </span>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </Card>
      {account?.canManageBilling ? (
        <>
          <ClientAccessCard subaccountId={context.subaccountId} subaccountName={subaccountName} />
          <AgencyBrandingCard accountId={context.accountId} />
        </>
      ) : null}
      <TransferOwnershipDialog
        accountId={context.accountId}
        to={transferTo}
        onClose={() => setTransferTo(null)}
        onDone={() => {
          void queryClient.invalidateQueries({ queryKey });
          toast.success('Ownership transferred');
        }}
      />
    </div>
  );
};
