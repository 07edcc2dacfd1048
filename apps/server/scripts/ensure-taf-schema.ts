// The official ERA TAF TSI schema files the export tests validate against (apps/server/src/documents/taf-tsi/era/
// README.md): fetched from the pinned commit of the public repository when missing or changed, and kept only when
// each file's SHA-256 is the pinned one. Run by `npm run test:server`; VERS_TAF_SCHEMA_URL names another source
// (a mirror) holding the same files.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { ERA_SCHEMA, ERA_SCHEMA_DIR, eraSchemaProblems, sha256 } from '../src/documents/taf-tsi/official-schema.ts';

const base =
  process.env.VERS_TAF_SCHEMA_URL ?? `https://raw.githubusercontent.com/${ERA_SCHEMA.repository}/${ERA_SCHEMA.commit}/`;

if (eraSchemaProblems().length === 0) process.exit(0);
console.log(`fetching the ERA TAF TSI schema ${ERA_SCHEMA.version} (${ERA_SCHEMA.commit.slice(0, 7)}) from ${base}`);
mkdirSync(ERA_SCHEMA_DIR, { recursive: true });
for (const file of ERA_SCHEMA.files) {
  const url = new URL(file.name, base.endsWith('/') ? base : `${base}/`);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
  const bytes = Buffer.from(await response.arrayBuffer());
  const found = sha256(bytes);
  if (found !== file.sha256) throw new Error(`${url}: SHA-256 ${found}, expected ${file.sha256}`);
  // Written beside and renamed: an interrupted download never leaves half a schema under the real name.
  const target = `${ERA_SCHEMA_DIR}${file.name}`;
  writeFileSync(`${target}.part`, bytes);
  renameSync(`${target}.part`, target);
}
const left = eraSchemaProblems();
if (left.length > 0) throw new Error(`ERA TAF TSI schema still not right: ${left.join('; ')}`);
