import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readVehicleNumber, vehicleNumberCandidates } from './vehicle-number-reading.ts';
import { checkDigit, formatVehicleNumber } from './vehicle-number.ts';

/** The worked examples of domain-notes: 21 81 2471 217-3 and 51 80 0843 001-0. */
const WAGON = '218124712173';
const OTHER = '518008430010';
/** WAGON with its check digit one off: 12 digits, none valid. */
const WRONG = '218124712174';

describe('vehicleNumberCandidates', () => {
  it('reads the printed layouts: spaced with hyphen, spaced without, digits only, hyphen before the check digit', () => {
    for (const text of ['21 81 2471 217-3', '21 81 2471 217 3', '218124712173', '21812471217-3', '2181 2471 2173']) {
      expect(vehicleNumberCandidates(text), text).toEqual({ valid: [WAGON], wrongCheckDigit: 0 });
    }
  });

  it('reads a number split over two lines, also with empty lines and noise around', () => {
    expect(vehicleNumberCandidates('21 81\n2471 217-3').valid).toEqual([WAGON]);
    expect(vehicleNumberCandidates('21 81 2471\n217-3').valid).toEqual([WAGON]);
    expect(vehicleNumberCandidates('\n21 81\n\n2471 217-3\n').valid).toEqual([WAGON]);
    expect(vehicleNumberCandidates('RIV  21 81 2471 217-3 ..\nD-GATX').valid).toEqual([WAGON]);
  });

  it('accepts the typographic hyphens OCR and fonts write', () => {
    expect(vehicleNumberCandidates('21 81 2471 217\u20133').valid).toEqual([WAGON]);
    expect(vehicleNumberCandidates('21 81 2471 217\u22123').valid).toEqual([WAGON]);
  });

  it('refuses a wrong check digit and counts it', () => {
    expect(vehicleNumberCandidates('21 81 2471 217-4')).toEqual({ valid: [], wrongCheckDigit: 1 });
  });

  it('never mends letters into digits: a letter breaks the number', () => {
    expect(vehicleNumberCandidates('21 81 247l 217-3')).toEqual({ valid: [], wrongCheckDigit: 0 });
    expect(vehicleNumberCandidates('2I 81 2471 217-3').valid).toEqual([]);
    expect(vehicleNumberCandidates('21 81 2471 2l7-3').valid).toEqual([]);
  });

  it('takes only whole groups that end where the printed form is split (2, 4, 8, 11 digits)', () => {
    // A space inside a group: more likely misread than right.
    expect(vehicleNumberCandidates('21 81 24 71 217-3').valid).toEqual([]);
    expect(vehicleNumberCandidates('218 12471 2173').valid).toEqual([]);
    // A digit glued to the number is not dropped.
    expect(vehicleNumberCandidates('921 81 2471 217-3').valid).toEqual([]);
    // A hyphen anywhere but before the check digit breaks the number.
    expect(vehicleNumberCandidates('21-81 2471 217 3').valid).toEqual([]);
    expect(vehicleNumberCandidates('21 81 2471 21-73').valid).toEqual([]);
  });

  it('refuses a number followed by more digits on its line (an extra digit read into it)', () => {
    // Groups 2-2-4-4 add up to 12 digits, but the check digit after the hyphen shows one digit too many.
    expect(vehicleNumberCandidates('21 81 2471 2173-5').valid).toEqual([]);
    expect(vehicleNumberCandidates('21 81 2471 2173-5')).toEqual({ valid: [], wrongCheckDigit: 0 });
    expect(vehicleNumberCandidates('21 81 2471 217-3 5').valid).toEqual([]);
  });

  it('takes a number after foreign digits on its line, where the layout keeps the two apart', () => {
    expect(vehicleNumberCandidates('7 21 81 2471 217-3').valid).toEqual([WAGON]);
  });

  it('does not join more than two lines', () => {
    expect(vehicleNumberCandidates('21\n81\n2471 217-3').valid).toEqual([]);
  });

  it('finds every valid number of a text, each once', () => {
    expect(vehicleNumberCandidates(`21 81 2471 217-3\n${formatVehicleNumber(OTHER)}\n${WAGON}`).valid).toEqual([
      WAGON,
      OTHER,
    ]);
  });

  it('reads what a barcode or QR code carries: the digits alone or inside a link', () => {
    expect(vehicleNumberCandidates(WAGON).valid).toEqual([WAGON]);
    expect(vehicleNumberCandidates(`https://example.org/wagon/${WAGON}`).valid).toEqual([WAGON]);
  });

  it('reads every valid number in its printed form, spaced or not, on one line or two', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 11, maxLength: 11 }),
        fc.constantFrom('printed', 'plain', 'twoLines'),
        (first11, layout) => {
          const digits = `${first11}${checkDigit(first11)}`;
          const printed = formatVehicleNumber(digits);
          const text =
            layout === 'printed'
              ? printed
              : layout === 'plain'
                ? digits
                : `${printed.slice(0, 5)}\n${printed.slice(6)}`;
          expect(vehicleNumberCandidates(text).valid).toEqual([digits]);
        },
      ),
    );
  });

  it('refuses every single wrong digit of a valid number (the check digit catches it)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 11, maxLength: 11 }),
        fc.integer({ min: 0, max: 11 }),
        fc.integer({ min: 1, max: 9 }),
        (first11, position, shift) => {
          const digits = [...`${first11}${checkDigit(first11)}`];
          digits[position] = String((Number(digits[position]) + shift) % 10);
          expect(vehicleNumberCandidates(formatVehicleNumber(digits.join(''))).valid).toEqual([]);
        },
      ),
    );
  });
});

describe('readVehicleNumber', () => {
  it('gives the one number the readings of a frame agree on', () => {
    expect(readVehicleNumber(['21 81 2471 217-3', '', 'noise 12', WAGON])).toEqual({ ok: true, digits: WAGON });
  });

  it('refuses two different valid numbers rather than guess', () => {
    expect(readVehicleNumber([`${formatVehicleNumber(WAGON)}\n${formatVehicleNumber(OTHER)}`])).toEqual({
      ok: false,
      reason: 'ambiguous',
    });
    expect(readVehicleNumber([WAGON, OTHER])).toEqual({ ok: false, reason: 'ambiguous' });
  });

  it('says whether 12 digits were seen with a wrong check digit, or no number at all', () => {
    expect(readVehicleNumber([formatVehicleNumber(WRONG)])).toEqual({ ok: false, reason: 'checkDigit' });
    expect(readVehicleNumber(['21 81 2471', '', 'ABC'])).toEqual({ ok: false, reason: 'noNumber' });
    expect(readVehicleNumber([])).toEqual({ ok: false, reason: 'noNumber' });
  });

  it('lets a valid reading win over a wrong one of another pass (the check digit tells them apart)', () => {
    expect(readVehicleNumber([formatVehicleNumber(WRONG), formatVehicleNumber(WAGON)])).toEqual({
      ok: true,
      digits: WAGON,
    });
  });
});
