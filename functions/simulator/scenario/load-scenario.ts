/**
 * Reads a scenario file: YAML, validated against the scenario schema, every manifest file read
 * relative to the scenario. Every error names the file, the step and the field.
 */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parseDocument } from 'yaml';
import type { z } from 'zod';
import { formatPath } from '../../core/model/config/diagnostic.js';
import {
  describeYamlError,
  documentObject,
  parseYamlDocuments,
} from '../../core/model/config/raw-document.js';
import type { CapacityReservationDecl, CapacityReservationStep } from './reservation-schema.js';
import {
  type AccountOptions,
  type CallFault,
  type DeleteNodeStep,
  type Expectation,
  type ExpectedDenial,
  type IceFault,
  type InterruptStep,
  type KmsKeyStep,
  type LaunchFailureFault,
  type ManifestSource,
  type MarketStep,
  type NodeConditionStep,
  type PatchStep,
  STEP_SCHEMAS,
  type StackOptions,
  type StepKind,
  scenarioSchema,
  type WaitStep,
} from './scenario-schema.js';

/** A Kubernetes object from a scenario (inline or read from a file). */
export interface Manifest {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string; readonly [key: string]: unknown };
  readonly [key: string]: unknown;
}

/** A step ready to play: manifests read, defaults applied. */
export type LoadedStep =
  | { readonly kind: 'apply' | 'delete'; readonly index: number; readonly manifests: readonly Manifest[] }
  | {
      readonly kind: 'scale';
      readonly index: number;
      readonly spec: { deployment?: string; nodePool?: string; namespace: string; replicas: number };
    }
  | { readonly kind: 'wait'; readonly index: number; readonly spec: WaitStep }
  | { readonly kind: 'patch'; readonly index: number; readonly spec: PatchStep }
  | { readonly kind: 'mark'; readonly index: number; readonly spec: string }
  | { readonly kind: 'interrupt'; readonly index: number; readonly spec: InterruptStep }
  | {
      readonly kind: 'fault';
      readonly index: number;
      readonly spec: IceFault | LaunchFailureFault | CallFault;
    }
  | { readonly kind: 'expect'; readonly index: number; readonly spec: Expectation }
  | { readonly kind: 'market'; readonly index: number; readonly spec: MarketStep }
  | { readonly kind: 'nodeCondition'; readonly index: number; readonly spec: NodeConditionStep }
  | { readonly kind: 'deleteNode'; readonly index: number; readonly spec: DeleteNodeStep }
  | { readonly kind: 'capacityReservation'; readonly index: number; readonly spec: CapacityReservationStep }
  | { readonly kind: 'kmsKey'; readonly index: number; readonly spec: KmsKeyStep };

/** A validated scenario. */
export interface Scenario {
  /** The file it was read from (or a label for text). */
  readonly file: string;
  readonly name: string;
  readonly description: string;
  readonly seed: number;
  readonly clusterName: string;
  /** The simulated region, when the scenario names one. */
  readonly region?: string;
  /** Virtual seconds per wall second. */
  readonly speed: number;
  /** Absolute path of the instance catalog, when the scenario names one. */
  readonly catalogPath?: string;
  readonly cluster: readonly Manifest[];
  readonly steps: readonly LoadedStep[];
  readonly expect?: Expectation;
  /** The simulated account's starting state. */
  readonly account: AccountOptions;
  /** The stack's context (cdk.json) the stack is synthesized with. */
  readonly stack: StackOptions;
  /** IAM denials the scenario expects; any other denial fails it. */
  readonly expectDenials: readonly ExpectedDenial[];
  /** The account's capacity reservations at the start. */
  readonly capacityReservations: readonly CapacityReservationDecl[];
}

/** A scenario that cannot be used; the message says where and what. */
export class ScenarioError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScenarioError';
  }
}

