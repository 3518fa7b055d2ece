import { constants, deflateRawSync } from 'node:zlib';

/**
 * Compressed files for the upload tests, honest and hostile: zips whose headers may lie about
 * sizes, and deflate streams that inflate to far more than they weigh, built without ever holding
 * the inflated bytes.
 */
const MiB = 1024 * 1024;

/** Deflate blocks of one MiB of `byte`, flushed so that they can be repeated (each starts afresh). */
const flushedMiB = (byte: number) =>
  deflateRawSync(Buffer.alloc(MiB, byte), { level: 9, finishFlush: constants.Z_FULL_FLUSH });

/** A raw deflate stream of `mib` MiB of `byte` (about 1 KB per MiB), ending with `tail`. */
export const deflatedRepeat = (mib: number, byte = 0, tail = Buffer.alloc(0)) => {
  const block = flushedMiB(byte);
  return Buffer.concat([...Array.from({ length: mib }, () => block), deflateRawSync(tail)]);
};

export interface ZipEntryFile {
  name: string;
  /** The entry's data as stored in the zip: raw deflate for method 8, the bytes for method 0. */
  data: Buffer;
  method: 0 | 8;
  /** The uncompressed size written in the local header and the central directory. */
  declaredSize: number;
}

/** A zip with the given entries, their headers declaring what each entry says. */
export const zipOf = (entries: ZipEntryFile[]) => {
  const parts: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.declaredSize, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(entry.method, 10);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(entry.declaredSize, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    parts.push(local, name, entry.data);
    directory.push(central, name);
    offset += local.length + name.length + entry.data.length;
  }
  const directoryBytes = Buffer.concat(directory);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directoryBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directoryBytes, end]);
};

/** An honest deflated entry. */
export const deflatedEntry = (name: string, content: string): ZipEntryFile => {
  const bytes = Buffer.from(content);
  return { name, data: deflateRawSync(bytes), method: 8, declaredSize: bytes.length };
};

const DOCX_PARTS = [
  deflatedEntry(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  ),
  deflatedEntry(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  ),
];

/** A DOCX whose paragraphs are `paragraphs`. */
export const docxOf = (paragraphs: string[]) =>
  zipOf([
    ...DOCX_PARTS,
    deflatedEntry(
      'word/document.xml',
      `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${paragraphs.map((text) => `<w:p><w:r><w:t>${text}</w:t></w:r></w:p>`).join('')}</w:body></w:document>`,
    ),
  ]);

/**
 * A DOCX of about 1 MB whose document.xml inflates to `mib` MiB of zeros, while its local header
 * and central directory both declare 4 KB.
 */
export const lyingDocx = (mib = 1024) =>
  zipOf([...DOCX_PARTS, { name: 'word/document.xml', data: deflatedRepeat(mib), method: 8, declaredSize: 4096 }]);

/**
 * A one-page PDF whose page content is a FlateDecode stream: `mib` MiB of spaces (0 for none)
 * before a line that writes `text`.
 */
export const pdfOf = (text: string, mib = 0) => {
  const operators = Buffer.from(`BT /F1 12 Tf 72 712 Td (${text}) Tj ET`);
  // A zlib header (deflate, best compression) before the raw stream, as FlateDecode expects.
  const content = Buffer.concat([Buffer.from([0x78, 0xda]), deflatedRepeat(mib, 0x20, operators)]);
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    Buffer.concat([
      Buffer.from(`<< /Length ${content.length} /Filter /FlateDecode >>\nstream\n`),
      content,
      Buffer.from('\nendstream'),
    ]),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  const parts = [Buffer.from('%PDF-1.4\n')];
  const offsets: number[] = [];
  let at = parts[0]?.length ?? 0;
  objects.forEach((object, index) => {
    offsets.push(at);
    const bytes = Buffer.concat([Buffer.from(`${index + 1} 0 obj\n`), Buffer.from(object), Buffer.from('\nendobj\n')]);
    parts.push(bytes);
    at += bytes.length;
  });
  const xref = offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  parts.push(
    Buffer.from(
      `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${at}\n%%EOF\n`,
    ),
  );
  return Buffer.concat(parts);
};
