import type { LoadedConfig } from '../../core/model/config/load.js';
import { loadDocuments } from '../../core/model/config/load.js';
import { readDocuments } from './read-documents.js';

/**
 * Loads NodePools, NodeClasses and workloads from files or directories of .yaml / .yml / .json
 * documents. Read and YAML syntax errors are diagnostics like any other; nothing throws.
 */
export async function loadFiles(paths: string[]): Promise<LoadedConfig> {
  const { documents, diagnostics } = await readDocuments(paths);
  const loaded = loadDocuments(documents);
  return { ...loaded, diagnostics: [...diagnostics, ...loaded.diagnostics] };
}
