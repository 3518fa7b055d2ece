import { clamp, WIDGET_LIMITS, WIDGET_MESSAGES } from '@switchboard/core';
import { Crop, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { FieldError, Input, Label } from '../../components/ui/input';
import { Section, Toggle } from './controls';
import { LogoDialog, type LogoTab } from './logo-dialog';
import { loadImageRatio, suggestLogoFit } from './logo-fit';
import { LogoImage } from './logo-image';
import type { Designer } from './use-designer';

/** Logo URL (must load as an image), its previews, the crop dialog and where the logo is used. */
export const BrandingSection = ({ designer }: { designer: Designer }) => {
  const { draft, setField, patch } = designer;
  const [url, setUrl] = useState(draft.logoUrl);
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const [cropOpen, setCropOpen] = useState(false);
  const [width, setWidth] = useState(String(draft.logoWidth));

  const applyUrl = async () => {
    const value = url.trim();
    if (!value) return;
    setChecking(true);
    const ratio = await loadImageRatio(value).catch(() => null);
    setChecking(false);
    if (ratio === null) {
      setError(WIDGET_MESSAGES.logoUrl);
      return;
    }
    setError(null);
    const fit = suggestLogoFit(ratio);
    setWidth(String(fit.logoWidth));
    patch({
      logoUrl: value,
      logoWidth: fit.logoWidth,
      widgetLogoScale: fit.widgetLogoScale,
      avatarLogoScale: fit.avatarLogoScale,
    });
  };

  const saved: Record<LogoTab, { position: { x: number; y: number }; scale: number }> = {
    avatar: { position: draft.avatarLogoCropPosition, scale: draft.avatarLogoScale },
    widget: { position: draft.widgetLogoCropPosition, scale: draft.widgetLogoScale },
  };

  return (
    <Section title="Branding">
      <div>
        <Label htmlFor="logo-url">Logo URL</Label>
        <div className="flex gap-2">
          <Input
            id="logo-url"
            type="url"
            value={url}
            placeholder="https://example.com/logo.png"
            aria-invalid={Boolean(error)}
            aria-describedby={error ? 'logo-url-error' : undefined}
            onChange={(event) => setUrl(event.target.value)}
            onKeyDown={(event) => event.key === 'Enter' && void applyUrl()}
          />
          <Button
            variant="secondary"
            className="shrink-0 whitespace-nowrap"
            onClick={() => void applyUrl()}
            disabled={checking || !url.trim()}
          >
            {checking ? 'Checking...' : 'Use logo'}
          </Button>
        </div>
        <FieldError id="logo-url-error">{error}</FieldError>
      </div>
      {draft.logoUrl ? (
        <>
          <div className="flex flex-wrap items-end gap-4">
            <figure>
              <div
                className="relative h-[60px] w-[150px] overflow-hidden rounded-md"
                style={{ background: draft.themeColor }}
              >
                <LogoImage
                  url={draft.logoUrl}
                  position={draft.widgetLogoCropPosition}
                  scale={draft.widgetLogoScale}
                  alt="Logo preview"
                />
              </div>
              <figcaption className="mt-1 text-xs text-muted">Header</figcaption>
            </figure>
            <figure>
              <div className="relative h-10 w-10 overflow-hidden rounded-full bg-gray-100">
                <LogoImage
                  url={draft.logoUrl}
                  position={draft.avatarLogoCropPosition}
                  scale={draft.avatarLogoScale}
                  alt="Avatar preview"
                />
              </div>
              <figcaption className="mt-1 text-xs text-muted">Avatar</figcaption>
            </figure>
            <figure>
              <div className="relative h-12 w-12 overflow-hidden rounded-full" style={{ background: draft.themeColor }}>
                <LogoImage
                  url={draft.logoUrl}
                  position={draft.logoCropPosition}
                  scale={draft.logoScale}
                  alt="Minimized widget preview"
                />
              </div>
              <figcaption className="mt-1 text-xs text-muted">Minimized</figcaption>
            </figure>
          </div>
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" size="sm" onClick={() => setCropOpen(true)}>
              <Crop size={14} aria-hidden="true" /> Adjust position & scale
            </Button>
            <Button
              variant="ghost"
              size="sm"
              onClick={() => {
                setUrl('');
                patch({ logoUrl: '', useLogoForAvatar: false, useLogoForMinimizedWidget: false });
              }}
            >
              <Trash2 size={14} aria-hidden="true" /> Clear logo
            </Button>
          </div>
          <div>
            <Label htmlFor="logo-width">Logo width (px)</Label>
            <Input
              id="logo-width"
              inputMode="numeric"
              value={width}
              onChange={(event) => setWidth(event.target.value)}
              onBlur={() => {
                const parsed = Number.parseInt(width, 10);
                const next = Number.isNaN(parsed)
                  ? draft.logoWidth
                  : clamp(parsed, WIDGET_LIMITS.logoWidth.min, WIDGET_LIMITS.logoWidth.max);
                setWidth(String(next));
                setField('logoWidth', next);
              }}
            />
            <p className="mt-1 text-xs text-muted">50-300 px</p>
          </div>
          <Toggle
            label="Use logo for avatar"
            checked={draft.useLogoForAvatar}
            onChange={(value) => setField('useLogoForAvatar', value)}
          />
          <Toggle
            label="Use logo for minimized widget"
            checked={draft.useLogoForMinimizedWidget}
            onChange={(value) => setField('useLogoForMinimizedWidget', value)}
          />
        </>
      ) : null}
      <LogoDialog
        open={cropOpen}
        onOpenChange={setCropOpen}
        logoUrl={draft.logoUrl}
        saved={saved}
        onApply={(tab, placement) =>
          tab === 'avatar'
            ? patch({ avatarLogoCropPosition: placement.position, avatarLogoScale: placement.scale })
            : patch({ widgetLogoCropPosition: placement.position, widgetLogoScale: placement.scale })
        }
      />
    </Section>
  );
};
