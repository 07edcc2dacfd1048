import { locateKey, type OrderType, type Values } from '@vers/domain';
import { useTranslation } from 'react-i18next';
import { fieldLabelKey } from './labels.ts';
import { ENTRY_SEPARATOR } from './tab-title.ts';
import { useEntryTitle } from './TabContent.tsx';

/** Where a change's field is shown: the editor route's tab name (`wheelsets-3` for wheelset 3) and the location. */
export function fieldPlace(type: OrderType, key: string, values: Values) {
  const location = locateKey(type, key, values);
  if (!location) return null;
  const tabName = location.entry ? `${location.tab.id}${ENTRY_SEPARATOR}${location.entry}` : location.tab.id;
  return { ...location, tabName };
}

/** A field's place in words: "Brake › Brake weight, outgoing" ("Wheelsets › Wheelset 3 › Sd, incoming"). */
export function usePlaceText() {
  const { t } = useTranslation();
  const entryTitle = useEntryTitle();
  return (type: OrderType, place: NonNullable<ReturnType<typeof fieldPlace>>): string => {
    const parts = [t(`catalogue.tab.${type}.${place.tab.id}`)];
    if (place.entry && place.tab.perEntry) parts.push(entryTitle(place.tab.perEntry.differentiator, place.entry));
    if (place.field) parts.push(t(fieldLabelKey(place.field)));
    return `${parts.join(' › ')}, ${t(`orders.editor.side.${place.side}`)}`;
  };
}
