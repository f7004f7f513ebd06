import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** Argo CD's published API description (Swagger 2.0), vendored as is: see `../__fixtures__/README.md`. */
export const ARGOCD_SWAGGER = join(
  __dirname,
  '..',
  '__fixtures__',
  'argo-cd-swagger.json',
);

export interface ArgoCdRequest {
  method: string;
  /** The path from the server's root, e.g. `/api/v1/clusters`. */
  path: string;
  query: URLSearchParams;
  body?: unknown;
}

export interface MatchedOperation {
  operationId: string;
  params: Record<string, string>;
  query: Record<string, string[]>;
  violations: string[];
}

interface Route {
  template: string;
  method: string;
  pattern: RegExp;
  names: string[];
  literals: number;
  operation: Json;
}

let cached: ArgoCdOpenApi | undefined;

/**
 * Argo CD's OpenAPI description as a checker: which operation a request is and everything about
 * it the description does not allow, and whether a response body is what that operation answers.
 * Objects may carry only the properties the description names (Argo CD's gateway writes nothing
 * else), so a fake cannot answer with a misspelt or invented field.
 */
export class ArgoCdOpenApi {
  private readonly routes: Route[];
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction>();

  static load(): ArgoCdOpenApi {
    cached ??= new ArgoCdOpenApi(
      JSON.parse(readFileSync(ARGOCD_SWAGGER, 'utf8')),
    );
    return cached;
  }

  constructor(private readonly doc: Json) {
    addFormats(this.ajv);
    // Swagger's own formats beyond JSON Schema's: gRPC-gateway writes 64-bit integers as numbers.
    this.ajv.addFormat('int32', { type: 'number', validate: Number.isInteger });
    this.ajv.addFormat('int64', { type: 'number', validate: Number.isInteger });
    this.ajv.addSchema(closeObjects(structuredClone(doc)), 'argocd');
    this.routes = buildRoutes(doc);
  }

  /** The operation of a request, or undefined when the description has none at that method and path. */
  match(request: ArgoCdRequest): MatchedOperation | undefined {
    const { method, path } = request;
    const route = this.routes
      .filter(r => r.method === method && r.pattern.test(path))
      .sort((a, b) => b.literals - a.literals)[0];
    if (!route) return undefined;
    const values = route.pattern.exec(path)!.slice(1).map(decodeURIComponent);
    const params = Object.fromEntries(
      route.names.map((n, i) => [n, values[i]]),
    );
    const query: Record<string, string[]> = {};
    for (const [k, v] of request.query.entries()) (query[k] ??= []).push(v);
    const where = `${method} ${route.template}`;
    const violations: string[] = [];
    const parameters: Json[] = route.operation.parameters ?? [];
    for (const p of parameters) {
      if (p.in === 'body') {
        this.checkBody(where, p, request.body, violations);
        continue;
      }
      const given = p.in === 'path' ? [params[p.name]] : query[p.name];
      if (given === undefined || given[0] === undefined) {
        if (p.required) violations.push(`${where}: missing ${p.in} ${p.name}`);
        continue;
      }
      if (p.type !== 'array' && given.length > 1) {
        violations.push(`${where}: ${p.in} ${p.name} given more than once`);
      }
      const value =
        p.type === 'array'
          ? given.map(v => coerce(v, p.items))
          : coerce(given[0], p);
      const { name, in: _in, required, description, ...schema } = p;
      this.check(`${where} ${p.in} ${name}`, schema, value, violations);
    }
    const known = new Set(parameters.map(p => p.name));
    for (const name of Object.keys(query).filter(n => !known.has(n))) {
      violations.push(`${where}: query ${name} is not in the description`);
    }
    if (request.body !== undefined && !parameters.some(p => p.in === 'body')) {
      violations.push(`${where}: takes no request body`);
    }
    return {
      operationId: route.operation.operationId,
      params,
      query,
      violations,
    };
  }

  /** What the description does not allow in an answer of `operationId` with `status`. */
  checkResponse(operationId: string, status: number, body: unknown): string[] {
    const route = this.routes.find(
      r => r.operation.operationId === operationId,
    );
    if (!route) return [`${operationId}: no such operation`];
    const responses = route.operation.responses;
    const response = responses[String(status)] ?? responses.default;
    const where = `${route.method} ${route.template} answer ${status}`;
    const violations: string[] = [];
    if (!response?.schema) return [`${where}: not in the description`];
    this.check(where, response.schema, body, violations);
    return violations;
  }

  private checkBody(
    where: string,
    parameter: Json,
    body: unknown,
    violations: string[],
  ) {
    if (body === undefined) {
      if (parameter.required) violations.push(`${where}: body required`);
      return;
    }
    this.check(`${where} body`, parameter.schema, body, violations);
  }

  private check(
    where: string,
    schema: Json,
    value: unknown,
    violations: string[],
  ) {
    const key = JSON.stringify(schema);
    let validate = this.validators.get(key);
    if (!validate) {
      const local = JSON.parse(
        key.replace(/"#\/definitions\//g, '"argocd#/definitions/'),
      );
      validate = this.ajv.compile(local);
      this.validators.set(key, validate);
    }
    if (!validate(value)) {
      violations.push(`${where}: ${this.ajv.errorsText(validate.errors)}`);
    }
  }

  /** The description itself, for tests that read a definition. */
  definition(name: string): Json {
    return this.doc.definitions[name];
  }
}

/** One route per operation; `{param}` (names may hold dots, like `id.value`) matches one path segment. */
function buildRoutes(doc: Json): Route[] {
  const routes: Route[] = [];
  for (const [template, item] of Object.entries<Json>(doc.paths)) {
    const names: string[] = [];
    const source = template
      .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
      .replace(/\{([^}]+)\}/g, (_, n: string) => {
        names.push(n.replace(/\\/g, ''));
        return '([^/]+)';
      });
    for (const method of ['get', 'post', 'put', 'patch', 'delete', 'head']) {
      if (!item[method]) continue;
      routes.push({
        template,
        method: method.toUpperCase(),
        pattern: new RegExp(`^${source}$`),
        names,
        literals: template.split('/').filter(s => s && !s.includes('{')).length,
        operation: item[method],
      });
    }
  }
  return routes;
}

/** Query and path values are strings; the parameter's type says what they stand for. */
function coerce(value: string, schema: Json): unknown {
  switch (schema?.type) {
    case 'integer':
    case 'number':
      return value.trim() === '' ? value : Number(value);
    case 'boolean':
      return value === 'true' || value === 'false' ? value === 'true' : value;
    default:
      return value;
  }
}

/**
 * Every object schema that lists its properties allows only those (except inside `allOf`, whose
 * members each list a part). The description leaves `additionalProperties` open, as Swagger does.
 */
function closeObjects(node: Json): Json {
  if (Array.isArray(node)) return node.map(closeObjects);
  if (!node || typeof node !== 'object') return node;
  for (const [key, value] of Object.entries(node)) {
    if (key !== 'allOf' && key !== 'example') node[key] = closeObjects(value);
  }
  if (
    node.properties &&
    typeof node.properties === 'object' &&
    node.additionalProperties === undefined &&
    !node.allOf
  ) {
    node.additionalProperties = false;
  }
  return node;
}
