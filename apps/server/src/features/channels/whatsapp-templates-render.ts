import {
  fillWhatsappTemplate,
  mappedValue,
  type TWhatsappVariableMappings,
  type WhatsappTemplateContact,
  whatsappTemplateKeys,
} from '@switchboard/core';

/**
 * An approved WhatsApp template filled for one contact: the text shown and stored, the values sent
 * to Twilio as ContentVariables by key ("1", or a named variable), and the keys the contact has no
 * value for (such a recipient is skipped rather than sent a gap).
 */
export const renderMappedTemplate = (
  template: { body: string; variables: TWhatsappVariableMappings },
  contact: WhatsappTemplateContact,
) => {
  const keys = whatsappTemplateKeys(template.body, Object.keys(template.variables));
  const values = Object.fromEntries(
    keys.map((key) => {
      const mapping = template.variables[key];
      return [key, mapping ? mappedValue(mapping, contact) : null];
    }),
  );
  return {
    body: fillWhatsappTemplate(template.body, values).text,
    contentVariables: Object.fromEntries(keys.map((key) => [key, values[key] ?? ''])),
    missing: keys.filter((key) => !values[key]),
  };
};
