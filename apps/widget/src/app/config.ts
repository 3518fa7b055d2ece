/** The widget's configuration, inlined by the server into the iframe page, with its texts in the chosen language. */

import type { WidgetSettings } from '@switchboard/core/widget/defaults';
import { localised, type TWidgetLanguage, WIDGET_STRINGS, widgetStrings } from '@switchboard/core/widget/i18n';

export interface FrameConfig {
  widgetId: string;
  type: 'website-widget' | 'website-block';
  mode: 'loader' | 'inline';
  settings: Omit<WidgetSettings, 'dailyLimit' | 'allowedDomains'>;
  version: number;
}

export const readConfig = (): FrameConfig => (window as unknown as { __SBW__: FrameConfig }).__SBW__;

export const textsOf = (settings: FrameConfig['settings']) => {
  const lang = settings.language as TWidgetLanguage;
  const strings = widgetStrings(lang);
  const english = WIDGET_STRINGS.en.suggestedResponses;
  const suggested = settings.suggestedResponses.filter((s) => s.trim());
  const chips =
    suggested.length === 0
      ? []
      : suggested.every((s, i) => s === english[i])
        ? strings.suggestedResponses.slice(0, suggested.length)
        : suggested;
  return {
    title: localised(settings.widgetTitle, 'widgetTitle', lang),
    aiName: localised(settings.aiName, 'aiName', lang),
    firstMessage: localised(settings.firstMessage, 'firstMessage', lang),
    placeholder: localised(settings.inputPlaceholder, 'inputPlaceholder', lang),
    typing: localised(settings.typingIndicator, 'typingIndicator', lang),
    newConversation: localised(settings.newConversationText, 'newConversation', lang),
    previousConversations: localised(settings.previousConversationsText, 'previousConversations', lang),
    noConversations: strings.noConversations,
    startNewChat: strings.startNewChat,
    chips: chips.slice(0, 3),
  };
};
export type Texts = ReturnType<typeof textsOf>;
