import { PASSWORD_MIN_LENGTH, USERNAME_MIN_LENGTH } from './constants.ts';

export type PasswordProblem = 'required' | 'minLength' | 'lowercase' | 'uppercase' | 'digit';

/**
 * The password rule in docs/requirements/administration.md#password-rule (the stricter reading): at least 8 characters
 * with a lower-case letter, an upper-case letter and a digit. Letters of any script count (Cyrillic, Turkish İ...).
 */
export function passwordProblems(password: string): PasswordProblem[] {
  if (password.length === 0) return ['required'];
  const problems: PasswordProblem[] = [];
  if ([...password].length < PASSWORD_MIN_LENGTH) problems.push('minLength');
  if (!/\p{Ll}/u.test(password)) problems.push('lowercase');
  if (!/\p{Lu}/u.test(password)) problems.push('uppercase');
  if (!/\p{Nd}/u.test(password)) problems.push('digit');
  return problems;
}

export const isStrongPassword = (password: string) => passwordProblems(password).length === 0;

export function isValidUsername(username: string): boolean {
  return username.trim().length >= USERNAME_MIN_LENGTH;
}
