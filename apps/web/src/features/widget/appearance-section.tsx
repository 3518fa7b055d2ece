import { type TWidgetSettings, WIDGET_PRESET_COLOURS } from '@switchboard/core';
import { Check } from 'lucide-react';
import { useState } from 'react';
import { Input, Label } from '../../components/ui/input';
import { readableOn } from '../theme/theme';
import { Choice, Section } from './controls';
import type { Designer } from './use-designer';

/** Dark/Light toggle, the 10 preset colours and the hex entry. */
export const AppearanceSection = ({ designer }: { designer: Designer }) => {
  const { draft, setField } = designer;
  const [hex, setHex] = useState(draft.themeColor);
  return (
    <Section title="Appearance">
      <Choice<TWidgetSettings['theme']>
        label="Dark/Light"
        value={draft.theme}
        options={[
          { value: 'dark', label: 'Dark' },
          { value: 'light', label: 'Light' },
        ]}
        onChange={(value) => setField('theme', value)}
      />
      <div>
        <fieldset className="flex flex-wrap gap-2">
          <legend className="mb-1 text-sm font-medium">Theme Color</legend>
          {WIDGET_PRESET_COLOURS.map((colour) => {
            const selected = draft.themeColor.toLowerCase() === colour.value;
            return (
              <button
                key={colour.name}
                type="button"
                aria-label={colour.name}
                aria-pressed={selected}
                title={colour.name}
                onClick={() => {
                  setField('themeColor', colour.value);
                  setHex(colour.value);
                }}
                className="flex h-8 w-8 items-center justify-center rounded-full ring-offset-2 ring-offset-surface focus-visible:ring-2"
                style={{
                  background: colour.value,
                  color: readableOn(colour.value),
                  boxShadow: selected ? '0 0 0 2px var(--color-foreground, currentColor)' : undefined,
                }}
              >
                {selected ? <Check size={16} aria-hidden="true" /> : null}
              </button>
            );
          })}
        </fieldset>
        <Label htmlFor="theme-hex" className="mt-3">
          Hex colour
        </Label>
        <div className="flex items-center gap-2">
          <span
            className="h-10 w-10 shrink-0 rounded-lg border border-border"
            style={{ background: draft.themeColor }}
            aria-hidden="true"
          />
          <Input
            id="theme-hex"
            value={hex}
            placeholder="#276d64"
            onChange={(event) => {
              setHex(event.target.value);
              if (/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(event.target.value.trim()))
                setField('themeColor', event.target.value.trim());
            }}
          />
        </div>
      </div>
    </Section>
  );
};
