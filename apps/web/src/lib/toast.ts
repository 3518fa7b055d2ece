import { toast as sonner } from 'sonner';

type Kind = 'success' | 'error' | 'info';

let onScreen: string | number | undefined;

/**
 * Toasts show one at a time: a new one dismisses whatever is on screen. Each toast gets its own id,
 * because reusing one id lets a toast that is timing out take its replacement with it.
 */
const show = (kind: Kind) => (message: string, duration?: number) => {
  if (onScreen !== undefined) sonner.dismiss(onScreen);
  onScreen = sonner[kind](message, { duration });
  return onScreen;
};

export const toast = {
  success: show('success'),
  error: show('error'),
  info: show('info'),
};
