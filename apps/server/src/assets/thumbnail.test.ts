import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { checkThumbnail, makeThumbnail, scaleDown } from './thumbnail.ts';

const rgba = (width: number, height: number, pixel: (x: number, y: number) => number[]) => {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set(pixel(x, y), (y * width + x) * 4);
  return { width, height, data };
};

describe('scaleDown', () => {
  it('averages each target pixel over its area', () => {
    // 4 x 2: left half black and white columns, right half red.
    const source = rgba(4, 2, (x) => (x < 2 ? (x === 0 ? [0, 0, 0, 255] : [255, 255, 255, 255]) : [255, 0, 0, 255]));
    const small = scaleDown(source, 2);
    expect([small.width, small.height]).toEqual([2, 1]);
    expect([...small.data]).toEqual([128, 128, 128, 255, 255, 0, 0, 255]);
  });

  it('puts transparent pixels on white, keeps the proportions and never enlarges', () => {
    const clear = scaleDown(
      rgba(10, 5, () => [0, 0, 0, 0]),
      4,
    );
    expect([clear.width, clear.height]).toEqual([4, 2]);
    expect([...clear.data.subarray(0, 4)]).toEqual([255, 255, 255, 255]);
    const tall = scaleDown(
      rgba(3, 900, () => [1, 2, 3, 255]),
      300,
    );
    expect([tall.width, tall.height]).toEqual([1, 300]);
    const small = scaleDown(
      rgba(3, 2, () => [9, 9, 9, 255]),
      320,
    );
    expect([small.width, small.height]).toEqual([3, 2]);
  });
});

describe('makeThumbnail', () => {
  it('makes a JPEG of at most the given side from any PNG pngjs reads (here grey with alpha, 16-bit)', () => {
    const png = new PNG({ width: 640, height: 480, colorType: 4, bitDepth: 16, inputColorType: 6 });
    png.data.fill(200);
    const made = makeThumbnail(PNG.sync.write(png, { colorType: 4, bitDepth: 16, inputColorType: 6 }), 320);
    expect(made?.mime).toBe('image/jpeg');
    const decoded = jpeg.decode(made!.bytes);
    expect([decoded.width, decoded.height]).toEqual([320, 240]);
  });

  it('answers null for what is not a PNG', () => {
    expect(makeThumbnail(new Uint8Array([1, 2, 3]))).toBeNull();
  });
});

describe('checkThumbnail', () => {
  const jpegOf = (width: number, height: number) =>
    jpeg.encode({ width, height, data: Buffer.alloc(width * height * 4, 90) }, 70).data;

  it('takes a JPEG or a PNG up to 512 px a side', () => {
    expect(checkThumbnail(jpegOf(512, 300))).toEqual({ mime: 'image/jpeg' });
    const png = new PNG({ width: 20, height: 10 });
    expect(checkThumbnail(PNG.sync.write(png))).toEqual({ mime: 'image/png' });
  });

  it('names what is wrong with others', () => {
    expect(checkThumbnail(new Uint8Array())).toEqual({ problem: 'is empty' });
    expect(checkThumbnail(jpegOf(513, 10))).toEqual({ problem: 'is larger than 512 px a side' });
    expect(checkThumbnail(jpegOf(10, 10).subarray(0, 100))).toEqual({ problem: 'is a cut JPEG' });
    expect(checkThumbnail(new Uint8Array([0xff, 0xd8, 0xff, 0xd9]))).toEqual({ problem: 'has no image size' });
    expect(checkThumbnail(new TextEncoder().encode('GIF89a...'))).toEqual({
      problem: 'is neither a JPEG nor a PNG image',
    });
    expect(checkThumbnail(new Uint8Array(96 * 1024 + 1))).toEqual({ problem: 'has more than 98304 bytes' });
  });
});
