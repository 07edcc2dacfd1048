import type { OrderFold, OrderType, Values, Write } from '@vers/domain';
import { useCallback, useEffect, useRef } from 'react';
import { notifications } from '../../../app/notifications.ts';
import { type EditContext, type EditProblem, editProblems, recordEdit } from '../../../offline/record-edit.ts';
import { startSaveWorker, storeUnstored } from '../../../offline/save-client.ts';
import { versdb } from '../../../offline/versdb.ts';

export interface EditorState {
  orderId: string;
  type: OrderType;
  /** The fold of the order's rows as the editor shows it. */
  fold: OrderFold;
  values: Values;
  readOnly: boolean;
  /** The last name written beside values when the workshop keeps a protocol. */
  modifier: string | undefined;
}

/**
 * The editor's write, one stable function for every field row (they re-render only when their own values change):
 * it checks the writes with the domain's rule (what does not fit is answered, nothing stored), else records them and
 * their recalculations (`recordEdit`). A calculation still missing inputs is told when the user leaves its group
 * (useCalculationWarnings), not at each save.
 */
export function useEditorWrite(state: EditorState | null): (writes: Write[], context?: EditContext) => EditProblem[] {
  const latest = useRef(state);
  latest.current = state;
  // Started as the editor opens, so that the first edit does not wait for the worker to load; and the edits a page
  // left unstored when it was reloaded or closed are stored now, so that the order shows them again.
  useEffect(() => {
    startSaveWorker();
    void storeUnstored(versdb);
  }, []);
  return useCallback((writes: Write[], context: EditContext = {}): EditProblem[] => {
    const started = performance.now();
    const current = latest.current;
    if (!current || current.readOnly || writes.length === 0) return [];
    const problems = editProblems(current.type, writes);
    if (problems.length > 0) return problems;
    const { readOnly: _readOnly, ...edit } = current;
    recordEdit(versdb, { ...edit, writes, ...context })
      .then(({ stored, committed }) => {
        // User Timing: from the field's write to the committed transaction (bench/src/browser-orders.ts reads it).
        performance.measure('vers:edit', { start: started, end: committed, detail: { rows: stored.length } });
      })
      .catch((error: unknown) => {
        console.error('change not stored', error);
        notifications.show('common.saveError', 'error');
      });
    return [];
  }, []);
}
