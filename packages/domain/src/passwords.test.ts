import { describe, expect, it } from 'vitest';
import { isValidUsername, passwordProblems } from './passwords.ts';

describe('passwordProblems', () => {
  it('accepts 8+ characters with lower, upper and digit', () => {
    expect(passwordProblems('Abcdefg1')).toEqual([]);
    expect(passwordProblems('Пароль-Ё9x')).toEqual([]); // Cyrillic letters count
  });
  it('names every missing part', () => {
    expect(passwordProblems('')).toEqual(['required']);
    expect(passwordProblems('Ab1')).toEqual(['minLength']);
    expect(passwordProblems('abcdefgh')).toEqual(['uppercase', 'digit']);
    expect(passwordProblems('ABCDEFG1')).toEqual(['lowercase']);
    expect(passwordProblems('Abcdefgh')).toEqual(['digit']);
  });
});

describe('isValidUsername', () => {
  it('needs at least 3 characters besides surrounding spaces', () => {
    expect(isValidUsername('abc')).toBe(true);
    expect(isValidUsername(' ab ')).toBe(false);
  });
});
