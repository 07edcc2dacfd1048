import {
  ALL_ROLES,
  ROLES,
  ROLE_GROUPS,
  changeOwnPasswordRequestSchema,
  createUserRequestSchema,
  createUserResponseSchema,
  errorBodySchema,
  idParamSchema,
  isSystemAdmin,
  roleRefSchema,
  signInResponseSchema,
  strongPasswordSchema,
  updateUserRequestSchema,
  userIdParamsSchema,
  userSchema,
  type User,
} from '@vers/domain';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { generatePassword, hashPassword, verifyPassword } from '../auth/passwords.ts';
import { audit, changes } from '../audit/audit.ts';
import { sessionResponse } from '../auth/routes.ts';
import { attemptSource, forgiveFailures, reserveAttempt, tooManyAttempts } from '../auth/throttle.ts';
import { type SessionUser, type UserRow, sessionUser } from '../auth/session.ts';
import { reaches, workshopInScope } from '../auth/tenancy.ts';
import type { TokenService } from '../auth/tokens.ts';
import type { Db, Executor, Tx } from '../db/client.ts';
import { lockSubject } from '../db/locks.ts';
import { keepers, revokedTokens, users, workshops } from '../db/schema.ts';
import { ApiError, forbidden, notFound } from '../http/errors.ts';
import { JSON_MEDIA_TYPE, TEXT_MEDIA_TYPE, noContent } from '../http/openapi.ts';

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    firstName: row.firstName,
    lastName: row.lastName,
    enabled: row.enabled,
    roles: row.roles.map((name) => ({ name }) as User['roles'][number]),
    workshopId: row.workshopId,
    keeperId: row.keeperId,
  };
}

const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

/** Roles only system admins hand out: their own two, and the holder's, whose user belongs to a keeper (issue 22). */
const SYSTEM_ASSIGNED: readonly string[] = [...ROLE_GROUPS.systemAdmins, ROLES.HOLDER];

/** Roles a user may hand out: system admins all of them, workshop admins all but the system-assigned ones. */
function assignableRoles(actor: SessionUser): readonly string[] {
  return isSystemAdmin(actor.roles) ? ALL_ROLES : ALL_ROLES.filter((r) => !SYSTEM_ASSIGNED.includes(r));
}

/**
 * The keeper rule of a user (issue 22): a holder (ROLE_HOLDER) has that role alone, no workshop, and a keeper that
 * exists; nobody else has a keeper. Checked in the transaction that writes the user, where the keeper's foreign key
 * also refuses a keeper deleted meanwhile.
 */
async function checkKeeperRule(
  ex: Executor,
  roles: readonly string[],
  workshopId: number | null,
  keeperId: number | null,
) {
  if (!roles.includes(ROLES.HOLDER)) {
    if (keeperId !== null)
      throw new ApiError(400, 'KEEPER_NOT_HOLDER', 'Only a holder user belongs to a keeper', ['body.keeperId']);
    return;
  }
  if (roles.length > 1 || workshopId !== null) {
    throw new ApiError(400, 'HOLDER_ROLE_ALONE', 'A holder user has the holder role alone and no workshop', [
      'body.roles',
    ]);
  }
  if (keeperId === null) throw new ApiError(400, 'KEEPER_REQUIRED', 'A holder user needs a keeper', ['body.keeperId']);
  const [keeper] = await ex.select({ id: keepers.id }).from(keepers).where(eq(keepers.id, keeperId));
  if (!keeper) throw keeperUnknown();
}

const keeperUnknown = () => new ApiError(400, 'KEEPER_UNKNOWN', 'There is no such keeper', ['body.keeperId']);

/** A write that named a keeper deleted at the same moment: the foreign key refused it. */
function isKeeperReferenceGone(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const { code, constraint } = e as Error & { code?: unknown; constraint?: unknown };
    if (code === '23503') return constraint === 'users_keeper_id_keepers_id_fk';
  }
  return false;
}

