/** The Kubernetes name rules the registrar checks before writing anything (apimachinery's validation). */

const DNS1123_LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN_RE = new RegExp(
  `^${DNS1123_LABEL}(\\.${DNS1123_LABEL})*$`,
);
const DNS1123_LABEL_RE = new RegExp(`^${DNS1123_LABEL}$`);
const LABEL_VALUE_RE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const QUALIFIED_NAME_RE = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const SECRET_KEY_RE = /^[-._a-zA-Z0-9]+$/;

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/** Undefined when valid, else why not: a DNS-1123 subdomain (Secret names). */
export function dns1123SubdomainError(value: string): string | undefined {
  if (bytes(value) > 253) return 'must be no more than 253 characters';
  if (!DNS1123_SUBDOMAIN_RE.test(value)) {
    return "must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
  }
  return undefined;
}

/** Undefined when valid, else why not: a DNS-1123 label (namespace names). */
export function dns1123LabelError(value: string): string | undefined {
  if (bytes(value) > 63) return 'must be no more than 63 characters';
  if (!DNS1123_LABEL_RE.test(value)) {
    return "must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
  }
  return undefined;
}

/** Undefined when valid, else why not: a label value (may be empty). */
export function labelValueError(value: string): string | undefined {
  if (bytes(value) > 63) return 'must be no more than 63 characters';
  if (!LABEL_VALUE_RE.test(value)) {
    return "must be empty or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
  }
  return undefined;
}

/** Undefined when valid, else why not: a label or annotation key (`[prefix/]name`). */
export function qualifiedNameError(value: string): string | undefined {
  const parts = value.split('/');
  let name = value;
  if (parts.length === 2) {
    const [prefix, rest] = parts;
    if (!prefix) return 'prefix part must be non-empty';
    const err = dns1123SubdomainError(prefix);
    if (err) return `prefix part ${err}`;
    name = rest;
  } else if (parts.length > 2) {
    return "must consist of an optional DNS subdomain prefix, a '/' and a name";
  }
  if (!name) return 'name part must be non-empty';
  if (bytes(name) > 63) return 'name part must be no more than 63 characters';
  if (!QUALIFIED_NAME_RE.test(name)) {
    return "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
  }
  return undefined;
}

/** Undefined when valid, else why not: a key of a Secret's data. */
export function secretKeyError(value: string): string | undefined {
  if (!value) return 'must not be empty';
  if (bytes(value) > 253) return 'must be no more than 253 characters';
  if (!SECRET_KEY_RE.test(value)) {
    return "must consist of alphanumeric characters, '-', '_' or '.'";
  }
  return undefined;
}
