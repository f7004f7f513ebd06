// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface Route {
  template: string;
  method: string;
  pattern: RegExp;
  names: string[];
  literals: number;
  operation: Json;
  pathParameters: Json[];
}

/** One route per operation of the description; `{param}` matches one URL-encoded path segment. */
export function buildRoutes(doc: Json): Route[] {
  const routes: Route[] = [];
  for (const [template, item] of Object.entries<Json>(doc.paths)) {
    const names: string[] = [];
    const source = template
      .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
      .replace(/\{([^}]+)\}/g, (_, n) => {
        names.push(n);
        return '([^/]+)';
      });
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      if (!item[method]) continue;
      routes.push({
        template,
        method: method.toUpperCase(),
        pattern: new RegExp(`^${source}$`),
        names,
        literals: template.split('/').filter(s => s && !s.includes('{')).length,
        operation: item[method],
        pathParameters: item.parameters ?? [],
      });
    }
  }
  return routes;
}

/** Follows local `$ref`s (`#/components/...`) to the node they name. */
export function deref(doc: Json, start: Json): Json {
  let node = start;
  while (node?.$ref) {
    node = node.$ref
      .slice(2)
      .split('/')
      .reduce(
        (o: Json, k: string) => o[k.replace(/~1/g, '/').replace(/~0/g, '~')],
        doc,
      );
  }
  return node;
}

/** Query and path values are strings; the schema says what they stand for. */
export function coerce(value: string, schema: Json): unknown {
  switch (schema?.type) {
    case 'integer':
    case 'number':
      return value.trim() === '' ? value : Number(value);
    case 'boolean':
      if (value === 'true' || value === 'false') return value === 'true';
      return value;
    case 'array':
      return value.split(',');
    default:
      return value;
  }
}