function checkAssignable(actor: SessionUser, roles: readonly string[]) {
  const allowed = assignableRoles(actor);
  const refused = roles.filter((role) => !allowed.includes(role));
  if (refused.length > 0) throw new ApiError(403, 'ROLE_NOT_ALLOWED', `Roles not allowed: ${refused.join(', ')}`);
}

export const usersRoutes =
  (db: Db, tokens: TokenService): FastifyPluginAsyncZod =>
  async (app) => {
    /** A user the actor may manage, or 404. */
    async function managedUser(actor: SessionUser, id: number, ex: Executor = db): Promise<UserRow> {
      const [row] = await ex.select().from(users).where(eq(users.id, id));
      if (!row || !reaches(actor, row.workshopId)) throw notFound('User');
      // Only system admins manage system admins.
      if (!isSystemAdmin(actor.roles) && isSystemAdmin(row.roles)) throw notFound('User');
      return row;
    }

    /**
     * Refuses a change that would leave the user's workshop without an enabled workshop admin: nobody can
     * lock a workshop out of its own administration. Runs in the transaction of the change, under the lock
     * `adminChange` takes: two admins who disable each other at once are served one after the other, and the
     * second finds the first gone.
     */
    async function keepLastAdmin(tx: Tx, row: UserRow, stillAdmin: boolean) {
      if (row.workshopId === null || stillAdmin || !row.enabled || !row.roles.includes(ROLES.WORKSHOP_ADMIN)) return;
      const others = await tx
        .select({ id: users.id })
        .from(users)
        .where(
          and(
            eq(users.workshopId, row.workshopId),
            ne(users.id, row.id),
            eq(users.enabled, true),
            sql`${ROLES.WORKSHOP_ADMIN} = ANY(${users.roles})`,
          ),
        );
      if (others.length === 0) {
        throw new ApiError(409, 'LAST_ADMIN', 'The last workshop administrator cannot be removed or disabled');
      }
    }

    /**
     * A change of a user that the last-admin rule guards, in one transaction: the user's workshop is locked for
     * such changes first, then the user is read again inside it (not the copy read before the lock).
     */
    async function adminChange<T>(actor: SessionUser, id: number, change: (tx: Tx, row: UserRow) => Promise<T>) {
      const before = await managedUser(actor, id);
      return db.transaction(async (tx) => {
        await lockSubject(tx, `workshop-admins:${before.workshopId ?? 'system'}`);
        return change(tx, await managedUser(actor, id, tx));
      });
    }

    app.get(
      '/users/roles',
      {
        schema: {
          tags: ['users'],
          summary: 'List the roles the caller may assign',
          response: { 200: z.array(roleRefSchema) },
        },
      },
      async (request) =>
        assignableRoles(sessionUser(request)).map((name) => ({ name }) as z.infer<typeof roleRefSchema>),
    );

    app.get(
      '/users/current',
      {
        schema: {
          tags: ['users'],
          summary: "List a workshop's users",
          querystring: z.object({ workshopId: idParamSchema.optional() }),
          response: { 200: z.array(userSchema), 404: errorBodySchema },
        },
      },
      async (request) => {
        const actor = sessionUser(request);
        const workshopId = workshopInScope(actor, request.query.workshopId);
        const rows = await db
          .select()
          .from(users)
          .where(workshopId === null ? sql`${users.workshopId} IS NULL` : eq(users.workshopId, workshopId))
          .orderBy(users.username);
        return rows.filter((row) => isSystemAdmin(actor.roles) || !isSystemAdmin(row.roles)).map(toUser);
      },
    );

    app.post(
      '/users',
      {
        schema: {
          tags: ['users'],
          summary: 'Create a user',
          body: createUserRequestSchema,
          response: { 201: createUserResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        const actor = sessionUser(request);
        const body = request.body;
        const roles = [...new Set(body.roles.map((r) => r.name))];
        checkAssignable(actor, roles);
        // A holder belongs to a keeper, not to a workshop: no workshop is taken from the admin's own.
        const workshopId = roles.includes(ROLES.HOLDER)
          ? (body.workshopId ?? null)
          : workshopInScope(actor, body.workshopId);
        const keeperId = body.keeperId ?? null;
        if (workshopId !== null) {
          const [workshop] = await db.select({ id: workshops.id }).from(workshops).where(eq(workshops.id, workshopId));
          if (!workshop) throw notFound('Workshop');
        }
        const password = generatePassword();
        const passwordHash = await hashPassword(password);
        // The user and its audit entry are written together or not at all.
        const row = await db
          .transaction(async (tx) => {
            await checkKeeperRule(tx, roles, workshopId, keeperId);
            const [created] = await tx
              .insert(users)
              .values({
                username: body.username,
                firstName: body.firstName,
                lastName: body.lastName,
                roles,
                passwordHash,
                workshopId,
                keeperId,
              })
              .onConflictDoNothing()
              .returning();
            if (!created) throw new ApiError(409, 'USER_EXISTS', `User ${body.username} already exists`);
            await audit(tx, request, {
              action: 'user.created',
              workshopId,
              target: created.username,
              details: {
                firstName: created.firstName,
                lastName: created.lastName,
                roles,
                ...(keeperId !== null ? { keeperId } : {}),
              },
            });
            return created;
          })
          .catch((error: unknown) => {
            throw isKeeperReferenceGone(error) ? keeperUnknown() : error;
          });
        return reply.status(201).send({ user: toUser(row), password });
      },
    );

    app.put(
      '/users/:id',
      {
        schema: {
          tags: ['users'],
          summary: 'Update a user',
          params: userIdParamsSchema,
          body: updateUserRequestSchema,
          response: { 200: userSchema, ...errors },
        },
      },
      async (request) => {
        const actor = sessionUser(request);
        const body = request.body;
        const roles = [...new Set(body.roles.map((r) => r.name))];
        const updated = await adminChange(actor, request.params.id, async (tx, row) => {
          const isSelf = row.id === actor.id;
          const sameRoles = roles.length === row.roles.length && roles.every((r) => row.roles.includes(r));
          if (isSelf && !sameRoles) throw new ApiError(403, 'SELF_CHANGE', 'Nobody changes their own roles');
          if (isSelf && !body.enabled) throw new ApiError(403, 'SELF_CHANGE', 'Nobody disables their own account');
          // Roles the user already holds may stay even when the actor could not hand them out.
          checkAssignable(
            actor,
            roles.filter((r) => !row.roles.includes(r)),
          );
          await keepLastAdmin(tx, row, body.enabled && roles.includes(ROLES.WORKSHOP_ADMIN));
          // Omitted, the keeper stays while the user stays a holder, and goes with the holder role.
          const keeperId =
            body.keeperId !== undefined ? body.keeperId : roles.includes(ROLES.HOLDER) ? row.keeperId : null;
          if (keeperId !== row.keeperId && !isSystemAdmin(actor.roles)) {
            throw new ApiError(403, 'ROLE_NOT_ALLOWED', 'Only system administrators link a user to a keeper');
          }
          await checkKeeperRule(tx, roles, row.workshopId, keeperId);
          const [changed] = await tx
            .update(users)
            .set({
              firstName: body.firstName,
              lastName: body.lastName,
              roles,
              enabled: body.enabled,
              keeperId,
              // Disabling ends every session of the user: re-enabling later must not bring old tokens back.
              ...(row.enabled && !body.enabled ? { tokenVersion: sql`${users.tokenVersion} + 1` } : {}),
              lastModified: new Date(),
            })
            .where(eq(users.id, row.id))
            .returning();
          await audit(tx, request, {
            action: 'user.changed',
            workshopId: row.workshopId,
            target: row.username,
            details: changes(row, {
              firstName: body.firstName,
              lastName: body.lastName,
              roles,
              enabled: body.enabled,
              keeperId,
            }),
          });
          return changed;
        }).catch((error: unknown) => {
          throw isKeeperReferenceGone(error) ? keeperUnknown() : error;
        });
        if (!updated) throw notFound('User');
        return toUser(updated);
      },
    );

    app.put(
      '/users/:id/changePassword',
      {
        schema: {
          tags: ['users'],
          summary: "Set a user's password",
          description: 'Sets a new password. The body is the password as plain text, or as a JSON string.',
          params: userIdParamsSchema,
          // Plain text as the spec has it; a JSON string too, which is what the web app sends (users-api.ts).
          consumes: [TEXT_MEDIA_TYPE, JSON_MEDIA_TYPE],
          body: strongPasswordSchema,
          response: { 200: z.object({ ok: z.literal(true) }), ...errors },
        },
      },
      async (request) => {
        const actor = sessionUser(request);
        const row = await managedUser(actor, request.params.id);
        const passwordHash = await hashPassword(request.body);
        await db.transaction(async (tx) => {
          await tx
            .update(users)
            .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1`, lastModified: new Date() })
            .where(eq(users.id, row.id));
          // That a password was set and by whom; never the password.
          await audit(tx, request, { action: 'user.passwordSet', workshopId: row.workshopId, target: row.username });
        });
        return { ok: true as const };
      },
    );

    app.delete(
      '/users/:id',
      {
        schema: {
          tags: ['users'],
          summary: 'Delete a user',
          params: userIdParamsSchema,
          response: { 204: noContent, ...errors },
        },
      },
      async (request, reply) => {
        const actor = sessionUser(request);
        await adminChange(actor, request.params.id, async (tx, row) => {
          if (row.id === actor.id) throw new ApiError(403, 'SELF_CHANGE', 'Nobody deletes their own account');
          await keepLastAdmin(tx, row, false);
          await tx.delete(users).where(eq(users.id, row.id));
          await audit(tx, request, { action: 'user.deleted', workshopId: row.workshopId, target: row.username });
        });
        return reply.status(204).send();
      },
    );

    // Every signed-in user: their own password, with the old one asked. A new token comes back, since the
    // change ends every session of the user, this one included.
    app.put(
      '/users/current/password',
      {
        schema: {
          tags: ['users'],
          summary: 'Change the own password',
          description:
            'Changes the own password. Wrong old passwords are limited as sign-ins are (docs/security.md); past the ' +
            'limit the answer is 429 with Retry-After and this session ends.',
          body: changeOwnPasswordRequestSchema,
          response: { 200: signInResponseSchema, ...errors, 429: errorBodySchema },
        },
      },
      async (request, reply) => {
        const actor = sessionUser(request);
        const [row] = await db.select().from(users).where(eq(users.id, actor.id));
        if (!row) throw forbidden();
        // The old password is guessed no faster than at the sign-in, and a session that keeps guessing ends.
        const source = await attemptSource(db, request, row.username.toLowerCase());
        const attempt = await reserveAttempt(db, source);
        if ('until' in attempt) {
          await db.transaction(async (tx) => {
            await tx
              .insert(revokedTokens)
              .values({ tokenId: actor.token.id, expiresAt: actor.token.expiresAt })
              .onConflictDoNothing();
            await audit(tx, request, {
              action: 'password.throttled',
              workshopId: row.workshopId,
              target: row.username,
            });
          });
          throw tooManyAttempts(reply, attempt.until);
        }
        if (!(await verifyPassword(row.passwordHash, request.body.oldPassword))) {
          throw new ApiError(400, 'WRONG_PASSWORD', 'The current password is not correct');
        }
        await forgiveFailures(db, source);
        const passwordHash = await hashPassword(request.body.newPassword);
        const updated = await db.transaction(async (tx) => {
          const [changed] = await tx
            .update(users)
            .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1`, lastModified: new Date() })
            .where(eq(users.id, row.id))
            .returning();
          if (!changed) throw forbidden();
          await audit(tx, request, {
            action: 'user.passwordChanged',
            workshopId: row.workshopId,
            target: row.username,
          });
          return changed;
        });
        return sessionResponse(db, tokens, updated);
      },
    );
  };
