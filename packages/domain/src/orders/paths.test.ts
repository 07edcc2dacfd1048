import { describe, expect, it } from 'vitest';
import { CREATION_KEYS, isOrderKey } from './paths.ts';

describe('isOrderKey', () => {
  it('accepts paths below the roots of the order type, with list indexes', () => {
    expect(isOrderKey('$.Body.Wagen.technicalWaggonIncoming.Waggonnummer', 'WAGON')).toBe(true);
    expect(isOrderKey(CREATION_KEYS.outgoingWheelset(3, 'Wheelsetnumber'), 'WAGON')).toBe(true);
    expect(isOrderKey('$.Body.Radsatz.technicalWheelsetOutgoing.Wheels[1].Sd.value', 'WHEELSET')).toBe(true);
  });
  it("refuses another type's root, a bare root and malformed segments", () => {
    expect(isOrderKey('$.Body.Radsatz.technicalWheelsetIncoming.Position', 'WAGON')).toBe(false);
    expect(isOrderKey('$.Body.Wagen.technicalWaggonIncoming', 'WAGON')).toBe(false);
    expect(isOrderKey('$.Body.Wagen.technicalWaggonIncoming.', 'WAGON')).toBe(false);
    expect(isOrderKey('$.Body.Wagen.technicalWaggonIncoming.a b', 'WAGON')).toBe(false);
    expect(isOrderKey('$.Body.Wagen.technicalWaggonIncoming.x[-1]', 'WAGON')).toBe(false);
    expect(isOrderKey('$.Body.Wagen.technicalWaggonIncomingX.y', 'WAGON')).toBe(false);
  });
});
