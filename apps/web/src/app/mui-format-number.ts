/**
 * Stands in for MUI's `locale/utils/buildFormatNumber` (vite.config.ts, lazyMuiNumberFormat). MUI's TablePagination
 * calls it when its module is evaluated, for the English default of its "1–10 of 20" label, which VERS replaces
 * (DataTablePagination). MUI's own makes an `Intl.NumberFormat` at once; the first Intl formatter of a page loads ICU's
 * data, ~17 ms (~70 ms at a phone's 4x CPU slowdown), and on the order list's first load it is the only one. This one
 * makes the formatter when a number is first formatted: the same text, without that cost for a label never shown.
 */
export default function buildFormatNumber(locale: string): (value: number) => string {
  let formatter: Intl.NumberFormat | null | undefined;
  return (value) => {
    if (!Number.isFinite(value)) return String(value);
    if (formatter === undefined) {
      try {
        formatter = new Intl.NumberFormat(locale);
      } catch {
        formatter = null;
      }
    }
    return formatter ? formatter.format(value) : String(value);
  };
}
