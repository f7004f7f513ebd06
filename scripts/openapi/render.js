/*
 * Renders an OpenAPI 3.0 spec into the TypeScript of scripts/openapi-generate.js: the models
 * (one interface or type per component schema, inline objects and string enums named after
 * their parent, as OpenAPI Generator names them), the server's EndpointMap and the client.
 */
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const SCALARS = {
  string: 'string',
  integer: 'number',
  number: 'number',
  boolean: 'boolean',
};

const pascal = s =>
  String(s)
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map(p => p[0].toUpperCase() + p.slice(1))
    .join('');
const camel = s => pascal(s).replace(/^./, c => c.toLowerCase());
/** OpenAPI Generator's names: `Error` would shadow the global, so it becomes ModelError. */
const modelName = name => (name === 'Error' ? 'ModelError' : pascal(name));
const propKey = key => (/^[A-Za-z_$][\w$]*$/.test(key) ? key : `'${key}'`);
const literal = v =>
  typeof v === 'string' ? `'${v.replace(/'/g, "\\'")}'` : String(v);
const doc = (lines, indent = '') => {
  const text = lines.filter(Boolean).flatMap(l => String(l).trim().split('\n'));
  if (!text.length) return '';
  return `${indent}/**\n${text
    .map(l => `${indent} * ${l}`)
    .join('\n')}\n${indent} */\n`;
};

function refName(ref) {
  const m = /^#\/components\/schemas\/([^/]+)$/.exec(ref);
  if (!m)
    throw new Error(
      `unsupported $ref ${ref}: only #/components/schemas/<name>`,
    );
  return m[1];
}

