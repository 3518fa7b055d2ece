import { toast as sonner } from 'sonner';

/** Toasts show one at a time: a new one replaces whatever is on screen. */
const ONE_AT_A_TIME = 'single-toast';

export const toast = {
  success: (message: string, duration?: number) => sonner.success(message, { id: ONE_AT_A_TIME, duration }),
  error: (message: string, duration?: number) => sonner.error(message, { id: ONE_AT_A_TIME, duration }),
  info: (message: string, duration?: number) => sonner.info(message, { id: ONE_AT_A_TIME, duration }),
};
