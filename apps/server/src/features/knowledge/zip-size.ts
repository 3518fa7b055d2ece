/**
 * The total uncompressed size a zip file (a .docx) declares in its central directory, read before
 * anything is inflated, so a "zip bomb" is refused without unpacking it. Returns Infinity for a
 * ZIP64 archive (sizes that do not fit 32 bits) and null when the buffer is not a zip.
 */
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_FILE_HEADER = 0x02014b50;

export const declaredUncompressedSize = (zip: Buffer): number | null => {
  // The end record is in the last 22 bytes plus at most a 64 KiB comment.
  const from = Math.max(0, zip.length - 22 - 0xffff);
  let end = -1;
  for (let at = zip.length - 22; at >= from; at -= 1) {
    if (zip.readUInt32LE(at) === END_OF_CENTRAL_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) return null;
  const entries = zip.readUInt16LE(end + 10);
  let offset = zip.readUInt32LE(end + 16);
  if (entries === 0xffff || offset === 0xffffffff) return Number.POSITIVE_INFINITY;
  let total = 0;
  for (let index = 0; index < entries; index += 1) {
    if (offset + 46 > zip.length || zip.readUInt32LE(offset) !== CENTRAL_FILE_HEADER) return null;
    const size = zip.readUInt32LE(offset + 24);
    if (size === 0xffffffff) return Number.POSITIVE_INFINITY;
    total += size;
    offset += 46 + zip.readUInt16LE(offset + 28) + zip.readUInt16LE(offset + 30) + zip.readUInt16LE(offset + 32);
  }
  return total;
};
