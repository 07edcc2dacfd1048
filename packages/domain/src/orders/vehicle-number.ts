/**
 * Wagon and wheelset numbers (docs/requirements/validation.md#vehicle-number, domain-notes "EVN / UIC number"): 12
 * digits written `NN NN NNNN NNN-C`, the last one a Luhn-style check digit over the first 11.
 */

export const VEHICLE_NUMBER_LENGTH = 12;

export type VehicleNumberProblem = 'length' | 'characters' | 'checkDigit';

export type VehicleNumberResult =
  { ok: true; digits: string; formatted: string } | { ok: false; reason: VehicleNumberProblem };

/** Users type and paste numbers with the spaces and hyphen of the printed form; those carry no meaning. */
export function normalizeVehicleNumber(raw: string): string {
  return raw.replace(/[\s-]/g, '');
}

/**
 * Check digit of the first 11 digits: weights 2,1,2,1,… from the leftmost digit, the digits of each product
 * added (16 counts 1+6), check = (10 − sum mod 10) mod 10. Throws on anything but 11 digits because that is a
 * caller's bug, not a user's typo (users go through validateVehicleNumber).
 */
export function checkDigit(first11: string): number {
  if (!/^\d{11}$/.test(first11)) throw new RangeError(`checkDigit needs exactly 11 digits, got "${first11}"`);
  let sum = 0;
  for (let i = 0; i < first11.length; i++) {
    const product = (first11.charCodeAt(i) - 48) * (i % 2 === 0 ? 2 : 1);
    // A product is at most 18, so its digit sum is product − 9 when it has two digits.
    sum += product > 9 ? product - 9 : product;
  }
  return (10 - (sum % 10)) % 10;
}

/** `NN NN NNNN NNN-C`. Anything that is not 12 digits is returned unchanged: a display helper must not throw. */
export function formatVehicleNumber(digits12: string): string {
  if (!/^\d{12}$/.test(digits12)) return digits12;
  return `${digits12.slice(0, 2)} ${digits12.slice(2, 4)} ${digits12.slice(4, 8)} ${digits12.slice(8, 11)}-${digits12.slice(11)}`;
}

/**
 * The on-blur check in docs/requirements/validation.md#vehicle-number. An empty value is valid (whether the field is
 * required is a separate rule). Foreign characters are reported before a wrong length because they are the more useful
 * hint.
 */
export function validateVehicleNumber(raw: string): VehicleNumberResult {
  const digits = normalizeVehicleNumber(raw);
  if (digits === '') return { ok: true, digits: '', formatted: '' };
  if (!/^\d+$/.test(digits)) return { ok: false, reason: 'characters' };
  if (digits.length !== VEHICLE_NUMBER_LENGTH) return { ok: false, reason: 'length' };
  if (checkDigit(digits.slice(0, 11)) !== Number(digits.slice(11))) return { ok: false, reason: 'checkDigit' };
  return { ok: true, digits, formatted: formatVehicleNumber(digits) };
}

export function isValidVehicleNumber(raw: string): boolean {
  return validateVehicleNumber(raw).ok;
}

/**
 * For each number of a list (a new wagon's outgoing wheelsets), the index of an earlier one that is the same vehicle
 * number, else -1: one wheelset is not mounted at two positions of a wagon. Numbers are compared by their digits, so
 * "43 80 1234 567-1" and "438012345671" are the same; an empty one (a wheelset not known yet) repeats nothing,
 * and a number that is not valid is left to its own check.
 */
export function earlierSameNumbers(numbers: readonly string[]): number[] {
  const first = new Map<string, number>();
  return numbers.map((raw, index) => {
    const result = validateVehicleNumber(raw);
    if (!result.ok || result.digits === '') return -1;
    const earlier = first.get(result.digits);
    if (earlier !== undefined) return earlier;
    first.set(result.digits, index);
    return -1;
  });
}
