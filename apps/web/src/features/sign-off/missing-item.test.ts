import { CREATION_KEYS, ORDER_ROOTS, releaseGaps } from '@vers/domain';
import { describe, expect, it } from 'vitest';
import { missingItemLabel } from './missing-item.ts';

const echo = (key: string) => key;

describe('missingItemLabel', () => {
  it('names a missing field by its editor label, and a wheelset mounted twice as such', () => {
    const ecm = `${ORDER_ROOTS.WAGON.out}.Labeling.ECM`;
    expect(missingItemLabel('WAGON', ecm, echo)).toBe('catalogue.field.ECM');
    // The server names a double by the later position's number key, as the domain's releaseGaps makes it.
    const values = Object.fromEntries(
      [0, 1].flatMap((i) => [
        [CREATION_KEYS.outgoingWheelset(i, 'Position'), { value: String(i + 1) }],
        [CREATION_KEYS.outgoingWheelset(i, 'Wheelsetnumber'), { value: '408000012349' }],
      ]),
    );
    const double = releaseGaps('WAGON', values).at(-1)!.key;
    expect(double).toBe(CREATION_KEYS.outgoingWheelset(1, 'Wheelsetnumber'));
    expect(missingItemLabel('WAGON', double, echo)).toBe('signOff.wheelsetMountedTwice');
  });
});
