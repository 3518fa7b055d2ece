/**
 * A value derived from another (a widget title from an agent name) cut to the limit of the field it
 * goes into, ending with an ellipsis when it was cut, so what is stored always passes its schema.
 */
export const fitText = (text: string, max: number): string =>
  text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1)).trimEnd()}…`;
