import type { IncomingMessage } from 'node:http';
/** The whole body of a request to one of the local stand-in servers, as UTF-8 text. */
export declare const readBody: (request: IncomingMessage) => Promise<string>;
