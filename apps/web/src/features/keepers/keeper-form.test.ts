import { describe, expect, it } from 'vitest';
import { KEEPER_MARKINGS_MAX, keeperFormErrors, parseMarkings } from './keeper-form.ts';

describe('parseMarkings', () => {
  it('stores the VKM of markings typed alone or as painted, upper case, each once', () => {
    expect(parseMarkings('D-GATX, gatx; 80 - vtg\nCH-SBBC')).toEqual({ vkms: ['GATX', 'VTG', 'SBBC'], invalid: [] });
  });

  it('names the entries that are no VKM as typed', () => {
    expect(parseMarkings('GATX, D-G4TX, TOOLONG, ,X')).toEqual({ vkms: ['GATX'], invalid: ['D-G4TX', 'TOOLONG', 'X'] });
  });
});

describe('keeperFormErrors', () => {
  it('wants a name and at least one marking', () => {
    expect(keeperFormErrors(' ', parseMarkings(''))).toEqual({ name: 'required', markings: 'required' });
  });

  it('refuses a form with a marking that names no VKM, even beside good ones', () => {
    expect(keeperFormErrors('GATX Rail', parseMarkings('GATX, 123'))).toEqual({ markings: 'invalid' });
  });

  it('refuses a name longer than 200 and more markings than the keeper may hold', () => {
    const many = Array.from({ length: KEEPER_MARKINGS_MAX + 1 }, (_, i) =>
      String.fromCharCode(65 + Math.floor(i / 26), 65 + (i % 26), 65),
    ).join(',');
    expect(keeperFormErrors('x'.repeat(201), parseMarkings(many))).toEqual({ name: 'tooLong', markings: 'tooMany' });
  });

  it('accepts a named keeper with valid markings', () => {
    expect(keeperFormErrors('GATX Rail Germany', parseMarkings('D-GATX'))).toEqual({});
  });
});
