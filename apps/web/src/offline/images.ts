import {
  ASSET_FORM_FILES,
  ASSET_STATUSES,
  ASSET_TYPES,
  type PngProblem,
  type Refusal,
  assetSchema,
  assetThumbnailSchema,
  assetWithDataSchema,
  pngProblem,
} from '@vers/domain';
import { z } from 'zod';
import { ApiFailure, call } from '../app/api.ts';
import { sessionStore } from '../app/session.ts';
import { fromBase64, toBase64 } from '../app/base64.ts';
import { newUuid } from './order-results.ts';
import { isOwnWork } from './own-work.ts';
import { BY_CAPTURE_DATE, orderPicturesRange } from './pictures-first-screen.ts';

export { fromBase64, toBase64 };
import type { LocalImage, VersDb } from './versdb.ts';

/** Statuses the image exchange handles itself (background work: no snackbars, no jump to the login on 401). */
const HANDLES = [0, 400, 403, 404, 409, 413, 500, 502, 503, 504] as const;
/** Pictures are large: a slow workshop network may need a while for one. */
const IMAGE_CALL = { handles: HANDLES, timeoutMs: 120_000 } as const;

/** Longest side of a list thumbnail, in px: the list's cards are about 230 px wide. */
export const THUMB_SIDE = 320;
/**
 * Most characters of a thumbnail's data URL the device keeps. Chromium stores an IndexedDB row above about 32 KB
 * out of line, as a blob file, and reading such a row costs a file's worth of work: measured on a list of 200
 * rows, the 61 KB data URLs of 320 px JPEGs cost ~300 ms (30 KB ones ~10x less). Most pictures fit at the first
 * quality; a busy one (fine rust, gravel) is made again at a lower quality, then smaller.
 */
export const MAX_THUMB_CHARS = 28_000;
/** Qualities tried in turn, then the same at a smaller side, until the thumbnail fits MAX_THUMB_CHARS. */
export const THUMB_QUALITIES = [0.8, 0.6, 0.4, 0.25];
/** The server takes a thumbnail of at most 96 KB with a picture (checked before sending: base64 is 4/3 of it). */
const MAX_SENT_THUMB_BASE64 = Math.floor((96 * 1024 * 4) / 3);
const JPEG_DATA_URL = 'data:image/jpeg;base64,';

/**
 * A small JPEG of the picture for lists (200 full PNGs in a list would read and decode megabytes each), as a data
 * URL of at most MAX_THUMB_CHARS, at most THUMB_SIDE px on its longest side. Browser only; where the browser
 * cannot decode it (tests in node) the answer is undefined and the list asks the server for one.
 */
export async function makeThumbnail(picture: Blob, side = THUMB_SIDE): Promise<string | undefined> {
  if (typeof createImageBitmap !== 'function' || typeof document === 'undefined') return undefined;
  try {
    const bitmap = await createImageBitmap(picture);
    const canvas = document.createElement('canvas');
    const context = canvas.getContext('2d');
    if (!context) return undefined;
    let thumb: string | undefined;
    for (let longest = side; longest >= side / 4; longest /= 2) {
      const scale = Math.min(1, longest / Math.max(bitmap.width, bitmap.height));
      canvas.width = Math.max(1, Math.round(bitmap.width * scale));
      canvas.height = Math.max(1, Math.round(bitmap.height * scale));
      context.fillStyle = '#fff'; // a JPEG has no transparency: transparent parts show white, as on the server
      context.fillRect(0, 0, canvas.width, canvas.height);
      context.imageSmoothingQuality = 'high';
      context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
      for (const quality of THUMB_QUALITIES) {
        thumb = canvas.toDataURL('image/jpeg', quality);
        if (thumb.length <= MAX_THUMB_CHARS) break;
      }
      if (thumb && thumb.length <= MAX_THUMB_CHARS) break;
    }
    bitmap.close();
    return thumb;
  } catch {
    return undefined;
  }
}

const pngBlob = (bytes: Uint8Array) => new Blob([bytes as BlobPart], { type: 'image/png' });

/**
 * The full picture as a Blob: kept on the device as a Blob (rows stored before as base64 text too), or fetched
 * from the server (GET assets/{id}) for a picture of another device, and then kept. Throws when it is on neither.
 */
export async function fullPicture(db: VersDb, image: LocalImage): Promise<Blob> {
  if (image.data instanceof Blob) return image.data;
  if (typeof image.data === 'string') return pngBlob(fromBase64(image.data));
  const asset = await call(`assets/${image.assetId ?? image.imageId}`, assetWithDataSchema, IMAGE_CALL);
  const data = pngBlob(fromBase64(asset.base64));
  await db.orderImages.update(image.imageId, { data });
  return data;
}

/** The picture for the upload as a Blob (rows kept as base64 text before too); undefined when the device lacks it. */
function pictureBlob(image: LocalImage): Blob | undefined {
  if (image.data === undefined || image.data instanceof Blob) return image.data;
  return pngBlob(fromBase64(image.data));
}

/** The thumbnail sent with a picture: a JPEG the device made, when it is within the server's limit. */
function sentThumbnail(image: LocalImage): Blob | undefined {
  if (!image.thumb?.startsWith(JPEG_DATA_URL)) return undefined;
  const base64 = image.thumb.slice(JPEG_DATA_URL.length);
  if (base64.length > MAX_SENT_THUMB_BASE64) return undefined;
  return new Blob([fromBase64(base64) as BlobPart], { type: 'image/jpeg' });
}

/**
 * POST assets/upload's form (the JSON POST assets as multipart/form-data): the picture goes as the Blob the device
 * keeps, which the browser sends from its storage; base64 and JSON text of it would be built in the page's memory,
 * about 4 MB for each picture of 1 MB.
 */
