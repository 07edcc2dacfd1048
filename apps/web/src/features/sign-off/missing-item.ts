import { type OrderType, isOutgoingWheelsetNumberKey, resolveKey } from '@vers/domain';
import { fieldLabelKey } from '../orders/editor/labels.ts';

/**
 * A missing item of a release (an outgoing field key, as the sign-off and the documents answer them) as the editor
 * labels it; the key where none does. A module of its own: the documents screen says the same list without the sign-off
 * calls' code.
 */
export function missingItemLabel(type: OrderType, key: string, t: (key: string) => string): string {
  // A wheelset number is never a missing field of a release: it names a wheelset mounted at two positions.
  if (isOutgoingWheelsetNumberKey(key)) return t('signOff.wheelsetMountedTwice');
  const field = resolveKey(type, key)?.field;
  return field ? t(fieldLabelKey(field)) : key;
}
