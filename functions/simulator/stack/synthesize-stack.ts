/**
 * The deployed stack a simulated account runs: joiner's real CDK stack synthesized in-process
 * for the simulated cluster (name, region, account) and the node roles the user allows
 * (`joiner:nodeRoleArns`, as in a cdk.json), with stand-in function code (IAM does not depend on
 * it). Synthesis takes seconds, so templates are kept per set of inputs: in memory for the
 * process, and on disk (under node_modules/.cache) keyed by a hash of the inputs and of the
 * stack's sources (the stack and every function source it may import), so an edit of either is
 * always synthesized again.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A CloudFormation template as JSON. */
export interface CfnTemplate {
  readonly Resources: Record<
    string,
    { readonly Type: string; readonly Properties?: Record<string, unknown> }
  >;
  readonly [key: string]: unknown;
}

/** What the synthesized stack depends on (the cdk.json context a user would write). */
export interface StackInputs {
  readonly clusterName: string;
  readonly region: string;
  readonly account: string;
  /** `joiner:nodeRoleArns`: node roles NodeClasses may name besides the stack's own. */
  readonly nodeRoleArns?: readonly string[];
  /** `joiner:vpcId`. */
  readonly vpcId?: string;
  /** `joiner:ebsKmsKeyArns`: customer-managed EBS KMS keys the controller role may use through EC2. */
  readonly ebsKmsKeyArns?: readonly string[];
}

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CACHE_DIR = join(ROOT, 'node_modules', '.cache', 'joiner-simulated-stack');
const memory = new Map<string, Promise<CfnTemplate>>();

/** The template of joiner's stack for `inputs` (cached; see the module comment). */
export function synthesizeStack(inputs: StackInputs): Promise<CfnTemplate> {
  const key = JSON.stringify(contextOf(inputs));
  let template = memory.get(key);
  if (!template) {
    template = cachedOrSynthesized(inputs).catch((error) => {
      memory.delete(key);
      throw error;
    });
    memory.set(key, template);
  }
  return template;
}

/** The cdk.json context of `inputs`. */
export function contextOf(inputs: StackInputs): Record<string, unknown> {
  return {
    'joiner:clusterName': inputs.clusterName,
    'joiner:account': inputs.account,
    'joiner:region': inputs.region,
    ...(inputs.nodeRoleArns && inputs.nodeRoleArns.length > 0
      ? { 'joiner:nodeRoleArns': [...inputs.nodeRoleArns] }
      : {}),
    ...(inputs.vpcId ? { 'joiner:vpcId': inputs.vpcId } : {}),
    ...(inputs.ebsKmsKeyArns && inputs.ebsKmsKeyArns.length > 0
      ? { 'joiner:ebsKmsKeyArns': [...inputs.ebsKmsKeyArns] }
      : {}),
  };
}

async function cachedOrSynthesized(inputs: StackInputs): Promise<CfnTemplate> {
  const hash = createHash('sha256')
    .update(JSON.stringify(contextOf(inputs)))
    .update(await sourcesHash())
    .digest('hex')
    .slice(0, 32);
  const file = join(CACHE_DIR, `${hash}.json`);
  const cached = await readFile(file, 'utf8').catch(() => undefined);
  if (cached) return JSON.parse(cached) as CfnTemplate;
  const template = await synthesize(inputs);
  await mkdir(CACHE_DIR, { recursive: true });
  const partial = `${file}.${process.pid}.tmp`;
  await writeFile(partial, JSON.stringify(template));
  await rename(partial, file);
  return template;
}

/** Synthesizes the stack (CDK loaded on demand: only the first synthesis of a set of inputs pays). */
async function synthesize(inputs: StackInputs): Promise<CfnTemplate> {
  const [{ App }, { Code }, { joinerPropsFromContext }, { JoinerStack }] = await Promise.all([
    import('aws-cdk-lib'),
    import('aws-cdk-lib/aws-lambda'),
    import('../../../lib/context.js'),
    import('../../../lib/joiner-stack.js'),
  ]);
  // Only the template's IAM is read: aws-cdk-lib's built-in CloudFormation validation (a
  // WebAssembly engine started per process, about 5 s of CPU) would only print warnings here.
  // test/infra/cloudformation-validation.test.ts holds the stack to it.
  const app = new App({ context: contextOf(inputs), builtinCloudFormationValidation: false });
  const { warnings: _warnings, ...props } = joinerPropsFromContext(app.node, ROOT);
  const stack = new JoinerStack(app, props.stackName ?? 'Joiner', {
    ...props,
    code: () => Code.fromInline('exports.handler = async () => undefined;'),
  });
  const assembly = app.synth();
  return assembly.getStackArtifact(stack.artifactId).template as CfnTemplate;
}

let sources: Promise<string> | undefined;

/**
 * The directories whose TypeScript the template is made of: the stack, and the functions' code it
 * imports (manifests, node role names, batching settings, event sources...). The simulator is not
 * part of the stack.
 */
const STACK_SOURCE_DIRS = [
  'lib',
  'functions/core',
  'functions/shared',
  'functions/handlers',
  'functions/adapters',
];

/** The stack's source files (see {@link STACK_SOURCE_DIRS}), relative to the repository, sorted. */
export async function stackSourceFiles(): Promise<string[]> {
  const files: string[] = [];
  for (const dir of STACK_SOURCE_DIRS) {
    const names = await readdir(join(ROOT, dir), { recursive: true }).catch(() => [] as string[]);
    for (const name of names) if (name.endsWith('.ts')) files.push(`${dir}/${name.split(sep).join('/')}`);
  }
  return files.sort();
}

/** A hash of what the template is made of: the stack's sources and the CDK library's version. */
function sourcesHash(): Promise<string> {
  sources ??= (async () => {
    const hash = createHash('sha256');
    for (const file of await stackSourceFiles()) hash.update(file).update(await readFile(join(ROOT, file)));
    const cdk = await readFile(join(ROOT, 'node_modules', 'aws-cdk-lib', 'package.json'), 'utf8').catch(
      () => '',
    );
    hash.update((JSON.parse(cdk || '{}') as { version?: string }).version ?? '');
    return hash.digest('hex');
  })();
  return sources;
}
