import { randomInt } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

// argon2id with the library's defaults (19 MiB, 2 passes): OWASP's minimum recommendation.
export const hashPassword = (password: string) => hash(password);

/** A hash of a random password, verified against when the user does not exist, so both take equally long. */
let decoyHash: Promise<string> | undefined;

export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  if (storedHash === null) {
    decoyHash ??= hash(generatePassword());
    await verify(await decoyHash, password);
    return false;
  }
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}

const LOWER = 'abcdefghijkmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '23456789';

/** A readable random password that meets the password rule (lower, upper, digit, at least 8). */
export function generatePassword(length = 12): string {
  const all = LOWER + UPPER + DIGITS;
  const pick = (from: string) => from[randomInt(from.length)] as string;
  const chars = [pick(LOWER), pick(UPPER), pick(DIGITS)];
  while (chars.length < length) chars.push(pick(all));
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j] as string, chars[i] as string];
  }
  return chars.join('');
}
