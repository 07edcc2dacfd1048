import {
  type CollectionDef,
  type FieldDef,
  MAX_TEXT_LENGTH,
  ORDER_ROOTS,
  type OrderType,
  type ValueSide,
  catalogueTemplates,
  resolveKey,
} from '@vers/domain';

/**
 * The XML import format (docs/xml-format.md), generated from the field catalogue so that it mirrors the order
 * body `$.Body.Wagen.technicalWaggon{Incoming|Outgoing}...` / `$.Body.Radsatz.technicalWheelset{...}` and cannot
 * drift from it. The same tree drives the import (xml-import.ts).
 */

/** A field: an element holding text (repeated for a multioption field). */
export interface LeafNode {
  kind: 'leaf';
  name: string;
  field: FieldDef;
  /** The values an entry's differentiator may take, when the collection fixes them. */
  differentiatorValues?: readonly string[];
  required: boolean;
}

/** A structure element; `collection` set when it is one entry of a list (repeated). */
export interface GroupNode {
  kind: 'group';
  name: string;
  children: SchemaNode[];
  collection?: CollectionDef;
}

export type SchemaNode = LeafNode | GroupNode;

/** Root element and body element of each order type: `Body/Wagen` and `Body/Radsatz`. */
export const XML_BODY: Record<OrderType, string> = { WAGON: 'Wagen', WHEELSET: 'Radsatz' };

/** The element names of the two technical sections, taken from the order roots. */
export function sectionName(type: OrderType, side: ValueSide): string {
  const root = ORDER_ROOTS[type][side];
  return root.slice(root.lastIndexOf('.') + 1);
}

/** The fields an import needs: the vehicle number on the incoming side. */
export const MANDATORY_FIELD: Record<OrderType, string> = { WAGON: 'Waggonnummer', WHEELSET: 'Wheelsetnumber' };

/** Fields holding a 12-digit wagon or wheelset number (docs/requirements/validation.md#vehicle-number). */
const VEHICLE_NUMBER_FIELDS = new Set(['Waggonnummer', 'Wheelsetnumber']);

const sideFits = (field: FieldDef, side: ValueSide) => !field.side || field.side === 'both' || field.side === side;

/** The element tree of one technical section, in catalogue order; the differentiator first in each entry. */
export function sectionTree(type: OrderType, side: ValueSide): GroupNode {
  const root: GroupNode = { kind: 'group', name: sectionName(type, side), children: [] };
  const lists = new WeakMap<GroupNode, boolean>();
  const groupAt = (parent: GroupNode, segment: string): GroupNode => {
    const name = segment.replace('[]', '');
    const isList = segment.endsWith('[]');
    const known = parent.children.find((child) => child.name === name);
    if (known) {
      if (known.kind !== 'group' || lists.get(known) !== isList) {
        throw new Error(`xml schema: ${type} element ${segment} is used in two ways`);
      }
      return known;
    }
    const group: GroupNode = { kind: 'group', name, children: [] };
    lists.set(group, isList);
    parent.children.push(group);
    return group;
  };
  const listMarks = new Set<GroupNode>();
  for (const template of catalogueTemplates(type)) {
    const key = `${ORDER_ROOTS[type][side]}.${template.replaceAll('[]', '[0]')}`;
    const resolved = resolveKey(type, key);
    if (!resolved) throw new Error(`xml schema: ${type} template ${template} does not resolve`);
    const segments = template.split('.');
    let parent = root;
    for (const segment of segments.slice(0, -1)) {
      parent = groupAt(parent, segment);
      if (segment.endsWith('[]')) listMarks.add(parent);
    }
    const last = segments[segments.length - 1] ?? '';
    if (resolved.field === null) {
      const entry = groupAt(parent, last);
      if (!resolved.collection) throw new Error(`xml schema: ${type} entry ${template} has no collection`);
      entry.collection = resolved.collection;
      continue;
    }
    if (!sideFits(resolved.field, side)) continue;
    if (parent.children.some((child) => child.name === last)) {
      throw new Error(`xml schema: ${type} element ${template} defined twice`);
    }
    const collection = resolved.collection;
    const isDifferentiator = collection !== undefined && collection.differentiator === resolved.field;
    const leaf: LeafNode = {
      kind: 'leaf',
      name: last,
      field: resolved.field,
      required: isDifferentiator || (side === 'in' && parent === root && last === MANDATORY_FIELD[type]),
    };
    if (isDifferentiator && Array.isArray(collection.values)) {
      leaf.differentiatorValues = collection.values as readonly string[];
    }
    parent.children.push(leaf);
  }
  for (const group of listMarks) {
    if (!group.collection) throw new Error(`xml schema: ${type} list ${group.name} has no collection`);
  }
  const differentiatorFirst = (group: GroupNode) => {
    if (group.collection) {
      const name = group.collection.differentiator.path;
      const index = group.children.findIndex((child) => child.name === name);
      if (index < 0) throw new Error(`xml schema: ${type} entry ${group.name} has no differentiator ${name}`);
      group.children.unshift(...group.children.splice(index, 1));
    }
    for (const child of group.children) if (child.kind === 'group') differentiatorFirst(child);
  };
  differentiatorFirst(root);
  return root;
}

