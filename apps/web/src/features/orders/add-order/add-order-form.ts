import {
  type CreateOrderRequest,
  type Language,
  type Order,
  type OrderType,
  ORDER_TYPES,
  WHEELSETS_PER_WAGON,
  byText,
  earlierSameNumbers,
  orderSchema,
  validateVehicleNumber,
} from '@vers/domain';
import { vehicleNumberMessageKey } from '../vehicle-number-message.ts';
import { ApiFailure, call } from '../../../app/api.ts';
import { createOrderLocally } from '../../../offline/local-orders.ts';
import type { VersDb } from '../../../offline/versdb.ts';
import { IDLE, type ImportState, assetIdOf, wheelsetNumbersOf } from '../xml-import.ts';

/**
 * The add-order form (docs/requirements/orders.md#add-order) without React: its state, every change the screen makes
 * to it as a function from one state to the next, the creation payload it sends, and the save with its offline
 * fallback. The screen's hook (useAddOrderForm.ts) holds the state and runs the imports; the tests drive these alike.
 */

/** Room for a pasted number with spaces and hyphen ("21 81 2471 217-3" is 16 characters). */
export const NUMBER_MAX_LENGTH = 24;
export const EXTERNAL_MAX_LENGTH = 100;

/** A field the server can name in a refusal: the main number, one wheelset row, or another field. */
export type FieldKey = 'number' | 'contractor' | 'external' | `wheelset-${number}`;

export interface NumberField {
  value: string;
  /** The check on leaving the field failed; cleared while the user types again. */
  wrong: boolean;
}

export interface WheelsetRow extends NumberField {
  /** Stable React key: rows can be removed from the middle. */
  key: number;
  /** The row's XML template import; a VALID one's asset id is sent with the order. */
  template: ImportState;
}

/** A contractor of the list `ListAuftraggeber`: the value sent, the text shown. */
export interface ContractorOption {
  value: string;
  text: string;
}

export interface AddOrderForm {
  type: OrderType;
  number: NumberField;
  contractor: ContractorOption | null;
  external: string;
  /** The outgoing wheelsets of a wagon order (docs/requirements/validation.md#wheelsets-per-wagon). */
  wheelsets: readonly WheelsetRow[];
  /**
   * The vehicle's XML template import: a VALID one's incoming values are the order's start
   * (docs/requirements/orders.md#xml-template-import).
   */
  vehicleTemplate: ImportState;
  /** The fields the server refused on the last save, with the message key to show; cleared when changed. */
  refused: ReadonlyMap<FieldKey, string>;
  /** The key the next new row gets. */
  nextKey: number;
}

export const wheelsetKey = (index: number): FieldKey => `wheelset-${index}`;

/** The field a server path such as `body.wagon.wheelsetsOutgoing.1.number` names. */
export function fieldOf(path: string): FieldKey | null {
  const wheelset = /^body\.wagon\.wheelsetsOutgoing\.(\d+)/.exec(path);
  if (wheelset) return wheelsetKey(Number(wheelset[1]));
  if (/^body\.(maintenanceNumber|wagon\.number|wheelset\.number)/.test(path)) return 'number';
  if (path.startsWith('body.contractor')) return 'contractor';
  if (path.startsWith('body.externalOrderNumber')) return 'external';
  return null;
}

/**
 * Leaving a number field (docs/requirements/validation.md#vehicle-number): a correct number is rewritten in its
 * printed form, a wrong one is marked.
 */
export function checked(value: string): NumberField {
  const result = validateVehicleNumber(value);
  return result.ok ? { value: result.formatted, wrong: false } : { value, wrong: true };
}

export const isValidNumber = (value: string) => validateVehicleNumber(value).ok;

/** The 12 digits of a valid number, else the value as typed (the server then names the field). */
export function digitsOf(value: string): string {
  const result = validateVehicleNumber(value);
  return result.ok ? result.digits : value;
}

/**
 * The message key under a number field, if any: the failed check on leaving it, else the server's refusal. The
 * screen shows the field's hint where there is none.
 */
export function numberMessageKey(field: NumberField, mark: string | undefined): string | undefined {
  return field.wrong ? vehicleNumberMessageKey(field.value) : mark;
}

/** The contractors to pick from, sorted by their text in the user's language. */
export function contractorOptionsOf(
  values: readonly { value: string; text: string }[] | undefined,
  language: Language,
): ContractorOption[] {
  return (values ?? []).map((v) => ({ value: v.value, text: v.text })).sort((a, b) => byText(language)(a.text, b.text));
}

function newRow(key: number, value = ''): WheelsetRow {
  return { ...checked(value), key, template: IDLE };
}

/** An empty wagon order with its default number of wheelset rows. */
export function newForm(): AddOrderForm {
  return {
    type: ORDER_TYPES.WAGON,
    number: { value: '', wrong: false },
    contractor: null,
    external: '',
    wheelsets: Array.from({ length: WHEELSETS_PER_WAGON.default }, (_, key) => newRow(key)),
    vehicleTemplate: IDLE,
    refused: new Map(),
    nextKey: WHEELSETS_PER_WAGON.default,
  };
}

