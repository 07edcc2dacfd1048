import type { Page } from 'playwright-core';

/**
 * The date (or month) field holding `key`, a MUI X picker: the text it shows is its hidden input's value, typing goes
 * to its parts (day, month, year), the button opens its calendar.
 */
export function dateField(page: Page, key: string) {
  const root = page.locator('.MuiPickersInputBase-root').filter({ has: page.locator(`[data-key="${key}"]`) });
  return {
    shown: () => page.locator(`[data-key="${key}"]`).inputValue(),
    /** What its parts show, placeholders too (without the marks that keep their direction). */
    parts: async () =>
      ((await root.locator('.MuiPickersSectionList-root').textContent()) ?? '').replace(/[\u2066-\u2069\u200e]/g, ''),
    /** Its first part, the day (or the month of a month field), where typing begins. */
    first: root.locator('[data-sectionindex="0"]'),
    openButton: root.getByRole('button'),
  };
}

export type DateField = ReturnType<typeof dateField>;

/**
 * Taps the date field's first part and types `text`, then leaves the field with Tab (or Enter), which saves. `keys`
 * presses keys as a hardware keyboard does; `onScreen` only inserts the characters, as a tablet's on-screen keyboard
 * does (no key codes, an input event each).
 */
export async function typeDate(
  page: Page,
  field: DateField,
  text: string,
  how: 'keys' | 'onScreen' = 'keys',
  leave: 'Tab' | 'Enter' = 'Tab',
) {
  await field.first.click();
  if (how === 'keys') await page.keyboard.type(text);
  else for (const character of text) await page.keyboard.insertText(character);
  await page.keyboard.press(leave);
}
