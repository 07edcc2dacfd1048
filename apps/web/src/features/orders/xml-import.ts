import {
  ASSET_TYPES,
  type ImportMessageKey,
  type ImportValidation,
  type OrderType,
  VALIDATION_POLL_MS,
  assetSchema,
  importValidationSchema,
} from '@vers/domain';
import { ApiFailure, call } from '../../app/api.ts';
import { toBase64 } from '../../offline/images.ts';

/** What the add-order screen learns from an imported template. */
export type ImportOutcome =
  | { status: 'VALID'; assetId: string; number: string; subNumbers: string[] }
  | { status: 'INVALID'; messageKey: ImportMessageKey | null; message: string | null }
  /** The upload or a poll failed: `errorKey` is the catalogue key of what to say. */
  | { status: 'FAILED'; errorKey: string };

export interface ImportDeps {
  /** The API call; tests drive a fake. */
  request: typeof call;
  /** Waits between polls; tests pass a fake clock. */
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  newId: () => string;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    });
  });

const defaults: ImportDeps = { request: call, sleep, newId: () => crypto.randomUUID() };

/** Statuses the add-order screen says itself (401/403 keep the app's global reaction). */
const HANDLED = [0, 400, 404, 409, 413, 500, 502, 503, 504];

function failureKey(error: unknown): string {
  if (!(error instanceof ApiFailure)) return 'orders.import.failed';
  if (error.status === 0 || error.status >= 502) return 'errors.offline';
  if (error.status === 413) return 'orders.import.TOO_LARGE';
  return 'orders.import.failed';
}

/**
 * Uploads an XML template (`POST assets`, type IMPORT) and asks for its check every 2 s while it is IN_VALIDATION
 * (orders §2 "Add order"), as a template for an order of `orderType`. Stops when `signal` aborts (the row went).
 */
export async function importTemplate(
  file: { name: string; size: number; arrayBuffer(): Promise<ArrayBuffer> },
  orderType: OrderType,
  signal: AbortSignal,
  deps: ImportDeps = defaults,
): Promise<ImportOutcome> {
  const id = deps.newId();
  try {
    const bytes = new Uint8Array(await file.arrayBuffer());
    await deps.request('assets', assetSchema, {
      method: 'POST',
      body: { id, type: ASSET_TYPES.IMPORT, filename: file.name, base64: toBase64(bytes), size: bytes.length },
      handles: HANDLED,
    });
    for (;;) {
      signal.throwIfAborted();
      const result: ImportValidation = await deps.request(
        `assets/validation-result/${id}/${orderType}`,
        importValidationSchema,
        { handles: HANDLED },
      );
      if (result.validationStatus === 'VALID') {
        return { status: 'VALID', assetId: id, number: result.number ?? '', subNumbers: result.subNumbers };
      }
      if (result.validationStatus === 'INVALID') {
        return { status: 'INVALID', messageKey: result.messageKey, message: result.message };
      }
      await deps.sleep(VALIDATION_POLL_MS, signal);
    }
  } catch (error) {
    if (signal.aborted) throw error;
    return { status: 'FAILED', errorKey: failureKey(error) };
  }
}
