import {
  type CalculationGroup,
  type CalculationInput,
  calculationGroups,
  inCalculationGroup,
  isCalculationInput,
  missingCalculationInputs,
  type OrderType,
  type Values,
  type Write,
} from '@vers/domain';
import { useCallback, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { notifications } from '../../../app/notifications.ts';
import type { EditContext, EditProblem } from '../../../offline/record-edit.ts';
import { fieldLabelKey } from './labels.ts';
import { useEntryTitle } from './TabContent.tsx';

type EditorWrite = (writes: Write[], context?: EditContext) => EditProblem[];

interface OpenGroup {
  group: CalculationGroup;
  /** The user wrote one of the calculation's inputs during this visit. */
  edited: boolean;
}

/** The warning's names of the missing inputs: the field's label, and its entry where it sits in one (the wheel). */
export function useInputNames() {
  const { t } = useTranslation();
  const entryTitle = useEntryTitle();
  return (inputs: readonly CalculationInput[]) =>
    inputs
      .map(({ field, entry }) => {
        const label = t(fieldLabelKey(field));
        return entry ? `${label} (${entryTitle(entry.differentiator, entry.value)})` : label;
      })
      .join(', ');
}

/**
 * The warning of a calculation still missing inputs (issue 20, docs/requirements/validation.md#calculations), given
 * when the user leaves the calculation's group (domain `calculationGroups`) with its inputs partly filled, not at each
 * save: entering the inputs one after the other says nothing. Leaving is focusing a field outside the group, opening
 * a tab or entry that does not show it, or closing the editor; only a visit in which the user wrote one of the
 * inputs warns, so reading an order never does. The values judged are the editor's with the writes not yet back from
 * the database, since a field is saved as it is left, a moment before the next one takes the focus.
 *
 * Returns the editor's write, through which the writes are seen.
 */
export function useCalculationWarnings(
  type: OrderType,
  values: Values,
  write: EditorWrite,
  /** The field keys the editor shows now (none on an entry summary): a group none of them is in has been left. */
  shownKeys: () => readonly string[],
  /** Changes when the shown tab or entry changes. */
  place: string,
): EditorWrite {
  const { t } = useTranslation();
  const names = useInputNames();
  const open = useRef(new Map<string, OpenGroup>());
  /** Writes not yet back from the database: the value written and the stored attribute it replaced. */
  const pending = useRef(new Map<string, { value: Write['value']; before: unknown }>());
  const latest = useRef({ type, values, names, t, shownKeys });
  latest.current = { type, values, names, t, shownKeys };

  // A write is pending until the field's stored attribute changes (the editor keeps an unchanged value's identity):
  // by this write coming back, or by another that came later (a pull), which then stands.
  useEffect(() => {
    for (const [key, { before }] of pending.current) {
      if (values[key] !== before) pending.current.delete(key);
    }
  }, [values]);

  const leave = useCallback((left: readonly OpenGroup[]) => {
    const { type, values, names, t } = latest.current;
    if (left.length === 0) return;
    const now: Record<string, unknown> = { ...values };
    for (const [key, { value }] of pending.current) now[key] = value === null ? undefined : { value };
    for (const { group, edited } of left) {
      if (!edited) continue;
      const missing = missingCalculationInputs(type, group, now);
      if (!missing) continue;
      notifications.show('orders.editor.missingParameters', 'warning', {
        field: t(fieldLabelKey(group.field)),
        parameters: names(missing),
      });
    }
  }, []);

  // Focus on a field: the groups it is not in are left, its own are open.
  useEffect(() => {
    const onFocus = (event: FocusEvent) => {
      const target = event.target instanceof Element ? event.target.closest('[data-key]') : null;
      const key = target?.getAttribute('data-key');
      if (!key) return;
      const groups = calculationGroups(latest.current.type, key);
      const next = new Map(groups.map((group) => [group.key, open.current.get(group.key) ?? { group, edited: false }]));
      const left = [...open.current.values()].filter(({ group }) => !next.has(group.key));
      open.current.clear();
      for (const [id, visit] of next) open.current.set(id, visit);
      leave(left);
    };
    document.addEventListener('focusin', onFocus);
    return () => document.removeEventListener('focusin', onFocus);
  }, [leave]);

  // Another tab or entry: the groups it does not show are left.
  useEffect(() => {
    const { type, shownKeys } = latest.current;
    const keys = shownKeys();
    const left = [...open.current.values()].filter(
      ({ group }) => !keys.some((key) => inCalculationGroup(type, group, key)),
    );
    for (const { group } of left) open.current.delete(group.key);
    leave(left);
  }, [place, leave]);

  // Closing the editor leaves every group.
  useEffect(() => {
    const groups = open.current;
    return () => {
      leave([...groups.values()]);
      groups.clear();
    };
  }, [leave]);

  return useCallback(
    (writes: Write[], context?: EditContext) => {
      const problems = write(writes, context);
      if (problems.length > 0) return problems;
      const { type, values } = latest.current;
      for (const { key, value } of writes) {
        pending.current.set(key, { value, before: pending.current.get(key)?.before ?? values[key] });
        for (const visit of open.current.values()) {
          if (isCalculationInput(type, visit.group, key)) visit.edited = true;
        }
      }
      return problems;
    },
    [write],
  );
}
