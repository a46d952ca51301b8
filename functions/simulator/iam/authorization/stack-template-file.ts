/**
 * Reading a synthesized CloudFormation template from disk: a template file (JSON, or YAML with
 * the short-form `!Ref` / `!GetAtt`… tags) or a `cdk synth -o DIR` directory, where the joiner
 * stack's template is found through `manifest.json` (or the only `*.template.json`). Bad input is
 * a {@link TemplateError} naming the file and what is wrong with it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml, type Tags } from 'yaml';
import { TemplateError } from './template-intrinsics.js';

/** A template as read: its parsed body and the file it came from. */
export interface StackTemplateFile {
  readonly file: string;
  readonly template: Record<string, unknown>;
}

const SHORT_FORMS = ['Ref', 'Condition'].concat(
  [
    'GetAtt',
    'Join',
    'Sub',
    'Select',
    'Split',
    'If',
    'Equals',
    'And',
    'Or',
    'Not',
    'Base64',
    'FindInMap',
    'GetAZs',
    'ImportValue',
    'Cidr',
  ].map((f) => `Fn::${f}`),
);

/** YAML tags for CloudFormation's short forms, in scalar, sequence and mapping positions. */
const CLOUDFORMATION_TAGS: Tags = SHORT_FORMS.flatMap((fn) => {
  const tag = `!${fn.replace('Fn::', '')}`;
  const wrap = (value: unknown) =>
    fn === 'Fn::GetAtt' && typeof value === 'string' ? { [fn]: value.split('.') } : { [fn]: value };
  return [
    { tag, resolve: (value: string) => wrap(value) },
    { tag, collection: 'seq' as const, resolve: (value: { toJSON(): unknown }) => wrap(value.toJSON()) },
    { tag, collection: 'map' as const, resolve: (value: { toJSON(): unknown }) => wrap(value.toJSON()) },
  ];
}) as Tags;

/** The template file of a `cdk synth` output directory: the joiner stack's, or the only one. */
function templateInDirectory(dir: string, stackName: string | undefined): string {
  const manifestFile = join(dir, 'manifest.json');
  const candidates: { name: string; file: string }[] = [];
  if (existsSync(manifestFile)) {
    let manifest: { artifacts?: Record<string, { type?: string; properties?: { templateFile?: string } }> };
    try {
      manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
    } catch (error) {
      throw new TemplateError(`${manifestFile}: not JSON (${(error as Error).message})`);
    }
    for (const [name, artifact] of Object.entries(manifest.artifacts ?? {})) {
      const file = artifact.properties?.templateFile;
      if (artifact.type === 'aws:cloudformation:stack' && file)
        candidates.push({ name, file: join(dir, file) });
    }
  } else {
    for (const entry of readdirSync(dir)) {
      if (entry.endsWith('.template.json'))
        candidates.push({ name: entry.replace(/\.template\.json$/, ''), file: join(dir, entry) });
    }
  }
  if (candidates.length === 0)
    throw new TemplateError(
      `${dir}: no CloudFormation stack template in this directory (expected cdk synth -o output)`,
    );
  if (stackName) {
    const found = candidates.find((c) => c.name === stackName);
    if (!found)
      throw new TemplateError(
        `${dir}: no stack ${stackName} (stacks: ${candidates.map((c) => c.name).join(', ')})`,
      );
    return found.file;
  }
  if (candidates.length === 1) return candidates[0].file;
  const joiner = candidates.filter((c) => /joiner/i.test(c.name));
  if (joiner.length === 1) return joiner[0].file;
  throw new TemplateError(
    `${dir}: several stacks (${candidates.map((c) => c.name).join(', ')}); name the joiner stack's template file`,
  );
}

/**
 * Reads a template file or `cdk synth` output directory.
 * @param stackName which stack of a directory to read (default: the only one, or the joiner one).
 */
export function readStackTemplateFile(path: string, stackName?: string): StackTemplateFile {
  if (!existsSync(path)) throw new TemplateError(`${path}: no such file or directory`);
  const file = statSync(path).isDirectory() ? templateInDirectory(path, stackName) : path;
  const text = readFileSync(file, 'utf8');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    try {
      body = parseYaml(text, { customTags: CLOUDFORMATION_TAGS });
    } catch (error) {
      throw new TemplateError(`${file}: neither JSON nor YAML (${(error as Error).message.split('\n')[0]})`);
    }
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new TemplateError(`${file}: not a CloudFormation template (expected an object with Resources)`);
  }
  const resources = (body as Record<string, unknown>).Resources;
  if (typeof resources !== 'object' || resources === null || Array.isArray(resources)) {
    throw new TemplateError(`${file}: not a CloudFormation template (no Resources section)`);
  }
  for (const [id, resource] of Object.entries(resources)) {
    if (
      typeof resource !== 'object' ||
      resource === null ||
      typeof (resource as { Type?: unknown }).Type !== 'string'
    ) {
      throw new TemplateError(`${file}: Resources.${id} has no Type`);
    }
  }
  return { file, template: body as Record<string, unknown> };
}

/**
 * Reads the joiner stack's template from a template file or `cdk synth -o DIR` directory and
 * checks it is one: it must define IAM roles and joiner's Lambda functions (whose environment
 * carries `JOINER_*` settings).
 * @throws TemplateError naming the file and what is wrong.
 */
export function loadStackTemplate(path: string, stackName?: string): StackTemplateFile {
  const read = readStackTemplateFile(path, stackName);
  const resources = Object.values(
    read.template.Resources as Record<string, { Type: string; Properties?: Record<string, unknown> }>,
  );
  if (!resources.some((r) => r.Type === 'AWS::IAM::Role')) {
    throw new TemplateError(`${read.file}: not a joiner stack template (it defines no AWS::IAM::Role)`);
  }
  const joinerFunction = resources.some((r) => {
    if (r.Type !== 'AWS::Lambda::Function') return false;
    const variables =
      (r.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {};
    return Object.keys(variables).some((k) => k.startsWith('JOINER_'));
  });
  if (!joinerFunction) {
    throw new TemplateError(
      `${read.file}: not a joiner stack template (no AWS::Lambda::Function with JOINER_* environment)`,
    );
  }
  return read;
}
