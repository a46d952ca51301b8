import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { Diagnostic } from '../../core/model/config/diagnostic.js';
import type { RawDocument } from '../../core/model/config/raw-document.js';
import { parseYamlDocuments } from '../../core/model/config/raw-document.js';

const EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

/** Lists the .yaml / .yml / .json files under a directory, recursively, in a stable order. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const out: string[] = [];
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await filesUnder(path)));
    else if (e.isFile() && EXTENSIONS.has(extname(e.name).toLowerCase())) out.push(path);
  }
  return out;
}

/** An error about a whole path (missing, unreadable, empty directory): it names no document. */
function readError(file: string, message: string): Diagnostic {
  return { severity: 'error', file, document: '', path: '', message };
}

/** Expands paths (files or directories) into the files to read; unreadable paths become errors. */
export async function expandPaths(
  paths: readonly string[],
): Promise<{ files: string[]; diagnostics: Diagnostic[] }> {
  const files: string[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const path of paths) {
    try {
      const info = await stat(path);
      if (info.isDirectory()) {
        const found = await filesUnder(path);
        if (found.length === 0)
          diagnostics.push(readError(path, 'directory holds no .yaml, .yml or .json files'));
        files.push(...found);
      } else files.push(path);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      const message =
        code === 'ENOENT' ? 'no such file or directory' : `cannot read: ${(e as Error).message}`;
      diagnostics.push(readError(path, message));
    }
  }
  return { files, diagnostics };
}

/** Reads files and directories of YAML / JSON documents into raw documents. */
export async function readDocuments(
  paths: readonly string[],
): Promise<{ documents: RawDocument[]; diagnostics: Diagnostic[] }> {
  const { files, diagnostics } = await expandPaths(paths);
  const documents: RawDocument[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (e) {
      diagnostics.push(readError(file, `cannot read: ${(e as Error).message}`));
      continue;
    }
    const parsed = parseYamlDocuments(file, text);
    documents.push(...parsed.documents);
    diagnostics.push(...parsed.diagnostics);
  }
  return { documents, diagnostics };
}
