import {
  addDecimals,
  assertDecimalPlaces,
  decimalFromNumber,
  decimalToNumber,
  roundDecimal,
  shiftDecimal,
  subtractDecimals,
} from './decimal.ts';

/** Decimal places of SrMass (docs/requirements/validation.md#calculations). */
export const SR_MASS_DECIMALS = 3;
/** Shrink interference fit is shown in µm from diameters in mm (docs/requirements/validation.md#calculations). */
export const SHRINK_FIT_FACTOR_POWER = 3;

export type CalculationResult = { ok: true; value: number } | { ok: false; missing: string[] };

type Input = number | null | undefined;

/**
 * Parameters that are absent or not finite, by internal name (for tests and logs). The editor's warning names the
 * missing inputs by their field labels (catalogue/calculation-groups.ts) and never shows these names.
 */
function missingParameters(parameters: Record<string, Input>): string[] {
  return Object.entries(parameters)
    .filter(([, value]) => typeof value !== 'number' || !Number.isFinite(value))
    .map(([name]) => name);
}

/**
 * Front-to-front dimension SR = AR + Sd(left wheel) + Sd(right wheel), 3 decimals
 * (docs/requirements/validation.md#calculations, domain-notes). Added as exact decimals so 1360 + 32.5 + 31.8
 * is 1424.3, not 1424.3000000000002.
 */
export function srMass(ar: Input, sdLeft: Input, sdRight: Input): CalculationResult {
  const missing = missingParameters({ ArDimension: ar, SdLeft: sdLeft, SdRight: sdRight });
  if (missing.length > 0) return { ok: false, missing };
  const sum = [ar, sdLeft, sdRight]
    .map((value) => decimalFromNumber(value as number))
    .reduce((total, value) => addDecimals(total, value));
  return { ok: true, value: decimalToNumber(roundDecimal(sum, SR_MASS_DECIMALS)) };
}

/** Shrink interference fit = 1000 × (axle stub bore − ring diameter), rounded half away from zero. */
export function shrinkFit(axleStubBore: Input, ringDiameter: Input, decimals: number): CalculationResult {
  assertDecimalPlaces(decimals);
  const missing = missingParameters({ AxleStubBore: axleStubBore, RingDiameter: ringDiameter });
  if (missing.length > 0) return { ok: false, missing };
  const difference = subtractDecimals(
    decimalFromNumber(axleStubBore as number),
    decimalFromNumber(ringDiameter as number),
  );
  const fit = shiftDecimal(difference, SHRINK_FIT_FACTOR_POWER);
  return { ok: true, value: decimalToNumber(roundDecimal(fit, decimals)) };
}
