import { CATALOGUE, type FieldDef, LANGUAGE_STORAGE_KEY } from '@vers/domain';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { changeLanguage, initI18n, loadFeatureCatalogue } from '../../../i18n/index.ts';
import { useValueText } from './FieldHistory.tsx';

// React reads this flag to allow act() outside a test renderer.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** Every field of the catalogue with fixed codes (a switch), found by walking the whole catalogue. */
function choiceFields(): FieldDef[] {
  return Object.values(CATALOGUE).flatMap((tabs) =>
    tabs.flatMap((tab) =>
      tab.chapters.flatMap((chapter) =>
        [...(chapter.fields ?? []), ...(chapter.collection?.fields ?? [])].filter((field) => field.choices),
      ),
    ),
  );
}

/** The texts `useValueText(field)` gives for `values`, read from a rendered component. */
async function texts(field: FieldDef, values: unknown[]): Promise<string[]> {
  let shown: string[] = [];
  function Probe() {
    const valueText = useValueText(field);
    shown = values.map(valueText);
    return null;
  }
  const root = createRoot(document.createElement('div'));
  await act(async () => root.render(<Probe />));
  await act(async () => root.unmount());
  return shown;
}

beforeAll(async () => {
  localStorage.setItem(LANGUAGE_STORAGE_KEY, 'en');
  await initI18n();
  await loadFeatureCatalogue('catalogue');
});

describe('a value in the history and the conflict note', () => {
  it('shows a fixed code by its text as the switch does (a turned wheelset), in the language chosen', async () => {
    const direction = choiceFields().find((field) => field.path === 'Direction');
    expect(direction?.choices).toEqual(['NORMAL', 'TURNED']);
    expect(await texts(direction!, ['TURNED', 'NORMAL', ''])).toEqual(['Turned', 'Normal (as marked)', '(empty)']);
    await changeLanguage('de');
    expect(await texts(direction!, ['TURNED'])).toEqual(['Gewendet']);
  });

  it('shows a code without a text as it is (CM, CM/D)', async () => {
    const coded = choiceFields().find((field) => field.choices?.some((choice) => choice.startsWith('CM')));
    expect(coded).toBeDefined();
    expect(await texts(coded!, [coded!.choices![0]])).toEqual([coded!.choices![0]]);
  });
});
