import { ORDER_ROOTS, type OrderType, type ValueSide, type Values, valueOf } from '@vers/domain';
import { XMLBuilder } from 'fast-xml-parser';
import { type GroupNode, MANDATORY_FIELD, XML_BODY, sectionName, sectionTree } from '../imports/xml-schema.ts';

/**
 * Our own XML of an order (docs/xml-format.md), valid against the same XSD as the import: the workshop's export
 * holds both sides, the holder/keeper's the outgoing side (the incoming section keeps only the vehicle number,
 * which the schema requires). Both begin with a header naming the sender, the order and the time of generation,
 * which the import ignores. Importing an export gives back its incoming values.
 */
export type OwnXmlKind = 'XML_WORKSHOP' | 'XML_KEEPER';

/** The header's content: the workshop as in its settings, the order's number, the moment of generation. */
export interface OwnXmlHeader {
  sender: { name: string; countryCode: string; revNr: string; siteId: string };
  orderNumber: string;
  generatedAt: Date;
}

type Element = Record<string, unknown>;

const text = (value: unknown): string | null => {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return String(value);
};

/** The list indexes used below `listPath` in the values, ascending. */
function entryIndexes(values: Values, listPath: string): number[] {
  const prefix = `${listPath}[`;
  const found = new Set<number>();
  for (const key of Object.keys(values)) {
    if (!key.startsWith(prefix)) continue;
    const index = Number(key.slice(prefix.length, key.indexOf(']', prefix.length)));
    if (Number.isInteger(index)) found.add(index);
  }
  return [...found].sort((a, b) => a - b);
}

/** The section's element content, in schema order; null when nothing below it has a value. */
function sectionContent(group: GroupNode, values: Values, path: string): Element | null {
  const content: Element = {};
  for (const node of group.children) {
    const key = `${path}.${node.name}`;
    if (node.kind === 'leaf') {
      const value = valueOf(values[key]);
      const texts = (Array.isArray(value) ? value : [value]).map(text).filter((t): t is string => t !== null);
      if (texts.length > 0) content[node.name] = node.field.kind === 'multioption' ? texts : texts[0];
      continue;
    }
    if (!node.collection) {
      const inner = sectionContent(node, values, key);
      if (inner) content[node.name] = inner;
      continue;
    }
    // An entry is written only with its differentiator, which the schema requires first.
    const entries = entryIndexes(values, key)
      .filter((index) => text(valueOf(values[`${key}[${index}].${node.collection?.differentiator.path}`])) !== null)
      .map((index) => sectionContent(node, values, `${key}[${index}]`))
      .filter((entry): entry is Element => entry !== null);
    if (entries.length > 0) content[node.name] = entries;
  }
  return Object.keys(content).length > 0 ? content : null;
}

const builder = new XMLBuilder({ format: true, indentBy: '  ', suppressEmptyNode: true });

/** Characters XML 1.0 cannot carry at all (control characters): dropped from the header's texts. */
const xmlText = (text: string) =>
  [...text].filter((char) => /[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u.test(char)).join('');

function headerElement(header: OwnXmlHeader): Element {
  const optional = (text: string) => (text.trim() === '' ? undefined : xmlText(text.trim()));
  const country = header.sender.countryCode.trim().toUpperCase();
  const sender: Element = { Name: xmlText(header.sender.name) };
  // Written only when set, and the country only as a code (the settings allow it empty).
  if (/^[A-Z]{2}$/.test(country)) sender.CountryCode = country;
  const revNr = optional(header.sender.revNr);
  if (revNr) sender.RevNr = revNr;
  const siteId = optional(header.sender.siteId);
  if (siteId) sender.SiteId = siteId;
  return { Sender: sender, OrderNumber: xmlText(header.orderNumber), Generated: header.generatedAt.toISOString() };
}

export function orderXml(
  type: OrderType,
  kind: OwnXmlKind,
  values: Values,
  vehicleNumber: string,
  header: OwnXmlHeader,
): string {
  const sections: Element = {};
  for (const side of ['in', 'out'] as ValueSide[]) {
    const name = sectionName(type, side);
    const content =
      side === 'in' && kind === 'XML_KEEPER'
        ? null
        : sectionContent(sectionTree(type, side), values, ORDER_ROOTS[type][side]);
    if (side === 'in') {
      // The schema needs the incoming vehicle number; it is the order's when the values lack it.
      const withNumber: Element = { ...(content ?? {}) };
      if (!withNumber[MANDATORY_FIELD[type]]) {
        sections[name] = { [MANDATORY_FIELD[type]]: vehicleNumber, ...withNumber };
        continue;
      }
      sections[name] = withNumber;
    } else if (content) {
      sections[name] = content;
    }
  }
  const body = { Header: headerElement(header), [XML_BODY[type]]: sections };
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build({ Body: body }) as string}`;
}