/** The form without the server's marks on `keys`; the same form when it had none of them. */
export function unrefused(form: AddOrderForm, ...keys: FieldKey[]): AddOrderForm {
  if (!keys.some((key) => form.refused.has(key))) return form;
  return { ...form, refused: new Map([...form.refused].filter(([key]) => !keys.includes(key))) };
}

/** Rows move when one is added or removed: a server mark on a row index no longer names the same row. */
function rowsUnrefused(form: AddOrderForm): AddOrderForm {
  return { ...form, refused: new Map([...form.refused].filter(([key]) => !key.startsWith('wheelset-'))) };
}

/** Another order type: a template is for one order type, so the vehicle's is dropped. */
export function withType(form: AddOrderForm, type: OrderType): AddOrderForm {
  return type === form.type ? form : { ...form, type, vehicleTemplate: IDLE };
}

/** The main number as typed. */
export function withNumber(form: AddOrderForm, value: string): AddOrderForm {
  return unrefused({ ...form, number: { value, wrong: false } }, 'number');
}

/** The main number checked on leaving the field. */
export function withNumberChecked(form: AddOrderForm): AddOrderForm {
  return { ...form, number: checked(form.number.value) };
}

export function withContractor(form: AddOrderForm, contractor: ContractorOption | null): AddOrderForm {
  return unrefused({ ...form, contractor }, 'contractor');
}

export function withExternal(form: AddOrderForm, external: string): AddOrderForm {
  return unrefused({ ...form, external }, 'external');
}

function changeRow(form: AddOrderForm, index: number, change: (row: WheelsetRow) => WheelsetRow): AddOrderForm {
  return { ...form, wheelsets: form.wheelsets.map((row, i) => (i === index ? change(row) : row)) };
}

/** A wheelset row's number as typed. */
export function withRowNumber(form: AddOrderForm, index: number, value: string): AddOrderForm {
  return unrefused(
    changeRow(form, index, (row) => ({ ...row, value, wrong: false })),
    wheelsetKey(index),
  );
}

/** A wheelset row's number checked on leaving the field. */
export function withRowChecked(form: AddOrderForm, index: number): AddOrderForm {
  return changeRow(form, index, (row) => ({ ...row, ...checked(row.value) }));
}

/** One more empty row (the screen offers it below the maximum). */
export function withRowAdded(form: AddOrderForm): AddOrderForm {
  return rowsUnrefused({
    ...form,
    wheelsets: [...form.wheelsets, newRow(form.nextKey)],
    nextKey: form.nextKey + 1,
  });
}

/** Without the row at `index` (the screen offers it above the minimum). */
export function withRowRemoved(form: AddOrderForm, index: number): AddOrderForm {
  return rowsUnrefused({ ...form, wheelsets: form.wheelsets.filter((_, i) => i !== index) });
}

/**
 * The vehicle's template in the state `state`. VALID sets the number and, for a wagon (`wagon`: the order type when
 * the file was picked) whose template has wheelsets, replaces the outgoing wheelset list with one row per wheelset of
 * the file (docs/requirements/orders.md#xml-template-import). A number changed by hand afterwards keeps the template
 * (the typed number wins on the server) and its check mark; only another file or another order type drops it.
 */
export function withVehicleTemplate(form: AddOrderForm, state: ImportState, wagon: boolean): AddOrderForm {
  let next: AddOrderForm = { ...form, vehicleTemplate: state };
  if (state.kind !== 'valid') return next;
  if (state.number) next = unrefused({ ...next, number: checked(state.number) }, 'number');
  if (wagon && state.subNumbers.length > 0) {
    const numbers = wheelsetNumbersOf(state.subNumbers, WHEELSETS_PER_WAGON);
    const first = next.nextKey;
    const wheelsets = numbers.map((digits, i) => newRow(first + i, digits));
    next = rowsUnrefused({ ...next, wheelsets, nextKey: first + numbers.length });
  }
  return next;
}

/**
 * A wheelset row's template in the state `state`: VALID sets the row's number; the row keeps the asset id as the
 * vehicle does. An import answers late: by then rows may have moved, so its row is found by its key.
 */
export function withRowTemplate(form: AddOrderForm, rowKey: number, state: ImportState): AddOrderForm {
  const index = form.wheelsets.findIndex((row) => row.key === rowKey);
  if (index < 0) return form;
  const numbered = state.kind === 'valid' && state.number;
  const next = changeRow(form, index, (row) => ({ ...row, ...(numbered ? checked(numbered) : {}), template: state }));
  // A server mark on the row was about its old number.
  return numbered ? unrefused(next, wheelsetKey(index)) : next;
}

/** A refused save: a 400's marks replace those of the save before; other refusals name no field. */
export function withRefusal(form: AddOrderForm, failure: ApiFailure): AddOrderForm {
  return failure.status === 400 ? { ...form, refused: marksFrom(failure) } : form;
}

