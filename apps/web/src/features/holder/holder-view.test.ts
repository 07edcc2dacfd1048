import { ORDER_ROOTS, type HolderDocument, type SignOff } from '@vers/domain';
import { describe, expect, it } from 'vitest';
import { checkCodeAgainstOrder, newestDocument, outgoingValues, valueSections } from './holder-view.ts';

const OUT = ORDER_ROOTS.WAGON.out;
const IN = ORDER_ROOTS.WAGON.in;
const attribute = (value: unknown) => ({ value, CaptureDate: '2026-03-01T10:00:00.000Z' });

describe('outgoingValues', () => {
  it('puts keys given below the outgoing root under it and keeps full keys', () => {
    expect(outgoingValues({ Eigengewicht: 1, [`${OUT}.AnzahlAchsen`]: 2 })).toEqual({
      [`${OUT}.Eigengewicht`]: 1,
      [`${OUT}.AnzahlAchsen`]: 2,
    });
  });
});

describe('valueSections', () => {
  it('keeps the filled outgoing values in the catalogue order of tabs and chapters, skipping empty ones', () => {
    const sections = valueSections(
      outgoingValues({
        Eigengewicht: attribute('23500'),
        'Labeling.Gattungszeichen': attribute('Zacns'),
        'Labeling.Bemerkung': attribute(''),
      }),
    );
    expect(sections.map((s) => s.tab.id)).toEqual(['basedata', 'labeling']);
    const rows = sections.flatMap((s) => s.groups.flatMap((g) => g.rows.map((r) => [r.field.path, r.value])));
    expect(rows).toEqual([
      ['Eigengewicht', '23500'],
      ['Labeling.Gattungszeichen', 'Zacns'],
    ]);
  });

  it('shows no incoming value, even where the outgoing side is empty', () => {
    expect(valueSections({ [`${IN}.Eigengewicht`]: attribute('20000') })).toEqual([]);
  });

  it('shows each outgoing wheelset as its own section, named by its position', () => {
    const wheelset = `Understructure.WheelsetCollection.Wheelset`;
    const sections = valueSections(
      outgoingValues({
        [`${wheelset}[0].Position`]: attribute('1'),
        [`${wheelset}[0].Wheelsetnumber`]: attribute('31801234567'),
        [`${wheelset}[1].Position`]: attribute('2'),
      }),
    );
    const wheelsets = sections.filter((s) => s.tab.id === 'wheelsets');
    expect(wheelsets.map((s) => s.entry?.value)).toEqual(['1']);
    expect(wheelsets[0]?.groups.flatMap((g) => g.rows.map((r) => r.value))).toContain('31801234567');
  });
});

describe('newestDocument', () => {
  const document = (id: string, type: HolderDocument['type'], created: string): HolderDocument => ({
    id,
    type,
    status: 'AVAILABLE',
    filename: `${id}.pdf`,
    created,
  });
  it('picks the newest of the type asked for', () => {
    const documents = [
      document('a', 'RELEASE_TO_SERVICE', '2026-03-01T10:00:00Z'),
      document('b', 'RELEASE_TO_SERVICE', '2026-03-02T10:00:00Z'),
      document('c', 'XML_KEEPER', '2026-03-03T10:00:00Z'),
    ];
    expect(newestDocument(documents, 'RELEASE_TO_SERVICE')?.id).toBe('b');
    expect(newestDocument(documents.slice(0, 2), 'XML_KEEPER')).toBeNull();
  });
});

describe('checkCodeAgainstOrder', () => {
  const signOff = { code: 'ABCD1234EFGH5678' } as SignOff;
  it('finds the sign-off a printed code belongs to, however it was typed', () => {
    expect(checkCodeAgainstOrder('abcd-i234 efgh-5678', [signOff])).toEqual({
      kind: 'ofThisOrder',
      code: 'ABCD1234EFGH5678',
      signOff,
    });
  });
  it('tells a well-formed code of no sign-off of this order from one that cannot be a code', () => {
    expect(checkCodeAgainstOrder('ABCD-1234-EFGH-5679', [signOff])).toEqual({
      kind: 'notOfThisOrder',
      code: 'ABCD1234EFGH5679',
    });
    expect(checkCodeAgainstOrder('ABCD', [signOff])).toEqual({ kind: 'invalid' });
  });
});
