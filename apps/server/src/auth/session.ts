import { type ErrorCode, hasAnyRole, type Role, SERVER_IDENTITY_HEADERS } from '@vers/domain';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/client.ts';
import { revokedTokens, serverIdentity, users, workshops } from '../db/schema.ts';
import { ApiError, refused } from '../http/errors.ts';
import type { ReadToken, TokenService } from './tokens.ts';

export type UserRow = typeof users.$inferSelect;
export type WorkshopRow = typeof workshops.$inferSelect;

/** The signed-in user of a request, read fresh from the database on every call. */
export interface SessionUser {
  id: number;
  username: string;
  firstName: string;
  lastName: string;
  roles: string[];
  workshopId: number | null;
  /** The keeper a holder user belongs to (issue 22); null for everybody else. */
  keeperId: number | null;
  /** The workshop's protocol flag (`add_last_modifier`): changes carry the user's last name. False without one. */
  logsChanges: boolean;
  /** The bearer token of this request: its id and end, for signing out. */
  token: { id: string; expiresAt: Date };
}

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser | null;
    /** The verified claims of the request's bearer token (set before the user is read). */
    claims: ReadToken | null;
    /**
     * On a route that checks the user inside its own statement (`userInStatement`): reads the user the usual way,
     * setting `user` (401/403 as always). The route calls it when its statement did not answer; the error handler
     * calls it before answering any error, so that a refused user is told 401/403 first, as on every other route.
     * Null once the user is read.
     */
    pendingAuthentication: (() => Promise<SessionUser>) | null;
    /** The database identity and generation read with the user, for the answer's headers and the routes. */
    serverIdentity: { database: string; generation: number } | null;
  }
  interface FastifyContextConfig {
    /** Reachable without a token. */
    public?: boolean;
    /** The user needs one of these roles; absent = any signed-in user. */
    roles?: readonly Role[];
    /** The code of the 403 for a user without `roles` (the rights table's `refusal`); FORBIDDEN when absent. */
    refusal?: ErrorCode;
    /**
     * The route checks the token's user in the same statement that does its work (`signedInUser`), one round trip
     * instead of two; the hook only verifies the token. See `pendingAuthentication`.
     */
    userInStatement?: boolean;
  }
}

const unauthorized = () => new ApiError(401, 'UNAUTHORIZED', 'Not signed in or the session has ended');

/**
 * The user of the token's claims as one row, for a route's own statement (`WITH me AS (...)`): none when the user
 * is gone, disabled, has another token version (a changed password), the token was signed out, or the user has
 * none of `roles`. The same rules as the hook's query; `modifier` and `author` are what `authorOf` makes of the row.
 * The claims are placeholders (`userId`, `tokenVersion`, `tokenId`: `claimValues`), so the statement can be prepared.
 */
export function signedInUser(roles: readonly Role[] | undefined): SQL {
  const hasRole =
    roles && roles.length > 0
      ? sql`AND u.roles && ARRAY[${sql.join(
          roles.map((role) => sql`${role}::text`),
          sql`, `,
        )}]`
      : sql``;
  return sql`
    SELECT u.id, u.workshop_id,
      CASE WHEN COALESCE((SELECT w.add_last_modifier FROM workshops w WHERE w.id = u.workshop_id), false)
        THEN u.last_name ELSE '' END AS modifier,
      COALESCE(NULLIF(btrim(u.first_name || ' ' || u.last_name, ${JS_WHITESPACE}::text), ''), u.username) AS author,
      (SELECT id FROM server_identity) AS database, (SELECT generation FROM server_identity) AS generation
    FROM users u
    WHERE u.id = ${sql.placeholder('userId')}::integer AND u.enabled
      AND u.token_version = ${sql.placeholder('tokenVersion')}::integer
      AND NOT EXISTS (SELECT 1 FROM revoked_tokens r WHERE r.token_id = ${sql.placeholder('tokenId')}::uuid)
      ${hasRole}`;
}

/** The placeholder values of `signedInUser` for a request's token. */
export function claimValues(request: FastifyRequest) {
  const claims = request.claims;
  if (!claims) throw unauthorized();
  return { userId: claims.userId, tokenVersion: claims.tokenVersion, tokenId: claims.tokenId };
}

/**
 * The route's statement answered, with `me` found: the user is who the token says and may call the route, and its
 * answer carries the identity the statement read.
 */
export function settledInStatement(
  request: FastifyRequest,
  reply: FastifyReply,
  identity: { database: string | null; generation: number | null },
) {
  request.pendingAuthentication = null;
  sendIdentity(request, reply, identity.database, identity.generation);
}

