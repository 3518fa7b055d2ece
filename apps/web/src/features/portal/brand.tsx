import type { TPortalBranding } from '@switchboard/core';
import { type CSSProperties, useEffect } from 'react';
import { cn } from '../../lib/cn';
import { readableOn } from '../theme/theme';

/** The agency's colour as the primary colour of what it wraps (buttons, focus rings), with readable text on it. */
export const brandStyle = (branding: TPortalBranding | null | undefined): CSSProperties | undefined =>
  branding?.primaryColor
    ? ({
        '--primary': branding.primaryColor,
        '--primary-foreground': readableOn(branding.primaryColor),
      } as CSSProperties)
    : undefined;

/** The agency's logo (or its initial) and name. */
export const BrandMark = ({
  branding,
  expanded = true,
  className,
}: {
  branding: TPortalBranding;
  expanded?: boolean;
  className?: string;
}) => (
  <span className={cn('flex min-w-0 items-center gap-2 font-semibold', className)}>
    {branding.logoUrl ? (
      <img src={branding.logoUrl} alt="" width={32} height={32} className="h-8 w-8 shrink-0 rounded object-contain" />
    ) : (
      <span
        aria-hidden="true"
        className="flex h-8 w-8 shrink-0 items-center justify-center rounded bg-primary text-sm text-primary-foreground"
      >
        {branding.name.charAt(0).toUpperCase()}
      </span>
    )}
    <span className={cn('truncate', expanded ? 'inline' : 'sr-only')}>{branding.name}</span>
  </span>
);

/** "Powered by Switchboard", shown only when the agency's plan has no white-label branding. */
export const PoweredBy = ({ branding, className }: { branding: TPortalBranding; className?: string }) =>
  branding.whiteLabel ? null : (
    <p className={cn('text-center text-xs text-muted', className)}>Powered by Switchboard</p>
  );

/**
 * The browser tab names the agency (and shows its logo) while its page is open, so no tab title or
 * icon names the platform; the platform's come back when the page closes.
 */
export const useBrandedDocument = (branding: TPortalBranding | null | undefined) => {
  const name = branding?.name;
  const logo = branding?.logoUrl;
  useEffect(() => {
    if (!name) return;
    const title = document.title;
    const icon = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    const href = icon?.getAttribute('href') ?? null;
    const type = icon?.getAttribute('type') ?? null;
    document.title = name;
    if (icon && logo) {
      icon.setAttribute('href', logo);
      icon.removeAttribute('type');
    }
    return () => {
      document.title = title;
      if (icon && href) icon.setAttribute('href', href);
      if (icon && type) icon.setAttribute('type', type);
    };
  }, [name, logo]);
};
