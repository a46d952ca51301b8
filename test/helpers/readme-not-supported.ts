import { readFileSync } from 'node:fs';

/**
 * The README's "Not supported, and refused" list: from its bold heading to the first blank line.
 * Tests hold every Karpenter field, label and value joiner refuses to being named there.
 */
export function readmeNotSupported(): string {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const start = readme.indexOf('**Not supported, and refused**');
  if (start < 0) throw new Error('README has no "Not supported, and refused" list');
  const end = readme.indexOf('\n\n', start);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** The names the list writes in backticks (`name`), each as written. */
export function namedInBackticks(section: string): Set<string> {
  return new Set([...section.matchAll(/`([^`]+)`/g)].map((m) => m[1]));
}
