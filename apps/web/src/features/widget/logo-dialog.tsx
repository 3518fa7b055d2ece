import { clamp, LOGO_DEFAULTS, LOGO_HEADER_BACKGROUND, LOGO_PREVIEWS, WIDGET_LIMITS } from '@switchboard/core';
import { Check } from 'lucide-react';
import { type PointerEvent, useEffect, useRef, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { cn } from '../../lib/cn';
import { LogoImage } from './logo-image';

export type LogoTab = 'avatar' | 'widget';
export interface LogoPlacement {
  position: { x: number; y: number };
  scale: number;
}

/** Mobile under 768, tablet 768 to under 1024, desktop from 1024. */
const readSize = () => (window.innerWidth < 768 ? 'mobile' : window.innerWidth < 1024 ? 'tablet' : 'desktop');
export const useResponsive = () => {
  const read = readSize;
  const [size, setSize] = useState<'mobile' | 'tablet' | 'desktop'>(read);
  useEffect(() => {
    const onResize = () => setSize(read());
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return size;
};

const TABS: { id: LogoTab; label: string; caption: string }[] = [
  { id: 'avatar', label: 'Chat Avatar', caption: 'This is how your logo will appear as chat avatar' },
  { id: 'widget', label: 'Widget Header', caption: 'This is how your logo will appear in widget header' },
];

/** The Logo Position & Scale modal: drag the logo and scale it, per tab, then Apply. */
export const LogoDialog = ({
  open,
  onOpenChange,
  logoUrl,
  saved,
  onApply,
  initialTab = 'avatar',
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  logoUrl: string;
  saved: Record<LogoTab, LogoPlacement>;
  onApply: (tab: LogoTab, placement: LogoPlacement) => void;
  initialTab?: LogoTab;
}) => {
  const [tab, setTab] = useState<LogoTab>(initialTab);
  const [temp, setTemp] = useState(saved);
  const [applied, setApplied] = useState<Record<LogoTab, boolean>>({ avatar: false, widget: false });
  const [dragging, setDragging] = useState(false);
  const boxRef = useRef<HTMLDivElement>(null);
  const responsive = useResponsive();

  // On open the temporary values load from the saved ones (only on opening: an Apply changes `saved`).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the dialog opens, not on every Apply
  useEffect(() => {
    if (open) {
      setTemp(saved);
      setTab(initialTab);
      setApplied({ avatar: false, widget: false });
    }
  }, [open]);

  if (!logoUrl) return null;
  const current = temp[tab];
  const preview = LOGO_PREVIEWS[tab];
  const shrink = responsive === 'mobile' ? Math.min(1, (window.innerWidth - 90) / preview.width) : 1;
  const setCurrent = (placement: LogoPlacement) => setTemp((value) => ({ ...value, [tab]: placement }));

  const moveTo = (event: PointerEvent<HTMLDivElement>) => {
    const box = boxRef.current?.getBoundingClientRect();
    if (!box) return;
    const { min, max } = WIDGET_LIMITS.logoPosition;
    setCurrent({
      ...current,
      position: {
        x: Math.round(clamp(((event.clientX - box.left) / box.width) * 100, min, max)),
        y: Math.round(clamp(((event.clientY - box.top) / box.height) * 100, min, max)),
      },
    });
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Logo Position & Scale" className="max-w-xl">
      <div role="tablist" aria-label="Logo placement" className="mb-4 flex gap-2">
        {TABS.map((item) => (
          <button
            key={item.id}
            type="button"
            role="tab"
            aria-selected={tab === item.id}
            onClick={() => setTab(item.id)}
            className={cn(
              'flex h-9 items-center gap-1 rounded-lg border px-3 text-sm',
              tab === item.id
                ? 'border-primary bg-primary text-primary-foreground'
                : 'border-border hover:bg-surface-2',
            )}
          >
            {item.label}
            {applied[item.id] ? (
              <>
                <Check size={14} aria-hidden="true" />
                <span className="sr-only">(applied)</span>
              </>
            ) : null}
          </button>
        ))}
      </div>
      <div role="tabpanel" aria-label={TABS.find((item) => item.id === tab)?.label} className="space-y-4">
        <div>
          <label htmlFor="logo-scale" className="mb-1 block text-sm font-medium">
            Scale: {current.scale.toFixed(1)}x
          </label>
          <input
            id="logo-scale"
            type="range"
            min={WIDGET_LIMITS.logoScale.min}
            max={WIDGET_LIMITS.logoScale.max}
            step={WIDGET_LIMITS.logoScale.step}
            value={current.scale}
            onChange={(event) => setCurrent({ ...current, scale: Number(event.target.value) })}
            className="w-full accent-[var(--primary)]"
          />
        </div>
        <output className="block text-sm" aria-label="Position">
          Position: X {current.position.x}% · Y {current.position.y}%
        </output>
        <p className="rounded-lg border border-border bg-surface-2 p-3 text-sm text-muted">
          Drag the logo inside the box to position it, and use the slider to scale it. Apply saves this tab; Reset
          centres the logo at scale 1.
        </p>
        <div className="flex flex-col items-center gap-2">
          <div
            ref={boxRef}
            role="application"
            aria-label="Drag to position the logo"
            onPointerDown={(event) => {
              setDragging(true);
              event.currentTarget.setPointerCapture(event.pointerId);
              moveTo(event);
            }}
            onPointerMove={(event) => dragging && moveTo(event)}
            onPointerUp={() => setDragging(false)}
            className="relative cursor-move touch-none overflow-hidden border-2 border-dashed border-gray-400"
            style={{
              width: preview.width * shrink,
              height: preview.height * shrink,
              background: tab === 'avatar' ? '#f3f4f6' : LOGO_HEADER_BACKGROUND,
            }}
          >
            <LogoImage url={logoUrl} position={current.position} scale={current.scale} alt="Logo being positioned" />
            <span
              className="pointer-events-none absolute inset-y-0 w-px bg-red-500/70"
              style={{ left: `${current.position.x}%` }}
            />
            <span
              className="pointer-events-none absolute inset-x-0 h-px bg-red-500/70"
              style={{ top: `${current.position.y}%` }}
            />
          </div>
          <p className="text-center text-sm text-muted">{TABS.find((item) => item.id === tab)?.caption}</p>
        </div>
      </div>
      <div className="mt-6 flex flex-wrap justify-end gap-2">
        <Button
          variant="ghost"
          onClick={() => {
            const reset = { position: { x: LOGO_DEFAULTS.x, y: LOGO_DEFAULTS.y }, scale: LOGO_DEFAULTS.scale };
            setCurrent(reset);
            onApply(tab, reset);
          }}
        >
          Reset
        </Button>
        <Button variant="secondary" onClick={() => onOpenChange(false)}>
          Cancel
        </Button>
        <Button
          onClick={() => {
            onApply(tab, current);
            setApplied((value) => ({ ...value, [tab]: true }));
          }}
        >
          Apply
        </Button>
      </div>
    </Dialog>
  );
};
