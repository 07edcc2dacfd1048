import { hasAnyRole, type Role, SERVER_IDENTITY_HEADERS } from '@vers/domain';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/client.ts';
import { revokedTokens, serverIdentity, users, workshops } from '../db/schema.ts';
import { ApiError, forbidden } from '../http/errors.ts';
import type { TokenService } from './tokens.ts';

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
  /** The workshop's protocol flag (`add_last_modifier`): changes carry the user's last name. False without one. */
  logsChanges: boolean;
  /** The bearer token of this request: its id and end, for signing out. */
  token: { id: string; expiresAt: Date };
}

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser | null;
  }
  interface FastifyContextConfig {
    /** Reachable without a token. */
    public?: boolean;
    /** The user needs one of these roles; absent = any signed-in user. */
    roles?: readonly Role[];
  }
}

const unauthorized = () => new ApiError(401, 'UNAUTHORIZED', 'Not signed in or the session has ended');

/**
 * Every route needs a valid bearer token unless its config says `public`. The user is looked up on every
 * request, so a disabled or deleted user, a changed password or a signed-out token ends the session at once.
 * The same query reads the workshop's protocol flag, so writing a change needs no further look-up for its
 * modifier, and whether the token was signed out.
 */
export function registerAuthentication(app: FastifyInstance, db: Db, tokens: TokenService) {
  app.decorateRequest('user', null);
  app.addHook('onRequest', async (request, reply) => {
    const config = request.routeOptions.config;
    if (config.public || request.routeOptions.url === undefined) return;
    const header = request.headers.authorization;
    const match = header?.match(/^Bearer\s+(\S+)$/i);
    if (!match?.[1]) throw unauthorized();
    const claims = await tokens.read(match[1]);
    if (!claims) throw unauthorized();
    const [row] = await db
      .select({
        id: users.id,
        username: users.username,
        firstName: users.firstName,
        lastName: users.lastName,
        roles: users.roles,
        workshopId: users.workshopId,
        enabled: users.enabled,
        tokenVersion: users.tokenVersion,
        // A scalar subquery: PostgreSQL plans it faster than a join, which counts on PGlite.
        logsChanges: sql<boolean | null>`(SELECT ${workshops.addLastModifier} FROM ${workshops}
          WHERE ${workshops.id} = ${users.workshopId})`,
        signedOut: sql<boolean>`EXISTS (SELECT 1 FROM ${revokedTokens}
          WHERE ${revokedTokens.tokenId} = ${claims.tokenId})`,
        // Every signed-in answer says which database and generation served it
        // (docs/requirements/sync.md#data-flow-restored-server).
        database: sql<string | null>`(SELECT ${serverIdentity.id} FROM ${serverIdentity})`,
        generation: sql<number | null>`(SELECT ${serverIdentity.generation} FROM ${serverIdentity})`,
      })
      .from(users)
      .where(eq(users.id, claims.userId));
    if (!row || !row.enabled || row.tokenVersion !== claims.tokenVersion || row.signedOut) throw unauthorized();
    if (row.database !== null && row.generation !== null) {
      reply.header(SERVER_IDENTITY_HEADERS.database, row.database);
      reply.header(SERVER_IDENTITY_HEADERS.generation, String(row.generation));
    }
    request.user = {
      id: row.id,
      username: row.username,
      firstName: row.firstName,
      lastName: row.lastName,
      roles: row.roles,
      workshopId: row.workshopId,
      logsChanges: row.logsChanges === true,
      token: { id: claims.tokenId, expiresAt: claims.expiresAt },
    };
    if (!hasAnyRole(row.roles, config.roles)) throw forbidden();
  });
}

/** The user of a route that is not public (the hook above guarantees one). */
export function sessionUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw unauthorized();
  return request.user;
}