/** The named simple type of a field (declared once in the schema). */
function typeName(field: FieldDef, name: string): string {
  if (VEHICLE_NUMBER_FIELDS.has(name)) return 'vehicleNumber';
  switch (field.kind) {
    case 'string':
    case 'baseString':
    case 'option':
    case 'multioption':
      return 'text200';
    case 'textarea':
      return 'text4000';
    case 'date':
      return 'date';
    case 'monthAndYear':
      return 'monthAndYear';
    case 'year':
      return 'year';
    case 'boolean':
      return 'boolean';
    case 'double':
    case 'formula':
      return `${field.negatable ? 'signedDecimal' : 'decimal'}${field.decimals ?? ''}`;
  }
}

const escapeXml = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('"', '&quot;');

/** The simple type declarations the tree uses, sorted by name. */
function simpleTypes(names: Set<string>): string[] {
  const restriction = (name: string, base: string, facets: string[], doc: string) => [
    `  <xs:simpleType name="${name}">`,
    `    <xs:annotation><xs:documentation>${escapeXml(doc)}</xs:documentation></xs:annotation>`,
    `    <xs:restriction base="${base}">`,
    ...facets.map((facet) => `      ${facet}`),
    '    </xs:restriction>',
    '  </xs:simpleType>',
  ];
  const lines: string[] = [];
  for (const name of [...names].sort()) {
    const number = /^(signedDecimal|decimal)(\d*)$/.exec(name);
    if (number) {
      const sign = number[1] === 'signedDecimal' ? '-?' : '';
      const places = number[2] ?? '';
      const fraction = places === '' ? '(\\.\\d+)?' : places === '0' ? '' : `(\\.\\d{1,${places}})?`;
      const doc = `A number, dot as decimal separator, ${places === '' ? 'any' : `at most ${places}`} decimal places${sign ? ', may be negative' : ''}.`;
      lines.push(...restriction(name, 'xs:string', [`<xs:pattern value="${sign}\\d+${fraction}"/>`], doc));
      continue;
    }
    switch (name) {
      case 'text200':
      case 'text4000': {
        const max = name === 'text200' ? MAX_TEXT_LENGTH.string : MAX_TEXT_LENGTH.textarea;
        lines.push(
          ...restriction(name, 'xs:string', [`<xs:maxLength value="${max}"/>`], `Text, at most ${max} characters.`),
        );
        break;
      }
      case 'text50':
        lines.push(...restriction(name, 'xs:string', ['<xs:maxLength value="50"/>'], 'Text, at most 50 characters.'));
        break;
      case 'countryCode':
        lines.push(
          ...restriction(name, 'xs:string', ['<xs:pattern value="[A-Z]{2}"/>'], 'ISO 3166-1 alpha-2 country code.'),
        );
        break;
      case 'timestamp':
        lines.push(
          ...restriction(
            name,
            'xs:dateTime',
            ['<xs:pattern value=".+T.+(Z|[+-]\\d{2}:\\d{2})"/>'],
            'ISO 8601 date and time with its offset, e.g. 2026-03-18T10:48:58.000Z.',
          ),
        );
        break;
      case 'vehicleNumber':
        lines.push(
          ...restriction(
            name,
            'xs:string',
            ['<xs:pattern value="\\d{12}"/>'],
            'Wagon or wheelset number: 12 digits without spaces or hyphen, the last one the check digit.',
          ),
        );
        break;
      case 'date':
        lines.push(...restriction(name, 'xs:date', ['<xs:pattern value="\\d{4}-\\d{2}-\\d{2}"/>'], 'YYYY-MM-DD.'));
        break;
      case 'monthAndYear':
        lines.push(...restriction(name, 'xs:gYearMonth', ['<xs:pattern value="\\d{4}-\\d{2}"/>'], 'YYYY-MM.'));
        break;
      case 'year':
        lines.push(...restriction(name, 'xs:string', ['<xs:pattern value="(19|20|21)\\d{2}"/>'], 'YYYY.'));
        break;
      case 'boolean':
        lines.push(...restriction(name, 'xs:boolean', ['<xs:pattern value="true|false"/>'], 'true or false.'));
        break;
      default:
        throw new Error(`xml schema: no simple type ${name}`);
    }
  }
  return lines;
}

