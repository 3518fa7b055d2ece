import { clamp, type TWidgetSettings, WIDGET_LANGUAGE_NAMES, WIDGET_LANGUAGES, WIDGET_LIMITS } from '@switchboard/core';
import { useState } from 'react';
import { Input, Label, Select, Textarea } from '../../components/ui/input';
import { Choice, Section, Toggle } from './controls';
import type { Designer } from './use-designer';

/** Widget Placement, launcher size and the Popup Message with its delay (clamped 1-500 s on blur). */
export const PlacementSection = ({ designer }: { designer: Designer }) => {
  const { draft, setField } = designer;
  const [delay, setDelay] = useState(String(draft.chatBubble.delaySeconds));
  const bubble = (values: Partial<TWidgetSettings['chatBubble']>) =>
    setField('chatBubble', { ...draft.chatBubble, ...values });
  return (
    <Section title="Widget Placement">
      <Choice<TWidgetSettings['placement']>
        label="Widget Placement"
        value={draft.placement}
        options={[
          { value: 'bottom-right', label: 'Bottom right' },
          { value: 'bottom-left', label: 'Bottom left' },
          { value: 'top-right', label: 'Top right' },
          { value: 'top-left', label: 'Top left' },
        ]}
        onChange={(value) => setField('placement', value)}
      />
      <Choice<TWidgetSettings['minimizedSize']>
        label="Launcher size"
        value={draft.minimizedSize}
        options={[
          { value: 'small', label: 'Small (48px)' },
          { value: 'medium', label: 'Medium (64px)' },
          { value: 'large', label: 'Large (80px)' },
        ]}
        onChange={(value) => setField('minimizedSize', value)}
      />
      <Toggle label="Popup Message" checked={draft.chatBubble.enabled} onChange={(enabled) => bubble({ enabled })} />
      {draft.chatBubble.enabled ? (
        <>
          <div>
            <Label htmlFor="popup-text">Popup text</Label>
            <Input
              id="popup-text"
              value={draft.chatBubble.message}
              onChange={(event) => bubble({ message: event.target.value })}
            />
          </div>
          <div>
            <Label htmlFor="popup-delay">Popup delay (seconds)</Label>
            <Input
              id="popup-delay"
              inputMode="numeric"
              value={delay}
              onChange={(event) => setDelay(event.target.value)}
              onBlur={() => {
                const parsed = Number.parseInt(delay, 10);
                const next = Number.isNaN(parsed)
                  ? 1
                  : clamp(parsed, WIDGET_LIMITS.popupDelay.min, WIDGET_LIMITS.popupDelay.max);
                setDelay(String(next));
                bubble({ delaySeconds: next });
              }}
            />
            <p className="mt-1 text-xs text-muted">1-500 seconds</p>
          </div>
        </>
      ) : null}
    </Section>
  );
};

/** Language, conversation labels, suggested responses, daily limit and allowed domains. */
export const VisitorSection = ({ designer }: { designer: Designer }) => {
  const { draft, setField } = designer;
  const [domains, setDomains] = useState(draft.allowedDomains.join('\n'));
  const [limit, setLimit] = useState(String(draft.dailyLimit));
  return (
    <Section title="Visitors">
      <div>
        <Label htmlFor="widget-language">Language</Label>
        <Select
          id="widget-language"
          value={draft.language}
          onChange={(event) => setField('language', event.target.value as TWidgetSettings['language'])}
        >
          {WIDGET_LANGUAGES.map((code) => (
            <option key={code} value={code}>
              {WIDGET_LANGUAGE_NAMES[code]}
            </option>
          ))}
        </Select>
        <p className="mt-1 text-xs text-muted">Texts left at their English defaults show in this language.</p>
      </div>
      <div>
        <Label htmlFor="ai-name">AI name</Label>
        <Input id="ai-name" value={draft.aiName} onChange={(event) => setField('aiName', event.target.value)} />
      </div>
      {[0, 1, 2].map((index) => (
        <div key={index}>
          <Label htmlFor={`suggested-${index}`}>Suggested response {index + 1}</Label>
          <Input
            id={`suggested-${index}`}
            value={draft.suggestedResponses[index] ?? ''}
            onChange={(event) => {
              const next = [...draft.suggestedResponses];
              next[index] = event.target.value;
              setField(
                'suggestedResponses',
                next.slice(0, 3).map((item) => item ?? ''),
              );
            }}
          />
        </div>
      ))}
      <div>
        <Label htmlFor="new-conversation-text">New Conversation label</Label>
        <Input
          id="new-conversation-text"
          value={draft.newConversationText}
          onChange={(event) => setField('newConversationText', event.target.value)}
        />
      </div>
      <div>
        <Label htmlFor="previous-conversations-text">Previous Conversations label</Label>
        <Input
          id="previous-conversations-text"
          value={draft.previousConversationsText}
          onChange={(event) => setField('previousConversationsText', event.target.value)}
        />
      </div>
      <div>
        <Label htmlFor="daily-limit">Daily message limit</Label>
        <Input
          id="daily-limit"
          inputMode="numeric"
          value={limit}
          onChange={(event) => setLimit(event.target.value)}
          onBlur={() => {
            const parsed = Number.parseInt(limit, 10);
            const next = Number.isNaN(parsed)
              ? draft.dailyLimit
              : clamp(parsed, WIDGET_LIMITS.dailyLimit.min, WIDGET_LIMITS.dailyLimit.max);
            setLimit(String(next));
            setField('dailyLimit', next);
          }}
        />
      </div>
      <div>
        <Label htmlFor="allowed-domains">Allowed domains</Label>
        <Textarea
          id="allowed-domains"
          value={domains}
          placeholder={'example.com\nshop.example.com'}
          onChange={(event) => {
            setDomains(event.target.value);
            setField(
              'allowedDomains',
              event.target.value
                .split(/[\n,]/)
                .map((item) => item.trim())
                .filter(Boolean),
            );
          }}
        />
        <p className="mt-1 text-xs text-muted">One per line. Leave empty to allow every website.</p>
      </div>
    </Section>
  );
};
