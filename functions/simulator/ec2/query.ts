/**
 * The EC2 Query protocol's request side: a form-encoded body such as
 * `Filter.1.Name=tag:k&Filter.1.Value.1=v` becomes a tree, read with small typed accessors that
 * raise EC2-style errors naming the parameter that was wrong.
 */
import type { IncomingMessage } from 'node:http';
import { Ec2Error } from './ec2-error.js';

/** A node of the parameter tree: a value or named / numbered children. */
export type QueryNode = string | { [key: string]: QueryNode };

/** Parses a form-encoded body into a parameter tree. */
export function parseQueryBody(body: string): QueryParams {
  const root: Record<string, QueryNode> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const parts = key.split('.');
    let node: Record<string, QueryNode> = root;
    for (const part of parts.slice(0, -1)) {
      const child = node[part];
      if (typeof child === 'string')
        throw new Ec2Error('InvalidParameter', `parameter ${key} conflicts with a value`);
      if (child === undefined) node[part] = {};
      node = node[part] as Record<string, QueryNode>;
    }
    node[parts[parts.length - 1]] = value;
  }
  return new QueryParams(root, '');
}

/** Typed read access to a subtree of parameters; `path` is the dotted prefix for error messages. */
export class QueryParams {
  constructor(
    private readonly node: Record<string, QueryNode>,
    private readonly path: string,
  ) {}

  has(name: string): boolean {
    return this.node[name] !== undefined;
  }

  str(name: string): string | undefined {
    const value = this.node[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') throw this.invalid(name, 'must be a single value');
    return value;
  }

  required(name: string): string {
    const value = this.str(name);
    if (value === undefined || value === '') {
      throw new Ec2Error('MissingParameter', `The request must contain the parameter ${this.name(name)}`);
    }
    return value;
  }

  int(name: string): number | undefined {
    const value = this.str(name);
    if (value === undefined) return undefined;
    const parsed = Number(value);
    if (!Number.isInteger(parsed)) throw this.invalid(name, `must be an integer, got '${value}'`);
    return parsed;
  }

  num(name: string): number | undefined {
    const value = this.str(name);
    if (value === undefined) return undefined;
    const parsed = Number(value);
    if (!Number.isFinite(parsed)) throw this.invalid(name, `must be a number, got '${value}'`);
    return parsed;
  }

  bool(name: string): boolean | undefined {
    const value = this.str(name);
    if (value === undefined) return undefined;
    if (value !== 'true' && value !== 'false')
      throw this.invalid(name, `must be true or false, got '${value}'`);
    return value === 'true';
  }

  /** A nested structure, e.g. `Placement` of `Placement.AvailabilityZone`. */
  child(name: string): QueryParams | undefined {
    const value = this.node[name];
    if (value === undefined) return undefined;
    if (typeof value === 'string') throw this.invalid(name, 'must be a structure');
    return new QueryParams(value, this.name(name));
  }

  /** A numbered list of structures (`Name.1.X`, `Name.2.X`), in index order. */
  list(name: string): QueryParams[] {
    return this.entries(name).map(([index, value]) => {
      if (typeof value === 'string') throw this.invalid(`${name}.${index}`, 'must be a structure');
      return new QueryParams(value, this.name(`${name}.${index}`));
    });
  }

  /** A numbered list of values (`InstanceId.1`, `InstanceId.2`), in index order. */
  strings(name: string): string[] {
    return this.entries(name).map(([index, value]) => {
      if (typeof value !== 'string') throw this.invalid(`${name}.${index}`, 'must be a single value');
      return value;
    });
  }

  /** A canonical string of these parameters without `exclude` (to compare idempotent requests). */
  fingerprint(exclude: readonly string[] = []): string {
    const kept = Object.entries(this.node).filter(([key]) => !exclude.includes(key));
    return JSON.stringify(kept.sort(([a], [b]) => a.localeCompare(b)));
  }

  private entries(name: string): [number, QueryNode][] {
    const value = this.node[name];
    if (value === undefined) return [];
    if (typeof value === 'string') throw this.invalid(name, 'must be a numbered list (Name.1, Name.2, ...)');
    return Object.entries(value)
      .map(([key, child]): [number, QueryNode] => {
        const index = Number(key);
        if (!Number.isInteger(index) || index < 1)
          throw this.invalid(`${name}.${key}`, 'list index must be 1 or more');
        return [index, child];
      })
      .sort((a, b) => a[0] - b[0]);
  }

  private name(name: string): string {
    return this.path ? `${this.path}.${name}` : name;
  }

  private invalid(name: string, what: string): Ec2Error {
    return new Ec2Error('InvalidParameterValue', `Parameter ${this.name(name)} ${what}`);
  }
}

/**
 * Reads a Query-protocol request body (EC2, IAM); a body over `maxBytes` is refused with the
 * service's own error, made by `tooLarge`.
 */
export function readQueryBody(
  req: IncomingMessage,
  maxBytes: number,
  tooLarge: (message: string) => Error,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        reject(tooLarge(`Request body exceeds ${maxBytes} bytes`));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
