import {
  ASSET_TYPES,
  type ErrorCode,
  foldActivities,
  type MountedWheelset,
  mountedWheelset,
  type OrderType,
  type WheelsetSwapBody,
  type WheelsetSwapProblem,
  wheelsetSwap,
  wheelsetSwapActivityId as swapActivityId,
  attributeValue,
} from '@vers/domain';
import { asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { appendActivities, type Author } from '../activity/append.ts';
import { asDomainActivity } from '../activity/protocol.ts';
import type { Tx } from '../db/client.ts';
import { activities, assets } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import { type StoredValidation, toImportValidation } from '../imports/validation.ts';
import type { OrderRow } from './access.ts';

/*
 * The spec's PATCH orders/{id} (docs/requirements/orders.md#wheelset-swap): the domain's `wheelsetSwap` makes the
 * writes, which become the order's activities in the caller's transaction under the order's lock, with ids derived
 * from the request's id, so that a resend (a lost answer) writes nothing twice and answers the same wheelset.
 */

const STATUS: Record<WheelsetSwapProblem['code'], number> = {
  WHEELSET_ORDER: 400,
  WHEELSET_POSITION: 400,
  CHECK_NUMBER: 400,
  VALIDATION: 400,
  WHEELSET_MOUNTED_ELSEWHERE: 409,
  WHEELSET_NOT_MOUNTED: 409,
};

function refusal(problem: WheelsetSwapProblem): ApiError {
  const message: Record<WheelsetSwapProblem['code'], string> = {
    WHEELSET_ORDER: 'A wheelset order has no wheelset positions; only a wagon order has',
    WHEELSET_POSITION: 'position must be a whole number from 1 to 8',
    CHECK_NUMBER: 'wheelset.number must be 12 digits with a correct check digit',
    VALIDATION: problem.code === 'VALIDATION' ? problem.message : '',
    WHEELSET_MOUNTED_ELSEWHERE:
      problem.code === 'WHEELSET_MOUNTED_ELSEWHERE'
        ? `The wheelset is mounted at position ${problem.position} of this wagon already`
        : '',
    WHEELSET_NOT_MOUNTED: 'No wheelset is mounted at this position',
  };
  const fields: Partial<Record<WheelsetSwapProblem['code'], string[]>> = {
    WHEELSET_POSITION: ['body.position'],
    CHECK_NUMBER: ['body.wheelset.number'],
    WHEELSET_MOUNTED_ELSEWHERE: ['body.wheelset.number'],
  };
  return new ApiError(
    STATUS[problem.code],
    problem.code satisfies ErrorCode,
    message[problem.code],
    fields[problem.code],
  );
}

/** The incoming values of a valid wheelset template of the workshop: what the mounted wheelset brings with it. */
async function templateValues(tx: Tx, order: OrderRow, assetId: string, number: string) {
  const refuse = (why: string) =>
    new ApiError(400, 'VALIDATION', `Import ${assetId}: ${why}`, ['body.wheelset.assetId']);
  if (!z.uuid().safeParse(assetId).success) throw refuse('file not found');
  const [asset] = await tx.select().from(assets).where(eq(assets.id, assetId));
  if (!asset || asset.workshopId !== order.workshopId || asset.type !== ASSET_TYPES.IMPORT) {
    throw refuse('file not found');
  }
  const validation = toImportValidation(asset.id, asset.validation as StoredValidation | null, 'WHEELSET');
  if (validation.validationStatus !== 'VALID') throw refuse(validation.message ?? 'the file has not been checked yet');
  const stored = asset.validation as Extract<StoredValidation, { validationStatus: 'VALID' }>;
  if (stored.number !== number.replace(/[\s-]/g, '')) throw refuse(`the file is of wheelset ${stored.number}`);
  if (asset.orderId === null) await tx.update(assets).set({ orderId: order.id }).where(eq(assets.id, asset.id));
  return stored.values;
}

/** What the request asked for, to tell a resend from another request that reuses its id. */
function answers(request: WheelsetSwapBody, answer: MountedWheelset): boolean {
  if (request.wheelset === null) return answer.wheelset === null;
  if (request.wheelset === undefined) return answer.direction === request.direction;
  return answer.wheelset?.number === request.wheelset.number.replace(/[\s-]/g, '');
}

/**
 * Carries out a swap on a locked order. A resend finds the changes stored under the derived ids and answers the
 * wheelset the position held right after them; a request whose id was used for another swap is refused.
 */
export async function swapWheelset(
  tx: Tx,
  order: OrderRow,
  request: WheelsetSwapBody,
  author: Author,
  now = new Date(),
): Promise<MountedWheelset> {
  const rows = (
    await tx.select().from(activities).where(eq(activities.orderId, order.id)).orderBy(asc(activities.counter))
  ).map(asDomainActivity);
  const first = rows.findIndex((row) => row.id === swapActivityId(request.id, 0));
  if (first !== -1) {
    let last = first;
    while (rows[last + 1]?.id === swapActivityId(request.id, last + 1 - first)) last += 1;
    const answer = mountedWheelset(foldActivities(rows.slice(0, last + 1)).values, request.position);
    if (!answers(request, answer)) {
      throw new ApiError(409, 'ACTIVITY_ID_REUSED', `Swap ${request.id} was made with another request`);
    }
    return answer;
  }
  const values = foldActivities(rows).values;
  const imported =
    order.type === 'WAGON' && request.wheelset?.assetId
      ? await templateValues(tx, order, request.wheelset.assetId, request.wheelset.number)
      : [];
  const result = wheelsetSwap(order.type as OrderType, values, request, {
    today: now.toISOString().slice(0, 10),
    imported,
  });
  if (!result.ok) throw refusal(result.problem);
  await appendActivities(
    tx,
    order,
    result.writes.map((write, index) => ({
      id: swapActivityId(request.id, index),
      key: write.key,
      type: write.value === null ? ('XML_DELETE' as const) : ('XML_MODIFICATION' as const),
      outputValue:
        write.value === null ? 'null' : JSON.stringify(attributeValue(write.value, now, author.modifier || undefined)),
      created: now,
      // The server judged the swap on every value it holds.
      seen: 'everything' as const,
    })),
    author,
  );
  return result.answer;
}
