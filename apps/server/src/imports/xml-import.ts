import {
  type AttributeValue,
  ORDER_ROOTS,
  type OrderType,
  WAGON_WHEELSETS,
  validateVehicleNumber,
  valueProblem,
} from '@vers/domain';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { validateXML } from 'xmllint-wasm';
import { type GroupNode, MANDATORY_FIELD, XML_BODY, orderXsd, sectionName, sectionTree } from './xml-schema.ts';

/**
 * Reads an order import file (docs/xml-format.md). The file is hostile input: it is refused when larger than
 * {@link MAX_XML_BYTES} or when it has a document type declaration (DTD, entity declarations) before any parser
 * sees it; neither parser expands entities; then it is checked for well-formedness, its order type, the mandatory
 * vehicle number and against the schema generated from the field catalogue.
 */

export const MAX_XML_BYTES = 2 * 1024 * 1024;

export type XmlImportMessageKey = 'NOT_VALID_XML' | 'UNEXPECTED_ORDER_TYPE' | 'MISSING_MANDATORY' | 'TOO_LARGE';

export interface XmlImportValue {
  /** The result key on the incoming side, e.g. `$.Body.Wagen.technicalWaggonIncoming.Eigengewicht`. */
  key: string;
  value: AttributeValue['value'];
}

export type XmlImportResult =
  | { ok: true; values: XmlImportValue[]; number: string; subNumbers: string[] }
  | { ok: false; messageKey: XmlImportMessageKey; message: string; line?: number };

type Refusal = Extract<XmlImportResult, { ok: false }>;

const refuse = (messageKey: XmlImportMessageKey, message: string, line?: number): Refusal =>
  line === undefined ? { ok: false, messageKey, message } : { ok: false, messageKey, message, line };

const lineAt = (text: string, index: number) => text.slice(0, index).split('\n').length;

/** Parsed element: every element is an array (`isArray`), text-only elements are strings. */
type Parsed = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  processEntities: false,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  trimValues: true,
  isArray: () => true,
});

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** The five predefined entities and character references; nothing else is ever expanded. */
function decodeText(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|lt|gt|amp|quot|apos);/g, (whole, name: string) => {
    if (name.startsWith('#')) {
      const code = name[1] === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return PREDEFINED[name] ?? whole;
  });
}

const children = (element: unknown, name: string): unknown[] => {
  if (element === null || typeof element !== 'object' || !Object.hasOwn(element, name)) return [];
  const found = (element as Parsed)[name];
  return Array.isArray(found) ? found : [found];
};

const textOf = (element: unknown): string => {
  if (typeof element === 'string') return decodeText(element).trim();
  if (element !== null && typeof element === 'object' && typeof (element as Parsed)['#text'] === 'string') {
    return decodeText((element as Parsed)['#text'] as string).trim();
  }
  return '';
};

const schemas = new Map<OrderType, string>();
const schemaOf = (type: OrderType) => {
  let schema = schemas.get(type);
  if (!schema) {
    schema = orderXsd(type);
    schemas.set(type, schema);
  }
  return schema;
};

/** The incoming values below a section, by result key; entries indexed in document order. */
function collect(group: GroupNode, element: unknown, path: string, into: XmlImportValue[]): string | null {
  for (const node of group.children) {
    const found = children(element, node.name);
    if (node.kind === 'group') {
      for (const [index, entry] of found.entries()) {
        const problem = collect(node, entry, `${path}.${node.name}${node.collection ? `[${index}]` : ''}`, into);
        if (problem) return problem;
      }
      continue;
    }
    const key = `${path}.${node.name}`;
    const texts = found.map(textOf).filter((text) => text !== '');
    if (texts.length === 0) continue;
    const value: AttributeValue['value'] =
      node.field.kind === 'multioption'
        ? texts
        : node.field.kind === 'boolean'
          ? texts[0] === 'true'
          : (texts[0] ?? '');
    const problem = valueProblem(node.field, value);
    if (problem) return `${key}: ${problem}`;
    into.push({ key, value });
  }
  return null;
}

/**
 * Checks and reads an import file for an order of `expectedType`. The values are the file's incoming values as
 * result keys; `number` is the vehicle number, `subNumbers` the numbers of a wagon's incoming wheelsets.
 */