/** Reads and validates a scenario file. */
export async function loadScenario(path: string): Promise<Scenario> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ScenarioError(
      `${path}: ${code === 'ENOENT' ? 'no such file' : `cannot read: ${(error as Error).message}`}`,
    );
  }
  return parseScenario(text, path);
}

/** Validates scenario YAML; `file` names it in errors and anchors relative manifest paths. */
export async function parseScenario(text: string, file: string): Promise<Scenario> {
  const doc = parseDocument(text, { prettyErrors: true });
  if (doc.errors.length > 0) {
    if (doc.errors[0].code === 'MULTIPLE_DOCS') {
      throw new ScenarioError(
        `${file}: holds several YAML documents (separated by ---), a scenario is one document with name and steps ` +
          '(see scenarios/*.yaml); Kubernetes manifests go to `joiner plan` or into a scenario’s cluster and apply steps',
      );
    }
    const { position, message } = describeYamlError(doc.errors[0]);
    const at = position ? `${file}:${position.line}:${position.column}` : file;
    throw new ScenarioError(`${at}: invalid YAML: ${message}`);
  }
  const js = documentObject(doc);
  if ('error' in js) throw new ScenarioError(`${file}: ${js.error}`);
  const manifest = kubernetesKind(js.object);
  if (manifest) {
    throw new ScenarioError(
      `${file}: is a Kubernetes manifest (kind ${manifest}), not a scenario: a scenario has name and steps ` +
        '(see scenarios/*.yaml); manifests go to `joiner plan` or into a scenario’s cluster and apply steps',
    );
  }
  const parsed = scenarioSchema.safeParse(js.object);
  if (!parsed.success) throw zodError(file, [], parsed.error);
  const raw = parsed.data;
  const base = dirname(resolve(file));
  const cluster = await readManifests(raw.cluster, base, file, ['cluster']);
  const steps: LoadedStep[] = [];
  for (const [index, step] of raw.steps.entries()) {
    steps.push(await loadStep(step, index, base, file));
  }
  checkMarks(steps, raw.expect, file);
  checkReservations(raw.capacityReservations, steps, file);
  return {
    file,
    name: raw.name,
    description: raw.description,
    seed: raw.seed,
    clusterName: raw.clusterName,
    ...(raw.region ? { region: raw.region } : {}),
    speed: raw.speed,
    catalogPath: raw.catalog === undefined ? undefined : resolve(base, raw.catalog),
    cluster,
    steps,
    expect: raw.expect,
    account: raw.account,
    stack: raw.stack,
    expectDenials: raw.expectDenials,
    capacityReservations: raw.capacityReservations,
  };
}

/** The kind of a document that is a Kubernetes object (apiVersion and kind, no steps), else undefined. */
function kubernetesKind(object: unknown): string | undefined {
  if (typeof object !== 'object' || object === null) return undefined;
  const o = object as Record<string, unknown>;
  return typeof o.apiVersion === 'string' && typeof o.kind === 'string' && !('steps' in o)
    ? o.kind
    : undefined;
}

async function loadStep(
  step: Record<string, unknown>,
  index: number,
  base: string,
  file: string,
): Promise<LoadedStep> {
  const keys = Object.keys(step);
  const where = `${file}: steps[${index}]`;
  const kinds = Object.keys(STEP_SCHEMAS).join(', ');
  if (keys.length !== 1) {
    throw new ScenarioError(
      `${where}: a step has exactly one key (one of ${kinds}), got ${keys.length === 0 ? 'none' : keys.join(', ')}`,
    );
  }
  const kind = keys[0] as StepKind;
  const schema = STEP_SCHEMAS[kind] as z.ZodType | undefined;
  if (!schema) throw new ScenarioError(`${where}: unknown step '${keys[0]}' (expected one of ${kinds})`);
  const parsed = schema.safeParse(step[kind]);
  if (!parsed.success) throw zodError(file, ['steps', index, kind], parsed.error);
  if (kind === 'apply' || kind === 'delete') {
    const manifests = await readManifests(parsed.data as ManifestSource[], base, file, [
      'steps',
      index,
      kind,
    ]);
    return { kind, index, manifests };
  }
  return { kind, index, spec: parsed.data } as LoadedStep;
}