/** What JavaScript's `String.prototype.trim` removes (WhiteSpace and LineTerminator), for `btrim` in SQL. */
export const JS_WHITESPACE =
  '\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a' +
  '\u2028\u2029\u202f\u205f\u3000\ufeff';

/** The identity headers of an answer (docs/requirements/sync.md#data-flow-restored-server). */
export function sendIdentity(
  request: FastifyRequest,
  reply: FastifyReply,
  database: string | null,
  generation: number | null,
) {
  if (database === null || generation === null) return;
  request.serverIdentity = { database, generation };
  reply.header(SERVER_IDENTITY_HEADERS.database, database);
  reply.header(SERVER_IDENTITY_HEADERS.generation, String(generation));
}

/**
 * Every route needs a valid bearer token unless its config says `public`. The user is looked up on every
 * request, so a disabled or deleted user, a changed password or a signed-out token ends the session at once.
 * The same query reads the workshop's protocol flag, so writing a change needs no further look-up for its
 * modifier, and whether the token was signed out. It is prepared once (no query building per call, and on
 * PostgreSQL a statement each connection parses once).
 *
 * A route with `userInStatement` does that check inside its own statement instead (`signedInUser`): the hook only
 * verifies the token, and the user is read the usual way only when the route's statement did not answer, or an
 * error is answered.
 */
export function registerAuthentication(app: FastifyInstance, db: Db, tokens: TokenService) {
  const userQuery = db
    .select({
      id: users.id,
      username: users.username,
      firstName: users.firstName,
      lastName: users.lastName,
      roles: users.roles,
      workshopId: users.workshopId,
      keeperId: users.keeperId,
      enabled: users.enabled,
      tokenVersion: users.tokenVersion,
      // A scalar subquery: PostgreSQL plans it faster than a join, which counts on PGlite.
      logsChanges: sql<boolean | null>`(SELECT ${workshops.addLastModifier} FROM ${workshops}
          WHERE ${workshops.id} = ${users.workshopId})`,
      signedOut: sql<boolean>`EXISTS (SELECT 1 FROM ${revokedTokens}
          WHERE ${revokedTokens.tokenId} = ${sql.placeholder('tokenId')}::uuid)`,
      // Every signed-in answer says which database and generation served it
      // (docs/requirements/sync.md#data-flow-restored-server).
      database: sql<string | null>`(SELECT ${serverIdentity.id} FROM ${serverIdentity})`,
      generation: sql<number | null>`(SELECT ${serverIdentity.generation} FROM ${serverIdentity})`,
    })
    .from(users)
    .where(eq(users.id, sql.placeholder('userId')))
    .prepare('vers_session_user');

  async function authenticate(request: FastifyRequest, reply: FastifyReply, claims: ReadToken) {
    request.pendingAuthentication = null;
    const [row] = await userQuery.execute({ userId: claims.userId, tokenId: claims.tokenId });
    if (!row || !row.enabled || row.tokenVersion !== claims.tokenVersion || row.signedOut) throw unauthorized();
    sendIdentity(request, reply, row.database, row.generation);
    request.user = {
      id: row.id,
      username: row.username,
      firstName: row.firstName,
      lastName: row.lastName,
      roles: row.roles,
      workshopId: row.workshopId,
      keeperId: row.keeperId,
      logsChanges: row.logsChanges === true,
      token: { id: claims.tokenId, expiresAt: claims.expiresAt },
    };
    const { roles, refusal } = request.routeOptions.config;
    if (!hasAnyRole(row.roles, roles)) throw refused(refusal);
    return request.user;
  }

  app.decorateRequest('user', null);
  app.decorateRequest('claims', null);
  app.decorateRequest('pendingAuthentication', null);
  app.decorateRequest('serverIdentity', null);
  app.addHook('onRequest', async (request, reply) => {
    const config = request.routeOptions.config;
    if (config.public || request.routeOptions.url === undefined) return;
    const header = request.headers.authorization;
    const match = header?.match(/^Bearer\s+(\S+)$/i);
    if (!match?.[1]) throw unauthorized();
    const claims = await tokens.read(match[1]);
    if (!claims) throw unauthorized();
    request.claims = claims;
    if (config.userInStatement) request.pendingAuthentication = () => authenticate(request, reply, claims);
    else await authenticate(request, reply, claims);
  });
}

/**
 * The user of a `userInStatement` route whose own statement did not answer: read now the usual way (401/403 when
 * refused), or the one read already.
 */
export async function settledUser(request: FastifyRequest): Promise<SessionUser> {
  if (request.pendingAuthentication) return request.pendingAuthentication();
  return sessionUser(request);
}

/** The user of a route that is not public (the hook above guarantees one). */
export function sessionUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw unauthorized();
  return request.user;
}
