// The official ERA TAF TSI schema files the export tests validate against (apps/server/src/documents/taf-tsi/era/
// README.md). They are data from a public repository and not committed here: they are copied from the steering
// repository's shared folder (`../shared/era-taf-tsi/` beside this repository, or VERS_TAF_SCHEMA_DIR), else fetched
// from the pinned commit (VERS_TAF_SCHEMA_URL names a mirror), and kept only when each file's SHA-256 is the pinned
// one. Run by `npm run test:server`.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ERA_SCHEMA, ERA_SCHEMA_DIR, eraSchemaProblems, sha256 } from '../src/documents/taf-tsi/official-schema.ts';

if (eraSchemaProblems().length === 0) process.exit(0);
mkdirSync(ERA_SCHEMA_DIR, { recursive: true });

/** Writes a file beside and renames it: an interrupted copy never leaves half a schema under the real name. */
function keep(name: string, bytes: Buffer, from: string) {
  const found = sha256(bytes);
  if (found !== ERA_SCHEMA.files.find((file) => file.name === name)?.sha256) {
    throw new Error(`${from}: SHA-256 ${found} is not the pinned one of ${name}`);
  }
  const target = `${ERA_SCHEMA_DIR}${name}`;
  writeFileSync(`${target}.part`, bytes);
  renameSync(`${target}.part`, target);
}

const shared =
  process.env.VERS_TAF_SCHEMA_DIR ?? fileURLToPath(new URL('../../../../shared/era-taf-tsi/', import.meta.url));
const local = ERA_SCHEMA.files.every((file) => existsSync(`${shared}/${file.name}`));
if (local) {
  console.log(`copying the ERA TAF TSI schema ${ERA_SCHEMA.version} from ${shared}`);
  for (const file of ERA_SCHEMA.files)
    keep(file.name, readFileSync(`${shared}/${file.name}`), `${shared}/${file.name}`);
} else {
  const base =
    process.env.VERS_TAF_SCHEMA_URL ??
    `https://raw.githubusercontent.com/${ERA_SCHEMA.repository}/${ERA_SCHEMA.commit}/`;
  console.log(`fetching the ERA TAF TSI schema ${ERA_SCHEMA.version} (${ERA_SCHEMA.commit.slice(0, 7)}) from ${base}`);
  for (const file of ERA_SCHEMA.files) {
    const url = new URL(file.name, base.endsWith('/') ? base : `${base}/`);
    const response = await fetch(url).catch((error: unknown) => {
      throw new Error(`${url}: ${String(error)}; put the files into ${shared} (era/README.md names them)`);
    });
    if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
    keep(file.name, Buffer.from(await response.arrayBuffer()), url.toString());
  }
}
const left = eraSchemaProblems();
if (left.length > 0) throw new Error(`ERA TAF TSI schema still not right: ${left.join('; ')}`);
