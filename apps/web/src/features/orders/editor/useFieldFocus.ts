import { useEffect, useState } from 'react';

/**
 * Brings a field into view once its tab is shown (after an undo or a jump to a conflict): answers the function that
 * asks for it by the field's key. Its row takes the focus, not its input: an input would open a tablet's keyboard,
 * and keep its old text while focused.
 */
export function useFieldFocus(): (key: string) => void {
  const [focusKey, setFocusKey] = useState<string | null>(null);
  // After every render: the field appears once its tab (maybe just navigated to) has rendered.
  useEffect(() => {
    if (!focusKey) return;
    const input = document.querySelector<HTMLElement>(`[data-key="${CSS.escape(focusKey)}"]`);
    const row = input?.closest<HTMLElement>('[data-field-row]');
    if (!row) return;
    row.scrollIntoView({ block: 'center' });
    // Marked while it holds the focus, so the outline shows where the editor went (also after a tap).
    row.dataset.movedHere = 'true';
    row.addEventListener('blur', () => delete row.dataset.movedHere, { once: true });
    row.focus({ preventScroll: true });
    setFocusKey(null);
  });
  return setFocusKey;
}
