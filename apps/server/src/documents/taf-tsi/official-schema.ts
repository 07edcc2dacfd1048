import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The official TAF TSI XML schema of the EU Agency for Railways that the RollingStockDataset export is validated
 * against (era/README.md). The files are committed in `era/` exactly as published, pinned here by commit and SHA-256
 * and checked before each use.
 */
export const ERA_SCHEMA = {
  repository: 'EU-Agency-for-Railways/TSI_TAF',
  commit: '354eb2fbb72072e5f12085a9f647eb4b841e40a0',
  /** The schema's own `version` attribute (taf_cat_complete.xsd and taf_cat_codelists.xsd). */
  version: '3.5.2',
  /** The file to hand to xmllint: it includes taf_cat_codelists.xsd and imports TAP_TSI_codelist.xsd. */
  main: 'taf_cat_complete.xsd',
  files: [
    { name: 'taf_cat_complete.xsd', sha256: '6dc129e122be577e9a6f43a4327bf2ca4bf188ada71629b4695cc38382487c05' },
    { name: 'taf_cat_codelists.xsd', sha256: 'ec9b93cd10fa85a65151cb3f25013b44e97817a3d571e6fd3ed120ca3d21c313' },
    { name: 'TAP_TSI_codelist.xsd', sha256: 'be2b7ef0b380f1220c6ea8a864394df108b09163d85932bf87c56ae02019d1bc' },
  ],
} as const;

/** Where the files live (a folder beside this module). */
export const ERA_SCHEMA_DIR = fileURLToPath(new URL('./era/', import.meta.url));

export const sha256 = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex');

/** What is wrong with the local copy: a file missing or not the published one; empty when all are there. */
export function eraSchemaProblems(dir: string = ERA_SCHEMA_DIR): string[] {
  const problems: string[] = [];
  for (const file of ERA_SCHEMA.files) {
    const where = `${dir}${file.name}`;
    if (!existsSync(where)) problems.push(`${file.name} is missing`);
    else if (sha256(readFileSync(where)) !== file.sha256) problems.push(`${file.name} is not the published file`);
  }
  return problems;
}

/** The path of taf_cat_complete.xsd, after checking that all files are the published ones. */
export function eraSchemaPath(): string {
  const problems = eraSchemaProblems();
  if (problems.length > 0) {
    throw new Error(
      `ERA TAF TSI schema: ${problems.join('; ')} in ${ERA_SCHEMA_DIR}; restore the published files (era/README.md)`,
    );
  }
  return `${ERA_SCHEMA_DIR}${ERA_SCHEMA.main}`;
}
