import type { Dispatch, SetStateAction } from 'react';
import type { DemoDraft, FieldErrors } from './demo-editor';
import { draftSetters } from './draft-setters';
import { CORNER_OPTIONS, ColorField, NumberField, Section, SelectField, TextField, Toggle } from './fields';

/** A size typed as "600" becomes a number; "600px" stays a string (non-responsive embeds). */
const sizeValue = (text: string): number | string => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : text.trim());

/** The presentation settings: website widget, header, embedding, page background, client message. */
export const PresentationSettings = ({
  draft,
  setDraft,
  errors,
}: {
  draft: DemoDraft;
  setDraft: Dispatch<SetStateAction<DemoDraft>>;
  errors: FieldErrors;
}) => {
  const s = draft.settings;
  const { setSettings, setNested } = draftSetters(setDraft);
  const err = (path: string) => errors[path];
  return (
    <>
      <Section title="Website widget">
        <TextField
          label="Website background URL"
          value={s.backgroundUrl}
          onChange={(backgroundUrl) => setSettings({ backgroundUrl })}
          error={err('settings.backgroundUrl')}
          placeholder="https://www.example.com"
        />
        <SelectField
          label="Widget template"
          value={s.widgetTemplate}
          onChange={(widgetTemplate) => setSettings({ widgetTemplate })}
          options={[
            { value: 'professional', label: 'Professional' },
            { value: 'legacy', label: 'Legacy' },
          ]}
        />
        <SelectField
          label="Position"
          value={s.platformSettings.position}
          onChange={(position) => setNested('platformSettings', { position })}
          options={CORNER_OPTIONS}
        />
        <SelectField
          label="Open on load"
          value={s.platformSettings.autoOpen === undefined ? 'auto' : s.platformSettings.autoOpen ? 'yes' : 'no'}
          onChange={(value) =>
            setNested('platformSettings', { autoOpen: value === 'auto' ? undefined : value === 'yes' })
          }
          options={[
            { value: 'auto', label: 'When a welcome message is shown' },
            { value: 'yes', label: 'Always' },
            { value: 'no', label: 'Never' },
          ]}
        />
        <Toggle
          label="Chat bubble"
          checked={s.chatBubble.enabled}
          onChange={(enabled) => setNested('chatBubble', { enabled })}
        />
        <TextField
          label="Bubble message"
          value={s.chatBubble.message}
          onChange={(message) => setNested('chatBubble', { message })}
        />
        <NumberField
          label="Bubble delay (seconds)"
          value={s.chatBubble.delaySeconds}
          min={0}
          max={500}
          onChange={(delaySeconds) => setNested('chatBubble', { delaySeconds })}
        />
      </Section>

      <Section title="Header and sharing">
        <TextField
          label="Status text"
          value={s.platformSettings.statusText}
          onChange={(statusText) => setNested('platformSettings', { statusText })}
          hint="Social chats; empty uses 'Typically replies instantly' or 'Active now'"
        />
        <Toggle
          label="Show share button"
          checked={s.platformSettings.showShareButton}
          onChange={(showShareButton) => setNested('platformSettings', { showShareButton })}
        />
        <Toggle
          label="Custom header size"
          checked={s.platformSettings.customHeaderSize}
          onChange={(customHeaderSize) => setNested('platformSettings', { customHeaderSize })}
        />
        <div className="grid grid-cols-3 gap-2">
          <NumberField
            label="Header height"
            value={s.platformSettings.headerHeight}
            min={40}
            max={160}
            onChange={(headerHeight) => setNested('platformSettings', { headerHeight })}
          />
          <NumberField
            label="Header padding"
            value={s.platformSettings.headerPadding}
            min={0}
            max={64}
            onChange={(headerPadding) => setNested('platformSettings', { headerPadding })}
          />
          <NumberField
            label="Logo size %"
            value={s.platformSettings.logoSize}
            min={10}
            max={100}
            onChange={(logoSize) => setNested('platformSettings', { logoSize })}
          />
        </div>
      </Section>

      <Section title="Embedding">
        <Toggle
          label="Responsive"
          checked={s.embedSettings.responsive}
          onChange={(responsive) => setNested('embedSettings', { responsive })}
        />
        <div className="grid grid-cols-2 gap-2">
          <TextField
            label="Width"
            value={String(s.embedSettings.width)}
            onChange={(text) => setNested('embedSettings', { width: sizeValue(text) })}
            error={err('settings.embedSettings.width')}
            hint="420 or 420px"
          />
          <TextField
            label="Height"
            value={String(s.embedSettings.height)}
            onChange={(text) => setNested('embedSettings', { height: sizeValue(text) })}
            error={err('settings.embedSettings.height')}
            hint="600 or 600px"
          />
        </div>
      </Section>

      <Section title="Page background">
        <ColorField
          label="Background colour"
          value={s.backgroundSettings.backgroundColor}
          onChange={(backgroundColor) => setNested('backgroundSettings', { backgroundColor })}
          error={err('settings.backgroundSettings.backgroundColor')}
        />
        <Toggle
          label="Show title"
          checked={s.backgroundSettings.showTitle}
          onChange={(showTitle) => setNested('backgroundSettings', { showTitle })}
        />
        <TextField
          label="Custom title"
          value={s.backgroundSettings.customTitle}
          onChange={(customTitle) => setNested('backgroundSettings', { customTitle })}
        />
        <NumberField
          label="Title size"
          value={s.backgroundSettings.titleSize}
          min={12}
          max={72}
          onChange={(titleSize) => setNested('backgroundSettings', { titleSize })}
        />
        <ColorField
          label="Title colour"
          value={s.backgroundSettings.titleColor}
          onChange={(titleColor) => setNested('backgroundSettings', { titleColor })}
        />
        <ColorField
          label="Header background colour"
          value={s.backgroundSettings.headerBackgroundColor}
          onChange={(headerBackgroundColor) => setNested('backgroundSettings', { headerBackgroundColor })}
        />
        <Toggle
          label="Show request counter"
          checked={s.backgroundSettings.showRequestCounter}
          onChange={(showRequestCounter) => setNested('backgroundSettings', { showRequestCounter })}
        />
        <SelectField
          label="Counter position"
          value={s.backgroundSettings.counterPosition}
          onChange={(counterPosition) => setNested('backgroundSettings', { counterPosition })}
          options={CORNER_OPTIONS}
        />
      </Section>

      <Section title="Client message">
        <Toggle
          label="Show a message to the client"
          checked={s.clientMessage.enabled}
          onChange={(enabled) => setNested('clientMessage', { enabled })}
        />
        <SelectField
          label="Message position"
          value={s.clientMessage.position}
          onChange={(position) => setNested('clientMessage', { position })}
          options={[
            { value: 'left', label: 'Left' },
            { value: 'right', label: 'Right' },
          ]}
        />
        <TextField
          label="Message header"
          value={s.clientMessage.header}
          onChange={(header) => setNested('clientMessage', { header })}
        />
        <TextField
          label="Message body"
          value={s.clientMessage.body}
          onChange={(body) => setNested('clientMessage', { body })}
          multiline
        />
      </Section>
    </>
  );
};
