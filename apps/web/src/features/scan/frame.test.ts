import { describe, expect, it } from 'vitest';
import { clampRect, type Luminance, luminance, skewAngle, withMargin } from './frame.ts';

const DEGREE = Math.PI / 180;

/** A dark ground with a bright band of dashes (digits' stand-ins) through the middle, slanting by `degrees`. */
function slantedLine(degrees: number, lightOnDark = true): Luminance {
  const width = 1000;
  const height = 400;
  const ground = lightOnDark ? 50 : 210;
  const paint = lightOnDark ? 230 : 20;
  const grey = new Uint8ClampedArray(width * height).fill(ground);
  const tan = Math.tan(degrees * DEGREE);
  for (let x = 100; x < 900; x++) {
    if (x % 60 > 40) continue; // the gaps between digits
    for (let t = -20; t < 20; t++) grey[Math.round(200 + (x - 500) * tan + t) * width + x] = paint;
  }
  return {
    grey,
    width,
    height,
    low: Math.min(ground, paint),
    high: Math.max(ground, paint),
    trough: Math.min(ground, paint),
    peak: Math.max(ground, paint),
    median: ground,
  };
}

describe('skewAngle', () => {
  it('finds the slant of a line of paint, to half a degree, either way and in either polarity', () => {
    for (const degrees of [-7, -3, 0, 2.5, 6]) {
      expect(skewAngle(slantedLine(degrees), true) / DEGREE).toBeCloseTo(degrees, 0);
      expect(skewAngle(slantedLine(degrees, false), false) / DEGREE).toBeCloseTo(degrees, 0);
    }
  });

  it('says level when there is no paint to go by', () => {
    const empty = slantedLine(0);
    empty.grey.fill(50);
    expect(skewAngle({ ...empty, peak: 50, high: 50 }, true)).toBe(0);
  });
});

describe('luminance', () => {
  it('gives grey values and the percentiles the scanner decides with', () => {
    const data = new Uint8ClampedArray(100 * 4);
    for (let i = 0; i < 100; i++) data.set(i < 90 ? [20, 20, 20, 255] : [250, 250, 250, 255], i * 4);
    const lum = luminance({ data, width: 10, height: 10, colorSpace: 'srgb' } as ImageData);
    expect(lum.median).toBe(20);
    expect(lum.peak).toBe(250);
    expect(lum.trough).toBe(20);
  });
});

describe('clampRect and withMargin', () => {
  const size = { width: 1280, height: 720 };
  it('keeps the aim inside the frame, and takes the whole frame for none or a degenerate one', () => {
    expect(clampRect({ x: -10, y: 700, width: 100, height: 100 }, size)).toEqual({
      x: 0,
      y: 700,
      width: 90,
      height: 20,
    });
    expect(clampRect(undefined, size)).toEqual({ x: 0, y: 0, ...size });
    expect(clampRect({ x: 2000, y: 0, width: 10, height: 10 }, size)).toEqual({ x: 0, y: 0, ...size });
  });
  it('widens the aim a little, within the frame', () => {
    expect(withMargin({ x: 160, y: 200, width: 960, height: 320 }, size)).toEqual({
      x: 102,
      y: 161,
      width: 1076,
      height: 398,
    });
  });
});