function resolve(spec, node) {
  if (!node?.$ref) return node;
  const parts = node.$ref.replace(/^#\//, '').split('/');
  return resolve(
    spec,
    parts.reduce((o, k) => o?.[k], spec),
  );
}

/** The TypeScript type of a schema inside model `owner`, registering the models it needs. */
function modelType(ctx, schema, owner, prop) {
  if (schema.$ref) {
    const name = modelName(refName(schema.$ref));
    if (name !== owner.name) owner.imports.add(name);
    return name;
  }
  if (schema.oneOf || schema.anyOf || schema.allOf || schema.nullable) {
    throw new Error(
      `${owner.name}.${prop}: oneOf/anyOf/allOf/nullable are not supported`,
    );
  }
  if (schema.enum) {
    const union = schema.enum.map(literal).join(' | ');
    if (schema.type !== 'string' || !prop) return union;
    const name = `${owner.name}${pascal(prop)}Enum`;
    owner.extra.push(`${doc(['@public'])}export type ${name} = ${union};\n`);
    return name;
  }
  if (schema.type === 'array') {
    const item = schema.items ?? {};
    const inner = item.type === 'object' && item.properties;
    return `Array<${modelType(
      ctx,
      item,
      owner,
      inner ? `${prop}Inner` : undefined,
    )}>`;
  }
  if (schema.type === 'object') {
    if (!schema.properties) return '{ [key: string]: unknown }';
    const name = `${owner.base}${pascal(prop)}`;
    addModel(ctx, name, schema, name);
    owner.imports.add(name);
    return name;
  }
  if (!SCALARS[schema.type]) {
    throw new Error(`${owner.name}.${prop}: unsupported type ${schema.type}`);
  }
  return SCALARS[schema.type];
}

/** Renders the model `name` of `schema` (and the inline models it holds) into ctx.models. */
function addModel(ctx, name, schema, base) {
  if (ctx.models.has(name)) return;
  const owner = { name, base, imports: new Set(), extra: [] };
  ctx.models.set(name, owner);
  let body;
  if (schema.type === 'object' && schema.properties) {
    const required = new Set(schema.required ?? []);
    const fields = Object.entries(schema.properties).map(([key, prop]) => {
      const type = modelType(ctx, prop, owner, key);
      const optional = required.has(key) ? '' : '?';
      return `${doc([prop.description], '  ')}  ${propKey(
        key,
      )}${optional}: ${type};`;
    });
    body = `export interface ${name} {\n${fields.join('\n')}\n}\n`;
  } else {
    body = `export type ${name} = ${modelType(ctx, schema, owner)};\n`;
  }
  const importLines = [...owner.imports]
    .sort()
    .map(i => `import { ${i} } from './${i}.model';\n`)
    .join('');
  const header = doc([schema.description, '@public']);
  owner.source = `${importLines}\n${header}${body}${owner.extra.join('')}`;
}

/** The models of a spec: name -> { name, source }, each rendered to TypeScript. */
function buildModels(spec) {
  const ctx = { models: new Map() };
  for (const [name, schema] of Object.entries(spec.components?.schemas ?? {})) {
    addModel(ctx, modelName(name), schema, name);
  }
  return ctx.models;
}

/** The operations of a spec, sorted by operationId, with their parameters, body and answers. */
function operationsOf(spec) {
  const ops = [];
  for (const [template, item] of Object.entries(spec.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      if (!op.operationId)
        throw new Error(`${method} ${template} has no operationId`);
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map(
        p => resolve(spec, p),
      );
      const unsupported = params.find(p => p.in !== 'path' && p.in !== 'query');
      if (unsupported) {
        throw new Error(
          `${op.operationId}: ${unsupported.in} parameters are not supported`,
        );
      }
      const content = resolve(spec, op.requestBody)?.content;
      if (content && !content['application/json']) {
        throw new Error(
          `${op.operationId}: only application/json bodies are supported`,
        );
      }
      const responses = Object.entries(op.responses ?? {}).map(
        ([status, r]) => {
          const schema = resolve(spec, r).content?.['application/json']?.schema;
          return { status, schema };
        },
      );
      ops.push({
        id: op.operationId,
        method,
        template,
        op,
        params,
        responses,
        body: content?.['application/json']?.schema,
      });
    }
  }
  return ops.sort((a, b) => a.id.localeCompare(b.id));
}

function requestFields(o, typeOf, withResponse) {
  const lines = [];
  for (const place of ['path', 'query']) {
    const params = o.params.filter(p => p.in === place);
    if (!params.length) continue;
    const fields = params.map(
      p => `${propKey(p.name)}${p.required ? '' : '?'}: ${typeOf(p.schema)};`,
    );
    // query parameters that are all optional may be left out
    const optional = place === 'query' && !params.some(p => p.required);
    lines.push(`${place}${optional ? '?' : ''}: {\n${fields.join('\n')}\n};`);
  }
  if (o.body) lines.push(`body: ${typeOf(o.body)};`);
  if (withResponse) {
    const answers = [
      ...new Set(o.responses.map(r => (r.schema ? typeOf(r.schema) : 'void'))),
    ];
    lines.push(`response: ${answers.join(' | ')};`);
  }
  return lines.length ? `{\n${lines.join('\n')}\n}` : '{}';
}

/** A type expression for a schema in an api file, adding the models it names to `imports`. */
function apiTypeOf(imports) {
  const typeOf = schema => {
    if (schema.$ref) {
      const name = modelName(refName(schema.$ref));
      imports.add(name);
      return name;
    }
    if (schema.type === 'array') return `Array<${typeOf(schema.items)}>`;
    if (schema.enum) return schema.enum.map(literal).join(' | ');
    if (!SCALARS[schema.type]) {
      throw new Error(
        `inline ${schema.type} schemas in operations are not supported: use $ref`,
      );
    }
    return SCALARS[schema.type];
  };
  return typeOf;
}

const modelImports = imports =>
  [...imports]
    .sort()
    .map(i => `import { ${i} } from '../models/${i}.model';\n`)
    .join('');

function serverApi(spec) {
  const imports = new Set();
  const typeOf = apiTypeOf(imports);
  const ops = operationsOf(spec);
  const types = ops.map(
    o =>
      `${doc(['@public'])}export type ${pascal(o.id)} = ${requestFields(
        o,
        typeOf,
        true,
      )};\n`,
  );
  const key = o =>
    `'#${o.method === 'delete' ? '_delete' : o.method}|${o.template}'`;
  const map = ops.map(o => `${key(o)}: ${pascal(o.id)};`).join('\n');
  return `${modelImports(imports)}\n${types.join('')}\n${doc([
    '@public',
  ])}export type EndpointMap = {\n${map}\n};\n`;
}

function clientMethod(o, typeOf) {
  const success = o.responses.find(r => /^2/.test(r.status));
  const returns = success?.schema ? typeOf(success.schema) : 'void';
  const used = o.params.length || o.body;
  const path = o.template.replace(
    /\{([^}]+)\}/g,
    (_, name) => `\${encodeURIComponent(request.path.${name})}`,
  );
  const hasQuery = o.params.some(p => p.in === 'query');
  const uri = hasQuery ? `${path}\${queryString(request.query)}` : path;
  const header = o.body ? `'Content-Type': 'application/json',\n` : '';
  const body = o.body ? `body: JSON.stringify(request.body),\n` : '';
  return `
${doc(
  [
    o.op.summary,
    o.op.description,
    ...o.params.map(p => `@param ${p.name} - ${p.description ?? ''}`),
  ],
  '  ',
)}  public async ${camel(o.id)}(
    ${used ? 'request' : '_request'}: ${pascal(o.id)},
    options?: RequestOptions,
  ): Promise<TypedResponse<${returns}>> {
    const baseUrl = await this.discoveryApi.getBaseUrl(pluginId);
    const uri = \`${uri}\`;
    return await this.fetchApi.fetch(\`\${baseUrl}\${uri}\`, {
      headers: {
        ${header}...(options?.token && { Authorization: \`Bearer \${options.token}\` }),
      },
      method: '${o.method.toUpperCase()}',
      ${body}
    });
  }
`;
}

