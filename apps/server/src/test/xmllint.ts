import { spawnSync } from 'node:child_process';

/**
 * Validates a document against an XSD file with libxml2's xmllint (Debian libxml2-utils, which
 * apps/server/scripts/ensure-poppler.sh installs): the error lines, [] when valid. Throws when xmllint is missing
 * or cannot read the schema, so that a broken setup never passes as a valid document.
 */
export function xmllintErrors(xml: string, schemaPath: string): string[] {
  const run = spawnSync('xmllint', ['--noout', '--nonet', '--schema', schemaPath, '-'], {
    input: xml,
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  if (run.error) throw run.error;
  if (run.status === 0) return [];
  // 1: not well-formed, 3: not valid; anything else (4, 5: the schema) is not an answer about the document.
  if (run.status !== 1 && run.status !== 3) throw new Error(`xmllint failed (${run.status}): ${run.stderr}`);
  return run.stderr.split('\n').filter((line) => line.trim() !== '' && !/^- fails to validate$/.test(line.trim()));
}
