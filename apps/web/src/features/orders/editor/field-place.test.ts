import { describe, expect, it } from 'vitest';
import { fieldPlace } from './field-place.ts';

const W_OUT = '$.Body.Wagen.technicalWaggonOutgoing';

describe('fieldPlace', () => {
  it('names the tab route, field and side of a change, with the entry of a repeated tab', () => {
    expect(fieldPlace('WAGON', `${W_OUT}.AllowableAxleLoad`, {})).toMatchObject({
      tabName: 'basedata',
      side: 'out',
      field: { path: 'AllowableAxleLoad' },
    });
    // A wagon's wheelset sits in the wheelsets tab, under the position its entry has (not its list index).
    const wheelset = `${W_OUT}.Understructure.WheelsetCollection.Wheelset[1]`;
    const values = { [`${wheelset}.Position`]: { value: '3' } };
    expect(fieldPlace('WAGON', `${wheelset}.Wheelsetnumber`, values)).toMatchObject({
      tabName: 'wheelsets-3',
      entry: '3',
    });
    expect(fieldPlace('WAGON', `${W_OUT}.NoSuchField`, {})).toBeNull();
  });
});
