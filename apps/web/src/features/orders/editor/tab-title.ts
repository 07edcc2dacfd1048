/** The separator of a repeated tab's route name and its entry: `wheelsets-3` is wheelset 3 of the wagon. */
export const ENTRY_SEPARATOR = '-';

export function splitTabName(tabName: string | undefined): { tabId: string | undefined; entry: string | undefined } {
  if (!tabName) return { tabId: undefined, entry: undefined };
  const [tabId, entry] = tabName.split(ENTRY_SEPARATOR, 2);
  return { tabId, entry };
}

/** The toolbar's tab name of an editor route (orders §2: route name plus tab name). */
export function tabTitle(
  orderType: string | undefined,
  tabName: string | undefined,
): [string, Record<string, string>] | undefined {
  const type = orderType?.toUpperCase();
  const { tabId, entry } = splitTabName(tabName);
  if (!tabId || (type !== 'WAGON' && type !== 'WHEELSET')) return undefined;
  if (entry) return [`catalogue.tab.${type}.wheelset`, { position: entry }];
  return [`catalogue.tab.${type}.${tabId}`, {}];
}
