import { type Document, parseAllDocuments, visit, type YAMLError } from 'yaml';
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
    const js = documentObject(doc);
    if ('error' in js) {
      diagnostics.push({
        severity: 'error',
        file,
        document: `document ${index + 1}`,
        path: '',
        message: js.error,
      });
      return;
    }
    const object = js.object;
    if (object === null || object === undefined) return;
    documents.push({ file, index, object });
  });
  return { documents, diagnostics };
}

/**
 * The plain value of a parsed YAML document, or why it has none: a self-referencing anchor, more
 * aliases expanded than {@link MAX_ALIAS_COUNT} (an alias bomb), an alias without its anchor.
 */
export function documentObject(doc: Document.Parsed): { object: unknown } | { error: string } {
  const loop = selfReferencingAlias(doc);
  if (loop)
    return {
      error: `YAML alias *${loop} refers to a node that contains it (a self-referencing anchor): write the value out`,
    };
  try {
    return { object: doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) as unknown };
  } catch (e) {
    const message = (e as Error).message;
    return {
      error: /excessive alias count/i.test(message)
        ? `too many YAML aliases (more than ${MAX_ALIAS_COUNT} expanded, as an alias bomb makes): write the values out`
        : `YAML syntax error: ${message}`,
    };
  }
}

/** Most aliases a document may expand (a few lines of nested aliases can otherwise expand to gigabytes). */
const MAX_ALIAS_COUNT = 1000;

/** The name of an alias that sits inside the node its anchor names (a cycle), if any. */
function selfReferencingAlias(doc: Document.Parsed): string | undefined {
  let found: string | undefined;
  visit(doc, {
    Alias(_key, node, path) {
      const target = node.resolve(doc);
      if (target && path.includes(target as never)) {
        found = node.source;
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return found;
}
