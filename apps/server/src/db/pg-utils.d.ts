/** node-postgres's conversion of a JavaScript value to a query parameter's text (not typed by @types/pg). */
declare module 'pg/lib/utils.js' {
  const utils: { prepareValue(value: unknown): string | Buffer | null };
  export default utils;
}
