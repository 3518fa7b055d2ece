import type { Dispatch, SetStateAction } from 'react';
import type { BuildOption } from './api';
import type { DemoDraft, FieldErrors } from './demo-editor';
import { draftSetters } from './draft-setters';
import {
  ColorField,
  ImageUrlField,
  NumberField,
  Section,
  SelectField,
  TextField,
  Toggle,
  TYPE_OPTIONS,
} from './fields';
import { PresentationSettings } from './presentation-settings';

/** Every demo setting of section 3, grouped; changes show at once in the live preview. */
export const SettingsForm = ({
  draft,
  setDraft,
  errors,
  builds,
}: {
  draft: DemoDraft;
  setDraft: Dispatch<SetStateAction<DemoDraft>>;
  errors: FieldErrors;
  builds: BuildOption[];
}) => {
  const s = draft.settings;
  const { set, setSettings } = draftSetters(setDraft);
  const err = (path: string) => errors[path];
  const buildOptions =
    builds.some((build) => build.buildId === draft.buildId) || !draft.buildId
      ? builds
      : [{ buildId: draft.buildId, name: 'Current agent' }, ...builds];

  return (
    <div className="space-y-4">
      <Section title="Demo">
        <TextField label="Demo name" value={draft.name} onChange={(name) => set({ name })} error={err('name')} />
        <SelectField label="Type" value={draft.type} onChange={(type) => set({ type })} options={TYPE_OPTIONS} />
        <SelectField
          label="Agent"
          value={draft.buildId}
          onChange={(buildId) => set({ buildId })}
          options={buildOptions.map((build) => ({ value: build.buildId, label: build.name }))}
        />
        <NumberField
          label="Request limit"
          value={draft.requestLimit}
          min={1}
          max={1_000_000}
          onChange={(requestLimit) => set({ requestLimit })}
          error={err('requestLimit')}
        />
      </Section>

      <Section title="Branding">
        <ImageUrlField
          label="Logo URL"
          value={draft.logoUrl}
          onChange={(logoUrl) => set({ logoUrl })}
          error={err('logoUrl')}
        />
        <ImageUrlField
          label="Avatar URL"
          value={draft.avatarUrl}
          onChange={(avatarUrl) => set({ avatarUrl })}
          error={err('avatarUrl')}
        />
        <NumberField
          label="Logo width"
          value={s.logoWidth}
          min={50}
          max={300}
          onChange={(logoWidth) => {
            setSettings({ logoWidth });
            set({ logoWidth });
          }}
          hint="50-300 px; at most 150 px in a header"
        />
        <SelectField
          label="Theme"
          value={s.theme}
          onChange={(theme) => setSettings({ theme })}
          options={[
            { value: 'dark', label: 'Dark' },
            { value: 'light', label: 'Light' },
          ]}
        />
        <ColorField
          label="Theme colour"
          value={s.themeColor}
          onChange={(themeColor) => setSettings({ themeColor })}
          error={err('settings.themeColor')}
        />
        <div className="grid grid-cols-3 gap-2">
          <NumberField
            label="Logo X %"
            value={s.logoCropPosition.x}
            min={-50}
            max={150}
            onChange={(x) => setSettings({ logoCropPosition: { ...s.logoCropPosition, x } })}
          />
          <NumberField
            label="Logo Y %"
            value={s.logoCropPosition.y}
            min={-50}
            max={150}
            onChange={(y) => setSettings({ logoCropPosition: { ...s.logoCropPosition, y } })}
          />
          <NumberField
            label="Logo scale"
            value={s.logoScale}
            min={0.5}
            max={3}
            onChange={(logoScale) => setSettings({ logoScale })}
          />
          <NumberField
            label="Avatar X %"
            value={s.avatarCropPosition.x}
            min={-50}
            max={150}
            onChange={(x) => setSettings({ avatarCropPosition: { ...s.avatarCropPosition, x } })}
          />
          <NumberField
            label="Avatar Y %"
            value={s.avatarCropPosition.y}
            min={-50}
            max={150}
            onChange={(y) => setSettings({ avatarCropPosition: { ...s.avatarCropPosition, y } })}
          />
          <NumberField
            label="Avatar scale"
            value={s.avatarScale}
            min={0.5}
            max={3}
            onChange={(avatarScale) => setSettings({ avatarScale })}
          />
        </div>
      </Section>

      <Section title="Conversation">
        <TextField
          label="Assistant name"
          value={s.assistantName}
          onChange={(assistantName) => setSettings({ assistantName })}
        />
        <TextField
          label="Widget title"
          value={s.widgetTitle}
          onChange={(widgetTitle) => setSettings({ widgetTitle })}
          placeholder={draft.name}
        />
        <TextField
          label="Website assistant name"
          value={s.websiteAssistantName}
          onChange={(websiteAssistantName) => setSettings({ websiteAssistantName })}
        />
        <TextField
          label="Social contact name"
          value={s.socialContactName}
          onChange={(socialContactName) => setSettings({ socialContactName })}
        />
        <Toggle
          label="Show welcome message"
          checked={s.showWelcomeMessage}
          onChange={(showWelcomeMessage) => setSettings({ showWelcomeMessage })}
        />
        <TextField
          label="Welcome message"
          value={s.welcomeMessage}
          onChange={(welcomeMessage) => setSettings({ welcomeMessage })}
          multiline
        />
        <TextField
          label="Input placeholder"
          value={s.placeholder}
          onChange={(placeholder) => setSettings({ placeholder })}
          hint="Empty uses the presentation's own placeholder"
        />
        <TextField
          label="Suggested responses"
          value={s.suggestedResponses.join('\n')}
          onChange={(text) =>
            setSettings({
              suggestedResponses: text
                .split('\n')
                .map((line) => line.trim())
                .filter(Boolean)
                .slice(0, 3),
            })
          }
          multiline
          hint="One per line, up to three (website widget)"
        />
      </Section>

      <PresentationSettings draft={draft} setDraft={setDraft} errors={errors} />
    </div>
  );
};
