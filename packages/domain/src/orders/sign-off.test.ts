import { describe, expect, it } from 'vitest';
import { attributeValue } from '../catalogue/values.ts';
import { CREATION_KEYS, ORDER_ROOTS, isOutgoingWheelsetNumberKey } from './paths.ts';
import {
  contentChanges,
  formatSignOffCode,
  needsSignOff,
  normalizeSignOffCode,
  releaseGaps,
  signOffCodeFromBytes,
  signOffRefusal,
  signedContent,
  signedContentText,
} from './sign-off.ts';

const OUT = ORDER_ROOTS.WAGON.out;
const IN = ORDER_ROOTS.WAGON.in;
const at = new Date('2026-11-27T10:00:00Z');
const v = (value: string | boolean) => attributeValue(value, at);

describe('release gaps', () => {
  it('lists what a wagon release lacks, takes the ECM from the incoming side, and wants both statements ticked', () => {
    expect(releaseGaps('WAGON', {}).map((gap) => gap.key)).toEqual([
      `${OUT}.Labeling.ECM`,
      `${OUT}.ExecutedMaintenanceLevel`,
      `${OUT}.MobileService.MaintenancePerformedCorrectly`,
      `${OUT}.MobileService.ReleaseToServiceGranted`,
    ]);
    const values = {
      [`${IN}.Labeling.ECM`]: v('ECM-1'),
      [`${OUT}.ExecutedMaintenanceLevel`]: v('G42'),
      [`${OUT}.MobileService.MaintenancePerformedCorrectly`]: v(true),
      [`${OUT}.MobileService.ReleaseToServiceGranted`]: v(false),
    };
    expect(releaseGaps('WAGON', values)).toEqual([
      { key: `${OUT}.MobileService.ReleaseToServiceGranted`, label: 'field.ReleaseToServiceGranted' },
    ]);
    values[`${OUT}.MobileService.ReleaseToServiceGranted`] = v(true);
    expect(releaseGaps('WAGON', values)).toEqual([]);
  });

  it('holds a wagon release back while one wheelset is mounted at two positions, named by the later one', () => {
    const complete: Record<string, unknown> = {
      [`${OUT}.Labeling.ECM`]: v('ECM-1'),
      [`${OUT}.ExecutedMaintenanceLevel`]: v('G42'),
      [`${OUT}.MobileService.MaintenancePerformedCorrectly`]: v(true),
      [`${OUT}.MobileService.ReleaseToServiceGranted`]: v(true),
    };
    const numbers = ['408000012349', '408000012356', '408000012349', '408000012364'];
    numbers.forEach((number, i) => {
      complete[CREATION_KEYS.outgoingWheelset(i, 'Position')] = v(String(i + 1));
      complete[CREATION_KEYS.outgoingWheelset(i, 'Wheelsetnumber')] = v(number);
    });
    const twice = CREATION_KEYS.outgoingWheelset(2, 'Wheelsetnumber');
    expect(releaseGaps('WAGON', complete)).toEqual([{ key: twice, label: 'signOff.wheelsetMountedTwice' }]);
    // Its key is told apart from the fields a release needs, and from the incoming side's numbers.
    expect(isOutgoingWheelsetNumberKey(twice)).toBe(true);
    expect(isOutgoingWheelsetNumberKey(`${OUT}.ExecutedMaintenanceLevel`)).toBe(false);
    expect(isOutgoingWheelsetNumberKey(twice.replace(OUT, IN))).toBe(false);
    // Neither meaning is signed off over it: the release says what it lacks, the quality check the double.
    expect(signOffRefusal('RELEASED_TO_SERVICE', 'WAGON', complete)).toEqual({
      code: 'RELEASE_INCOMPLETE',
      keys: [twice],
    });
    expect(signOffRefusal('QUALITY_CHECK_PASSED', 'WAGON', complete)).toEqual({
      code: 'WHEELSET_MOUNTED_TWICE',
      keys: [twice],
    });
    // Swapped at one position, the release may be issued and the quality check passed.
    complete[twice] = v('408000012372');
    expect(releaseGaps('WAGON', complete)).toEqual([]);
    expect(signOffRefusal('RELEASED_TO_SERVICE', 'WAGON', complete)).toBeNull();
    expect(signOffRefusal('QUALITY_CHECK_PASSED', 'WAGON', complete)).toBeNull();
    // A quality check needs no release entries.
    expect(signOffRefusal('QUALITY_CHECK_PASSED', 'WAGON', {})).toBeNull();
  });

  it("lists a wheelset's maintenance level, and a blank one counts as missing", () => {
    const out = ORDER_ROOTS.WHEELSET.out;
    expect(releaseGaps('WHEELSET', { [`${out}.MaintenanceLevel`]: v('  ') }).map((gap) => gap.key)).toEqual([
      `${out}.MaintenanceLevel`,
    ]);
    expect(releaseGaps('WHEELSET', { [`${out}.MaintenanceLevel`]: v('IS2') })).toEqual([]);
  });
});

