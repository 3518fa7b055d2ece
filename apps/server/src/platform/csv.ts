import type * as PapaParse from 'papaparse';
import { onFirstUse } from './on-first-use';

/** Papa Parse, the CSV reader and writer: loaded by the first CSV read or written. */
export const papa = onFirstUse<typeof PapaParse>('papaparse');
