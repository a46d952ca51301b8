import { parseAllDocuments, type YAMLError } from 'yaml';
import type { Diagnostic } from './diagnostic.js';

/** One parsed YAML/JSON document of a file, not yet validated. */
export interface RawDocument {
  readonly file: string;
  /** 0-based position of the document in its file. */
  readonly index: number;
  readonly object: unknown;
}

/** Where a YAML syntax error is (1-based) and what it is, without the excerpt yaml's pretty errors add. */
export function describeYamlError(error: YAMLError): {
  position?: { line: number; column: number };
  message: string;
} {
  const at = error.linePos?.[0];
  const message = error.message
    .split('\n')[0]
    .replace(/ at line \d+, column \d+:?$/, '')
    .trim();
  return at ? { position: { line: at.line, column: at.col }, message } : { message };
}

/**
 * Splits a YAML (or JSON) text into documents. Empty documents are skipped; a document with a
 * syntax error becomes one error diagnostic (its first error: yaml often reports one mistake
 * several times) naming its line and column, and the other documents still load.
 */
export function parseYamlDocuments(
  file: string,
  text: string,
): { documents: RawDocument[]; diagnostics: Diagnostic[] } {
  const documents: RawDocument[] = [];
  const diagnostics: Diagnostic[] = [];
  parseAllDocuments(text, { prettyErrors: true }).forEach((doc, index) => {
    if (doc.errors.length > 0) {
      const { position, message } = describeYamlError(doc.errors[0]);
      const d: Diagnostic = {
        severity: 'error',
        file,
        document: `document ${index + 1}`,
        path: '',
        message: `YAML syntax error: ${message}`,
      };
      diagnostics.push(position ? { ...d, position } : d);
      return;
    }
    const object = doc.toJS({ maxAliasCount: 1000 }) as unknown;
    if (object === null || object === undefined) return;
    documents.push({ file, index, object });
  });
  return { documents, diagnostics };
}