const isWagon = (form: AddOrderForm) => form.type === ORDER_TYPES.WAGON;

/** A template still being checked would be lost by a save now. */
export function isImporting(form: AddOrderForm): boolean {
  return (
    form.vehicleTemplate.kind === 'busy' ||
    (isWagon(form) && form.wheelsets.some((row) => row.template.kind === 'busy'))
  );
}

/**
 * Nothing to save yet: the number is missing or wrong, a wagon's wheelset number is wrong or given twice, or a field
 * the server refused is unchanged (the rows' marks only count for a wagon, the rows are not sent otherwise).
 */
export function isFormInvalid(form: AddOrderForm): boolean {
  const wagon = isWagon(form);
  return (
    form.number.value.trim() === '' ||
    !isValidNumber(form.number.value) ||
    (wagon && form.wheelsets.some((row) => !isValidNumber(row.value))) ||
    (wagon && earlierSameNumbers(form.wheelsets.map((row) => row.value)).some((earlier) => earlier >= 0)) ||
    [...form.refused.keys()].some((key) => wagon || !key.startsWith('wheelset-'))
  );
}

/**
 * The creation payload (docs/requirements/orders.md#order-creation-payload) with the form's order `id` (one per form:
 * a repeated save after a lost answer finds the order created first) and this device's id `dv`.
 */
export function orderRequest(form: AddOrderForm, ids: { id: string; dv: string }): CreateOrderRequest & { id: string } {
  const maintenanceNumber = digitsOf(form.number.value);
  const vehicleAsset = assetIdOf(form.vehicleTemplate);
  return {
    id: ids.id,
    dv: ids.dv,
    type: form.type,
    contractor: form.contractor?.value ?? '',
    externalOrderNumber: form.external.trim(),
    maintenanceNumber,
    ...(isWagon(form)
      ? {
          wagon: {
            number: maintenanceNumber,
            ...(vehicleAsset ? { assetId: vehicleAsset } : {}),
            wheelsetsOutgoing: form.wheelsets.map((row) => {
              const assetId = assetIdOf(row.template);
              return { number: digitsOf(row.value), ...(assetId ? { assetId } : {}) };
            }),
          },
        }
      : { wheelset: { number: maintenanceNumber, ...(vehicleAsset ? { assetId: vehicleAsset } : {}) } }),
  };
}

/**
 * Statuses this screen answers itself: no connection and the 5xx answers by keeping the order on the device, the
 * others with its message. 401, 403 and the rest keep the app's global reaction
 * (docs/requirements/administration.md#failed-calls).
 */
const HANDLED: readonly number[] = [0, 400, 404, 409, 413, 500, 502, 503, 504];

/** The server's marks on the fields a 400 names, with the message key each shows; none for other statuses. */
export function marksFrom(failure: ApiFailure): Map<FieldKey, string> {
  const marks = new Map<FieldKey, string>();
  if (failure.status !== 400) return marks;
  for (const path of failure.fields) {
    const field = fieldOf(path);
    if (field) marks.set(field, failure.code === 'CHECK_NUMBER' ? 'errors.CHECK_NUMBER' : 'orders.add.refused');
  }
  return marks;
}

/** The message of a refusal: the one of the server's code where the catalogue (`exists`) has it, else a general one. */
export function messageKeyOf(failure: ApiFailure, exists: (key: string) => boolean): string {
  const key = `errors.${failure.code}`;
  return exists(key) ? key : 'common.saveError';
}

/** What became of a save. */
export type SubmitOutcome =
  /** The server took the order. */
  | { kind: 'created'; order: Order }
  /** No network or a server fault: the order waits on this device (docs/requirements/sync.md#order-sync-flag). */
  | { kind: 'savedLocally'; order: Order }
  /** The screen says why: the server refused the order, or could not take it and neither could the device. */
  | { kind: 'refused'; failure: ApiFailure }
  /** A failure the app's global reaction has told the user of. */
  | { kind: 'reported'; failure: ApiFailure }
  /** Something else went wrong. */
  | { kind: 'failed'; error: unknown };

/**
 * Saves an order: `POST orders`; without a network or on a server fault (docs/requirements/sync.md#order-sync-flag)
 * the order is kept on this device with sync flag 0 and sent by the scheduler.
 */
export async function submitOrder(db: VersDb, request: CreateOrderRequest & { id: string }): Promise<SubmitOutcome> {
  try {
    const order = await call('orders', orderSchema, { method: 'POST', body: request, handles: HANDLED });
    return { kind: 'created', order };
  } catch (error) {
    if (error instanceof ApiFailure && (error.status === 0 || error.status >= 500)) {
      try {
        return { kind: 'savedLocally', order: await createOrderLocally(db, request) };
      } catch (local) {
        console.error('order not stored locally', local);
      }
    }
    if (!(error instanceof ApiFailure)) return { kind: 'failed', error };
    if (!HANDLED.includes(error.status)) return { kind: 'reported', failure: error };
    return { kind: 'refused', failure: error };
  }
}
