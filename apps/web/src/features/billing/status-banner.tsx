import { AlertTriangle, CheckCircle2, Info, XCircle } from 'lucide-react';
import { cn } from '../../lib/cn';

export type BannerType = 'info' | 'warning' | 'primary' | 'success' | 'error';

export interface Banner {
  type: BannerType;
  title: string;
  description?: string;
}

const STYLES: Record<BannerType, string> = {
  info: 'border-border bg-surface-2',
  primary: 'border-primary bg-surface-2',
  success: 'border-primary bg-surface-2',
  warning: 'border-amber-500 bg-surface-2',
  error: 'border-danger bg-surface-2',
};

/** A status banner (type, title, description) of the plan modal and usage screen. */
export const StatusBanner = ({ banner }: { banner: Banner }) => {
  const Icon =
    banner.type === 'success'
      ? CheckCircle2
      : banner.type === 'error'
        ? XCircle
        : banner.type === 'warning'
          ? AlertTriangle
          : Info;
  return (
    <div
      role={banner.type === 'error' || banner.type === 'warning' ? 'alert' : 'status'}
      className={cn('flex gap-3 rounded-lg border-l-4 p-3 text-left text-sm', STYLES[banner.type])}
    >
      <Icon size={18} className="mt-0.5 shrink-0" aria-hidden="true" />
      <div>
        <p className="font-semibold">{banner.title}</p>
        {banner.description ? <p className="mt-0.5 text-muted">{banner.description}</p> : null}
      </div>
    </div>
  );
};

/** The banner for a failed plan action: 409 or a missing subscription means it needs attention. */
export const failureBanner = (error: unknown, fallback: string): Banner => {
  const err = error as { status?: number; code?: string; message?: string };
  if (err?.status === 409 && err.code !== 'CONFLICT') {
    return {
      type: 'warning',
      title: 'Subscription needs attention',
      description:
        'No active subscription was found for this customer. Please resubscribe first or contact support. If you recently tried an upgrade and this persists, contact support.',
    };
  }
  if (err?.code === 'BILLING_SUBSCRIPTION_NOT_FOUND') {
    return {
      type: 'warning',
      title: 'Subscription needs attention',
      description:
        'No active subscription was found for this customer. Please resubscribe first or contact support. If you recently tried an upgrade and this persists, contact support.',
    };
  }
  return {
    type: 'error',
    title: fallback,
    description: err?.message && err.message !== fallback ? err.message : undefined,
  };
};
