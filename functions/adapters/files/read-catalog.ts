import { readFile } from 'node:fs/promises';
import { CatalogError, parseCatalog } from '../../core/catalog/parse-catalog.js';
import type { Catalog } from '../../core/model/instance-type.js';

/**
 * Reads an instance catalog (`--catalog FILE`) in the documented JSON format (docs/catalog.md).
 * Throws a {@link CatalogError} naming the file and each bad field path, or an Error naming the
 * file when it cannot be read or is not JSON.
 */
export async function readCatalog(path: string): Promise<Catalog> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new Error(`cannot read instance catalog ${path}: ${reason}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(
      `instance catalog ${path} is not valid JSON: ${(error as Error).message}; see docs/catalog.md for the format`,
    );
  }
  return parseCatalog(json, path);
}

export { CatalogError };
