import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shrinkFit, srMass } from './calculations.ts';

describe('srMass', () => {
  it('adds AR and both flange thicknesses exactly', () => {
    expect(srMass(1360, 32.5, 31.8)).toEqual({ ok: true, value: 1424.3 });
    expect(srMass(1357.9, 22.1, 33)).toEqual({ ok: true, value: 1413 });
    expect(srMass(1360.0005, 30, 30)).toEqual({ ok: true, value: 1420.001 });
    expect(srMass(1360.0004, 30, 30)).toEqual({ ok: true, value: 1420 });
  });
  it('names the missing parameters', () => {
    expect(srMass(null, 32.5, undefined)).toEqual({ ok: false, missing: ['ArDimension', 'SdRight'] });
    expect(srMass(1360, Number.NaN, 31.8)).toEqual({ ok: false, missing: ['SdLeft'] });
  });
  it('matches the plain sum to within rounding', () => {
    const measure = fc.double({ min: 0, max: 2000, noNaN: true });
    fc.assert(
      fc.property(measure, measure, measure, (ar, left, right) => {
        const result = srMass(ar, left, right);
        expect(result.ok).toBe(true);
        if (result.ok) expect(Math.abs(result.value - (ar + left + right))).toBeLessThanOrEqual(0.0005 + 1e-9);
      }),
    );
  });
});

describe('shrinkFit', () => {
  it('is 1000 times the difference of bore and ring diameter', () => {
    expect(shrinkFit(180.215, 180, 0)).toEqual({ ok: true, value: 215 });
    expect(shrinkFit(130.05, 130.2, 1)).toEqual({ ok: true, value: -150 });
    expect(shrinkFit(100.0005, 100, 0)).toEqual({ ok: true, value: 1 }); // 0.5 µm rounds away from zero
    expect(shrinkFit(100, 100.0005, 0)).toEqual({ ok: true, value: -1 });
    expect(shrinkFit(100.00012345, 100, 2)).toEqual({ ok: true, value: 0.12 });
    expect(shrinkFit(100.000125, 100, 2)).toEqual({ ok: true, value: 0.13 });
  });
  it('names the missing parameters', () => {
    expect(shrinkFit(undefined, null, 0)).toEqual({ ok: false, missing: ['AxleStubBore', 'RingDiameter'] });
    expect(shrinkFit(180.2, Number.POSITIVE_INFINITY, 0)).toEqual({ ok: false, missing: ['RingDiameter'] });
  });
  it('refuses a bad decimal count', () => {
    expect(() => shrinkFit(1, 1, -1)).toThrow(RangeError);
  });
});
