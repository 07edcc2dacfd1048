/**
 * Vehicle Keeper Markings (VKM, the keeper's code in the VKM register, painted on the wagon after the registration
 * country, e.g. `D-GATX`). A keeper (company) holds one or more; a holder user of that keeper sees the wagon orders
 * whose keeper marking field (`Halterkurzkennzeichen`) carries one of them (issue 22, docs/decisions.md).
 *
 * The register's code is 2 to 5 Latin letters and unique across Europe, so orders are matched by it alone: `D-GATX`,
 * `d-gatx`, `GATX` and `D - GATX` all name the keeper of `GATX`.
 */
export const VKM_PATTERN = /^[A-Z]{2,5}$/;

/** The VKM a typed keeper marking names (upper case, without spaces, after the country's hyphen), or null. */
export function keeperMarkingVkm(raw: string | null | undefined): string | null {
  if (typeof raw !== 'string') return null;
  const compact = raw.toUpperCase().replace(/\s+/g, '');
  const vkm = compact.slice(compact.lastIndexOf('-') + 1);
  return VKM_PATTERN.test(vkm) ? vkm : null;
}
