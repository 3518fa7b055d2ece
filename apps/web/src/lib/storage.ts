import { toast } from './toast';

/**
 * The local storage helper: refuses values that cannot be serialised and reports a storage
 * failure, each with its toast, and never throws.
 */
export const storage = {
  get<T>(key: string, fallback: T): T {
    try {
      const raw = window.localStorage.getItem(key);
      return raw === null ? fallback : (JSON.parse(raw) as T);
    } catch {
      return fallback;
    }
  },
  set(key: string, value: unknown): boolean {
    let serialised: string | undefined;
    try {
      serialised = JSON.stringify(value);
    } catch {
      serialised = undefined;
    }
    if (serialised === undefined) {
      toast.error(`Failed to save setting for "${key}". Your change was not applied.`);
      return false;
    }
    try {
      window.localStorage.setItem(key, serialised);
      return true;
    } catch {
      toast.error(`Failed to save setting for "${key}" due to a storage issue. Your change was not applied.`);
      return false;
    }
  },
  remove(key: string) {
    try {
      window.localStorage.removeItem(key);
    } catch {
      // Nothing to undo when storage is unavailable.
    }
  },
  clear() {
    try {
      window.localStorage.clear();
    } catch {
      // Nothing to clear when storage is unavailable.
    }
  },
};