function uploadForm(image: LocalImage, picture: Blob): FormData {
  const form = new FormData();
  const fields: Record<string, string | undefined> = {
    id: image.imageId,
    type: ASSET_TYPES.PICTURE,
    filename: image.name,
    size: String(image.size),
    orderId: image.orderId,
    created: image.capturedDate,
    creator: image.creator || undefined,
  };
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) form.append(name, value);
  form.append(ASSET_FORM_FILES.file, picture, image.name);
  const thumbnail = sentThumbnail(image);
  if (thumbnail) form.append(ASSET_FORM_FILES.thumbnail, thumbnail, 'thumbnail.jpg');
  return form;
}

/** A thumbnail for the list from the server (GET assets/thumbnail/{id}), as a data URL. */
async function serverThumbnail(id: string): Promise<string> {
  const thumbnail = await call(`assets/thumbnail/${id}`, assetThumbnailSchema, IMAGE_CALL);
  return `data:${thumbnail.mime};base64,${thumbnail.base64}`;
}

/** Rows put in order per transaction: the list's live query reads the order's rows again after each. */
const TIDY_BATCH = 10;

/**
 * Brings pictures kept the older way into the current one: the picture as a Blob instead of base64 text (a list
 * reads a row's Blob as a reference; text it reads whole), and a thumbnail where there is none (made here, or
 * asked of the server for a picture the device does not hold) or where it is larger than MAX_THUMB_CHARS and the
 * picture is here to make it again. Answers how many rows changed. Offline, a
 * picture without a thumbnail stays so until the next time.
 */
export async function tidyImages(db: VersDb, imageIds: string[]): Promise<number> {
  let changed = 0;
  for (let at = 0; at < imageIds.length; at += TIDY_BATCH) {
    const updates: { key: string; changes: Partial<LocalImage> }[] = [];
    for (const imageId of imageIds.slice(at, at + TIDY_BATCH)) {
      const image = await db.orderImages.get(imageId);
      if (!image) continue;
      const changes: Partial<LocalImage> = {};
      const data = typeof image.data === 'string' ? pngBlob(fromBase64(image.data)) : image.data;
      if (data !== image.data) changes.data = data;
      if (!image.thumb || (data && image.thumb.length > MAX_THUMB_CHARS)) {
        let thumb = data ? await makeThumbnail(data) : undefined;
        if (!thumb && !image.thumb && image.sent === 1)
          thumb = await serverThumbnail(image.assetId ?? imageId).catch(() => undefined);
        if (thumb && thumb !== image.thumb) changes.thumb = thumb;
      }
      if (Object.keys(changes).length > 0) updates.push({ key: imageId, changes });
    }
    if (updates.length > 0) await db.orderImages.bulkUpdate(updates);
    changed += updates.length;
  }
  return changed;
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
  const data = pngBlob(image.bytes);
  const thumb = await makeThumbnail(data);
  const row: LocalImage = {
    imageId: newUuid(),
    orderId: image.orderId,
    tabName: image.tabName,
    name: image.name ?? `${image.tabName}-${now.toISOString().replace(/[:.]/g, '-')}.png`,
    data,
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
 * Uploads the user's unsent pictures (POST assets/upload: POST assets as a form, the picture as the Blob the
 * device keeps; type PICTURE) and marks each sent with the server's id. The
 * id is the picture's own, so a retry after a lost answer stores nothing twice. A refusal for good (400, 413) is
 * kept beside the picture; a picture of an order not yet on the server waits for it.
 */
export async function sendImages(db: VersDb): Promise<ImagesSendResult> {
  const result: ImagesSendResult = { sent: 0, refused: 0 };
  // One row at a time, and its picture never read into the page: the browser sends the Blob from its storage.
  const waiting = await db.orderImages.where('sent').equals(0).primaryKeys();
  for (const imageId of waiting) {
    const image = await db.orderImages.get(imageId);
    if (!image || image.sent !== 0 || image.toBeDeleted || image.refusal || !isOwnWork(image)) continue;
    if ((await db.orders.get(image.orderId))?.sent === 0) continue;
    const picture = pictureBlob(image);
    if (picture === undefined) continue; // another device's picture: that device holds it
    try {
      const asset = await call('assets/upload', assetSchema, {
        method: 'POST',
        form: uploadForm(image, picture),
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
 * never dropped; and pictures from other devices are listed with their thumbnails (the full picture comes when
 * one is opened large). Offline it does nothing: the device's pictures stay as
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
    } else if (fate === 'lost' && image.data !== undefined) {
      // Uploaded again by the next exchange, under its own id (the browser's). A picture of another device that
      // this one never opened large is not here to upload: its own device heals it.
      await db.orderImages.update(image.imageId, { sent: 0 });
      outcome.resent += 1;
    }
  }
  for (const asset of listed) {
    if (known.has(asset.id)) continue;
    try {
      // The thumbnail only: the full picture is fetched when it is opened large (fullPicture).
      const thumb = await serverThumbnail(asset.id);
      await db.orderImages.put({
        imageId: asset.id,
        orderId,
        tabName: '',
        name: asset.filename,
        thumb,
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

/**
 * The order's pictures on this device, newest first, without those waiting to be deleted: in the order of the
 * capture-date index, as the list's first screen reads them (picturesFirstScreen).
 */
export async function devicePictures(db: VersDb, orderId: string): Promise<LocalImage[]> {
  const oldestFirst = await db.orderImages
    .where(BY_CAPTURE_DATE)
    .between(...orderPicturesRange(orderId))
    .toArray();
  return oldestFirst.reverse().filter((image) => !image.toBeDeleted);
}
