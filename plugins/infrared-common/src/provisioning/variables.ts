/**
 * The rules of a template's variables, as OpenTofu reads them from `TF_VAR_<name>`: names, JSON
 * values, the declared types of a template, defaults.
 */
import type { FieldError } from '../fieldErrors';
import { isObject, kindOf } from './json';
import { VARIABLE_NAME_PATTERN } from './fieldRules';
import {
  TEMPLATE_VARIABLE_TYPES,
  type ClusterTemplate,
  type TemplateVariable,
} from './types';

const variableNameRegExp = new RegExp(VARIABLE_NAME_PATTERN);

/**
 * Whether a value is sent as JSON (a list or an object) rather than as a plain string.
 *
 * @public
 */
export function isJsonVariable(value: string): boolean {
  return value.startsWith('[') || value.startsWith('{');
}

/**
 * A variable's value as OpenTofu reads it from `TF_VAR_<name>`: a value that starts with `[` or `{`
 * is JSON (re-serialized, so it is one line and valid), anything else the string itself.
 *
 * @public
 */
export function encodeVariable(
  value: string,
): { value: string } | { error: string } {
  if (!isJsonVariable(value)) return { value };
  try {
    return { value: JSON.stringify(JSON.parse(value)) };
  } catch (e) {
    return {
      error: `starts with ${
        value[0]
      } so it is passed as JSON, but it is not valid JSON (${
        (e as Error).message
      })`,
    };
  }
}

/** The problem of one value against its declared type, if any. */
function typeProblem(variable: TemplateVariable, value: string) {
  switch (variable.type) {
    case 'number':
      return value.trim() !== '' && Number.isFinite(Number(value))
        ? undefined
        : `must be a number, like 3`;
    case 'bool':
      return value === 'true' || value === 'false'
        ? undefined
        : 'must be true or false';
    case 'list':
      return value.startsWith('[')
        ? undefined
        : 'must be a JSON list, like ["a", "b"]';
    case 'map':
    case 'object':
      return value.startsWith('{')
        ? undefined
        : 'must be a JSON object, like {"key": "value"}';
    default:
      return undefined;
  }
}

/**
 * The variables' own rules, without a template: an object whose keys are variable names and whose
 * values are strings, JSON where they start with `[` or `{`.
 *
 * @public
 */
export function validateVariables(
  variables: unknown,
  field = 'provision.variables',
): FieldError[] {
  if (variables === undefined) return [];
  if (!isObject(variables)) {
    return [
      {
        field,
        message: `${field} must be an object of strings, like {"region": "us-east-1"}`,
      },
    ];
  }
  const errors: FieldError[] = [];
  for (const [name, value] of Object.entries(variables)) {
    const at = `${field}.${name}`;
    if (!variableNameRegExp.test(name)) {
      errors.push({
        field: at,
        message: `"${name}" is not a variable name: letters, digits, _ and -, starting with a letter or _`,
      });
    }
    if (typeof value !== 'string') {
      errors.push({
        field: at,
        message: `${at} must be a string (a list or object as JSON text), not ${kindOf(
          value,
        )}`,
      });
      continue;
    }
    const encoded = encodeVariable(value);
    if ('error' in encoded)
      errors.push({ field: at, message: `${at} ${encoded.error}` });
  }
  return errors;
}

/**
 * A template's variables with the defaults filled in, checked against the declared ones.
 *
 * @public
 */
export function validateTemplateVariables(
  template: ClusterTemplate,
  variables: Record<string, string>,
  field = 'provision.variables',
): FieldError[] {
  const errors: FieldError[] = [];
  const declared = new Map(template.variables.map(v => [v.name, v]));
  for (const name of Object.keys(variables)) {
    if (declared.get(name)?.internal) {
      errors.push({
        field: `${field}.${name}`,
        message: `${field}.${name} is internal to template ${template.module}: the platform sets it, a request may not`,
      });
    } else if (!declared.has(name)) {
      errors.push({
        field: `${field}.${name}`,
        message: `template ${
          template.module
        } has no variable "${name}"; it takes ${
          template.variables
            .filter(v => !v.internal)
            .map(v => v.name)
            .join(', ') || 'none'
        }`,
      });
    }
  }
  for (const variable of template.variables) {
    const value = variables[variable.name] ?? variable.default;
    const at = `${field}.${variable.name}`;
    if (value === undefined) {
      errors.push({
        field: at,
        message: `${at} is required by template ${template.module}`,
      });
      continue;
    }
    if (typeof value !== 'string') continue; // reported by validateVariables
    const problem = typeProblem(variable, value);
    if (problem) errors.push({ field: at, message: `${at} ${problem}` });
  }
  return errors;
}

/**
 * A template's variables with the request's values over its defaults.
 *
 * @public
 */
export function templateVariables(
  template: ClusterTemplate | undefined,
  variables: Record<string, string> = {},
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of template?.variables ?? []) {
    if (v.default !== undefined) out[v.name] = v.default;
  }
  return { ...out, ...variables };
}

/**
 * Whether a value is one of the template variable types.
 *
 * @public
 */
export function isTemplateVariableType(
  value: unknown,
): value is TemplateVariable['type'] {
  return TEMPLATE_VARIABLE_TYPES.includes(value as TemplateVariable['type']);
}
