import { validateVehicleNumber } from '@vers/domain';

/**
 * The message key for a wagon or wheelset number that failed its check, naming what is wrong: foreign characters, a
 * length other than 12 digits (a 10- or 13-digit number is not a check-digit error), or the check digit itself.
 */
export function vehicleNumberMessageKey(raw: string): string {
  const result = validateVehicleNumber(raw);
  if (result.ok) return 'errors.CHECK_NUMBER';
  return result.reason === 'characters'
    ? 'errors.NUMBER_CHARACTERS'
    : result.reason === 'length'
      ? 'errors.NUMBER_LENGTH'
      : 'errors.CHECK_NUMBER';
}
