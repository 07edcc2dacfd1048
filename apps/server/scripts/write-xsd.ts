import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ALL_ORDER_TYPES } from '@vers/domain';
import { XSD_FILES, orderXsd } from '../src/imports/xml-schema.ts';

/** Writes the XML import schemas generated from the field catalogue (docs/xml-format.md). */
const root = fileURLToPath(new URL('../../../', import.meta.url));
for (const type of ALL_ORDER_TYPES) {
  writeFileSync(`${root}${XSD_FILES[type]}`, orderXsd(type));
  console.log(`wrote ${XSD_FILES[type]}`);
}