describe('signed content', () => {
  it('is the outgoing values without capture dates, the same text whatever order the keys came in', () => {
    const a = signedContent('WAGON', {
      [`${OUT}.B`]: v('2'),
      [`${IN}.A`]: v('in'),
      [`${OUT}.A`]: v('1'),
      [`${OUT}.Empty`]: v(''),
    });
    expect(a).toEqual({ [`${OUT}.A`]: '1', [`${OUT}.B`]: '2' });
    const b = signedContent('WAGON', {
      [`${OUT}.A`]: attributeValue('1', new Date(0)),
      [`${OUT}.B`]: v('2'),
    });
    expect(signedContentText(a)).toBe(signedContentText(b));
    expect(signedContentText({ x: 1, y: 2 })).toBe(signedContentText({ y: 2, x: 1 }));
  });

  it('names every key whose value changed, was added or removed', () => {
    expect(contentChanges({ a: '1', b: '2', c: true }, { a: '1', b: '3', d: 'new' })).toEqual([
      { key: 'b', signed: '2', now: '3' },
      { key: 'c', signed: true, now: null },
      { key: 'd', signed: null, now: 'new' },
    ]);
  });
});

describe('check codes', () => {
  it('makes 16 Crockford characters from 80 bits and reads a typed code leniently', () => {
    const code = signOffCodeFromBytes(new Uint8Array([0, 0x44, 0x32, 0x14, 0xc7, 0x42, 0x54, 0xb6, 0x35, 0xcf]));
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{16}$/);
    expect(signOffCodeFromBytes(new Uint8Array(10).fill(255))).toBe('ZZZZZZZZZZZZZZZZ');
    expect(() => signOffCodeFromBytes(new Uint8Array(9))).toThrow();
    expect(formatSignOffCode('ABCDEFGHJKMNPQRS')).toBe('ABCD-EFGH-JKMN-PQRS');
    expect(normalizeSignOffCode(' abcd-efgh jkmn-pqrs ')).toBe('ABCDEFGHJKMNPQRS');
    expect(normalizeSignOffCode('O0IL-0000-0000-0000')).toBe('0011000000000000');
    expect(normalizeSignOffCode('ABCD-EFGH-JKMN-PQRU')).toBeNull(); // U is not a Crockford digit
    expect(normalizeSignOffCode('ABCD')).toBeNull();
  });
});

it('asks a sign-off for the done statuses only', () => {
  expect(['DONE', 'DONE_ARCHIVED', 'DONE_ARCHIVE_REQUESTED'].map((s) => needsSignOff(s as 'DONE'))).toEqual([
    true,
    true,
    true,
  ]);
  expect(['CREATED', 'IN_WORK', 'IN_QA'].map((s) => needsSignOff(s as 'DONE'))).toEqual([false, false, false]);
});
