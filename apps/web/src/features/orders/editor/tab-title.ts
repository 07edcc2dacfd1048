/** The separator of a repeated tab's route name and its entry: `wheelsets-3` is wheelset 3 of the wagon. */
export const ENTRY_SEPARATOR = '-';

export function splitTabName(tabName: string | undefined): { tabId: string | undefined; entry: string | undefined } {
  if (!tabName) return { tabId: undefined, entry: undefined };
  const [tabId, entry] = tabName.split(ENTRY_SEPARATOR, 2);
  return { tabId, entry };
}

/**
 * The differentiator naming the entries of each repeated tab. Kept here, not read from the catalogue, so that the
 * route table (loaded with the login screen) does not load the whole catalogue for a title.
 */
const ENTRY_DIFFERENTIATOR: Record<string, string> = { wheelsets: 'Position', superstructure: 'Aufbautyp' };

type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * The toolbar's tab name of an editor route (docs/requirements/orders.md#editor-toolbar: route name plus tab name),
 * e.g. "Superstructure: tank".
 */
export function tabTitle(
  orderType: string | undefined,
  tabName: string | undefined,
): ((t: Translate) => string) | undefined {
  const type = orderType?.toUpperCase();
  const { tabId, entry } = splitTabName(tabName);
  if (!tabId || (type !== 'WAGON' && type !== 'WHEELSET')) return undefined;
  const differentiator = ENTRY_DIFFERENTIATOR[tabId];
  if (entry && differentiator) {
    return (t) =>
      t(`catalogue.entry.${differentiator}`, {
        value: t(`catalogue.entryValue.${differentiator}.${entry}`, { defaultValue: entry }),
      });
  }
  return (t) => t(`catalogue.tab.${type}.${tabId}`);
}
