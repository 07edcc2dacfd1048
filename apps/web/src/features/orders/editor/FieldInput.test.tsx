import 'fake-indexeddb/auto';
import { ALL_ORDER_TYPES, CATALOGUE, type FieldDef } from '@vers/domain';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import { FieldInput } from './FieldInput.tsx';

// React reads this flag to allow act() outside a test renderer.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function everyField(): { where: string; field: FieldDef }[] {
  return ALL_ORDER_TYPES.flatMap((type) =>
    CATALOGUE[type].flatMap((tab) => [
      ...(tab.perEntry ? [{ where: `${type}/${tab.id}`, field: tab.perEntry.differentiator }] : []),
      ...tab.chapters.flatMap((chapter) =>
        [
          ...(chapter.fields ?? []),
          ...(chapter.collection ? [chapter.collection.differentiator, ...chapter.collection.fields] : []),
        ].map((field) => ({ where: `${type}/${tab.id}/${chapter.id}`, field })),
      ),
    ]),
  );
}

describe('every field of the catalogue', () => {
  it('renders an input for its kind, editable and read-only', async () => {
    const fields = everyField();
    expect(fields.length).toBeGreaterThan(40);
    const container = document.createElement('div');
    document.body.append(container);
    const root = createRoot(container);
    for (const { where, field } of fields) {
      for (const readOnly of [false, true]) {
        await act(async () => {
          root.render(
            <FieldInput
              field={field}
              stored={undefined}
              dataKey={`${where}/${field.path}`}
              label={field.path}
              readOnly={readOnly}
              onCommit={() => null}
            />,
          );
        });
        const input = [...container.querySelectorAll('[data-key]')].find(
          (element) => element.getAttribute('data-key') === `${where}/${field.path}`,
        );
        expect(input, `${where} ${field.path} (${field.kind})`).toBeDefined();
      }
    }
    await act(async () => root.unmount());
    // About 1,000 renders in jsdom: seconds on this machine, more while other suites run beside it.
  }, 60_000);
});
