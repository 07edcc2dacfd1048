import type { OrderType } from '../orders/status.ts';
import { collectionEntries, entryScope, type Values } from './layout.ts';
import type { ChapterDef, FieldDef } from './model.ts';
import { resolveKey } from './resolve.ts';
import { CATALOGUE } from './tabs.ts';
import { isFilled } from './values.ts';

/*
 * When the editor warns that a calculation lacks inputs (issue 20, docs/requirements/validation.md#calculations): not
 * at each save, since normal entry fills the inputs one after the other, but when the user leaves the calculation's
 * group with its inputs partly filled. The group is where the user enters them:
 * - a calculation of a scope (SR of a wheelset) is the chapters that hold its inputs and its result in that scope
 *   (the wheelset's measures and its wheels, which a wheelset order shows in two tabs);
 * - a calculation inside a list entry (the shrink fit of an axle journal) is that entry.
 * A field in the group keeps the user in it (the wheel's other measures between the two flange thicknesses too).
 */

/** One calculation of one order, and where its inputs are entered. */
export interface CalculationGroup {
  /** The calculated field's key: one group per calculation and scope. */
  key: string;
  /** The calculated field (its label names the warning). */
  field: FieldDef;
  /** Every key of the group starts with this (the scope, or the list entry) ... */
  prefix: string;
  /** ... and lies in one of these chapters. */
  chapters: readonly string[];
}

/** An input of a calculation as the warning names it: its field and, inside a list, its entry (the left wheel). */
export interface CalculationInput {
  field: FieldDef;
  entry?: { differentiator: FieldDef; value: string };
}

const inputsOf = (chapter: ChapterDef, target: string) =>
  [...(chapter.fields ?? []), ...(chapter.collection?.fields ?? [])].some((field) => field.recalculates === target);

/** The calculations whose group holds the key: where leaving the key may mean leaving the group. */
export function calculationGroups(type: OrderType, key: string): CalculationGroup[] {
  const resolved = resolveKey(type, key);
  if (!resolved?.field) return [];
  const groups: CalculationGroup[] = [];
  // Inside a list entry: the entry's own calculation.
  const collection = resolved.collection;
  const entryFormula = collection?.fields.find((field) => field.kind === 'formula' && field.calculation);
  if (collection && entryFormula) {
    const prefix = key.slice(0, key.length - resolved.field.path.length - 1);
    if (prefix.endsWith(']')) {
      groups.push({
        key: `${prefix}.${entryFormula.path}`,
        field: entryFormula,
        prefix,
        chapters: [resolved.chapter.id],
      });
    }
  }
  // A calculation of the scope: inputs and result may sit in several chapters and tabs of the same kind of scope.
  const chapters = CATALOGUE[type]
    .filter((tab) => tab.perEntry === resolved.tab.perEntry)
    .flatMap((tab) => tab.chapters);
  for (const formula of chapters.flatMap((chapter) => chapter.fields ?? [])) {
    if (formula.kind !== 'formula' || !formula.calculation) continue;
    const area = chapters
      .filter((chapter) => chapter.fields?.includes(formula) || inputsOf(chapter, formula.path))
      .map((chapter) => chapter.id);
    if (!area.includes(resolved.chapter.id)) continue;
    groups.push({
      key: `${resolved.chapterScope}.${formula.path}`,
      field: formula,
      prefix: resolved.chapterScope,
      chapters: area,
    });
  }
  return groups;
}

/** The key lies in the group (the editor's check whether a shown field keeps the group open). */
export function inCalculationGroup(type: OrderType, group: CalculationGroup, key: string): boolean {
  return calculationGroups(type, key).some((candidate) => candidate.key === group.key);
}

/** The key is an input of the group's calculation (a write to it is an entry into the group). */
export function isCalculationInput(type: OrderType, group: CalculationGroup, key: string): boolean {
  return resolveKey(type, key)?.field?.recalculates === group.field.path && inCalculationGroup(type, group, key);
}

/** Every input of a group's calculation and whether it holds a value. */
function inputStates(
  type: OrderType,
  group: CalculationGroup,
  values: Values,
): (CalculationInput & { filled: boolean })[] {
  const resolved = resolveKey(type, group.key);
  if (!resolved?.field) return [];
  // Inside an entry: the entry's fields that the calculation reads.
  if (resolved.collection) {
    return resolved.collection.fields
      .filter((field) => field.recalculates === group.field.path)
      .map((field) => ({ field, filled: isFilled(values[`${group.prefix}.${field.path}`]) }));
  }
  const chapters = CATALOGUE[type]
    .filter((tab) => tab.perEntry === resolved.tab.perEntry)
    .flatMap((tab) => tab.chapters);
  const states: (CalculationInput & { filled: boolean })[] = [];
  for (const chapter of chapters) {
    for (const field of chapter.fields ?? []) {
      if (field.recalculates === group.field.path)
        states.push({ field, filled: isFilled(values[`${group.prefix}.${field.path}`]) });
    }
    const collection = chapter.collection;
    if (!collection) continue;
    const fields = collection.fields.filter((field) => field.recalculates === group.field.path);
    if (fields.length === 0) continue;
    // One input per entry the calculation reads (SR: the left and the right wheel), filled or not.
    const scope = { in: group.prefix, out: group.prefix };
    const entries = collectionEntries(values, scope, collection);
    for (const value of Array.isArray(collection.values) ? (collection.values as readonly string[]) : []) {
      const entry = entries.find((candidate) => candidate.value === value);
      for (const field of fields) {
        states.push({
          field,
          entry: { differentiator: collection.differentiator, value },
          filled: entry !== undefined && isFilled(values[`${entryScope(scope, collection, entry).in}.${field.path}`]),
        });
      }
    }
  }
  return states;
}

/**
 * The inputs still missing of a calculation whose inputs are partly filled (some, not all), which is when leaving its
 * group warns; null when none or all of them are filled.
 */
export function missingCalculationInputs(
  type: OrderType,
  group: CalculationGroup,
  values: Values,
): CalculationInput[] | null {
  const states = inputStates(type, group, values);
  const missing = states.filter((state) => !state.filled);
  if (missing.length === 0 || missing.length === states.length) return null;
  return missing.map(({ field, entry }) => (entry ? { field, entry } : { field }));
}
