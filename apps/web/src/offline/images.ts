import {
  ASSET_STATUSES,
  ASSET_TYPES,
  type PngProblem,
  type Refusal,
  assetSchema,
  assetWithDataSchema,
  pngProblem,
} from '@vers/domain';
import { z } from 'zod';
import { ApiFailure, call } from '../app/api.ts';
import { sessionStore } from '../app/session.ts';
import { fromBase64, toBase64 } from '../app/base64.ts';
import { newUuid } from './order-results.ts';
import { isOwnWork } from './own-work.ts';

export { fromBase64, toBase64 };
import type { LocalImage, VersDb } from './versdb.ts';

/** Statuses the image exchange handles itself (background work: no snackbars, no jump to the login on 401). */
const HANDLES = [0, 400, 403, 404, 409, 413, 500, 502, 503, 504] as const;
/** Pictures are large: a slow workshop network may need a while for one. */
const IMAGE_CALL = { handles: HANDLES, timeoutMs: 120_000 } as const;

/**
 * A small JPEG of the picture for lists (200 full PNGs in a list would decode megabytes each). Browser only;
 * where the browser cannot decode it (tests in node) the list falls back to the picture itself.
 */
export async function makeThumbnail(bytes: Uint8Array, width = 320): Promise<string | undefined> {
  if (typeof createImageBitmap !== 'function' || typeof document === 'undefined') return undefined;
  try {
    const bitmap = await createImageBitmap(new Blob([bytes as BlobPart], { type: 'image/png' }));
    const scale = Math.min(1, width / bitmap.width);
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    return canvas.toDataURL('image/jpeg', 0.75);
  } catch {
    return undefined;
  }
}

export interface NewImage {
  orderId: string;
  tabName: string;
  bytes: Uint8Array;
  name?: string;
}

/**
 * Keeps a picture on the device, unsent (docs/requirements/sync.md#images-exchange): only a complete PNG is taken (the
 * same check as the server's), so nothing is stored that the server would refuse.
 */
export async function storeImage(
  db: VersDb,
  image: NewImage,
  now = new Date(),
): Promise<{ ok: true; image: LocalImage } | { ok: false; problem: PngProblem }> {
  const problem = pngProblem(image.bytes);
  if (problem) return { ok: false, problem };
  const session = sessionStore.get();
  const thumb = await makeThumbnail(image.bytes);
  const row: LocalImage = {
    imageId: newUuid(),
    orderId: image.orderId,
    tabName: image.tabName,
    name: image.name ?? `${image.tabName}-${now.toISOString().replace(/[:.]/g, '-')}.png`,
    data: toBase64(image.bytes),
    ...(thumb ? { thumb } : {}),
    size: image.bytes.length,
    capturedDate: now.toISOString(),
    sent: 0,
    toBeDeleted: 0,
    ...(session ? { owner: session.id, creator: `${session.firstName} ${session.lastName}`.trim() } : {}),
  };
  await db.orderImages.add(row);
  return { ok: true, image: row };
}

function refusalOf(error: ApiFailure): Refusal {
  return { status: error.status, code: error.code, message: error.message, at: new Date().toISOString() };
}

const isOffline = (error: unknown) => error instanceof ApiFailure && (error.status === 0 || error.status >= 502);

export interface ImagesSendResult {
  sent: number;
  refused: number;
  offline?: true;
}

/**
 * Uploads the user's unsent pictures (POST assets, type PICTURE) and marks each sent with the server's id. The
 * id is the picture's own, so a retry after a lost answer stores nothing twice. A refusal for good (400, 413) is
 * kept beside the picture; a picture of an order not yet on the server waits for it.
 */
export async function sendImages(db: VersDb): Promise<ImagesSendResult> {
  const result: ImagesSendResult = { sent: 0, refused: 0 };
  // One picture in memory at a time: fifty camera PNGs read at once would weigh on a tablet's memory.
  const waiting = await db.orderImages.where('sent').equals(0).primaryKeys();
  for (const imageId of waiting) {
    const image = await db.orderImages.get(imageId);
    if (!image || image.sent !== 0 || image.toBeDeleted || image.refusal || !isOwnWork(image)) continue;
    if ((await db.orders.get(image.orderId))?.sent === 0) continue;
    try {
      const asset = await call('assets', assetSchema, {
        method: 'POST',
        body: {
          id: image.imageId,
          type: ASSET_TYPES.PICTURE,
          filename: image.name,
          base64: image.data,
          size: image.size,
          orderId: image.orderId,
          created: image.capturedDate,
          ...(image.creator ? { creator: image.creator } : {}),
        },
        ...IMAGE_CALL,
      });
      await db.orderImages.update(image.imageId, { sent: 1, assetId: asset.id });
      result.sent += 1;
    } catch (error) {
      if (isOffline(error)) return { ...result, offline: true };
      if (error instanceof ApiFailure && [400, 404, 409, 413].includes(error.status)) {
        await db.orderImages.update(image.imageId, { refusal: refusalOf(error) });
        result.refused += 1;
      }
      // Anything else (a 500): tried again at the next exchange.
    }
  }
  return result;
}

