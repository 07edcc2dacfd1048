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
import { toBase64 } from '../../app/base64.ts';

/**
 * The XML template import of the add-order screen (docs/requirements/orders.md#add-order,
 * docs/requirements/orders.md#asset-calls POST assets and GET assets/validation-result): upload the file as an IMPORT
 * asset, then ask for its check every {@link VALIDATION_POLL_MS} while it is IN_VALIDATION. No React here: the screen
 * and the tests drive it alike.
 */

/** What an import came to. */
export type ImportOutcome =
  | { status: 'VALID'; assetId: string; number: string; subNumbers: string[] }
  | { status: 'INVALID'; messageKey: ImportMessageKey | null; message: string | null }
  /** The upload or a check could not be done; `code` is the server's error code where there was one. */
  | { status: 'FAILED'; reason: FailureReason; code: string | null };

export type FailureReason = 'TOO_LARGE' | 'OFFLINE' | 'NOT_FOUND' | 'TIMEOUT' | 'ERROR';

/** What one import control shows: nothing yet, the spinner, the green check or the red alert with its reason. */
export type ImportState =
  | { kind: 'idle' }
  | { kind: 'busy'; filename: string }
  | { kind: 'valid'; filename: string; assetId: string; number: string; subNumbers: string[] }
  /** `messageKeys`: catalogue keys, the first one that exists is shown; `detail`: the server's own words. */
  | { kind: 'invalid'; filename: string; messageKeys: string[]; detail: string | null };

export const IDLE: ImportState = { kind: 'idle' };

/** A picked file (a `File` in the browser). */
export interface PickedFile {
  name: string;
  size: number;
  arrayBuffer(): Promise<ArrayBuffer>;
}

export interface ImportDeps {
  /** The API call (`call` of app/api.ts); tests pass a fake server. */
  request: typeof call;
  /** Waits `ms`, or rejects as soon as `signal` aborts; tests pass a fake clock. */
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  newId: () => string;
}

/** The server's limit for an import file (apps/server MAX_XML_BYTES, answered with 413): no need to send more. */
export const MAX_IMPORT_BYTES = 2 * 1024 * 1024;
/** A check that is still running after this many answers (2 minutes) is given up: the job is stuck. */
export const MAX_POLLS = 60;
/** Lost answers in a row tolerated while polling (a flaky workshop network): the check goes on on the server. */
export const POLL_RETRIES = 3;
/** Statuses the import says itself; 401, 403 and 502 keep the app's global reaction (login, snackbar). */
const HANDLES = [0, 400, 404, 409, 413, 500, 503, 504] as const;
const UPLOAD_TIMEOUT_MS = 120_000;
const POLL_TIMEOUT_MS = 30_000;

/** Waits with setTimeout, cut short by an abort. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** crypto.randomUUID exists only in secure contexts; a workshop tablet may reach the server by plain http. */
export function newUuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const defaults: ImportDeps = { request: call, sleep, newId: newUuid };

function failed(error: unknown): ImportOutcome {
  if (!(error instanceof ApiFailure)) return { status: 'FAILED', reason: 'ERROR', code: null };
  const reason: FailureReason =
    error.status === 0
      ? 'OFFLINE'
      : error.status === 413 || error.code === 'PAYLOAD_TOO_LARGE'
        ? 'TOO_LARGE'
        : error.status === 404
          ? 'NOT_FOUND'
          : 'ERROR';
  return { status: 'FAILED', reason, code: error.code };
}

/**
 * Uploads `file` as an import (`POST assets`, type IMPORT) and asks for its check as a template for an order of
 * `orderType` every 2 s while it is IN_VALIDATION. Rejects with the abort reason once `signal` aborts (another
 * file was picked, the row or the screen went): then nothing is to be shown.
 */
export async function importTemplate(
  file: PickedFile,
  orderType: OrderType,
  signal: AbortSignal,
  deps: ImportDeps = defaults,
): Promise<ImportOutcome> {
  signal.throwIfAborted();
  if (file.size > MAX_IMPORT_BYTES) return { status: 'FAILED', reason: 'TOO_LARGE', code: null };
  const id = deps.newId();
  try {
    const bytes = new Uint8Array(await file.arrayBuffer());
    signal.throwIfAborted();
    await deps.request('assets', assetSchema, {
      method: 'POST',
      body: { id, type: ASSET_TYPES.IMPORT, filename: file.name, base64: toBase64(bytes), size: bytes.length },
      handles: HANDLES,
      timeoutMs: UPLOAD_TIMEOUT_MS,
    });
    let lost = 0;
    for (let polls = 0; ;) {
      signal.throwIfAborted();
      let result: ImportValidation;
      try {
        result = await deps.request(`assets/validation-result/${id}/${orderType}`, importValidationSchema, {
          handles: HANDLES,
          timeoutMs: POLL_TIMEOUT_MS,
        });
        lost = 0;
      } catch (error) {
        if (!(error instanceof ApiFailure && error.status === 0) || ++lost > POLL_RETRIES) throw error;
        await deps.sleep(VALIDATION_POLL_MS, signal);
        continue;
      }
      signal.throwIfAborted();
      if (result.validationStatus === 'VALID') {
        return { status: 'VALID', assetId: id, number: result.number ?? '', subNumbers: result.subNumbers };
      }
      if (result.validationStatus === 'INVALID') {
        return { status: 'INVALID', messageKey: result.messageKey, message: result.message };
      }
      if (++polls >= MAX_POLLS) return { status: 'FAILED', reason: 'TIMEOUT', code: null };
      await deps.sleep(VALIDATION_POLL_MS, signal);
    }
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    return failed(error);
  }
}

/** The catalogue keys for what the control shows, the first one that exists wins. */
export function messageKeysOf(outcome: Exclude<ImportOutcome, { status: 'VALID' }>): string[] {
  if (outcome.status === 'INVALID') {
    return [outcome.messageKey ? `orders.import.${outcome.messageKey}` : 'orders.import.invalid'];
  }
  switch (outcome.reason) {
    case 'TOO_LARGE':
      return ['orders.import.TOO_LARGE'];
    case 'OFFLINE':
      return ['errors.offline'];
    case 'NOT_FOUND':
      return ['orders.import.notFound'];
    case 'TIMEOUT':
      return ['orders.import.timeout'];
    case 'ERROR':
      // As the screen says other errors: the message of the server's code, else a general one.
      return [...(outcome.code ? [`errors.${outcome.code}`] : []), 'orders.import.failed'];
  }
}

/** The control's state after an import of the file `filename`. */
export function stateOf(outcome: ImportOutcome, filename: string): ImportState {
  if (outcome.status === 'VALID') {
    const { assetId, number, subNumbers } = outcome;
    return { kind: 'valid', filename, assetId, number, subNumbers };
  }
  return {
    kind: 'invalid',
    filename,
    messageKeys: messageKeysOf(outcome),
    detail: outcome.status === 'INVALID' ? outcome.message : null,
  };
}

/** The asset id an order is sent with: only a template that passed its check. */
export const assetIdOf = (state: ImportState): string | undefined =>
  state.kind === 'valid' ? state.assetId : undefined;

/**
 * The outgoing wheelset numbers a wagon template gives: its sub-numbers within the limits of a wagon order (more
 * than `max` are cut off, fewer than `min` are filled up with empty rows).
 */
export function wheelsetNumbersOf(subNumbers: readonly string[], limits: { min: number; max: number }): string[] {
  const numbers = subNumbers.slice(0, limits.max);
  while (numbers.length < limits.min) numbers.push('');
  return numbers;
}