export async function parseOrderXml(text: string, expectedType: OrderType): Promise<XmlImportResult> {
  if (text.length > MAX_XML_BYTES || Buffer.byteLength(text, 'utf8') > MAX_XML_BYTES) {
    return refuse('TOO_LARGE', `The file is larger than ${MAX_XML_BYTES / 1024 / 1024} MB`);
  }
  // No DTD at all: it is the door for external entities and entity expansion (billion laughs).
  const declaration = /<!(DOCTYPE|ENTITY|ELEMENT|ATTLIST)/i.exec(text);
  if (declaration) {
    return refuse(
      'NOT_VALID_XML',
      'Document type declarations (DTD, entities) are not allowed',
      lineAt(text, declaration.index),
    );
  }
  const wellFormed = XMLValidator.validate(text);
  if (wellFormed !== true) {
    return refuse('NOT_VALID_XML', `The file is not valid XML: ${wellFormed.err.msg}`, wellFormed.err.line);
  }

  let document: Parsed;
  try {
    document = parser.parse(text) as Parsed;
  } catch (error) {
    return refuse('NOT_VALID_XML', `The file is not valid XML: ${(error as Error).message}`);
  }
  const roots = Object.keys(document);
  const body = children(document, 'Body')[0];
  if (roots.length !== 1 || body === undefined) return refuse('NOT_VALID_XML', 'The root element must be Body');
  const bodyName = XML_BODY[expectedType];
  const order = children(body, bodyName)[0];
  if (order === undefined) {
    const other = (Object.keys(XML_BODY) as OrderType[]).find((type) => children(body, XML_BODY[type]).length > 0);
    return other
      ? refuse(
          'UNEXPECTED_ORDER_TYPE',
          `The file holds a ${other} order (Body/${XML_BODY[other]}), not ${expectedType}`,
        )
      : refuse('NOT_VALID_XML', `Body must contain ${bodyName}`);
  }
  const incomingName = sectionName(expectedType, 'in');
  const incoming = children(order, incomingName)[0];
  const numberName = MANDATORY_FIELD[expectedType];
  const rawNumber = textOf(children(incoming, numberName)[0]);
  if (rawNumber === '') {
    return refuse('MISSING_MANDATORY', `Body/${bodyName}/${incomingName}/${numberName} is missing or empty`);
  }

  const validation = await validateXML({
    xml: { fileName: 'import.xml', contents: text },
    schema: { fileName: `vers-${expectedType.toLowerCase()}.xsd`, contents: schemaOf(expectedType) },
  });
  if (!validation.valid) {
    const first = validation.errors[0];
    // libxml2 also finds what the well-formedness check does not (an undeclared entity reference).
    const what = first?.rawMessage.includes('parser error') ? 'is not valid XML' : 'does not match the schema';
    const detail = (first?.message ?? validation.rawOutput).replace(
      /^\s*(parser error|Schemas validity error)\s*:\s*/,
      '',
    );
    return refuse('NOT_VALID_XML', `The file ${what}: ${detail.trim()}`, first?.loc?.lineNumber);
  }

  const values: XmlImportValue[] = [];
  const problem = collect(sectionTree(expectedType, 'in'), incoming, ORDER_ROOTS[expectedType].in, values);
  if (problem) return refuse('NOT_VALID_XML', `The file has a value the order cannot hold: ${problem}`);

  const number = validateVehicleNumber(rawNumber);
  if (!number.ok) return refuse('NOT_VALID_XML', `${numberName} ${rawNumber} is not a valid number (${number.reason})`);
  const subNumbers: string[] = [];
  if (expectedType === 'WAGON') {
    const list = `${ORDER_ROOTS.WAGON.in}.${WAGON_WHEELSETS.path}[`;
    for (const { key, value } of values) {
      const isWheelsetNumber = key.startsWith(list) && /^\d+\]\.Wheelsetnumber$/.test(key.slice(list.length));
      if (!isWheelsetNumber || typeof value !== 'string') continue;
      const sub = validateVehicleNumber(value);
      if (!sub.ok) return refuse('NOT_VALID_XML', `Wheelsetnumber ${value} is not a valid number (${sub.reason})`);
      subNumbers.push(sub.digits);
    }
  }
  return { ok: true, values, number: number.digits, subNumbers };
}