/** The client's helper for query parameters: the defined ones, URL-encoded, after a `?`. */
const QUERY_STRING = `
function queryString(query?: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) params.set(name, String(value));
  }
  const text = params.toString();
  return text ? \`?\${text}\` : '';
}
`;

function clientApi(spec) {
  const imports = new Set();
  const typeOf = apiTypeOf(imports);
  const ops = operationsOf(spec);
  const types = ops.map(
    o =>
      `${doc(['@public'])}export type ${pascal(o.id)} = ${requestFields(
        o,
        typeOf,
        false,
      )};\n`,
  );
  const methods = ops.map(o => clientMethod(o, typeOf));
  const withQuery = ops.some(o => o.params.some(p => p.in === 'query'));
  return `import { DiscoveryApi } from '../types/discovery';
import { FetchApi } from '../types/fetch';
import { pluginId } from '../pluginId';
${modelImports(imports)}
${doc([
  'A Response whose json() is typed.',
  '',
  '@public',
])}export type TypedResponse<T> = Omit<Response, 'json'> & {
  json: () => Promise<T>;
};

${doc([
  'Per-request options: a token to send instead of the one fetchApi adds.',
  '',
  '@public',
])}export interface RequestOptions {
  token?: string;
}

${types.join('')}${withQuery ? QUERY_STRING : ''}
${doc([
  `The ${spec.info.title} API, one method per operation of the spec.`,
  '',
  '@public',
])}export class DefaultApiClient {
  private readonly discoveryApi: DiscoveryApi;
  private readonly fetchApi: FetchApi;

  constructor(options: { discoveryApi: DiscoveryApi; fetchApi: FetchApi }) {
    this.discoveryApi = options.discoveryApi;
    this.fetchApi = options.fetchApi;
  }
${methods.join('')}}
`;
}

module.exports = { buildModels, clientApi, doc, serverApi };
