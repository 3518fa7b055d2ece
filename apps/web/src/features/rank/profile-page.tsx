import { MARKETPLACE_AVATARS, type TUserProfile, ZUserProfileRequest } from '@switchboard/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card, Spinner } from '../../components/ui/card';
import { FieldError, Input, Label } from '../../components/ui/input';
import { api } from '../../lib/api';
import { cn } from '../../lib/cn';
import { toast } from '../../lib/toast';
import { usePageHeader } from '../workspace/page-header';
import { useRank } from './use-rank';

/** /profile: the agency's rank with what the next level needs, and the public marketplace profile. */
export const ProfilePage = () => {
  usePageHeader({ title: 'Profile' });
  const rank = useRank();
  return (
    <div className="mx-auto grid w-full max-w-5xl gap-6 lg:grid-cols-2">
      <Card className="space-y-4">
        <h2 className="text-lg font-semibold">Your rank</h2>
        {rank.isLoading ? <Spinner label="Loading rank" /> : null}
        {rank.isError ? <p className="text-sm text-muted">The rank could not be loaded.</p> : null}
        {rank.data ? (
          <>
            <div>
              <p className="text-2xl font-semibold">
                Level {rank.data.level} · {rank.data.levelName}
              </p>
              <p className="text-sm text-muted">{rank.data.points.toLocaleString('en-US')} points</p>
            </div>
            <div>
              <div
                role="progressbar"
                aria-label="Progress to the next level"
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={rank.data.progress}
                className="h-2 overflow-hidden rounded-full bg-surface-2"
              >
                <div className="h-full bg-primary" style={{ width: `${rank.data.progress}%` }} />
              </div>
              <p className="mt-2 text-sm">
                {rank.data.nextLevel
                  ? `${rank.data.nextLevel.pointsToGo.toLocaleString('en-US')} more points to reach Level ${rank.data.nextLevel.level} · ${rank.data.nextLevel.name} (${rank.data.nextLevel.points.toLocaleString('en-US')} points).`
                  : 'You reached the top level.'}
              </p>
            </div>
            <table className="w-full text-sm">
              <caption className="sr-only">Where your points come from</caption>
              <thead>
                <tr className="text-left text-muted">
                  <th scope="col" className="py-1 font-medium">
                    Activity
                  </th>
                  <th scope="col" className="py-1 text-right font-medium">
                    Count
                  </th>
                  <th scope="col" className="py-1 text-right font-medium">
                    Points
                  </th>
                </tr>
              </thead>
              <tbody>
                {rank.data.breakdown.map((item) => (
                  <tr key={item.key} className="border-t border-border">
                    <td className="py-1">
                      {item.label} <span className="text-muted">({item.pointsEach} each)</span>
                    </td>
                    <td className="py-1 text-right">{item.count.toLocaleString('en-US')}</td>
                    <td className="py-1 text-right">{item.points.toLocaleString('en-US')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        ) : null}
      </Card>
      <ProfileForm />
    </div>
  );
};

export const ProfileForm = () => {
  const profile = useQuery({
    queryKey: ['user-profile'],
    queryFn: () => api<TUserProfile>('/api/userprofile', { silent: true }),
  });
  // The fields start from the saved profile once it is loaded; a later refetch never overwrites what is typed.
  if (profile.isLoading) return <Spinner label="Loading profile" />;
  return <ProfileFields saved={profile.data} />;
};

const ProfileFields = ({ saved }: { saved: TUserProfile | undefined }) => {
  const queryClient = useQueryClient();
  const [form, setForm] = useState({
    name: saved?.name ?? '',
    businessName: saved?.businessName ?? '',
    image: saved?.image ?? '',
  });
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (body: unknown) => api<TUserProfile>('/api/userprofile', { body }),
    onSuccess: () => {
      toast.success('Profile saved');
      void queryClient.invalidateQueries({ queryKey: ['user-profile'] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = ZUserProfileRequest.safeParse(form);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Check the fields');
      return;
    }
    setError(null);
    save.mutate(parsed.data);
  };
  return (
    <Card>
      <form onSubmit={submit} noValidate className="space-y-3">
        <h2 className="text-lg font-semibold">Marketplace profile</h2>
        <p className="text-sm text-muted">Shown beside your marketplace projects. Your email address is never shown.</p>
        <div>
          <Label htmlFor="profile-name">Your name</Label>
          <Input id="profile-name" value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
        </div>
        <div>
          <Label htmlFor="profile-business">Business name</Label>
          <Input
            id="profile-business"
            value={form.businessName}
            onChange={(e) => setForm({ ...form, businessName: e.target.value })}
          />
        </div>
        <fieldset>
          <legend className="mb-1 text-sm font-medium">Avatar</legend>
          <div className="grid grid-cols-6 gap-2">
            {MARKETPLACE_AVATARS.map((path, index) => (
              <button
                key={path}
                type="button"
                aria-pressed={form.image === path}
                aria-label={`Avatar ${index + 1}`}
                onClick={() => setForm({ ...form, image: path })}
                className={cn(
                  'rounded-full border-2 p-0.5',
                  form.image === path ? 'border-primary' : 'border-transparent',
                )}
              >
                <img src={path} alt="" className="aspect-square w-full rounded-full" />
              </button>
            ))}
          </div>
        </fieldset>
        <FieldError>{error}</FieldError>
        <Button type="submit" disabled={save.isPending}>
          Save profile
        </Button>
      </form>
    </Card>
  );
};