/**
 * Deletes a picture (docs/requirements/sync.md#images-exchange): one never sent goes at once; a sent one is deleted on
 * the server, and if that fails it is marked toBeDeleted (hidden from the list) and the scheduler retries.
 */
export async function deleteImage(db: VersDb, image: LocalImage): Promise<'deleted' | 'later'> {
  if (image.sent === 0) {
    await db.orderImages.delete(image.imageId);
    return 'deleted';
  }
  await db.orderImages.update(image.imageId, { toBeDeleted: 1 });
  return (await deleteOnServer(db, image)) ? 'deleted' : 'later';
}

async function deleteOnServer(db: VersDb, image: LocalImage): Promise<boolean> {
  try {
    await call(`assets/${image.assetId ?? image.imageId}`, null, { method: 'DELETE', ...IMAGE_CALL });
  } catch (error) {
    // 404: the server has it no more, which is what the user wanted.
    if (!(error instanceof ApiFailure) || error.status !== 404) return false;
  }
  await db.orderImages.delete(image.imageId);
  return true;
}

/** The scheduler's retry of deletes that failed (docs/requirements/sync.md#images-exchange). */
export async function deleteMarkedImages(db: VersDb): Promise<number> {
  let deleted = 0;
  for (const image of await db.orderImages.where('toBeDeleted').equals(1).toArray()) {
    if (await deleteOnServer(db, image)) deleted += 1;
  }
  return deleted;
}

/**
 * Whether the server deleted a picture on purpose (a tombstone: someone deleted it) or lost it (a restored backup):
 * `deleted`, `lost`, or `unknown` when the server could not be asked.
 */
async function pictureFate(id: string): Promise<'deleted' | 'lost' | 'there' | 'unknown'> {
  try {
    await call(`assets/${id}`, null, IMAGE_CALL);
    return 'there';
  } catch (error) {
    if (!(error instanceof ApiFailure) || error.status !== 404) return 'unknown';
    return error.code === 'DELETED' ? 'deleted' : 'lost';
  }
}

/**
 * Brings the order's picture list in line with the server (docs/requirements/sync.md#images-exchange): pictures someone
 * deleted are dropped here (unless not yet sent); pictures the server lost (a restored backup) are uploaded again,
 * never dropped; and pictures from other devices are fetched. Offline it does nothing: the device's pictures stay as
 * they are.
 */
export async function refreshImages(
  db: VersDb,
  orderId: string,
): Promise<{ added: number; dropped: number; resent: number }> {
  const outcome = { added: 0, dropped: 0, resent: 0 };
  if ((await db.orders.get(orderId))?.sent === 0) return outcome;
  let listed: z.infer<typeof assetSchema>[];
  try {
    listed = await call(
      `assets/order/${orderId}?type=${ASSET_TYPES.PICTURE}&status=${ASSET_STATUSES.AVAILABLE}`,
      z.array(assetSchema),
      IMAGE_CALL,
    );
  } catch {
    return outcome;
  }
  const onServer = new Map(listed.map((asset) => [asset.id, asset]));
  const local = await db.orderImages.where('orderId').equals(orderId).toArray();
  const known = new Set(local.map((image) => image.assetId ?? image.imageId));
  for (const image of local) {
    if (image.sent !== 1 || image.toBeDeleted || onServer.has(image.assetId ?? image.imageId)) continue;
    const fate = await pictureFate(image.assetId ?? image.imageId);
    if (fate === 'deleted') {
      await db.orderImages.delete(image.imageId);
      outcome.dropped += 1;
    } else if (fate === 'lost') {
      // Uploaded again by the next exchange, under its own id (the browser's).
      await db.orderImages.update(image.imageId, { sent: 0 });
      outcome.resent += 1;
    }
  }
  for (const asset of listed) {
    if (known.has(asset.id)) continue;
    try {
      const full = await call(`assets/${asset.id}`, assetWithDataSchema, IMAGE_CALL);
      const bytes = fromBase64(full.base64);
      const thumb = await makeThumbnail(bytes);
      await db.orderImages.put({
        imageId: asset.id,
        orderId,
        tabName: '',
        name: asset.filename,
        data: full.base64,
        ...(thumb ? { thumb } : {}),
        size: asset.size,
        capturedDate: asset.created,
        sent: 1,
        toBeDeleted: 0,
        assetId: asset.id,
        creator: asset.creator,
      });
      outcome.added += 1;
    } catch {
      // Fetched at the next refresh.
    }
  }
  return outcome;
}