function fieldDoc(field: FieldDef): string {
  const parts: string[] = [`kind ${field.kind}`];
  if (field.unit) parts.push(`unit ${field.unit}`);
  if (field.decimals !== undefined) parts.push(`${field.decimals} decimal${field.decimals === 1 ? '' : 's'}`);
  if (field.list) parts.push(`value list ${field.list}`);
  if (field.kind === 'formula') parts.push('calculated, read-only');
  return parts.join(', ');
}

/**
 * The header of our XML exports (docs/xml-format.md#header): who made the file (the workshop), for which order and
 * when. Optional, so that templates without one stay valid; the import ignores it.
 */
function headerLines(): string[] {
  const doc = (depth: number, text: string) =>
    `${'  '.repeat(depth)}<xs:annotation><xs:documentation>${escapeXml(text)}</xs:documentation></xs:annotation>`;
  const leaf = (depth: number, name: string, type: string, min: 0 | 1, text: string) => [
    `${'  '.repeat(depth)}<xs:element name="${name}" type="${type}" minOccurs="${min}">`,
    doc(depth + 1, text),
    `${'  '.repeat(depth)}</xs:element>`,
  ];
  return [
    '        <xs:element name="Header" minOccurs="0">',
    doc(5, 'Written by the VERS exports: the sender, the order and the time of generation. The import ignores it.'),
    '          <xs:complexType>',
    '            <xs:sequence>',
    '              <xs:element name="Sender" minOccurs="1">',
    doc(8, 'The workshop that generated the file, as in its settings.'),
    '                <xs:complexType>',
    '                  <xs:sequence>',
    ...leaf(10, 'Name', 'text200', 1, "The workshop's name."),
    ...leaf(10, 'CountryCode', 'countryCode', 0, "The workshop's country; left out when not set."),
    ...leaf(10, 'RevNr', 'text50', 0, "The workshop's REV number; left out when not set."),
    ...leaf(10, 'SiteId', 'text50', 0, "The workshop's site id; left out when not set."),
    '                  </xs:sequence>',
    '                </xs:complexType>',
    '              </xs:element>',
    ...leaf(7, 'OrderNumber', 'text200', 1, "The VERS order number (the order's `number`)."),
    ...leaf(7, 'Generated', 'timestamp', 1, 'When the file was generated (ISO 8601, UTC).'),
    '            </xs:sequence>',
    '          </xs:complexType>',
    '        </xs:element>',
  ];
}

