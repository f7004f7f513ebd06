import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildRoutes, coerce, deref, Json, Route } from './openApiRoutes';

export interface MatchedRequest {
  operationId: string;
  template: string;
  params: Record<string, string>;
  query: Record<string, string>;
  violations: string[];
}

let cached: GithubOpenApi | undefined;

/**
 * GitHub's official OpenAPI description (from @octokit/openapi), as a request validator: which operation a
 * request is, and everything about it the description does not allow.
 */
export class GithubOpenApi {
  private readonly routes: Route[];
  // The description is OpenAPI 3.0.3: JSON Schema draft-04/07-like schemas plus `nullable`, which Ajv's
  // default (draft-07) class understands; unknown annotations (x-github, example) are ignored.
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction>();

  static load(): GithubOpenApi {
    if (!cached) {
      const dir = dirname(require.resolve('@octokit/openapi/package.json'));
      const file = join(dir, 'generated', 'api.github.com.json');
      cached = new GithubOpenApi(JSON.parse(readFileSync(file, 'utf8')));
    }
    return cached;
  }

  constructor(private readonly doc: Json) {
    addFormats(this.ajv);
    // OpenAPI's own formats and GitHub's extensions, beyond JSON Schema's.
    this.ajv.addFormat('repo.nwo', /^[^/\s]+\/[^/\s]+$/);
    this.ajv.addFormat('int32', { type: 'number', validate: Number.isInteger });
    this.ajv.addFormat('int64', { type: 'number', validate: Number.isInteger });
    this.ajv.addFormat('double', { type: 'number', validate: () => true });
    this.ajv.addFormat('binary', () => true);
    this.ajv.addFormat('timestamp', () => true);
    this.ajv.addSchema(doc, 'github');
    this.routes = buildRoutes(doc);
  }

  /** Matches a request (path without the API base) and lists what the description does not allow. */
  match(
    method: string,
    path: string,
    query: URLSearchParams,
    body: unknown,
  ): MatchedRequest | undefined {
    const candidates = this.routes
      .filter(r => r.method === method && r.pattern.test(path))
      .sort((a, b) => b.literals - a.literals);
    const route = candidates[0];
    if (!route) return undefined;
    const values = route.pattern.exec(path)!.slice(1).map(decodeURIComponent);
    const params = Object.fromEntries(
      route.names.map((n, i) => [n, values[i]]),
    );
    const queryObject = Object.fromEntries(query.entries());
    const violations: string[] = [];
    const where = `${method} ${route.template}`;
    const parameters = [
      ...route.pathParameters,
      ...(route.operation.parameters ?? []),
    ].map(p => this.deref(p));
    for (const p of parameters.filter(
      x => x.in === 'path' || x.in === 'query',
    )) {
      const value = p.in === 'path' ? params[p.name] : queryObject[p.name];
      if (value === undefined) {
        if (p.required)
          violations.push(`${where}: missing ${p.in} parameter ${p.name}`);
        continue;
      }
      this.check(
        `${where} ${p.in} parameter ${p.name}`,
        p.schema,
        coerce(value, p.schema),
        violations,
      );
    }
    const known = new Set(
      parameters.filter(p => p.in === 'query').map(p => p.name),
    );
    for (const name of Object.keys(queryObject).filter(n => !known.has(n))) {
      violations.push(
        `${where}: query parameter ${name} is not in the description`,
      );
    }
    const requestBody =
      route.operation.requestBody && this.deref(route.operation.requestBody);
    if (body !== undefined && !requestBody) {
      violations.push(`${where}: takes no request body`);
    } else if (body === undefined && requestBody?.required) {
      violations.push(`${where}: request body required`);
    } else if (body !== undefined) {
      const pointer = this.pointer(route, requestBody);
      this.check(`${where} body`, { $ref: pointer }, body, violations);
    }
    return {
      operationId: route.operation.operationId,
      template: route.template,
      params,
      query: queryObject,
      violations,
    };
  }

  private pointer(route: Route, requestBody: Json): string {
    const ref = route.operation.requestBody.$ref as string | undefined;
    const escape = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
    const base = ref
      ? ref
      : `#/paths/${escape(
          route.template,
        )}/${route.method.toLowerCase()}/requestBody`;
    if (!requestBody.content?.['application/json']) {
      throw new Error(`${route.template}: no application/json request body`);
    }
    return `github${base}/content/application~1json/schema`;
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
      validate = schema.$ref
        ? this.ajv.compile(schema)
        : this.ajv.compile(this.withComponents(schema));
      this.validators.set(key, validate);
    }
    if (!validate(value)) {
      violations.push(`${where}: ${this.ajv.errorsText(validate.errors)}`);
    }
  }

  private withComponents(schema: Json): Json {
    return JSON.parse(
      JSON.stringify(schema).replace(
        /"#\/components\//g,
        '"github#/components/',
      ),
    );
  }

  private deref(node: Json): Json {
    return deref(this.doc, node);
  }
}
