import type { TConnection } from '@switchboard/core';
import { Rocket } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { Input, Label } from '../../components/ui/input';
import { AppearanceSection } from './appearance-section';
import { PlacementSection, VisitorSection } from './behaviour-section';
import { BrandingSection } from './branding-section';
import { BuildSelect } from './build-select';
import { Section, Toggle } from './controls';
import { SizeFields } from './size-fields';
import type { Designer } from './use-designer';

/** Every control of the designer's settings panel (spec 2.6). */
export const SettingsPanel = ({
  connection,
  designer,
  block,
  onDeploy,
  deploying,
  readOnly,
}: {
  connection: TConnection;
  designer: Designer;
  block?: boolean;
  onDeploy: () => void;
  deploying: boolean;
  readOnly: boolean;
}) => {
  const { draft, setField } = designer;
  return (
    <div className="space-y-5">
      <Section title="General">
        <div>
          <Label htmlFor="widget-title">Widget title</Label>
          <Input
            id="widget-title"
            value={draft.widgetTitle}
            onChange={(event) => setField('widgetTitle', event.target.value)}
          />
        </div>
        <BuildSelect
          connectionId={connection.connectionId}
          subaccountId={connection.subaccountId}
          buildId={connection.buildId}
          disabled={readOnly}
        />
        <SizeFields designer={designer} />
      </Section>
      <Section title="Messages">
        <Toggle
          label="First Message"
          checked={draft.showFirstMessage}
          onChange={(value) => setField('showFirstMessage', value)}
        />
        {draft.showFirstMessage ? (
          <div>
            <Label htmlFor="first-message">First message text</Label>
            <Input
              id="first-message"
              value={draft.firstMessage}
              onChange={(event) => setField('firstMessage', event.target.value)}
            />
          </div>
        ) : null}
        <div>
          <Label htmlFor="input-placeholder">Input placeholder</Label>
          <Input
            id="input-placeholder"
            value={draft.inputPlaceholder}
            onChange={(event) => setField('inputPlaceholder', event.target.value)}
          />
        </div>
        <div>
          <Label htmlFor="typing-indicator">Typing indicator text</Label>
          <Input
            id="typing-indicator"
            value={draft.typingIndicator}
            onChange={(event) => setField('typingIndicator', event.target.value)}
          />
        </div>
      </Section>
      <BrandingSection designer={designer} />
      {block ? null : <PlacementSection designer={designer} />}
      <AppearanceSection designer={designer} />
      <VisitorSection designer={designer} />
      <Button className="w-full" onClick={onDeploy} disabled={deploying || readOnly}>
        <Rocket size={16} aria-hidden="true" /> {deploying ? 'Deploying...' : 'Deploy Widget'}
      </Button>
    </div>
  );
};
