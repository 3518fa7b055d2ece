/**
 * How many bytes a raw deflate stream (RFC 1951, the data of a zip entry) inflates to, found by
 * reading its codes without writing any output: a literal counts one byte, a back-reference its
 * length. Nothing is allocated per byte, so a stream built to inflate to gigabytes costs only the
 * time to read its codes up to the limit, and no memory. The decoding follows zlib's puff.c.
 */
export class DeflateError extends Error {}

const MAX_BITS = 15;
const LENGTH_BASE = [
  3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
];
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DISTANCE_BASE = [
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
  8193, 12289, 16385, 24577,
];
const DISTANCE_EXTRA = [
  0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
];
const CODE_LENGTH_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

/** A canonical Huffman code: how many codes of each length, and the symbols in code order. */
interface Huffman {
  count: Uint16Array;
  symbol: Uint16Array;
}

/** Builds a code from code lengths; answers how many codes are left over (0: complete; < 0: over-subscribed). */
const buildHuffman = (lengths: ArrayLike<number>, from: number, n: number): { code: Huffman; left: number } => {
  const count = new Uint16Array(MAX_BITS + 1);
  const symbol = new Uint16Array(n);
  for (let i = 0; i < n; i += 1) {
    const length = lengths[from + i] as number;
    count[length] = (count[length] as number) + 1;
  }
  let left = 1;
  for (let length = 1; length <= MAX_BITS; length += 1) {
    left = left * 2 - (count[length] as number);
    if (left < 0) return { code: { count, symbol }, left };
  }
  const offsets = new Uint16Array(MAX_BITS + 1);
  for (let length = 1; length < MAX_BITS; length += 1)
    offsets[length + 1] = (offsets[length] as number) + (count[length] as number);
  for (let i = 0; i < n; i += 1) {
    const length = lengths[from + i] as number;
    if (length === 0) continue;
    const at = offsets[length] as number;
    offsets[length] = at + 1;
    symbol[at] = i;
  }
  return { code: { count, symbol }, left: count[0] === n ? 0 : left };
};

const fixedCodes = (() => {
  const lengths = new Uint8Array(288 + 30);
  lengths.fill(8, 0, 144).fill(9, 144, 256).fill(7, 256, 280).fill(8, 280, 288).fill(5, 288);
  return { literal: buildHuffman(lengths, 0, 288).code, distance: buildHuffman(lengths, 288, 30).code };
})();

class BitReader {
  private at = 0;
  private buffer = 0;
  private held = 0;

  constructor(private readonly data: Uint8Array) {}

  bits(n: number): number {
    while (this.held < n) {
      if (this.at >= this.data.length) throw new DeflateError('the compressed data ends too early');
      this.buffer |= (this.data[this.at++] as number) << this.held;
      this.held += 8;
    }
    const value = this.buffer & ((1 << n) - 1);
    this.buffer >>>= n;
    this.held -= n;
    return value;
  }

  /** Skips to the next byte and over `n` stored bytes; answers their 16-bit length fields first. */
  storedLength(): number {
    this.buffer = 0;
    this.held = 0;
    if (this.at + 4 > this.data.length) throw new DeflateError('the compressed data ends too early');
    const data = this.data;
    const length = (data[this.at] as number) | ((data[this.at + 1] as number) << 8);
    const check = (data[this.at + 2] as number) | ((data[this.at + 3] as number) << 8);
    if (length !== (~check & 0xffff)) throw new DeflateError('a stored block has a wrong length');
    this.at += 4;
    if (this.at + length > data.length) throw new DeflateError('the compressed data ends too early');
    this.at += length;
    return length;
  }

  decode(code: Huffman): number {
    let value = 0;
    let first = 0;
    let index = 0;
    for (let length = 1; length <= MAX_BITS; length += 1) {
      value |= this.bits(1);
      const count = code.count[length] as number;
      if (value - count < first) return code.symbol[index + (value - first)] as number;
      index += count;
      first = (first + count) << 1;
      value <<= 1;
    }
    throw new DeflateError('a code is not in its table');
  }
}

/** The literal/length and distance codes of a dynamic block (RFC 1951 3.2.7). */
const dynamicCodes = (input: BitReader) => {
  const literals = input.bits(5) + 257;
  const distances = input.bits(5) + 1;
  const codeLengthCount = input.bits(4) + 4;
  if (literals > 286 || distances > 30) throw new DeflateError('a block has too many codes');
  const lengths = new Uint8Array(320);
  for (let i = 0; i < codeLengthCount; i += 1) lengths[CODE_LENGTH_ORDER[i] as number] = input.bits(3);
  const lengthCode = buildHuffman(lengths, 0, 19);
  if (lengthCode.left !== 0) throw new DeflateError('a code-length code is incomplete');
  lengths.fill(0);
  for (let i = 0; i < literals + distances; ) {
    const symbol = input.decode(lengthCode.code);
    if (symbol < 16) {
      lengths[i++] = symbol;
      continue;
    }
    let repeat = 0;
    let value = 0;
    if (symbol === 16) {
      if (i === 0) throw new DeflateError('a length repeats nothing');
      value = lengths[i - 1] as number;
      repeat = 3 + input.bits(2);
    } else repeat = symbol === 17 ? 3 + input.bits(3) : 11 + input.bits(7);
    if (i + repeat > literals + distances) throw new DeflateError('lengths run past their table');
    lengths.fill(value, i, i + repeat);
    i += repeat;
  }
  if (lengths[256] === 0) throw new DeflateError('a block has no end code');
  const literal = buildHuffman(lengths, 0, literals);
  // An incomplete code is allowed only when it is a single code of one bit (zlib does the same).
  const single = (code: Huffman, n: number) => code.count[0] === n - 1 && code.count[1] === 1;
  if (literal.left < 0 || (literal.left > 0 && !single(literal.code, literals)))
    throw new DeflateError('a literal code is malformed');
  const distance = buildHuffman(lengths, literals, distances);
  if (distance.left < 0 || (distance.left > 0 && !single(distance.code, distances)))
    throw new DeflateError('a distance code is malformed');
  return { literal: literal.code, distance: distance.code };
};

/**
 * The inflated size of a raw deflate stream, or null as soon as it passes `limit`. Throws
 * DeflateError when the stream is malformed or ends early. Bytes after the stream's last block are
 * not read.
 */
export const inflatedSize = (data: Uint8Array, limit: number): number | null => {
  const input = new BitReader(data);
  let size = 0;
  let last = 0;
  while (last === 0) {
    last = input.bits(1);
    const type = input.bits(2);
    if (type === 0) {
      size += input.storedLength();
      if (size > limit) return null;
      continue;
    }
    if (type === 3) throw new DeflateError('a block has an unknown type');
    const codes = type === 1 ? fixedCodes : dynamicCodes(input);
    for (;;) {
      const symbol = input.decode(codes.literal);
      if (symbol === 256) break;
      if (symbol < 256) size += 1;
      else {
        const at = symbol - 257;
        if (at >= 29) throw new DeflateError('a length code is out of range');
        const length = (LENGTH_BASE[at] as number) + input.bits(LENGTH_EXTRA[at] as number);
        const code = input.decode(codes.distance);
        if (code >= 30) throw new DeflateError('a distance code is out of range');
        const distance = (DISTANCE_BASE[code] as number) + input.bits(DISTANCE_EXTRA[code] as number);
        if (distance > size) throw new DeflateError('a distance reaches before the start');
        size += length;
      }
      if (size > limit) return null;
    }
  }
  return size;
};
