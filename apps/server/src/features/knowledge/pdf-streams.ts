import { DeflateError, inflatedSize } from './deflate-size';
import { UnpackLimitError } from './zip-entries';

/**
 * Refuses a PDF with a Flate stream that inflates past `limit`, before pdf.js reads it. pdf.js
 * inflates a stream in JavaScript into a buffer that doubles as it grows, so a few kilobytes built
 * to inflate to a gigabyte cost seconds of a worker's time before the typed-array cap
 * (typed-array-cap.ts) stops it; the stream's inflated size is read from its deflate codes instead
 * (deflate-size.ts, no output written), milliseconds. A stream this cannot read (another filter
 * first, a damaged stream) is left to pdf.js and the cap.
 */
export const assertPdfStreamsWithin = (pdf: Buffer, limit: number) => {
  for (const stream of flateStreams(pdf)) {
    let size: number | null;
    try {
      size = inflatedSize(stream, limit);
    } catch (error) {
      if (error instanceof DeflateError) continue;
      throw error;
    }
    if (size === null) throw new UnpackLimitError();
  }
};

const STREAM = Buffer.from('stream');
const END_STREAM = Buffer.from('endstream');
const OBJECT = Buffer.from('obj');
/** How far before `stream` its dictionary is looked for. */
const DICTIONARY_REACH = 4096;

/**
 * The raw deflate data of each stream whose first filter is FlateDecode (its zlib header skipped).
 * A stream's dictionary is looked for after the previous stream keyword only, so the file is read
 * about once however many `stream` keywords it holds.
 */
function* flateStreams(pdf: Buffer): Generator<Buffer> {
  let from = 0;
  for (;;) {
    const at = pdf.indexOf(STREAM, from);
    if (at < 0) return;
    const after = from;
    from = at + STREAM.length;
    // `endstream` contains `stream`; a keyword starts after a delimiter or whitespace.
    if (at >= 3 && pdf.subarray(at - 3, at).toString('latin1') === 'end') continue;
    let start = from;
    if (pdf[start] === 0x0d) start += 1;
    if (pdf[start] !== 0x0a) continue;
    start += 1;
    // The stream's dictionary: from its object's `obj` keyword (nested dictionaries included).
    const reach = pdf.subarray(Math.max(after, at - DICTIONARY_REACH), at);
    const dictionary = reach.subarray(Math.max(reach.lastIndexOf(OBJECT), 0));
    if (!/\/Filter\s*\[?\s*\/(FlateDecode|Fl)\b/.test(dictionary.toString('latin1'))) continue;
    const end = pdf.indexOf(END_STREAM, start);
    const data = pdf.subarray(start, end < 0 ? pdf.length : end);
    from = end < 0 ? pdf.length : end + END_STREAM.length;
    // A zlib header: compression method 8 (deflate) and a check that makes the two bytes a multiple of 31.
    const [method, flags] = [data[0] ?? 0, data[1] ?? 0];
    if ((method & 0x0f) !== 8 || ((method << 8) | flags) % 31 !== 0 || flags & 0x20) continue;
    yield data.subarray(2);
  }
}
