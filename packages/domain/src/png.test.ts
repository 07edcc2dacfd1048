import { describe, expect, it } from 'vitest';
import { logoProblem } from './logo.ts';
import { pngProblem, pngSize } from './png.ts';

// A real 1x1 PNG: signature, IHDR, IDAT, IEND.
const PNG_1X1 = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='),
  (c) => c.charCodeAt(0),
);
const SIGNATURE_LENGTH = 8;
const IHDR_CHUNK_LENGTH = 12 + 13;

const concat = (...parts: Uint8Array[]) => {
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return all;
};

describe('pngProblem', () => {
  it('accepts a complete PNG', () => {
    expect(pngProblem(PNG_1X1)).toBeNull();
  });

  it('accepts a complete PNG that is a view into a larger buffer', () => {
    const larger = concat(new Uint8Array(5), PNG_1X1, new Uint8Array(7));
    expect(pngProblem(larger.subarray(5, 5 + PNG_1X1.length))).toBeNull();
  });

  it('calls a JPEG not a PNG, whatever its name', () => {
    const jpeg = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1]);
    expect(pngProblem(jpeg)).toBe('notPng');
  });

  it('calls a PNG cut off anywhere after its signature truncated', () => {
    expect(pngProblem(PNG_1X1.subarray(0, Math.floor(PNG_1X1.length / 2)))).toBe('truncated');
    expect(pngProblem(PNG_1X1.subarray(0, PNG_1X1.length - 1))).toBe('truncated');
    expect(pngProblem(PNG_1X1.subarray(0, SIGNATURE_LENGTH))).toBe('truncated');
  });

  it('calls an empty file, or one shorter than the signature, not a PNG', () => {
    expect(pngProblem(new Uint8Array(0))).toBe('notPng');
    expect(pngProblem(PNG_1X1.subarray(0, SIGNATURE_LENGTH - 1))).toBe('notPng');
  });

  it('calls trailing bytes after IEND not a PNG', () => {
    expect(pngProblem(concat(PNG_1X1, Uint8Array.from([0, 1, 2, 3])))).toBe('notPng');
  });

  it('calls a PNG without IHDR first not a PNG', () => {
    const withoutIhdr = concat(
      PNG_1X1.subarray(0, SIGNATURE_LENGTH),
      PNG_1X1.subarray(SIGNATURE_LENGTH + IHDR_CHUNK_LENGTH),
    );
    expect(pngProblem(withoutIhdr)).toBe('notPng');
  });
});

describe('pngSize', () => {
  it('reads width and height from the header', () => {
    expect(pngSize(PNG_1X1)).toEqual({ width: 1, height: 1 });
    const huge = PNG_1X1.slice();
    new DataView(huge.buffer).setUint32(16, 12_000);
    new DataView(huge.buffer).setUint32(20, 12_000);
    expect(pngSize(huge)).toEqual({ width: 12_000, height: 12_000 });
  });

  it('is null for a file that is not a PNG', () => {
    expect(pngSize(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, ...new Array<number>(30).fill(0)]))).toBeNull();
    expect(pngSize(PNG_1X1.subarray(0, 20))).toBeNull();
  });
});

describe('logoProblem', () => {
  it('takes a small complete PNG and refuses a huge image in a small file, a non-PNG and too many bytes', () => {
    expect(logoProblem(PNG_1X1)).toBeNull();
    const huge = PNG_1X1.slice();
    new DataView(huge.buffer).setUint32(16, 12_000);
    expect(logoProblem(huge)).toBe('tooManyPixels');
    expect(logoProblem(Uint8Array.from([1, 2, 3]))).toBe('notPng');
    expect(logoProblem(new Uint8Array(512 * 1024 + 1))).toBe('tooLarge');
  });
});
