import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { FieldError, Input, Label } from '../../components/ui/input';
import { useTheme } from '../theme/theme';

export const PRESET_COLOURS = [
  { name: 'Teal', value: '#276d64' },
  { name: 'Blue', value: '#2563eb' },
  { name: 'Purple', value: '#7c3aed' },
  { name: 'Pink', value: '#db2777' },
  { name: 'Red', value: '#dc2626' },
  { name: 'Orange', value: '#ea580c' },
  { name: 'Amber', value: '#d97706' },
  { name: 'Green', value: '#16a34a' },
  { name: 'Slate', value: '#475569' },
  { name: 'Indigo', value: '#4f46e5' },
];

/** Dark or light mode and the primary colour of this sub-account. */
export const AppearanceCard = ({ readOnly }: { readOnly: boolean }) => {
  const theme = useTheme();
  const [hex, setHex] = useState('');
  const [error, setError] = useState<string | null>(null);

  const applyHex = () => {
    const value = hex.trim();
    if (!/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(value)) {
      setError('Colour must be a hex value such as #276d64');
      return;
    }
    setError(null);
    theme.setPrimaryColor(value);
  };

  return (
    <Card>
      <h2 className="font-semibold">Appearance</h2>
      <p className="mt-1 text-sm text-muted">How this account’s pages look to everyone on the team.</p>
      <div className="mt-4 flex items-center gap-3">
        <fieldset className="inline-flex items-center gap-3">
          <legend className="sr-only">Mode</legend>
          <span className="text-sm" aria-hidden="true">
            Mode
          </span>
          <div className="inline-flex rounded-lg border border-border p-1">
            {(['dark', 'light'] as const).map((mode) => (
              <button
                key={mode}
                type="button"
                disabled={readOnly}
                aria-pressed={(mode === 'dark') === theme.isDarkMode}
                onClick={() => ((mode === 'dark') !== theme.isDarkMode ? theme.toggleTheme() : undefined)}
                className="rounded-md px-3 py-1 text-sm aria-pressed:bg-primary aria-pressed:text-primary-foreground disabled:opacity-50"
              >
                {mode === 'dark' ? 'Dark' : 'Light'}
              </button>
            ))}
          </div>
        </fieldset>
      </div>
      <fieldset className="mt-4" disabled={readOnly}>
        <legend className="text-sm">Primary colour</legend>
        <div className="mt-2 flex flex-wrap gap-2">
          {PRESET_COLOURS.map((colour) => (
            <button
              key={colour.name}
              type="button"
              title={colour.name}
              aria-label={colour.name}
              aria-pressed={theme.primaryColor.toLowerCase() === colour.value}
              onClick={() => theme.setPrimaryColor(colour.value)}
              className="h-8 w-8 rounded-full border-2 border-transparent aria-pressed:border-foreground disabled:opacity-50"
              style={{ background: colour.value }}
            />
          ))}
        </div>
        <div className="mt-3 flex max-w-xs items-start gap-2">
          <div className="flex-1">
            <Label htmlFor="primary-hex" className="sr-only">
              Hex colour
            </Label>
            <Input
              id="primary-hex"
              placeholder="#276d64"
              value={hex}
              onChange={(event) => setHex(event.target.value)}
              aria-describedby={error ? 'primary-hex-error' : undefined}
            />
            <FieldError id="primary-hex-error">{error}</FieldError>
          </div>
          <Button variant="secondary" onClick={applyHex}>
            Apply
          </Button>
        </div>
      </fieldset>
      {readOnly ? <p className="mt-3 text-sm text-muted">Viewers cannot change the appearance.</p> : null}
    </Card>
  );
};
