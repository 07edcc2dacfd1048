import { ALL_ORDER_TYPES, CATALOGUE, type FieldDef, LANGUAGES } from '@vers/domain';
import { describe, expect, it } from 'vitest';
import { SEED_VALUE_LISTS } from './value-lists.ts';

const optionFields = (): { where: string; field: FieldDef }[] =>
  ALL_ORDER_TYPES.flatMap((type) =>
    CATALOGUE[type].flatMap((tab) =>
      [
        ...(tab.perEntry ? [tab.perEntry.differentiator] : []),
        ...tab.chapters.flatMap((chapter) => [
          ...(chapter.fields ?? []),
          ...(chapter.collection ? [chapter.collection.differentiator, ...chapter.collection.fields] : []),
        ]),
      ]
        .filter((field) => field.list !== undefined)
        .map((field) => ({ where: `${type}/${tab.id}`, field })),
    ),
  );

describe('the value lists of the field catalogue', () => {
  const seeded = new Map(SEED_VALUE_LISTS.map((list) => [list.key, list]));

  it('are all seeded, named in the twelve languages, with values whose texts are in the twelve languages', () => {
    const fields = optionFields();
    expect(fields.length).toBeGreaterThan(5);
    for (const { where, field } of fields) {
      const list = seeded.get(field.list!);
      expect(list, `${where} ${field.path}: list ${field.list}`).toBeDefined();
      expect(Object.keys(list!.text).sort(), field.list).toEqual([...LANGUAGES].sort());
      expect(list!.values.length, field.list).toBeGreaterThan(0);
      for (const value of list!.values) {
        if (typeof value.text === 'string') continue; // a code or name that is the same everywhere
        expect(Object.keys(value.text).sort(), `${field.list} ${value.value}`).toEqual([...LANGUAGES].sort());
      }
    }
  });
});
