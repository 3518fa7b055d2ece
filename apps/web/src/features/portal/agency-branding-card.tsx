import { type TAgencyBranding, ZPatchAgencyBrandingRequest } from '@switchboard/core';
import { type FormEvent, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card, Spinner } from '../../components/ui/card';
import { FieldError, Input, Label } from '../../components/ui/input';
import { ApiError } from '../../lib/api';
import { toast } from '../../lib/toast';
import { useAgencyBranding, useSaveAgencyBranding } from './api';

type Field = 'slug' | 'brandName' | 'logoUrl' | 'primaryColor' | 'emailSenderName';

const BrandingForm = ({ branding }: { branding: TAgencyBranding }) => {
  const save = useSaveAgencyBranding(branding.accountId);
  const [values, setValues] = useState<Record<Field, string>>({
    slug: branding.slug,
    brandName: branding.brandName,
    logoUrl: branding.logoUrl ?? '',
    primaryColor: branding.primaryColor ?? '',
    emailSenderName: branding.emailSenderName ?? '',
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const set = (field: Field) => (event: { target: { value: string } }) =>
    setValues((old) => ({ ...old, [field]: event.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    const body = {
      slug: values.slug.trim(),
      brandName: values.brandName.trim(),
      logoUrl: values.logoUrl.trim() || null,
      primaryColor: values.primaryColor.trim() || null,
      emailSenderName: values.emailSenderName.trim() || null,
    };
    const parsed = ZPatchAgencyBrandingRequest.safeParse(body);
    if (!parsed.success) {
      const found: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) found[issue.path[0] as Field] ??= issue.message;
      setErrors(found);
      return;
    }
    try {
      await save.mutateAsync(body);
      toast.success('Branding saved');
    } catch (error) {
      const field = (error instanceof ApiError && (error.field as Field | undefined)) || 'brandName';
      setErrors({ [field]: error instanceof Error ? error.message : 'Could not save the branding' });
    }
  };

  const field = (name: Field, label: string, props: { placeholder?: string; type?: string; hint?: string } = {}) => {
    const id = `branding-${branding.accountId}-${name}`;
    return (
      <div>
        <Label htmlFor={id}>{label}</Label>
        <Input
          id={id}
          type={props.type ?? 'text'}
          placeholder={props.placeholder}
          value={values[name]}
          onChange={set(name)}
          aria-invalid={errors[name] ? true : undefined}
          aria-describedby={errors[name] ? `${id}-error` : props.hint ? `${id}-hint` : undefined}
        />
        {props.hint ? (
          <p id={`${id}-hint`} className="mt-1 text-xs text-muted">
            {props.hint}
          </p>
        ) : null}
        <FieldError id={`${id}-error`}>{errors[name] ?? null}</FieldError>
      </div>
    );
  };

  const signInUrl = `${window.location.origin}/a/${branding.slug}`;
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      {field('brandName', 'Brand name')}
      {field('slug', 'Sign-in page address', { hint: 'Lowercase letters, digits and hyphens, 3 to 40 characters.' })}
      <p className="text-sm">
        Your clients sign in at{' '}
        <a className="break-all underline decoration-primary decoration-2" href={signInUrl}>
          {signInUrl}
        </a>
      </p>
      {field('logoUrl', 'Logo URL', { placeholder: 'https://…/logo.png', type: 'url' })}
      {field('primaryColor', 'Colour', { placeholder: '#276d64' })}
      {field('emailSenderName', 'Email sender name', { placeholder: branding.brandName })}
      <p className="text-sm text-muted">
        {branding.whiteLabel
          ? 'Your plan includes white-label branding: your clients never see the platform’s name.'
          : 'Your clients see “Powered by Switchboard” on the portal and in its emails; white-label plans remove it.'}
      </p>
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? 'Saving...' : 'Save branding'}
      </Button>
    </form>
  );
};

/** The agency's branding its clients see: portal, sign-in page and emails. The manager's. */
export const AgencyBrandingCard = ({ accountId }: { accountId: string }) => {
  const branding = useAgencyBranding(accountId);
  return (
    <Card className="space-y-4">
      <div>
        <h2 className="font-semibold">Client portal branding</h2>
        <p className="text-sm text-muted">
          Your name, logo and colour on your clients' portal, their sign-in page and every email they receive.
        </p>
      </div>
      {branding.data ? (
        <BrandingForm key={branding.dataUpdatedAt} branding={branding.data} />
      ) : (
        <Spinner label="Loading branding" />
      )}
    </Card>
  );
};
