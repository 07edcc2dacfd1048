import { describe, expect, it } from 'vitest';
import { generatePassword, hashPassword, verifyPassword } from './passwords.ts';

describe('passwords', () => {
  it('generates passwords that meet the rule: 8+ characters with lower, upper and digit', () => {
    for (let i = 0; i < 200; i++) {
      const password = generatePassword();
      expect(password).toMatch(/^(?=.*[a-z])(?=.*[A-Z])(?=.*\d).{8,}$/);
    }
  });

  it('verifies a password against its hash and refuses others', async () => {
    const stored = await hashPassword('Secret-123');
    expect(await verifyPassword(stored, 'Secret-123')).toBe(true);
    expect(await verifyPassword(stored, 'secret-123')).toBe(false);
  });

  it('refuses without a stored hash and for a damaged one', async () => {
    expect(await verifyPassword(null, 'anything')).toBe(false);
    expect(await verifyPassword('not-a-hash', 'anything')).toBe(false);
  });
});
