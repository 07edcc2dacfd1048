import { randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

export interface TokenClaims {
  userId: number;
  tokenVersion: number;
}

/** A valid token's claims with its own id (`jti`) and end, which signing out puts on the deny-list. */
export interface ReadToken extends TokenClaims {
  tokenId: string;
  expiresAt: Date;
}

export interface TokenService {
  issue(claims: TokenClaims): Promise<{ token: string; expiresAt: Date }>;
  /** The claims of a valid token, or null for an invalid, expired or foreign one, or one without an id. */
  read(token: string): Promise<ReadToken | null>;
}

const ISSUER = 'vers';
const CLOCK_LEEWAY_SECONDS = 60;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Tokens whose signature and claims were checked, kept by their exact text; the oldest checked goes first. */
const VERIFIED_TOKENS_KEPT = 10_000;

export function createTokenService(secret: string, hours: number): TokenService {
  // Imported once: given the raw bytes, jose imports a WebCrypto key on every sign and verify, which cost a good
  // share of every signed-in request's CPU.
  const key = crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );
  /**
   * Every device sends its one token with every call (a fleet: one exchange of 3-4 calls per device every 10 s),
   * and WebCrypto's asynchronous HMAC was a good share of each call's CPU. A token whose text was verified before
   * is the same signed token: only its end is checked again. Whether it was signed out or its user disabled is not
   * a property of the text and is read from the database on every call, as before.
   */
  const verified = new Map<string, ReadToken>();
  const remember = (token: string, claims: ReadToken) => {
    if (verified.size >= VERIFIED_TOKENS_KEPT) verified.delete(verified.keys().next().value!);
    verified.set(token, claims);
  };
  // As jose judges `exp` (no clock tolerance): expired from the second it names.
  const unexpired = (claims: ReadToken) => claims.expiresAt.getTime() / 1000 > Math.floor(Date.now() / 1000);
  return {
    async issue({ userId, tokenVersion }) {
      const expiresAt = new Date(Date.now() + hours * 3_600_000);
      const token = await new SignJWT({ tv: tokenVersion })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(userId))
        .setIssuer(ISSUER)
        .setJti(randomUUID())
        .setIssuedAt()
        .setExpirationTime(expiresAt)
        .sign(await key);
      return { token, expiresAt };
    },
    async read(token) {
      const known = verified.get(token);
      if (known) {
        if (unexpired(known)) return known;
        verified.delete(token);
        return null;
      }
      try {
        // Only HS256 with our key: `alg: none` and tokens signed with another key or algorithm are refused here.
        const { payload } = await jwtVerify(token, await key, { issuer: ISSUER, algorithms: ['HS256'] });
        const userId = Number(payload.sub);
        const tokenVersion = payload.tv;
        // A token without an id could not be ended by signing out, so it is not taken (none is issued so).
        if (!Number.isInteger(userId) || typeof tokenVersion !== 'number') return null;
        if (typeof payload.jti !== 'string' || !UUID.test(payload.jti) || typeof payload.exp !== 'number') return null;
        // Only tokens as this server issues them: issued in the past (a minute's leeway for the clocks of several
        // instances), living no longer than VERS_TOKEN_HOURS. A longer one was not signed by a server of this setup.
        const nowSeconds = Date.now() / 1000;
        if (typeof payload.iat !== 'number' || payload.iat > nowSeconds + CLOCK_LEEWAY_SECONDS) return null;
        if (payload.exp - payload.iat > hours * 3600) return null;
        const claims = { userId, tokenVersion, tokenId: payload.jti, expiresAt: new Date(payload.exp * 1000) };
        remember(token, claims);
        return claims;
      } catch {
        return null;
      }
    },
  };
}
