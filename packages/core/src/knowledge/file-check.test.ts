import { describe, expect, it } from 'vitest';
import { checkUpload, MAX_UPLOAD_BYTES } from './file-check';

describe('knowledge upload check, in the spec order', () => {
  it.each([
    ['nothing', null, 'No file provided'],
    [
      'an oversized exe with a bad name',
      { name: '../x.exe', size: MAX_UPLOAD_BYTES + 1, mimeType: 'application/x-msdownload' },
      'File exceeds 25MB limit',
    ],
    [
      'an exe with a bad name',
      { name: '../x.exe', size: 10, mimeType: 'application/x-msdownload' },
      'Unsupported file type',
    ],
    ['a markdown file with ..', { name: 'a..md', size: 10, mimeType: 'text/markdown' }, 'Invalid file name'],
    ['a pdf in a folder', { name: 'docs/a.pdf', size: 10, mimeType: 'application/pdf' }, 'Invalid file name'],
  ])('refuses %s', (_label, file, message) => expect(checkUpload(file)).toBe(message));

  it.each([
    ['a.png', 'image/png'],
    ['a.svg', 'image/svg+xml'],
    ['a.pdf', 'application/pdf'],
    ['a.md', 'text/markdown'],
    ['a.md', ''],
    ['a.csv', 'text/csv'],
    ['a.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['a.doc', 'application/msword'],
  ])('accepts %s (%s)', (name, mimeType) => expect(checkUpload({ name, size: 100, mimeType })).toBeNull());

  it('accepts exactly 25 MB', () => {
    expect(checkUpload({ name: 'a.pdf', size: MAX_UPLOAD_BYTES, mimeType: 'application/pdf' })).toBeNull();
  });
});
