/**
 * Finding a wagon or wheelset number in text read from a picture (OCR) or decoded from a barcode or QR code, for the
 * camera's "scan the number". The check digit is what tells a right reading from a wrong one, so this rule never
 * guesses: it takes only digits it was given, in a layout a painted or printed number has, and refuses when one
 * reading holds two different valid numbers.
 *
 * Why no OCR confusions (O→0, I/l→1, S→5, B→8) are mended here: the check digit (a Luhn check) catches every single
 * wrong digit, but two wrong digits pass it one time in ten. A substituted letter is a digit the reader was not sure
 * of; mending it turns "refused" into "maybe wrong". The OCR is told to read digits only (a whitelist), so a letter
 * in its text is noise, and a barcode's text is exact. A letter therefore ends a number like any other foreign mark.
 */
import { VEHICLE_NUMBER_LENGTH, checkDigit } from './vehicle-number.ts';

/**
 * Where the printed form `NN NN NNNN NNN-C` may be split: after the 2nd, 4th, 8th and 11th digit. A reading's groups
 * of digits (split by spaces or a line break) must end only there: a random run of noise digits rarely does, and a
 * number read with a space inside one of its groups is more likely misread than right.
 */
const LAYOUT_CUTS = new Set([2, 4, 8, 11]);

/** Characters between the groups of one number on one line: spaces (also the OCR's wide ones) and dots. */
const GAP = /^[ \t\u00a0\u2009.]+$/;
/** A hyphen as OCR and fonts write it. */
const HYPHENS = /[-\u2010\u2011\u2012\u2013\u2014\u2212]/g;

export interface VehicleNumberCandidates {
  /** The 12-digit numbers in a printed layout whose check digit is right, each once, in reading order. */
  valid: string[];
  /** How many 12-digit runs in a printed layout had a wrong check digit. */
  wrongCheckDigit: number;
}

interface Group {
  digits: string;
  /** Index of its line among the text's non-empty lines. */
  line: number;
  /** What stands before it on its line since the previous group ('' at the start of a line). */
  before: string;
  /** What stands after it on its line up to the next group ('' at the end of a line). */
  after: string;
}

/** The groups of digits of a text, with what separates them. Empty lines do not count as lines. */
function groupsOf(text: string): Group[] {
  const groups: Group[] = [];
  const lines = text
    .replace(HYPHENS, '-')
    .split(/\r\n|\r|\n/)
    .filter((line) => line.trim() !== '');
  lines.forEach((line, lineIndex) => {
    const parts = line.split(/(\d+)/);
    // parts alternate: separator, digits, separator, …, separator (split with a capture group).
    for (let i = 1; i < parts.length; i += 2) {
      groups.push({ digits: parts[i]!, line: lineIndex, before: parts[i - 1]!, after: parts[i + 1]! });
    }
  });
  return groups;
}

/**
 * Whether a group can follow the one before it within one number: a gap on the same line, a hyphen only before the
 * check digit, or the start of the next line with nothing foreign between (the two-line layout, `31 80` over
 * `6650 123-6`).
 */
function joins(previous: Group, next: Group, digitsSoFar: number): boolean {
  if (next.line !== previous.line) {
    return next.line === previous.line + 1 && previous.after.trim() === '' && next.before.trim() === '';
  }
  if (GAP.test(next.before)) return true;
  return next.before.trim() === '-' && digitsSoFar === VEHICLE_NUMBER_LENGTH - 1 && next.digits.length === 1;
}

/** Whether a group stands right after a number's last group as part of it: then the number has more digits. */
function continues(last: Group, next: Group | undefined): boolean {
  return !!next && next.line === last.line && (GAP.test(next.before) || next.before.trim() === '-');
}

/**
 * Every 12-digit run of whole groups in a printed layout: groups next to each other on a line or across one line
 * break, never cutting a group apart, and not followed on its line by more digits (`31 80 6650 1233-6` is a misread
 * with an extra digit, not the number 318066501233).
 */
export function vehicleNumberCandidates(text: string): VehicleNumberCandidates {
  const groups = groupsOf(text);
  const valid: string[] = [];
  let wrongCheckDigit = 0;
  for (let start = 0; start < groups.length; start++) {
    const first = groups[start]!;
    // Foreign digits before it on its line are allowed ("1 31 80 6650 123-6"): the layout cuts keep a number from
    // starting inside another one, and two valid numbers refuse the reading.
    let digits = first.digits;
    let last = first;
    let index = start + 1;
    while (digits.length < VEHICLE_NUMBER_LENGTH && LAYOUT_CUTS.has(digits.length)) {
      const next = groups[index];
      if (!next || next.line > first.line + 1 || !joins(last, next, digits.length)) break;
      digits += next.digits;
      last = next;
      index++;
    }
    if (digits.length !== VEHICLE_NUMBER_LENGTH || continues(last, groups[index])) continue;
    if (checkDigit(digits.slice(0, 11)) === Number(digits[11])) {
      if (!valid.includes(digits)) valid.push(digits);
    } else wrongCheckDigit++;
  }
  return { valid, wrongCheckDigit };
}

export type VehicleNumberReading =
  | { ok: true; digits: string }
  /**
   * noNumber: no 12 digits in a printed layout; checkDigit: some, none with a right check digit; ambiguous: two
   * different numbers with a right check digit (one of them misread, or two numbers in the picture).
   */
  | { ok: false; reason: 'noNumber' | 'checkDigit' | 'ambiguous' };

/**
 * The one number that the texts (readings of one frame: OCR passes, decoded codes) agree on. Two different valid
 * numbers refuse the frame rather than guess between them.
 */
export function readVehicleNumber(texts: readonly string[]): VehicleNumberReading {
  const valid = new Set<string>();
  let wrongCheckDigit = 0;
  for (const text of texts) {
    const found = vehicleNumberCandidates(text);
    for (const digits of found.valid) valid.add(digits);
    wrongCheckDigit += found.wrongCheckDigit;
  }
  if (valid.size === 1) return { ok: true, digits: [...valid][0]! };
  if (valid.size > 1) return { ok: false, reason: 'ambiguous' };
  return { ok: false, reason: wrongCheckDigit > 0 ? 'checkDigit' : 'noNumber' };
}
