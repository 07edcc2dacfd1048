import { LANGUAGE_STORAGE_KEY } from '@vers/domain';
import { act, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { initI18n } from '../../../i18n/index.ts';
import {
  type AddOrderForm,
  newForm,
  withRefusal,
  withRowAdded,
  withRowNumber,
  withRowRemoved,
} from './add-order-form.ts';
import { ApiFailure } from '../../../app/api.ts';
import { WheelsetRows } from './WheelsetRows.tsx';

// React reads this flag to allow act() outside a test renderer.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let container: HTMLDivElement;
let root: Root;

const q = (testId: string) => container.querySelector<HTMLButtonElement>(`[data-testid="${testId}"]`);

/** The rows with the form's own changes, as the screen wires them (imports aside). */
function Rows({ start }: { start: AddOrderForm }) {
  const [form, setForm] = useState(start);
  return (
    <WheelsetRows
      rows={form.wheelsets}
      refused={form.refused}
      onChange={(index, value) => setForm((current) => withRowNumber(current, index, value))}
      onCheck={() => undefined}
      onImport={() => undefined}
      onRemove={(index) => setForm((current) => withRowRemoved(current, index))}
      onAdd={() => setForm(withRowAdded)}
    />
  );
}

async function click(testId: string) {
  const button = q(testId);
  expect(button, testId).not.toBeNull();
  await act(async () => {
    button!.focus();
    button!.click();
  });
}

beforeAll(async () => {
  localStorage.setItem(LANGUAGE_STORAGE_KEY, 'en');
  await initI18n();
});

beforeEach(() => {
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
});

afterEach(async () => {
  await act(async () => root.unmount());
  container.remove();
});

describe('the wheelset rows', () => {
  it("moves the focus after a removal to the remove button now in the row's place, then to add", async () => {
    await act(async () => root.render(<Rows start={newForm()} />));
    expect(container.querySelectorAll('[data-testid^="wheelset-number-"]')).toHaveLength(4);
    // The last row went: the focus goes to the remove button of the new last row.
    await click('wheelset-remove-3');
    expect(document.activeElement).toBe(q('wheelset-remove-2'));
    // Two rows are the least: no remove button may go, so the focus goes to "add".
    await click('wheelset-remove-0');
    expect(q('wheelset-remove-0')!.disabled).toBe(true);
    expect(document.activeElement).toBe(q('wheelset-add'));
    await click('wheelset-add');
    await click('wheelset-add');
    expect(container.querySelectorAll('[data-testid^="wheelset-number-"]')).toHaveLength(4);
    // A row from the middle: the focus stays in that place.
    await click('wheelset-remove-1');
    expect(container.querySelectorAll('[data-testid^="wheelset-number-"]')).toHaveLength(3);
    expect(document.activeElement).toBe(q('wheelset-remove-1'));
  });

  it('names each row by its position and shows the refusal under its number', async () => {
    const start = withRefusal(
      newForm(),
      new ApiFailure(400, 'CHECK_NUMBER', 'refused', ['body.wagon.wheelsetsOutgoing.1.number']),
    );
    await act(async () => root.render(<Rows start={start} />));
    expect(q('wheelset-remove-2')!.getAttribute('aria-label')).toMatch(/3/);
    const second = q('wheelset-number-1')!.closest('.MuiFormControl-root')!;
    expect(second.querySelector('[aria-invalid="true"]')).not.toBeNull();
    expect(second.textContent).toMatch(/check/i);
    expect(q('wheelset-number-0')!.getAttribute('aria-invalid')).toBe('false');
    expect(q('wheelset-number-0')!.getAttribute('maxlength')).toBe('24');
    expect(q('wheelset-number-0')!.getAttribute('inputmode')).toBe('numeric');
  });

  it('marks a number given in an earlier row where it comes again, naming that row', async () => {
    const number = '43 80 1234 567-6';
    const start = withRowNumber(withRowNumber(newForm(), 0, number), 2, number.replace(/\D/g, ''));
    await act(async () => root.render(<Rows start={start} />));
    const third = q('wheelset-number-2')!.closest('.MuiFormControl-root')!;
    expect(q('wheelset-number-2')!.getAttribute('aria-invalid')).toBe('true');
    expect(third.textContent).toContain('The same number as wheelset 1');
    expect(q('wheelset-number-0')!.getAttribute('aria-invalid')).toBe('false');
  });
});
