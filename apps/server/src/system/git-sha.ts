import { execFileSync } from 'node:child_process';

/** The commit the server runs from: VERS_GIT_SHA when set (a deployed build), else the checkout's HEAD. */
export function resolveGitSha(fromEnv: string | undefined): string {
  if (fromEnv) return fromEnv;
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}
