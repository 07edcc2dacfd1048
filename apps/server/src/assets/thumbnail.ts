import { pngProblem } from '@vers/domain';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

/** Longest side of a thumbnail the server makes: the list's cards are about 230 px wide. */
export const THUMBNAIL_SIDE = 320;
/** A thumbnail sent with a picture may be at most this large, in bytes and in pixels a side. */
export const MAX_THUMBNAIL_BYTES = 96 * 1024;
export const MAX_THUMBNAIL_SIDE = 512;
/** Pictures of more pixels than this are not decoded for a thumbnail (a small PNG can claim a huge canvas). */
const MAX_DECODED_PIXELS = 40_000_000;
const JPEG_QUALITY = 75;

export type ThumbnailMime = 'image/jpeg' | 'image/png';
export interface Thumbnail {
  mime: ThumbnailMime;
  bytes: Uint8Array;
}

/** Width and height from a PNG's IHDR (the PNG check already passed: IHDR comes first). */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** Width and height from a JPEG's first frame header (SOF0–SOF15 but DHT, JPG and DAC); null when there is none. */
function jpegSize(bytes: Uint8Array): { width: number; height: number } | null {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    const length = (bytes[at + 2]! << 8) | bytes[at + 3]!;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: (bytes[at + 5]! << 8) | bytes[at + 6]!, width: (bytes[at + 7]! << 8) | bytes[at + 8]! };
    }
    if (marker === 0xda || length < 2) return null; // image data before any frame header
    at += 2 + length;
  }
  return null;
}

/**
 * What a thumbnail sent with a picture is: a JPEG (start and end markers, a frame header) or a complete PNG, of at
 * most MAX_THUMBNAIL_BYTES and MAX_THUMBNAIL_SIDE px a side. Answers the problem in words, or the type.
 */
export function checkThumbnail(bytes: Uint8Array): { mime: ThumbnailMime } | { problem: string } {
  if (bytes.length === 0) return { problem: 'is empty' };
  if (bytes.length > MAX_THUMBNAIL_BYTES) return { problem: `has more than ${MAX_THUMBNAIL_BYTES} bytes` };
  let size: { width: number; height: number } | null;
  let mime: ThumbnailMime;
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    if (bytes[bytes.length - 2] !== 0xff || bytes[bytes.length - 1] !== 0xd9) return { problem: 'is a cut JPEG' };
    size = jpegSize(bytes);
    mime = 'image/jpeg';
  } else if (pngProblem(bytes) === null) {
    size = pngSize(bytes);
    mime = 'image/png';
  } else {
    return { problem: 'is neither a JPEG nor a PNG image' };
  }
  if (!size || size.width === 0 || size.height === 0) return { problem: 'has no image size' };
  if (size.width > MAX_THUMBNAIL_SIDE || size.height > MAX_THUMBNAIL_SIDE) {
    return { problem: `is larger than ${MAX_THUMBNAIL_SIDE} px a side` };
  }
  return { mime };
}

/**
 * Scales RGBA pixels down by averaging each target pixel's area (a box filter), onto white where they are
 * transparent: a JPEG has no alpha. `side` is the longest side of the result; smaller pictures keep their size.
 */
export function scaleDown(
  source: { width: number; height: number; data: Uint8Array },
  side: number,
): { width: number; height: number; data: Uint8Array } {
  const { width, height, data } = source;
  const scale = Math.min(1, side / Math.max(width, height));
  const w = Math.max(1, Math.round(width * scale));
  const h = Math.max(1, Math.round(height * scale));
  const sums = new Float64Array(w * h * 4); // red, green, blue, pixel count
  const column = Int32Array.from({ length: width }, (_, x) => Math.min(w - 1, Math.floor((x * w) / width)));
  for (let y = 0; y < height; y++) {
    const row = Math.min(h - 1, Math.floor((y * h) / height)) * w;
    for (let x = 0, from = y * width * 4; x < width; x++, from += 4) {
      const to = (row + column[x]!) * 4;
      const alpha = data[from + 3]! / 255;
      const white = 255 * (1 - alpha);
      sums[to] = sums[to]! + data[from]! * alpha + white;
      sums[to + 1] = sums[to + 1]! + data[from + 1]! * alpha + white;
      sums[to + 2] = sums[to + 2]! + data[from + 2]! * alpha + white;
      sums[to + 3] = sums[to + 3]! + 1;
    }
  }
  const out = new Uint8Array(w * h * 4);
  for (let i = 0; i < out.length; i += 4) {
    const n = sums[i + 3] || 1;
    out[i] = Math.round(sums[i]! / n);
    out[i + 1] = Math.round(sums[i + 1]! / n);
    out[i + 2] = Math.round(sums[i + 2]! / n);
    out[i + 3] = 255;
  }
  return { width: w, height: h, data: out };
}

/**
 * A JPEG of a PNG picture, at most `side` px on its longest side; null when the PNG cannot be decoded (its
 * structure passed the PNG check, but its compressed data may still be broken) or claims too many pixels.
 */
export function makeThumbnail(png: Uint8Array, side = THUMBNAIL_SIDE): Thumbnail | null {
  if (pngProblem(png) !== null) return null;
  const { width, height } = pngSize(png);
  if (width * height > MAX_DECODED_PIXELS) return null;
  let decoded: PNG;
  try {
    decoded = PNG.sync.read(Buffer.from(png.buffer, png.byteOffset, png.byteLength));
  } catch {
    return null;
  }
  const small = scaleDown({ width: decoded.width, height: decoded.height, data: decoded.data }, side);
  return { mime: 'image/jpeg', bytes: jpeg.encode(small, JPEG_QUALITY).data };
}
