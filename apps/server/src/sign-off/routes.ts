import {
  type OrderStatus,
  type OrderType,
  contentChanges,
  errorBodySchema,
  maySetStatus,
  maySignOffAt,
  normalizeSignOffCode,
  signOffCheckSchema,
  signOffListSchema,
  signOffRefusal,
  signOffRequestSchema,
  signOffSchema,
} from '@vers/domain';
import { asc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { authorOf, orderValues } from '../activity/append.ts';
import { audit } from '../audit/audit.ts';
import { sessionUser } from '../auth/session.ts';
import { verifyPassword } from '../auth/passwords.ts';
import { attemptSource, forgiveFailures, reserveAttempt, tooManyAttempts } from '../auth/throttle.ts';
import type { Db } from '../db/client.ts';
import { orderSignOffs, orders, users, workshops } from '../db/schema.ts';
import { ApiError, forbidden, notFound } from '../http/errors.ts';
import { ownOrder } from '../orders/access.ts';
import { setOrderStatus } from '../orders/status-change.ts';
import { type MailOutbox, recordOrderMails } from '../mail/outbox.ts';
import { contentHash, currentContent, newSignOffCode, signingRole, type SignOffRow, toSignOff } from './records.ts';

const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

/** Electronic sign-off of orders, and the public check of a printed release's code (issue 21). */
export const signOffRoutes =
  (db: Db, mails: MailOutbox): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/orders/:id/sign-off',
      {
        schema: {
          tags: ['sign-off'],
          summary: 'Sign an order off',
          description:
            'The signer gives their password again (400 WRONG_PASSWORD; limited as sign-ins are, then 429 with ' +
            'Retry-After) and states the meaning: QUALITY_CHECK_PASSED or RELEASED_TO_SERVICE. With `status` ' +
            '(DONE or DONE_ARCHIVED, within the status rules: 403 otherwise) the order takes that status in the same ' +
            'transaction; without it the order must be done already (409 NOT_DONE). RELEASED_TO_SERVICE needs the ' +
            "release's entries (409 RELEASE_INCOMPLETE, `fields` names the missing ones). A wagon with one wheelset " +
            'at two positions is signed off in neither meaning (409 WHEELSET_MOUNTED_TWICE naming the later ' +
            "positions' number keys; a release says RELEASE_INCOMPLETE). The server records signer, " +
            'role, meaning, time and the SHA-256 of the outgoing values, append-only. A resent `id` answers the first.',
          params: z.object({ id: z.uuid() }),
          body: signOffRequestSchema,
          response: { 200: signOffSchema, ...errors, 429: errorBodySchema },
        },
      },
      async (request, reply) => {
        const user = sessionUser(request);
        const { id, meaning, password, status } = request.body;
        const known = await ownOrder(db, user, request.params.id);
        const type = known.type as OrderType;
        const [resent] = await db.select().from(orderSignOffs).where(eq(orderSignOffs.id, id));
        if (resent) {
          if (resent.orderId !== known.id)
            throw new ApiError(409, 'CONFLICT', 'This sign-off id belongs to another order');
          return toSignOff(resent);
        }
        if (!maySetStatus(status ?? 'DONE', type, user.roles)) throw forbidden();

        // The password, checked as at the sign-in and limited as there, before anything is locked.
        const [account] = await db.select().from(users).where(eq(users.id, user.id));
        if (!account) throw forbidden();
        const source = await attemptSource(db, request, account.username.toLowerCase());
        const attempt = await reserveAttempt(db, source);
        if ('until' in attempt) {
          await audit(db, request, { action: 'signOff.throttled', workshopId: known.workshopId, target: known.number });
          throw tooManyAttempts(reply, attempt.until);
        }
        if (!(await verifyPassword(account.passwordHash, password))) {
          throw new ApiError(400, 'WRONG_PASSWORD', 'The password is not correct');
        }
        await forgiveFailures(db, source);

        const signed = await db.transaction(async (tx) => {
          const order = await ownOrder(tx, user, known.id, true);
          const after = status ?? (order.status as OrderStatus);
          if (!maySignOffAt(after)) {
            throw new ApiError(409, 'NOT_DONE', `A ${order.status} order is signed off with a done status only`);
          }
          const refusal = signOffRefusal(meaning, type, await orderValues(tx, order.id));
          if (refusal) {
            const why = refusal.code === 'RELEASE_INCOMPLETE' ? 'The release to service lacks' : 'Mounted twice:';
            throw new ApiError(409, refusal.code, `${why} ${refusal.keys.join(', ')}`, refusal.keys);
          }
          const at = new Date();
          if (status && order.status !== status) {
            await setOrderStatus(tx, order, status, authorOf(user), randomUUID(), at);
          }
          const { content, hash } = await currentContent(tx, order.id, type);
          const [row] = await tx
            .insert(orderSignOffs)
            .values({
              id,
              orderId: order.id,
              workshopId: order.workshopId,
              code: newSignOffCode(),
              signerId: user.id,
              signer: `${user.firstName} ${user.lastName}`.trim() || user.username,
              role: signingRole(user.roles, type),
              meaning,
              status: status ?? null,
              signedAt: at,
              contentHash: hash,
              content,
            })
            .returning();
          await audit(tx, request, {
            action: 'order.signedOff',
            workshopId: order.workshopId,
            target: order.number,
            details: { meaning, status: status ?? null, contentHash: hash },
          });
          if (meaning === 'RELEASED_TO_SERVICE') {
            await recordOrderMails(tx, order, 'RELEASED', `released:${id}`, `${request.protocol}://${request.host}`);
          }
          return toSignOff(row!);
        });
        await mails.flush(known.workshopId);
        return signed;
      },
    );

    app.get(
      '/orders/:id/sign-offs',
      {
        schema: {
          tags: ['sign-off'],
          summary: "An order's sign-offs",
          description: 'Every sign-off of the order, oldest first, superseded ones included.',
          params: z.object({ id: z.uuid() }),
          response: { 200: signOffListSchema, ...errors },
        },
      },
      async (request) => {
        const order = await ownOrder(db, sessionUser(request), request.params.id);
        const rows = await db
          .select()
          .from(orderSignOffs)
          .where(eq(orderSignOffs.orderId, order.id))
          .orderBy(asc(orderSignOffs.signedAt));
        return rows.map(toSignOff);
      },
    );

    app.get(
      '/sign-offs/:code',
      {
        schema: {
          tags: ['sign-off'],
          summary: "Check a release's code",
          description:
            'Public: whoever holds a printed release to service may check it. Says whether the order still holds ' +
            'the outgoing values that were signed (MATCHES), and if not what changed (CHANGED), or that the order ' +
            'is gone (ORDER_DELETED). The code has 80 random bits; an unknown one answers 404.',
          params: z.object({ code: z.string().max(40) }),
          response: { 200: signOffCheckSchema, 404: errorBodySchema },
        },
      },
      async (request) => {
        const code = normalizeSignOffCode(request.params.code);
        const [row] = code ? await db.select().from(orderSignOffs).where(eq(orderSignOffs.code, code)) : [];
        if (!row) throw notFound('Sign-off');
        return check(db, row);
      },
    );
  };

async function check(db: Db, row: SignOffRow) {
  const [order] = await db.select().from(orders).where(eq(orders.id, row.orderId));
  const [workshop] = await db.select({ name: workshops.name }).from(workshops).where(eq(workshops.id, row.workshopId));
  const base = { signOff: toSignOff(row), workshop: workshop?.name ?? '' };
  if (!order) {
    return {
      ...base,
      orderNumber: '',
      vehicleNumber: '',
      orderType: 'WAGON' as const,
      state: 'ORDER_DELETED' as const,
      currentHash: null,
      changes: [],
    };
  }
  const type = order.type as OrderType;
  const now = await currentContent(db, order.id, type);
  const changes = contentChanges(row.content, now.content);
  // The stored hash is checked against the stored content too: a row changed behind the trigger shows as changed.
  const intact = contentHash(row.content) === row.contentHash;
  return {
    ...base,
    orderNumber: order.number,
    vehicleNumber: order.maintenanceNumber,
    orderType: type,
    state: now.hash === row.contentHash && intact ? ('MATCHES' as const) : ('CHANGED' as const),
    currentHash: now.hash,
    changes,
  };
}