/** The XSD of an order type's import file: root `Body`, then `Wagen` or `Radsatz` with both technical sections. */
export function orderXsd(type: OrderType): string {
  const types = new Set<string>();
  const lines: string[] = [];
  const pad = (depth: number) => '  '.repeat(depth);

  const leafLines = (leaf: LeafNode, depth: number) => {
    const min = leaf.required ? '1' : '0';
    const max = leaf.field.kind === 'multioption' ? ' maxOccurs="unbounded"' : '';
    const occurs = `minOccurs="${min}"${max}`;
    const doc = `${pad(depth + 1)}<xs:annotation><xs:documentation>${escapeXml(fieldDoc(leaf.field))}</xs:documentation></xs:annotation>`;
    const choices = leaf.differentiatorValues ?? leaf.field.choices;
    if (choices) {
      lines.push(`${pad(depth)}<xs:element name="${leaf.name}" ${occurs}>`, doc);
      lines.push(`${pad(depth + 1)}<xs:simpleType>`, `${pad(depth + 2)}<xs:restriction base="xs:string">`);
      for (const choice of choices) lines.push(`${pad(depth + 3)}<xs:enumeration value="${escapeXml(choice)}"/>`);
      lines.push(`${pad(depth + 2)}</xs:restriction>`, `${pad(depth + 1)}</xs:simpleType>`);
      lines.push(`${pad(depth)}</xs:element>`);
      return;
    }
    const name = typeName(leaf.field, leaf.name);
    types.add(name);
    lines.push(
      `${pad(depth)}<xs:element name="${leaf.name}" type="${name}" ${occurs}>`,
      doc,
      `${pad(depth)}</xs:element>`,
    );
  };

  const groupLines = (group: GroupNode, depth: number, occurs: string, path: string) => {
    lines.push(`${pad(depth)}<xs:element name="${group.name}" ${occurs}>`);
    if (group.collection) {
      const differentiator = group.collection.differentiator.path;
      lines.push(
        `${pad(depth + 1)}<xs:annotation><xs:documentation>list entry, named by ${differentiator}</xs:documentation></xs:annotation>`,
      );
    }
    lines.push(`${pad(depth + 1)}<xs:complexType>`, `${pad(depth + 2)}<xs:sequence>`);
    for (const child of group.children) {
      if (child.kind === 'leaf') leafLines(child, depth + 3);
      else {
        const childOccurs = child.collection ? `minOccurs="0" maxOccurs="${child.collection.max}"` : 'minOccurs="0"';
        groupLines(child, depth + 3, childOccurs, `${path}.${child.name}`);
      }
    }
    lines.push(`${pad(depth + 2)}</xs:sequence>`, `${pad(depth + 1)}</xs:complexType>`);
    // Each list's entries are named by their differentiator, so two entries may not share one.
    for (const child of group.children) {
      if (child.kind !== 'group' || !child.collection) continue;
      lines.push(
        `${pad(depth + 1)}<xs:unique name="unique.${path}.${child.name}">`,
        `${pad(depth + 2)}<xs:selector xpath="${child.name}"/>`,
        `${pad(depth + 2)}<xs:field xpath="${child.collection.differentiator.path}"/>`,
        `${pad(depth + 1)}</xs:unique>`,
      );
    }
    lines.push(`${pad(depth)}</xs:element>`);
  };

  const body = XML_BODY[type];
  lines.push('  <xs:element name="Body">', '    <xs:complexType>', '      <xs:sequence>');
  lines.push(...headerLines());
  for (const name of ['text200', 'text50', 'countryCode', 'timestamp']) types.add(name);
  lines.push(`        <xs:element name="${body}">`, '          <xs:complexType>', '            <xs:sequence>');
  groupLines(sectionTree(type, 'in'), 7, 'minOccurs="1"', 'in');
  groupLines(sectionTree(type, 'out'), 7, 'minOccurs="0"', 'out');
  lines.push('            </xs:sequence>', '          </xs:complexType>', '        </xs:element>');
  lines.push('      </xs:sequence>', '    </xs:complexType>', '  </xs:element>');

  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<!-- VERS import format for ${type === 'WAGON' ? 'a wagon' : 'a wheelset'} order (docs/xml-format.md).`,
    '     Generated from the field catalogue by `npx tsx apps/server/scripts/write-xsd.ts`: do not edit. -->',
    '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" elementFormDefault="unqualified">',
    ...lines,
    ...simpleTypes(types),
    '</xs:schema>',
    '',
  ].join('\n');
}

/** Where the generated schemas live, relative to the repository root. */
export const XSD_FILES: Record<OrderType, string> = {
  WAGON: 'docs/xml/vers-wagon.xsd',
  WHEELSET: 'docs/xml/vers-wheelset.xsd',
};
