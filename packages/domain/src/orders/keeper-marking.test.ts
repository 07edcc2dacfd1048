import { describe, expect, it } from 'vitest';
import { keeperMarkingVkm } from './keeper-marking.ts';

describe('keeperMarkingVkm', () => {
  it('reads the VKM after the registration country, in any case and spacing', () => {
    expect(keeperMarkingVkm('D-GATX')).toBe('GATX');
    expect(keeperMarkingVkm('d - gatx')).toBe('GATX');
    expect(keeperMarkingVkm('GATX')).toBe('GATX');
    expect(keeperMarkingVkm('A-RCA')).toBe('RCA');
  });

  it('names no keeper for a marking that is not 2 to 5 letters', () => {
    expect(keeperMarkingVkm('')).toBeNull();
    expect(keeperMarkingVkm('D-')).toBeNull();
    expect(keeperMarkingVkm('D-G')).toBeNull();
    expect(keeperMarkingVkm('D-GATXXX')).toBeNull();
    expect(keeperMarkingVkm('D-GA7X')).toBeNull();
    expect(keeperMarkingVkm(undefined)).toBeNull();
  });
});
