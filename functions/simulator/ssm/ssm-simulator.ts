/**
 * The simulated SSM Parameter Store: the AWS JSON 1.1 protocol (`X-Amz-Target:
 * AmazonSSM.GetParameter` / `GetParameters` / `GetParametersByPath`) serving the public EKS AMI
 * parameters that point at the simulated EC2's images, plus any extra parameters given.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { eksImages, type ImageSpec } from '../ec2/eks-images.js';
import type { FaultInjector } from '../faults.js';
import type { ServiceAuthorizer } from '../iam/authorization/authorization-request.js';
import { accessKeyOf, gateCall } from '../iam/authorization/service-gate.js';
import { listenOnLoopback } from '../loopback-server.js';

export interface SsmSimulatorOptions {
  /** Images whose `ssmParameters` become parameters; default: the EKS-optimized images. */
  readonly images?: readonly ImageSpec[];
  /** Extra parameters, name to value. */
  readonly parameters?: Readonly<Record<string, string>>;
  readonly region?: string;
  readonly faults?: FaultInjector;
  /** The account's IAM: each call is authorized on the parameters (or path) it names. */
  readonly iam?: ServiceAuthorizer;
  /** The account of the account's own parameters (public `/aws/` ones have none). */
  readonly accountId?: string;
}

export interface SsmSimulator {
  /** Endpoint for `new SSMClient({ endpoint })`. */
  readonly url: string;
  close(): Promise<void>;
}

interface Parameter {
  readonly name: string;
  readonly value: string;
  readonly dataType: string;
}

class SsmError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

/** Starts the simulated SSM on 127.0.0.1 and a free port. */
export async function startSsmSimulator(options: SsmSimulatorOptions = {}): Promise<SsmSimulator> {
  const region = options.region ?? 'us-west-2';
  const parameters = new Map<string, Parameter>();
  for (const image of options.images ?? eksImages()) {
    for (const name of image.ssmParameters)
      parameters.set(name, { name, value: image.imageId, dataType: 'aws:ec2:image' });
  }
  for (const [name, value] of Object.entries(options.parameters ?? {}))
    parameters.set(name, { name, value, dataType: 'text' });
  const render = (p: Parameter) => ({
    Name: p.name,
    Type: 'String',
    Value: p.value,
    Version: 1,
    LastModifiedDate: 1_759_276_800,
    ARN: `arn:aws:ssm:${region}::parameter${p.name.startsWith('/') ? '' : '/'}${p.name}`,
    DataType: p.dataType,
  });
  const actions: Record<string, (body: Record<string, unknown>) => unknown> = {
    GetParameter: (body) => {
      const name = requiredString(body, 'Name');
      const parameter = parameters.get(name);
      if (!parameter) throw new SsmError('ParameterNotFound', `Parameter ${name} not found.`);
      return { Parameter: render(parameter) };
    },
    GetParameters: (body) => {
      const names = body.Names;
      if (!Array.isArray(names) || names.length === 0 || names.length > 10) {
        throw new SsmError('ValidationException', 'Names must be a list of 1 to 10 parameter names');
      }
      const found = names.filter((n) => parameters.has(String(n)));
      return {
        Parameters: found.map((n) => render(parameters.get(String(n))!)),
        InvalidParameters: names.filter((n) => !parameters.has(String(n))),
      };
    },
    GetParametersByPath: (body) => {
      const path = requiredString(body, 'Path').replace(/\/?$/, '/');
      const recursive = body.Recursive === true;
      const matches = [...parameters.values()]
        .filter((p) => p.name.startsWith(path) && (recursive || !p.name.slice(path.length).includes('/')))
        .sort((a, b) => a.name.localeCompare(b.name));
      const max = typeof body.MaxResults === 'number' ? body.MaxResults : 10;
      const start = typeof body.NextToken === 'string' ? Number(body.NextToken) : 0;
      const page = matches.slice(start, start + max);
      return {
        Parameters: page.map(render),
        NextToken: start + max < matches.length ? String(start + max) : undefined,
      };
    },
  };
  const parameterArn = (name: string) => {
    const path = name.startsWith('/') ? name : `/${name}`;
    const account = path.startsWith('/aws/') ? '' : (options.accountId ?? '000000000000');
    return `arn:aws:ssm:${region}:${account}:parameter${path}`;
  };
  const authorize = (req: IncomingMessage, action: string, body: Record<string, unknown>) => {
    const denial = gateCall(options.iam, accessKeyOf(req.headers), 'json', () =>
      ssmNamesOf(action, body).map((name) => ({
        action: `ssm:${action}`,
        resource: parameterArn(name),
        context: {},
      })),
    );
    if (denial) throw new SsmError(denial.code, denial.message, denial.status);
  };
  const server = createServer((req, res) => {
    void handle(req, res, actions, options.faults, authorize);
  });
  return listenOnLoopback(server);
}

function requiredString(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (typeof value !== 'string' || value === '')
    throw new SsmError('ValidationException', `${field} must be a non-empty string`);
  return value;
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  actions: Record<string, (body: Record<string, unknown>) => unknown>,
  faults: FaultInjector | undefined,
  authorize: (req: IncomingMessage, action: string, body: Record<string, unknown>) => void,
): Promise<void> {
  try {
    const target = String(req.headers['x-amz-target'] ?? '');
    const action = target.startsWith('AmazonSSM.') ? target.slice('AmazonSSM.'.length) : '';
    const raw = await readBody(req);
    const fault = faults?.check('ssm', action);
    await faults?.wait(fault?.latencyMs);
    if (fault?.error)
      throw new SsmError(
        fault.error,
        fault.message ?? `Injected fault: ${fault.error}`,
        fault.httpStatus ?? 400,
      );
    const handler = actions[action];
    if (!handler)
      throw new SsmError(
        'UnknownOperationException',
        `Operation '${target}' is not supported by the simulated SSM`,
      );
    let body: Record<string, unknown>;
    try {
      body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    } catch {
      throw new SsmError('SerializationException', 'Request body is not valid JSON');
    }
    authorize(req, action, body);
    send(res, 200, handler(body));
  } catch (error) {
    const e =
      error instanceof SsmError ? error : new SsmError('InternalServerError', (error as Error).message, 500);
    send(res, e.status, { __type: e.code, message: e.message });
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/x-amz-json-1.1',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** The parameter names (or the path) an SSM call acts on. */
function ssmNamesOf(action: string, body: Record<string, unknown>): string[] {
  if (action === 'GetParameters' && Array.isArray(body.Names)) return body.Names.map(String);
  if (action === 'GetParametersByPath' && typeof body.Path === 'string') return [body.Path];
  return typeof body.Name === 'string' ? [body.Name] : [];
}
