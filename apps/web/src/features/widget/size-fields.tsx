import { WIDGET_LIMITS } from '@switchboard/core';
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { Input, Label } from '../../components/ui/input';
import type { Designer } from './use-designer';

/** Width and height with an apply button; an entry out of range falls back to the current value. */
export const SizeFields = ({ designer }: { designer: Designer }) => {
  const { draft, patch } = designer;
  const [width, setWidth] = useState(String(draft.width));
  const [height, setHeight] = useState(String(draft.height));
  const [note, setNote] = useState<string | null>(null);
  const apply = () => {
    const w = Number(width);
    const h = Number(height);
    const okW = Number.isInteger(w) && w >= WIDGET_LIMITS.width.min && w <= WIDGET_LIMITS.width.max;
    const okH = Number.isInteger(h) && h >= WIDGET_LIMITS.height.min && h <= WIDGET_LIMITS.height.max;
    if (!okW) setWidth(String(draft.width));
    if (!okH) setHeight(String(draft.height));
    setNote(okW && okH ? null : 'Out of range: the current value was kept.');
    patch({ ...(okW ? { width: w } : {}), ...(okH ? { height: h } : {}) });
  };
  return (
    <div>
      <div className="grid grid-cols-[1fr_1fr_auto] items-end gap-2">
        <div>
          <Label htmlFor="widget-width">Width</Label>
          <Input
            id="widget-width"
            inputMode="numeric"
            value={width}
            onChange={(event) => setWidth(event.target.value)}
            aria-describedby="size-hint"
          />
        </div>
        <div>
          <Label htmlFor="widget-height">Height</Label>
          <Input
            id="widget-height"
            inputMode="numeric"
            value={height}
            onChange={(event) => setHeight(event.target.value)}
            aria-describedby="size-hint"
          />
        </div>
        <Button variant="secondary" onClick={apply}>
          Apply size
        </Button>
      </div>
      <p id="size-hint" className="mt-1 text-xs text-muted">
        Width 300-600 px, height 300-700 px.{note ? ` ${note}` : ''}
      </p>
    </div>
  );
};
