import { type FieldDef, type OrderType, type TabDef, CATALOGUE } from '@vers/domain';

/** The label key of a field: its `label`, or the last segment of its path. */
export const fieldLabelKey = (field: FieldDef) => `catalogue.field.${field.label ?? field.path.split('.').at(-1)}`;

const lastSegment = (path: string) => path.split('.').at(-1) ?? path;

/** Every translation key the editor needs for one order type's tabs: tab, chapter, field and entry titles. */
export function catalogueLabelKeys(type: OrderType, tabs: readonly TabDef[] = CATALOGUE[type]): string[] {
  const keys = new Set<string>();
  for (const tab of tabs) {
    keys.add(`catalogue.tab.${type}.${tab.id}`);
    if (tab.perEntry) {
      keys.add(fieldLabelKey(tab.perEntry.differentiator));
      keys.add(`catalogue.entry.${lastSegment(tab.perEntry.differentiator.path)}`);
    }
    for (const chapter of tab.chapters) {
      keys.add(`catalogue.chapter.${chapter.id}`);
      for (const field of chapter.fields ?? []) keys.add(fieldLabelKey(field));
      if (chapter.collection) {
        keys.add(`catalogue.entry.${lastSegment(chapter.collection.differentiator.path)}`);
        for (const field of [chapter.collection.differentiator, ...chapter.collection.fields]) {
          keys.add(fieldLabelKey(field));
        }
      }
    }
  }
  return [...keys];
}
