import type { TInboxChannel } from '@switchboard/core';

export const CHANNEL_NAMES: Record<TInboxChannel, string> = {
  widget: 'Website chat',
  'website-block': 'Website block',
  sms: 'SMS',
  whatsapp: 'WhatsApp',
  instagram: 'Instagram',
};