/** Every `podsStayed.since` names a `mark` played before it (any mark, for the final expect). */
function checkMarks(steps: readonly LoadedStep[], final: Expectation | undefined, file: string): void {
  const marks = new Set<string>();
  const check = (since: string | undefined, where: string): void => {
    if (since === undefined || marks.has(since)) return;
    const known =
      marks.size === 0 ? 'no mark step comes before it' : `marks before it: ${[...marks].join(', ')}`;
    throw new ScenarioError(`${file}: ${where}.podsStayed.since: no mark named ${since} (${known})`);
  };
  for (const step of steps) {
    if (step.kind === 'mark') marks.add(step.spec);
    if (step.kind === 'expect') check(step.spec.podsStayed?.since, `steps[${step.index}].expect`);
  }
  check(final?.podsStayed?.since, 'expect');
}

/** Reservation ids are declared once, and a change names one declared before it. */
function checkReservations(
  declared: readonly CapacityReservationDecl[],
  steps: readonly LoadedStep[],
  file: string,
): void {
  const ids = new Set<string>();
  for (const [i, r] of declared.entries()) {
    if (ids.has(r.id))
      throw new ScenarioError(`${file}: capacityReservations[${i}].id: ${r.id} is declared twice`);
    ids.add(r.id);
  }
  for (const step of steps) {
    if (step.kind !== 'capacityReservation') continue;
    const where = `${file}: steps[${step.index}].capacityReservation.id`;
    const adds = 'instanceType' in step.spec;
    if (adds && ids.has(step.spec.id))
      throw new ScenarioError(
        `${where}: ${step.spec.id} is declared before; give only id, count and endsAfter to change it`,
      );
    if (!adds && !ids.has(step.spec.id)) {
      const known =
        ids.size === 0 ? 'none is declared before it' : `declared before it: ${[...ids].join(', ')}`;
      throw new ScenarioError(`${where}: no reservation ${step.spec.id} to change (${known})`);
    }
    ids.add(step.spec.id);
  }
}

async function readManifests(
  sources: readonly ManifestSource[],
  base: string,
  file: string,
  path: PropertyKey[],
): Promise<Manifest[]> {
  const out: Manifest[] = [];
  for (const [i, source] of sources.entries()) {
    if (source.file === undefined) {
      out.push(source as unknown as Manifest);
      continue;
    }
    out.push(...(await readManifestFile(resolve(base, source.file), `${file}: ${formatPath([...path, i])}`)));
  }
  return out;
}

async function readManifestFile(path: string, where: string): Promise<Manifest[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ScenarioError(`${where}.file: ${code === 'ENOENT' ? 'no such file' : 'cannot read'} ${path}`);
  }
  const { documents, diagnostics } = parseYamlDocuments(path, text);
  if (diagnostics.length > 0) {
    const { position, message } = diagnostics[0];
    const at = position ? `${path}:${position.line}:${position.column}` : path;
    throw new ScenarioError(`${where}.file: ${at}: ${message}`);
  }
  return documents.map((d) => {
    const o = d.object as Partial<Manifest> | null;
    if (!o || typeof o !== 'object' || !o.apiVersion || !o.kind || !o.metadata?.name) {
      throw new ScenarioError(
        `${where}.file: ${path} document ${d.index + 1}: needs apiVersion, kind and metadata.name`,
      );
    }
    return o as Manifest;
  });
}

function zodError(file: string, prefix: PropertyKey[], error: z.ZodError): ScenarioError {
  const lines = error.issues.slice(0, 5).map((issue) => {
    const path = formatPath([...prefix, ...issue.path]);
    return `${file}: ${path === '' ? '(top level)' : path}: ${issue.message}`;
  });
  return new ScenarioError(lines.join('\n'));
}
