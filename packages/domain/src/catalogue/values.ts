import { isValidDateText } from '../dates.ts';
import { normalizeNumericInput } from '../orders/numeric-input.ts';
import type { FieldDef } from './model.ts';

/**
 * What an activity stores for a field (docs/requirements/orders.md#attribute-value): the value, when it was captured
 * and, when the workshop keeps a protocol, who changed it. The unit is the catalogue's and is not repeated.
 */
export interface AttributeValue {
  value: string | boolean | string[];
  CaptureDate: string;
  LastModifier?: string;
}

export function attributeValue(value: AttributeValue['value'], capturedAt: Date, modifier?: string): AttributeValue {
  return modifier
    ? { value, CaptureDate: capturedAt.toISOString(), LastModifier: modifier }
    : { value, CaptureDate: capturedAt.toISOString() };
}

/** The value inside a stored attribute; a bare value (as an older client might send) is taken as it is. */
export function valueOf(stored: unknown): unknown {
  if (stored !== null && typeof stored === 'object' && !Array.isArray(stored) && 'value' in stored) {
    return (stored as { value: unknown }).value;
  }
  return stored;
}

export function isFilled(stored: unknown): boolean {
  const value = valueOf(stored);
  if (value === null || value === undefined) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

export const MAX_TEXT_LENGTH = { string: 200, baseString: 200, option: 200, textarea: 4000 } as const;

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const YEAR = /^(19|20|21)\d{2}$/;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

/** Why a value does not fit its field, as a short reason for the error message; null when it fits. */
export function valueProblem(field: FieldDef, value: unknown): string | null {
  switch (field.kind) {
    case 'string':
    case 'baseString':
    case 'option':
    case 'textarea':
      if (typeof value !== 'string') return 'text expected';
      if (field.choices && !field.choices.includes(value)) return `one of ${field.choices.join(', ')} expected`;
      return value.length > MAX_TEXT_LENGTH[field.kind] ? `at most ${MAX_TEXT_LENGTH[field.kind]} characters` : null;
    case 'multioption':
      return Array.isArray(value) && value.every((item) => typeof item === 'string' && item.length <= 200)
        ? null
        : 'list of texts expected';
    case 'boolean':
      return typeof value === 'boolean' ? null : 'true or false expected';
    case 'date':
      return typeof value === 'string' && isValidDateText(value) ? null : 'date YYYY-MM-DD expected';
    case 'monthAndYear':
      return typeof value === 'string' && MONTH.test(value) ? null : 'month YYYY-MM expected';
    case 'year':
      return typeof value === 'string' && YEAR.test(value) ? null : 'year YYYY expected';
    case 'double':
    case 'formula': {
      if (typeof value !== 'string') return 'number as text expected';
      const normalized = normalizeNumericInput(value, { negatable: field.negatable ?? false });
      if (!normalized.ok || normalized.value !== value || value === '') return 'number expected';
      const places = value.split('.')[1]?.length ?? 0;
      return field.decimals !== undefined && places > field.decimals ? `at most ${field.decimals} decimals` : null;
    }
  }
}

/** Why a stored attribute (parsed JSON) does not fit its field; null when it fits. */
export function attributeProblem(field: FieldDef, stored: unknown): string | null {
  if (stored === null || typeof stored !== 'object' || Array.isArray(stored) || !('value' in stored)) {
    return 'object with value expected';
  }
  const { CaptureDate, LastModifier } = stored as Partial<Record<string, unknown>>;
  if (CaptureDate !== undefined && (typeof CaptureDate !== 'string' || !ISO_INSTANT.test(CaptureDate))) {
    return 'CaptureDate must be an ISO UTC time';
  }
  if (LastModifier !== undefined && typeof LastModifier !== 'string') return 'LastModifier must be text';
  return valueProblem(field, (stored as { value: unknown }).value);
}
