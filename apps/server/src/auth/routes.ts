import {
  type SessionWorkshop,
  type SignInResponse,
  errorBodySchema,
  signInRequestSchema,
  signInResponseSchema,
  siteIdResponseSchema,
} from '@vers/domain';
import { eq, lt, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../db/client.ts';
import { revokedTokens, users, workshops } from '../db/schema.ts';
import { audit } from '../audit/audit.ts';
import { ApiError } from '../http/errors.ts';
import { noContent } from '../http/openapi.ts';
import { sessionKeeper } from '../keepers/records.ts';
import { verifyPassword } from './passwords.ts';
import { type UserRow, type WorkshopRow, sessionUser } from './session.ts';
import { attemptSource, forgiveFailures, reserveAttempt, tooManyAttempts, trustDevice } from './throttle.ts';
import type { TokenService } from './tokens.ts';

export function toSessionWorkshop(row: WorkshopRow): SessionWorkshop {
  return {
    id: row.id,
    name: row.name,
    countryCode: row.countryCode,
    siteId: row.siteId,
    revNr: row.revNr,
    addLastModifier: row.addLastModifier,
  };
}

/**
 * What a sign-in answers: a fresh token and the user with roles and workshop
 * (docs/requirements/administration.md#session).
 */
export async function sessionResponse(db: Db, tokens: TokenService, user: UserRow): Promise<SignInResponse> {
  const [workshop] = user.workshopId ? await db.select().from(workshops).where(eq(workshops.id, user.workshopId)) : [];
  const { token, expiresAt } = await tokens.issue({ userId: user.id, tokenVersion: user.tokenVersion });
  return {
    token,
    expiresAt: expiresAt.toISOString(),
    id: user.id,
    username: user.username,
    firstName: user.firstName,
    lastName: user.lastName,
    roles: user.roles as SignInResponse['roles'],
    workshop: workshop ? toSessionWorkshop(workshop) : null,
    keeper: await sessionKeeper(db, user.keeperId),
  };
}

export const authRoutes =
  (db: Db, tokens: TokenService): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/auth/signin',
      {
        schema: {
          tags: ['auth'],
          summary: 'Sign in',
          body: signInRequestSchema,
          response: { 200: signInResponseSchema, 401: errorBodySchema, 429: errorBodySchema },
          description:
            'Signs in. Failed attempts are limited per account, address and device (docs/security.md); past a limit ' +
            'the answer is 429 with Retry-After. A right password sets the device cookie `vers_device`, and failures ' +
            'from elsewhere never throttle that user on that device.',
        },
      },
      async (request, reply) => {
        const username = request.body.userName.trim().toLowerCase();
        const [user] = await db
          .select()
          .from(users)
          .where(eq(sql`lower(${users.username})`, username));
        // Failed and throttled sign-ins go into the audit trail of the user's workshop (none for an unknown name).
        const record = (action: 'signIn.failed' | 'signIn.throttled') =>
          audit(db, request, {
            action,
            workshopId: user?.workshopId ?? null,
            target: username,
            actor: { id: user?.id ?? null, name: username },
          });
        const source = await attemptSource(db, request, username);
        const attempt = await reserveAttempt(db, source);
        if ('until' in attempt) {
          await record('signIn.throttled');
          throw tooManyAttempts(reply, attempt.until);
        }
        const passwordOk = await verifyPassword(user?.passwordHash ?? null, request.body.password);
        // A wrong password keeps its reserved failure; so does a disabled user's right one.
        if (!user || !passwordOk || !user.enabled) {
          await record('signIn.failed');
          throw new ApiError(401, 'WRONG_LOGIN', 'Username or password incorrect');
        }
        await forgiveFailures(db, source);
        await trustDevice(db, request, reply, username);
        return sessionResponse(db, tokens, user);
      },
    );

    // Signing out ends this token on the server too: it goes on the deny-list until it would have expired, so a
    // copy of it (another tab, a stolen one) is refused from now on. Other devices of the user stay signed in.
    app.post(
      '/auth/signout',
      { schema: { tags: ['auth'], summary: 'Sign out', response: { 204: noContent, 401: errorBodySchema } } },
      async (request, reply) => {
        const { token } = sessionUser(request);
        await db.insert(revokedTokens).values({ tokenId: token.id, expiresAt: token.expiresAt }).onConflictDoNothing();
        // Entries of tokens that have expired anyway go, so the list stays as small as the tokens alive.
        await db.delete(revokedTokens).where(lt(revokedTokens.expiresAt, new Date()));
        return reply.status(204).send();
      },
    );

    app.get(
      '/auth/siteId',
      {
        schema: { tags: ['auth'], summary: "Get the own workshop's site id", response: { 200: siteIdResponseSchema } },
      },
      async (request) => {
        const { workshopId } = sessionUser(request);
        if (workshopId === null) return { siteId: null };
        const [row] = await db.select({ siteId: workshops.siteId }).from(workshops).where(eq(workshops.id, workshopId));
        return { siteId: row?.siteId ?? null };
      },
    );
  };
