import { describe, expect, it } from 'vitest';
import { pdfOf } from '../../testing/compressed-files';
import { assertPdfStreamsWithin } from './pdf-streams';
import { UnpackLimitError } from './zip-entries';

const MB = 1024 * 1024;

describe("a PDF's streams counted before pdf.js inflates them", () => {
  it('passes a PDF whose streams fit and refuses one with a stream that inflates past the limit', () => {
    expect(() => assertPdfStreamsWithin(pdfOf('Inverters are covered for 12 years.'), 100 * MB)).not.toThrow();
    expect(() => assertPdfStreamsWithin(pdfOf('Hello', 2), MB)).toThrow(UnpackLimitError);
    // A gigabyte's stream is refused from its codes, without inflating it.
    expect(() => assertPdfStreamsWithin(pdfOf('Hello', 1024), 100 * MB)).toThrow(UnpackLimitError);
  });

  it('counts a stream whose dictionary nests another, and leaves a damaged one to the reader', () => {
    const nested = Buffer.from(
      pdfOf('Hello', 2).toString('latin1').replace('<< /Length', '<< /DecodeParms << /Columns 1 >> /Length'),
      'latin1',
    );
    expect(() => assertPdfStreamsWithin(nested, MB)).toThrow(UnpackLimitError);
    const damaged = Buffer.from(
      pdfOf('Hello', 2)
        .toString('latin1')
        .replace(/stream\n\x78\xda[\s\S]{4}/, 'stream\n\x78\xda\xff\xff\xff\xff'),
      'latin1',
    );
    expect(() => assertPdfStreamsWithin(damaged, MB)).not.toThrow();
  });

  it('finds the dictionary of a stream after many bare stream keywords', () => {
    const padding = Buffer.from('stream\n'.repeat(10_000), 'latin1');
    expect(() => assertPdfStreamsWithin(Buffer.concat([padding, pdfOf('Hello', 2)]), MB)).toThrow(UnpackLimitError);
    expect(() => assertPdfStreamsWithin(padding, MB)).not.toThrow();
  });
});
