/** The kubelet flags joiner sets at launch: `--node-labels`, `--register-with-taints`, `--max-pods`. */
import type { Taint } from '../../../core/model/taint.js';

const EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;

/** Parses `key=value:Effect`, `key=:Effect` or `key:Effect`; throws naming the bad taint. */
export function parseTaint(text: string, where: string): Taint {
  const colon = text.lastIndexOf(':');
  const effect = text.slice(colon + 1);
  if (colon <= 0 || !(EFFECTS as readonly string[]).includes(effect)) {
    throw new Error(
      `${where}: taint ${JSON.stringify(text)} must look like key=value:Effect with Effect one of ${EFFECTS.join(', ')}`,
    );
  }
  const kv = text.slice(0, colon);
  const eq = kv.indexOf('=');
  const key = eq === -1 ? kv : kv.slice(0, eq);
  const value = eq === -1 ? '' : kv.slice(eq + 1);
  return value
    ? { key, value, effect: effect as Taint['effect'] }
    : { key, effect: effect as Taint['effect'] };
}

/** Parses `k1=v1,k2=v2`; throws naming the bad label. */
export function parseLabelList(text: string, where: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const item of text.split(',').filter((s) => s.trim() !== '')) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw new Error(`${where}: node label ${JSON.stringify(item)} must look like key=value`);
    labels[item.slice(0, eq).trim()] = item.slice(eq + 1).trim();
  }
  return labels;
}

/** What a list of kubelet flags asks for. */
export interface KubeletFlags {
  labels: Record<string, string>;
  taints: Taint[];
  maxPods?: number;
}

/** Reads the flags joiner uses from a list such as `['--node-labels=a=b', '--max-pods=29']`. */
export function parseKubeletFlags(flags: readonly string[], where: string): KubeletFlags {
  const out: KubeletFlags = { labels: {}, taints: [] };
  for (let i = 0; i < flags.length; i++) {
    const flag = flags[i];
    const [name, inline] = flag.includes('=')
      ? [flag.slice(0, flag.indexOf('=')), flag.slice(flag.indexOf('=') + 1)]
      : [flag, undefined];
    const value = (): string => inline ?? flags[++i] ?? '';
    if (name === '--node-labels')
      Object.assign(out.labels, parseLabelList(value(), `${where} --node-labels`));
    else if (name === '--register-with-taints') {
      out.taints.push(
        ...value()
          .split(',')
          .filter((t) => t !== '')
          .map((t) => parseTaint(t, `${where} --register-with-taints`)),
      );
    } else if (name === '--max-pods') {
      const n = Number(value());
      if (!Number.isInteger(n) || n <= 0) throw new Error(`${where}: --max-pods must be a positive integer`);
      out.maxPods = n;
    }
  }
  return out;
}

/** Splits a shell word list, honouring single quotes, double quotes and backslashes. */
export function shellWords(text: string): string[] {
  const words: string[] = [];
  let current = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === quote) quote = undefined;
      else if (ch === '\\' && quote === '"' && i + 1 < text.length) current += text[++i];
      else current += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (ch === '\\' && i + 1 < text.length) {
      const next = text[++i];
      if (next !== '\n') current += next;
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
    } else {
      current += ch;
      inWord = true;
    }
  }
  if (inWord) words.push(current);
  return words;
}
