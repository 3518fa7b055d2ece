import { DEMO_MESSAGES } from '@switchboard/core';
import { toast } from '../../lib/toast';

/** The share link: the origin plus /shared/{demoId}. */
export const shareLinkFor = (demoId: string) => `${window.location.origin}/shared/${demoId}`;

export const embedSnippetFor = (demoId: string, width: number | string, height: number | string) => {
  const px = (value: number | string) => String(value).replace(/px$/, '');
  return `<iframe src="${shareLinkFor(demoId)}?embed=1" width="${px(width)}" height="${px(height)}" style="border:0" allow="clipboard-write" title="Chat demo"></iframe>`;
};

/** Copies the link with the toasts of section 8; true when it was copied. */
export const copyShareLink = async (demoId: string): Promise<boolean> => {
  const link = shareLinkFor(demoId);
  try {
    if (!navigator.clipboard) throw new Error('Clipboard unavailable');
    await navigator.clipboard.writeText(link);
    toast.success(DEMO_MESSAGES.copied);
    return true;
  } catch {
    toast.error(DEMO_MESSAGES.copyFailed(link), 10_000);
    return false;
  }
};

export const copyText = async (text: string, success: string) => {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(success);
  } catch {
    toast.error(`Copy failed. Here's the code: ${text}`, 10_000);
  }
};
