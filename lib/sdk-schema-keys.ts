import { readFile } from 'node:fs/promises';
import type { Plugin } from 'esbuild';

/**
 * The schema modules of the AWS SDK clients whose keys are rewritten: EC2 (1.3 MB of source) and
 * SSM, the two whose schemas are most of a bundle's SDK code, and IAM (of which joiner sends only
 * the instance-profile calls).
 */
const SCHEMA_MODULE = /[\\/]@aws-sdk[\\/]client-(ec2|ssm|iam)[\\/]dist-es[\\/]schemas[\\/]schemas_0\.js$/;

/** `const _xN = "xmlName";`: a top-level string constant of a generated schema module. */
const STRING_CONSTANT = /^const (_[A-Za-z0-9_$]+) = ("[^"\\\r\n]*");$/gm;

/** `[_xN]:`: a computed object key naming one of those constants. */
const COMPUTED_KEY = /\[(_[A-Za-z0-9_$]+)\]:/g;

/**
 * Rewrites the computed keys of a generated SDK schema module (`{ [_xN]: _r }`, where
 * `const _xN = "xmlName"`) as the string keys they stand for (`{ "xmlName": _r }`): the same
 * objects. esbuild keeps every statement with a computed key whose value it cannot see, so
 * without this it keeps all the client's schemas (for EC2, the 3,400 shapes of every operation);
 * with plain keys it keeps only the schemas of the commands a bundle sends.
 */
export function literalSchemaKeys(source: string): string {
  const constants = new Map<string, string>();
  for (const [, name, value] of source.matchAll(STRING_CONSTANT)) constants.set(name, value);
  return source.replace(COMPUTED_KEY, (key, name: string) => {
    const value = constants.get(name);
    return value === undefined ? key : `${value}:`;
  });
}

/** The esbuild plugin applying {@link literalSchemaKeys} to the EC2, SSM and IAM schema modules. */
export const sdkSchemaKeys: Plugin = {
  name: 'joiner-sdk-schema-keys',
  setup(build) {
    build.onLoad({ filter: SCHEMA_MODULE }, async (args) => ({
      contents: literalSchemaKeys(await readFile(args.path, 'utf8')),
      loader: 'js',
    }));
  },
};
