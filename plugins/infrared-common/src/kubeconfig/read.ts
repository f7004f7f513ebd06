import { parse } from 'yaml';
import type { FieldError } from '../fieldErrors';
import { parseJsonObjectText } from './jsonText';

export type Mapping = Record<string, unknown>;

export function isMapping(value: unknown): value is Mapping {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return 'empty';
  if (Array.isArray(value)) return 'a list';
  return `a ${typeof value}`;
}

/**
 * Parses kubeconfig text into its top-level mapping. JSON (valid YAML) is read by `JSON.parse`
 * where that gives what the YAML parser would; everything else by the YAML parser.
 */
export function parseKubeconfigText(
  text: string,
  field: string,
): { doc: Mapping } | { error: FieldError } {
  const json = parseJsonObjectText(text);
  if (json) return { doc: json };
  let doc: unknown;
  try {
    doc = parse(text, { logLevel: 'error', maxAliasCount: 100 });
  } catch (e) {
    const reason = String((e as Error)?.message ?? e).split('\n')[0];
    return {
      error: { field, message: `${field} is not valid YAML: ${reason}` },
    };
  }
  if (doc === null || doc === undefined) {
    return { error: { field, message: `${field} is empty` } };
  }
  if (!isMapping(doc)) {
    return {
      error: {
        field,
        message: `${field} must be a YAML mapping with clusters, users and contexts, not ${describe(
          doc,
        )}`,
      },
    };
  }
  return { doc };
}

/**
 * Reads an optional string; a value of another type is an error (not coerced, so a YAML
 * `token: 0123` is not silently read as a number).
 */
export function readString(
  obj: Mapping,
  key: string,
  field: string,
  errors: FieldError[],
): string | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') {
    errors.push({
      field: `${field}.${key}`,
      message: `${key} must be a string, not ${describe(value)}`,
    });
    return undefined;
  }
  return value;
}

export function readBoolean(
  obj: Mapping,
  key: string,
  field: string,
  errors: FieldError[],
): boolean | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') {
    errors.push({
      field: `${field}.${key}`,
      message: `${key} must be true or false, not ${JSON.stringify(value)}`,
    });
    return undefined;
  }
  return value;
}

/**
 * Base64 as Go decodes a `[]byte` from JSON (client-go reading a kubeconfig, Argo CD reading its
 * Secret's config): the standard alphabet, padded to a multiple of 4; line breaks are skipped,
 * any other character (a space, a tab: what a folded YAML line becomes) is refused.
 */
const BASE64 =
  /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Whether Go's encoding/json would decode `value` as a `[]byte`. */
export function isGoBase64(value: string): boolean {
  return BASE64.test(value.replace(/[\r\n]/g, ''));
}

/** Reads a `*-data` field, which Argo CD takes verbatim and so must already be base64. */
export function readBase64(
  obj: Mapping,
  key: string,
  field: string,
  errors: FieldError[],
): string | undefined {
  const value = readString(obj, key, field, errors);
  if (value === undefined || value === '') return undefined;
  if (!isGoBase64(value)) {
    errors.push({
      field: `${field}.${key}`,
      message: `${key} is not base64 as kubectl and Argo CD read it (standard alphabet, padded with =, no spaces): it must hold the PEM file base64-encoded, as base64 -w0 writes it`,
    });
    return undefined;
  }
  return value;
}

/** One named entry of `clusters`, `users` or `contexts`. */
export interface Entry {
  name: string;
  index: number;
  /** The entry's `cluster`, `user` or `context` mapping. */
  body: Mapping;
}

/** Reads a named list such as `clusters: [{name, cluster: {...}}]`. */
export function readEntries(
  doc: Mapping,
  key: 'clusters' | 'users' | 'contexts',
  inner: 'cluster' | 'user' | 'context',
  field: string,
  errors: FieldError[],
): Entry[] {
  const list = doc[key];
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) {
    errors.push({ field: `${field}.${key}`, message: `${key} must be a list` });
    return [];
  }
  const entries: Entry[] = [];
  list.forEach((item, index) => {
    const at = `${field}.${key}[${index}]`;
    if (!isMapping(item)) {
      errors.push({
        field: at,
        message: `${at} must be a mapping with name and ${inner}`,
      });
      return;
    }
    const name = readString(item, 'name', at, errors) ?? '';
    const body = item[inner] ?? {};
    if (!isMapping(body)) {
      errors.push({
        field: `${at}.${inner}`,
        message: `${inner} must be a mapping`,
      });
      return;
    }
    entries.push({ name, index, body });
  });
  return entries;
}
