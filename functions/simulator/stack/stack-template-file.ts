/**
 * An already synthesized stack (`joiner simulate --stack-template FILE`): a template file, or a
 * cloud assembly directory (`cdk synth -o DIR`) holding it. A file that is not a CloudFormation
 * template, or a template without joiner's functions and their roles, is refused with an error
 * naming the file.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FunctionName } from '../../shared/event-sources.js';
import type { CfnTemplate } from './synthesize-stack.js';

/** A stack template that cannot be used; `file` names it. */
export class StackTemplateError extends Error {
  constructor(
    readonly file: string,
    problem: string,
  ) {
    super(`${file}: ${problem}`);
    this.name = 'StackTemplateError';
  }
}

/** A template and the file it came from. */
export interface StackTemplateFile {
  readonly file: string;
  readonly template: CfnTemplate;
}

/** Reads the template at `path` (a file, or a directory holding `*.template.json`). */
export async function readStackTemplate(path: string): Promise<StackTemplateFile> {
  const info = await stat(path).catch(() => undefined);
  if (!info) throw new StackTemplateError(path, 'no such file or directory');
  if (!info.isDirectory()) return { file: path, template: checkedTemplate(path, await readText(path)) };
  const names = (await readdir(path)).filter((n) => n.endsWith('.template.json')).sort();
  if (names.length === 0)
    throw new StackTemplateError(path, 'holds no *.template.json (expected `cdk synth -o DIR` output)');
  const found: StackTemplateFile[] = [];
  for (const name of names) {
    const file = join(path, name);
    try {
      found.push({ file, template: checkedTemplate(file, await readText(file)) });
    } catch (error) {
      if (!(error instanceof StackTemplateError)) throw error;
    }
  }
  if (found.length === 0)
    throw new StackTemplateError(path, `none of ${names.join(', ')} is a joiner stack template`);
  if (found.length > 1)
    throw new StackTemplateError(
      path,
      `several joiner stacks (${found.map((f) => f.file).join(', ')}); name one file`,
    );
  return found[0] as StackTemplateFile;
}

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new StackTemplateError(file, `cannot be read (${(error as Error).message})`);
  }
}

/** Parses and checks one template: a JSON object with Resources, and joiner's functions with roles. */
export function checkedTemplate(file: string, text: string): CfnTemplate {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new StackTemplateError(
      file,
      'is not a CloudFormation template (not JSON; give the synthesized .template.json)',
    );
  }
  const resources = (parsed as { Resources?: unknown } | null)?.Resources;
  if (typeof parsed !== 'object' || parsed === null || typeof resources !== 'object' || resources === null) {
    throw new StackTemplateError(file, 'is not a CloudFormation template (no Resources section)');
  }
  const template = parsed as CfnTemplate;
  if (Object.keys(functionRoles(template)).length === 0) {
    throw new StackTemplateError(
      file,
      "has no joiner roles (no AWS::Lambda::Function with POWERTOOLS_SERVICE_NAME 'joiner-<function>' and an IAM role); is this joiner's stack?",
    );
  }
  return template;
}

const SERVICE = /^joiner-([a-z]+)$/;

/**
 * joiner's functions in a template and the logical id of each one's role, matched by the service
 * name every joiner function carries in its environment (`POWERTOOLS_SERVICE_NAME=joiner-<name>`).
 */
export function functionRoles(template: CfnTemplate): Partial<Record<FunctionName, string>> {
  const roles: Partial<Record<FunctionName, string>> = {};
  for (const resource of Object.values(template.Resources ?? {})) {
    if (resource?.Type !== 'AWS::Lambda::Function') continue;
    const props = resource.Properties ?? {};
    const service = (props.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables
      ?.POWERTOOLS_SERVICE_NAME;
    const name = typeof service === 'string' ? SERVICE.exec(service)?.[1] : undefined;
    const role = (props.Role as { 'Fn::GetAtt'?: unknown[] } | undefined)?.['Fn::GetAtt']?.[0];
    const roleResource = typeof role === 'string' ? template.Resources[role] : undefined;
    if (name && typeof role === 'string' && roleResource?.Type === 'AWS::IAM::Role')
      roles[name as FunctionName] = role;
  }
  return roles;
}
