/**
 * Reads until `ok` holds or the time is up, and answers the last value read: the caller's own
 * assertions on it then say what was wrong (jobs, webhooks and deliveries finish after the request).
 */
export const until = async <T>(
  read: () => Promise<T> | T,
  ok: (value: T) => boolean,
  timeoutMs = 15_000,
): Promise<T> => {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};
