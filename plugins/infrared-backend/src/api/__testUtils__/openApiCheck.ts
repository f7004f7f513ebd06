import Ajv, { type ValidateFunction } from 'ajv';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const SPEC = path.resolve(__dirname, '../../schema/openapi.yaml');

/** Checks recorded responses against `src/schema/openapi.yaml`, and which operations were exercised. */
export class OpenApiCheck {
  readonly spec: Json = parse(fs.readFileSync(SPEC, 'utf8'));
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly seen = new Set<string>();
  /** Compiled once per operation and status: a compile costs more than a whole request under load. */
  private readonly validators = new Map<string, ValidateFunction>();

  constructor() {
    this.ajv.addSchema({ components: this.spec.components }, 'openapi');
  }

  private operation(method: string, url: string) {
    const pathname = new URL(url, 'http://x').pathname.replace(
      /^\/api\/infrared/,
      '',
    );
    for (const [template, item] of Object.entries<Json>(this.spec.paths)) {
      const pattern = new RegExp(
        `^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`,
      );
      const op = item[method.toLowerCase()];
      if (op && pattern.test(pathname)) return { template, op };
    }
    return undefined;
  }

  private resolve(node: Json): Json {
    if (node?.$ref) {
      const [, ...parts] = node.$ref.split('/');
      return this.resolve(
        parts.reduce((o: Json, k: string) => o[k], this.spec),
      );
    }
    return node;
  }

  /** Throws when the response is not described by the spec. */
  check(method: string, url: string, status: number, body: unknown): void {
    const found = this.operation(method, url);
    if (!found) throw new Error(`${method} ${url} is not in openapi.yaml`);
    const response = this.resolve(found.op.responses[String(status)]);
    if (!response) {
      throw new Error(
        `${method} ${found.template} answered ${status}, which openapi.yaml does not list`,
      );
    }
    const key = `${method.toUpperCase()} ${found.template} ${status}`;
    this.seen.add(key);
    const schema = response.content?.['application/json']?.schema;
    if (!schema) return;
    const validate = this.validator(key, schema);
    if (!validate(body)) {
      throw new Error(
        `${method} ${
          found.template
        } ${status}: body does not match openapi.yaml: ${this.ajv.errorsText(
          validate.errors,
        )}`,
      );
    }
  }

  private validator(key: string, schema: Json): ValidateFunction {
    let validate = this.validators.get(key);
    if (!validate) {
      const rewritten = JSON.parse(
        JSON.stringify(schema).replace(
          /"#\/components\//g,
          '"openapi#/components/',
        ),
      );
      validate = this.ajv.compile(rewritten);
      this.validators.set(key, validate);
    }
    return validate;
  }

  /** Operations (method and path) the spec lists that no checked response exercised. */
  unexercised(): string[] {
    const missing: string[] = [];
    for (const [template, item] of Object.entries<Json>(this.spec.paths)) {
      for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
        if (!item[method]) continue;
        const prefix = `${method.toUpperCase()} ${template} `;
        if (![...this.seen].some(s => s.startsWith(prefix))) {
          missing.push(`${method.toUpperCase()} ${template}`);
        }
      }
    }
    return missing;
  }
}
