/** What is wrong with a file that should be a PNG image, or null when it is a complete one. */
export type PngProblem = 'notPng' | 'truncated';

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const text = (bytes: Uint8Array, at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));

/**
 * Checks a PNG by its structure, the same way in the browser and on the server: the signature, an IHDR chunk
 * first, every chunk inside the file, and an IEND chunk at the end. A JPEG renamed .png fails the signature; a
 * file cut off in transfer fails the chunk walk. (Chunk CRCs are not checked: a flipped bit inside image data is
 * not what users need to be told about.)
 */
export function pngProblem(bytes: Uint8Array): PngProblem | null {
  if (bytes.length < SIGNATURE.length || !SIGNATURE.every((byte, i) => bytes[i] === byte)) return 'notPng';
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = SIGNATURE.length;
  let first = true;
  while (at + 12 <= bytes.length) {
    const length = view.getUint32(at);
    const type = text(bytes, at + 4);
    if (first && type !== 'IHDR') return 'notPng';
    first = false;
    const next = at + 12 + length;
    if (next > bytes.length) return 'truncated';
    if (type === 'IEND') return next === bytes.length ? null : 'notPng';
    at = next;
  }
  return 'truncated';
}

/**
 * Width and height from a PNG's IHDR chunk (bytes 16 to 24), without decoding the image; null when the file does
 * not start as a PNG. A small file can claim a huge image (12000 x 12000 px in under 512 KB compresses well), and
 * every PDF that embeds it would decode all of it.
 */
export function pngSize(bytes: Uint8Array): { width: number; height: number } | null {
  if (bytes.length < 24 || !SIGNATURE.every((byte, i) => bytes[i] === byte) || text(bytes, 12) !== 'IHDR') return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}
