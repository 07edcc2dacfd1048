import { SignJWT, jwtVerify } from 'jose';

export interface TokenClaims {
  userId: number;
  tokenVersion: number;
}

export interface TokenService {
  issue(claims: TokenClaims): Promise<{ token: string; expiresAt: Date }>;
  /** The claims of a valid token, or null for an invalid, expired or foreign one. */
  read(token: string): Promise<TokenClaims | null>;
}

const ISSUER = 'vers';

export function createTokenService(secret: string, hours: number): TokenService {
  const key = new TextEncoder().encode(secret);
  return {
    async issue({ userId, tokenVersion }) {
      const expiresAt = new Date(Date.now() + hours * 3_600_000);
      const token = await new SignJWT({ tv: tokenVersion })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(userId))
        .setIssuer(ISSUER)
        .setIssuedAt()
        .setExpirationTime(expiresAt)
        .sign(key);
      return { token, expiresAt };
    },
    async read(token) {
      try {
        const { payload } = await jwtVerify(token, key, { issuer: ISSUER, algorithms: ['HS256'] });
        const userId = Number(payload.sub);
        const tokenVersion = payload.tv;
        if (!Number.isInteger(userId) || typeof tokenVersion !== 'number') return null;
        return { userId, tokenVersion };
      } catch {
        return null;
      }
    },
  };
}
