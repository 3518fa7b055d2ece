import { inflateRawSync } from 'node:zlib';
import { inflatedSize } from './deflate-size';

/**
 * Unpacking a zip file (a .docx) within a byte limit that is counted on the data itself: a zip's
 * headers declare each entry's sizes, and a "zip bomb" may declare a few kilobytes for data that
 * inflates to gigabytes. Each entry's real inflated size is read from its deflate codes first
 * (deflate-size.ts, no output written); only when all of them fit the limit is any entry inflated,
 * each into one buffer of its counted size. The entries are handed on as a new zip whose entries
 * are stored, not compressed, so the library that opens it next inflates nothing.
 */
export class UnpackLimitError extends Error {}

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_FILE_HEADER = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;

interface ZipEntry {
  name: string;
  method: number;
  /** The entry's compressed bytes, from its data to the end of the file when its size is not trusted. */
  data: Buffer;
}

const unreadable = () => new Error('the file is not a readable zip archive');

/** The offset of the end record: in the last 22 bytes plus at most a 64 KiB comment. */
const endRecordAt = (zip: Buffer): number => {
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at -= 1) {
    if (zip.readUInt32LE(at) === END_OF_CENTRAL_DIRECTORY) return at;
  }
  throw unreadable();
};

/** The entries the central directory lists. ZIP64 archives (over 4 GB or 65,535 entries) are over any limit. */
const centralDirectory = (zip: Buffer): ZipEntry[] => {
  const end = endRecordAt(zip);
  const count = zip.readUInt16LE(end + 10);
  let offset = zip.readUInt32LE(end + 16);
  if (count === 0xffff || offset === 0xffffffff) throw new UnpackLimitError();
  const entries: ZipEntry[] = [];
  for (let index = 0; index < count; index += 1) {
    if (offset + 46 > zip.length || zip.readUInt32LE(offset) !== CENTRAL_FILE_HEADER) throw unreadable();
    const nameLength = zip.readUInt16LE(offset + 28);
    const local = zip.readUInt32LE(offset + 42);
    if (zip.readUInt32LE(offset + 24) === 0xffffffff || local === 0xffffffff) throw new UnpackLimitError();
    if ((zip.readUInt16LE(offset + 8) & 1) === 1) throw unreadable(); // encrypted
    const method = zip.readUInt16LE(offset + 10);
    const name = zip.toString('utf8', offset + 46, offset + 46 + nameLength);
    entries.push({ name, method, data: entryData(zip, local, zip.readUInt32LE(offset + 20), method) });
    offset += 46 + nameLength + zip.readUInt16LE(offset + 30) + zip.readUInt16LE(offset + 32);
  }
  return entries;
};

/**
 * An entry's data, found from its local header. A deflated entry runs to the end of the file (its
 * stream says where it ends, whatever size the headers give); a stored one is its declared size.
 */
const entryData = (zip: Buffer, local: number, compressedSize: number, method: number): Buffer => {
  if (local + 30 > zip.length || zip.readUInt32LE(local) !== LOCAL_FILE_HEADER) throw unreadable();
  const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
  const end = method === DEFLATED ? zip.length : start + compressedSize;
  if (start > zip.length || end > zip.length) throw unreadable();
  return zip.subarray(start, end);
};

/**
 * The entries of `zip` whose names `wanted` accepts, inflated, when together they unpack to at
 * most `limit` bytes; otherwise UnpackLimitError, before anything is inflated.
 */
export const unzipWithin = (zip: Buffer, limit: number, wanted: (name: string) => boolean): Map<string, Buffer> => {
  const entries = centralDirectory(zip).filter((entry) => wanted(entry.name));
  const sizes: number[] = [];
  let total = 0;
  for (const entry of entries) {
    if (entry.method !== STORED && entry.method !== DEFLATED) throw unreadable();
    const size = entry.method === STORED ? entry.data.length : inflatedSize(entry.data, limit - total);
    if (size === null || total + size > limit) throw new UnpackLimitError();
    sizes.push(size);
    total += size;
  }
  return new Map(
    entries.map((entry, index) => {
      const size = sizes[index] ?? 0;
      if (entry.method === STORED || size === 0) return [entry.name, entry.data.subarray(0, size)];
      // One output buffer of the counted size; zlib stops there too.
      return [entry.name, inflateRawSync(entry.data, { maxOutputLength: size, chunkSize: Math.max(64, size + 1) })];
    }),
  );
};

const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, byte) => {
  let crc = byte;
  for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  return crc;
});

const crc32 = (data: Buffer): number => {
  let crc = 0xffffffff;
  for (const byte of data) crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
};

/** A zip of the given entries, stored without compression. */
export const storedZip = (entries: Map<string, Buffer>): Buffer => {
  const parts: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const [name, data] of entries) {
    const nameBytes = Buffer.from(name, 'utf8');
    const header = Buffer.alloc(30);
    header.writeUInt32LE(LOCAL_FILE_HEADER, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(0x0800, 6); // names are UTF-8
    header.writeUInt32LE(crc32(data), 14);
    header.writeUInt32LE(data.length, 18);
    header.writeUInt32LE(data.length, 22);
    header.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(CENTRAL_FILE_HEADER, 0);
    central.writeUInt16LE(20, 4);
    header.copy(central, 6, 4, 30); // version needed, flags, method, time, CRC, sizes, name length
    central.writeUInt32LE(offset, 42);
    parts.push(header, nameBytes, data);
    directory.push(central, nameBytes);
    offset += header.length + nameBytes.length + data.length;
  }
  const directoryBytes = Buffer.concat(directory);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END_OF_CENTRAL_DIRECTORY, 0);
  end.writeUInt16LE(entries.size, 8);
  end.writeUInt16LE(entries.size, 10);
  end.writeUInt32LE(directoryBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directoryBytes, end]);
};
