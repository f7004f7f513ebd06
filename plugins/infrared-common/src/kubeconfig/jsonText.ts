/**
 * A kubeconfig written as JSON (`kubectl config view -o json`, or any JSON, which is YAML too) read
 * with `JSON.parse`: ~100x faster than the YAML parser, which takes ~0.5-1 ms a kubeconfig (issue 25:
 * 10,000 of them at a backend start). Only where both parsers are known to give the same mapping;
 * anything else (undefined) goes to the YAML parser, which decides what is accepted and refused.
 */

/** Printable ASCII and line breaks: no tab (YAML refuses some tabs JSON allows), no other escapes. */
const PLAIN_ASCII = /^[\x20-\x7e\r\n]*$/;
const MAX_DEPTH = 32;
/** YAML limits an implicit key to 1024 characters. */
const MAX_KEY = 1000;

/** What the text holds outside its strings: key separators, nesting, numbers. */
interface Shape {
  colons: number;
  tooDeep: boolean;
  hasNumber: boolean;
}

function shapeOf(text: string): Shape {
  const shape: Shape = { colons: 0, tooDeep: false, hasNumber: false };
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x3a) shape.colons++;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_DEPTH) shape.tooDeep = true;
    } else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) shape.hasNumber = true;
  }
  return shape;
}

/** The keys of every object in a parsed value; -1 when a key is longer than YAML allows. */
function keyCount(value: unknown): number {
  if (Array.isArray(value)) {
    let n = 0;
    for (const item of value) {
      const k = keyCount(item);
      if (k < 0) return -1;
      n += k;
    }
    return n;
  }
  if (typeof value !== 'object' || value === null) return 0;
  let n = 0;
  for (const [key, item] of Object.entries(value)) {
    const k = keyCount(item);
    if (key.length > MAX_KEY || k < 0) return -1;
    n += 1 + k;
  }
  return n;
}

/**
 * The top-level object of a JSON kubeconfig, or undefined when the YAML parser must read the text:
 * not a JSON object, a key given twice (YAML refuses it, JSON.parse keeps the last), a number
 * (YAML and JSON resolve some differently; a kubeconfig has none), deep nesting, `__proto__`.
 */
export function parseJsonObjectText(
  text: string,
): Record<string, unknown> | undefined {
  // not typed away: a caller in JavaScript may pass anything, which the YAML parser then refuses
  if (typeof text !== 'string' || text.trimStart()[0] !== '{') return undefined;
  if (!PLAIN_ASCII.test(text) || text.includes('__proto__')) return undefined;
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return undefined;
  }
  const shape = shapeOf(text);
  if (shape.tooDeep || shape.hasNumber) return undefined;
  if (keyCount(doc) !== shape.colons) return undefined;
  return doc as Record<string, unknown>;
}
