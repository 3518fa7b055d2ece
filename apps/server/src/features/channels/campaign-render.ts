import { renderTemplate, type TWhatsappVariableMappings, templateVariables } from '@switchboard/core';
import { renderMappedTemplate } from './whatsapp-templates-render';

/** Variables every contact has; imported columns add their own ({{company}}). */
export const BUILT_IN_VARIABLES = ['first_name', 'name', 'phone'] as const;

export interface RenderContact {
  phone: string;
  name: string | null;
  attributes: Record<string, string>;
}

export const valuesOf = (contact: RenderContact): Record<string, string | null> => ({
  ...contact.attributes,
  first_name: contact.name ? (contact.name.trim().split(/\s+/)[0] ?? null) : null,
  name: contact.name,
  phone: contact.phone,
});

export interface RenderedMessage {
  body: string;
  contentSid: string | null;
  contentVariables: Record<string, string> | null;
  missing: string[];
}

/**
 * A campaign's message for one contact: the text with its variables filled, or for a WhatsApp
 * template its Content SID with each variable's value from its mapping (a template stored before
 * variables were mapped: its {{names}} are contact fields, numbered 1, 2, … in order of use).
 */
export const renderFor = (
  campaign: {
    message: string;
    whatsappTemplate: { contentSid: string; body: string; variables?: TWhatsappVariableMappings } | null;
  },
  contact: RenderContact,
): RenderedMessage => {
  const values = valuesOf(contact);
  const mapped = campaign.whatsappTemplate?.variables;
  if (campaign.whatsappTemplate && mapped)
    return {
      ...renderMappedTemplate({ body: campaign.whatsappTemplate.body, variables: mapped }, contact),
      contentSid: campaign.whatsappTemplate.contentSid,
    };
  if (campaign.whatsappTemplate) {
    const { text, missing } = renderTemplate(campaign.whatsappTemplate.body, values);
    const names = templateVariables(campaign.whatsappTemplate.body);
    return {
      body: text,
      contentSid: campaign.whatsappTemplate.contentSid,
      contentVariables: Object.fromEntries(names.map((name, i) => [String(i + 1), String(values[name] ?? '')])),
      missing,
    };
  }
  const { text, missing } = renderTemplate(campaign.message, values);
  return { body: text, contentSid: null, contentVariables: null, missing };
};
