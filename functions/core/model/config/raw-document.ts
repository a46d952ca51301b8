import { parseAllDocuments } from 'yaml';
import type { Diagnostic } from './diagnostic.js';

/** Alias expansions a document may make (yaml's guard against "billion laughs" documents). */
const MAX_ALIAS_COUNT = 1000;

/** One parsed YAML/JSON document of a file, not yet validated. */
export interface RawDocument {
  readonly file: string;
  /** 0-based position of the document in its file. */
  readonly index: number;
  readonly object: unknown;
}

/**
 * Splits a YAML (or JSON) text into documents. Empty documents are skipped; a document with a
 * syntax error becomes an error diagnostic naming its line, and the other documents still load.
 */
export function parseYamlDocuments(
  file: string,
  text: string,
): { documents: RawDocument[]; diagnostics: Diagnostic[] } {
  const documents: RawDocument[] = [];
  const diagnostics: Diagnostic[] = [];
  parseAllDocuments(text, { prettyErrors: true }).forEach((doc, index) => {
    if (doc.errors.length > 0) {
      for (const error of doc.errors) {
        const line = error.linePos?.[0].line;
        diagnostics.push({
          severity: 'error',
          file,
          document: `document ${index + 1}`,
          path: '',
          message: `YAML syntax error${line === undefined ? '' : ` at line ${line}`}: ${error.message.split('\n')[0]}`,
        });
      }
      return;
    }
    let object: unknown;
    try {
      object = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    } catch (error) {
      // yaml throws when aliases expand past the limit (an "alias bomb"): bounded time and memory.
      diagnostics.push({
        severity: 'error',
        file,
        document: `document ${index + 1}`,
        path: '',
        message: `YAML document cannot be expanded: ${(error as Error).message} (more than ${MAX_ALIAS_COUNT} alias expansions)`,
      });
      return;
    }
    if (object === null || object === undefined) return;
    documents.push({ file, index, object });
  });
  return { documents, diagnostics };
}
