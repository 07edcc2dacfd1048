import {
  type OrderStatus,
  type OrderType,
  ROLES,
  type SignOff,
  type SignOffMeaning,
  type SignedContent,
  hasAnyRole,
  qaRoleFor,
  signOffCodeFromBytes,
  signedContent,
  signedContentText,
} from '@vers/domain';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { createHash, randomBytes } from 'node:crypto';
import { orderValues } from '../activity/append.ts';
import type { Executor, Tx } from '../db/client.ts';
import { orderSignOffs } from '../db/schema.ts';

export type SignOffRow = typeof orderSignOffs.$inferSelect;

export function toSignOff(row: SignOffRow): SignOff {
  return {
    id: row.id,
    orderId: row.orderId,
    code: row.code,
    signer: row.signer,
    role: row.role,
    meaning: row.meaning as SignOffMeaning,
    status: row.status as OrderStatus | null,
    signedAt: row.signedAt.toISOString(),
    contentHash: row.contentHash,
    supersededAt: row.supersededAt?.toISOString() ?? null,
  };
}

/** SHA-256 (hex) of the signed content's canonical text. */
export function contentHash(content: SignedContent): string {
  return createHash('sha256').update(signedContentText(content), 'utf8').digest('hex');
}

/** The order's signed content as it stands now (its outgoing values) and its hash. */
export async function currentContent(ex: Executor, orderId: string, type: OrderType) {
  const content = signedContent(type, await orderValues(ex, orderId));
  return { content, hash: contentHash(content) };
}

/** A new check code: 80 random bits. */
export const newSignOffCode = () => signOffCodeFromBytes(randomBytes(10));

/**
 * The role a signer signs in: the one of theirs that gives the right, the order type's QA role first, then the
 * workshop's quality manager, then the workshop admin.
 */
export function signingRole(roles: readonly string[], type: OrderType): string {
  const order = [qaRoleFor(type), ROLES.WORKSHOP_QA, ROLES.WORKSHOP_ADMIN];
  return order.find((role) => hasAnyRole(roles, [role])) ?? roles[0] ?? '';
}

/** A reopened order's sign-offs no longer speak for it: each is marked superseded, once (the table allows no more). */
export async function supersedeSignOffs(tx: Tx, orderId: string, at: Date): Promise<void> {
  await tx
    .update(orderSignOffs)
    .set({ supersededAt: at })
    .where(and(eq(orderSignOffs.orderId, orderId), isNull(orderSignOffs.supersededAt)));
}

/** The newest sign-off "released to service" of an order that no reopening has superseded. */
export async function currentRelease(ex: Executor, orderId: string): Promise<SignOffRow | undefined> {
  const [row] = await ex
    .select()
    .from(orderSignOffs)
    .where(
      and(
        eq(orderSignOffs.orderId, orderId),
        eq(orderSignOffs.meaning, 'RELEASED_TO_SERVICE'),
        isNull(orderSignOffs.supersededAt),
      ),
    )
    .orderBy(desc(orderSignOffs.signedAt))
    .limit(1);
  return row;
}
