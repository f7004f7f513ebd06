import type { BadInputCase } from './corpus';
import { CANARY } from './corpus';

/**
 * The corpus's big and binary cases, made at run time rather than checked in: 10 MB bodies,
 * YAML alias bombs, deep nesting, random bytes and invalid UTF-8.
 */

const MB = 1024 * 1024;

/** Bytes from a fixed-seed generator (mulberry32), so every run sends the same ones. */
function bytes(count: number, seed: number): Buffer {
  const out = Buffer.alloc(count);
  let a = seed;
  for (let i = 0; i < count; i++) {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    out[i] = (t ^ (t >>> 14)) & 0xff;
  }
  return out;
}

const kubeconfigBody = (kubeconfig: string) => ({
  name: '$NAME',
  kubeconfig,
});

/** The billion laughs: nine levels of ten aliases each (10^9 nodes once expanded). */
function billionLaughs(): string {
  const lines = [`a0: &a0 ["${CANARY}", "${CANARY}"]`];
  for (let i = 1; i < 10; i++) {
    lines.push(
      `a${i}: &a${i} [${Array(10)
        .fill(`*a${i - 1}`)
        .join(', ')}]`,
    );
  }
  lines.push('clusters: *a9', `users: [{name: u, user: {token: ${CANARY}}}]`);
  return lines.join('\n');
}

/** Under the alias limit but each alias a large mapping: 90 cluster entries, no context. */
function wideAliases(): string {
  const fields = Array.from(
    { length: 2000 },
    (_, i) => `k${i}: ${CANARY}-${i}`,
  ).join(', ');
  return [
    `big: &big {name: c, cluster: {server: 'https://127.0.0.1:6443', ${fields}}}`,
    `clusters: [${Array(90).fill('*big').join(', ')}]`,
    `users: [{name: u, user: {token: ${CANARY}}}]`,
  ].join('\n');
}

/** Aliases of aliases in mappings (the quadratic blow-up), past the alias limit. */
function nestedMappingBomb(): string {
  const lines = [`m0: &m0 {x: ${CANARY}}`];
  for (let i = 1; i < 8; i++) {
    const keys = Array.from({ length: 8 }, (_, k) => `k${k}: *m${i - 1}`);
    lines.push(`m${i}: &m${i} {${keys.join(', ')}}`);
  }
  lines.push(
    `clusters: [{name: c, cluster: *m7}]`,
    `users: [{name: u, user: *m7}]`,
  );
  return lines.join('\n');
}

function tenMegabytes(): string {
  return 'a'.repeat(10 * MB);
}

function invalidUtf8(prefix: string, suffix: string, bad: number[]): Buffer {
  return Buffer.concat([
    Buffer.from(prefix),
    Buffer.from(bad),
    Buffer.from(suffix),
  ]);
}

const tokenKubeconfigLine = (token: string) =>
  `clusters: [{name: c, cluster: {server: 'https://127.0.0.1:6443'}}]\\nusers: [{name: u, user: {token: ${token}`;

function bigCases(): BadInputCase[] {
  const post = (id: string, extra: Partial<BadInputCase>): BadInputCase => ({
    id: `generated/${id}`,
    method: 'post',
    path: '/v1/clusters',
    status: 400,
    field: 'body',
    ...extra,
  });
  return [
    post('ten-mb-kubeconfig', {
      body: kubeconfigBody(tenMegabytes()),
      status: 413,
    }),
    post('ten-mb-raw', {
      raw: `{"name":"$NAME","kubeconfig":"${tenMegabytes()}`,
      contentType: 'application/json',
      status: 413,
    }),
    post('ten-mb-binary', {
      raw: bytes(10 * MB, 1),
      contentType: 'application/json',
      status: 413,
    }),
    post('one-mib-and-a-byte', {
      raw: `{"name":"$NAME","kubeconfig":"${'a'.repeat(MB)}"}`,
      contentType: 'application/json',
      status: 413,
    }),
    {
      id: 'generated/ten-mb-allowlist',
      method: 'put',
      path: '/v1/orgs/$ORG/cluster-allowlist',
      body: { clusters: Array(1024 * 1024).fill('edge-cluster') },
      status: 413,
      field: 'body',
    },
    {
      id: 'generated/ten-mb-action',
      method: 'put',
      path: '/v1/clusters/$NAME/provision/action',
      body: { action: 'plan', padding: tenMegabytes() },
      status: 413,
      field: 'body',
    },
    {
      id: 'generated/allowlist-1001',
      method: 'put',
      path: '/v1/orgs/$ORG/cluster-allowlist',
      body: { clusters: Array.from({ length: 1001 }, (_, i) => `c${i}`) },
      status: 400,
      field: 'clusters',
    },
    post('name-ten-kb', {
      body: { name: 'a'.repeat(10 * 1024), inCluster: true },
      field: 'name',
    }),
    post('thousand-unknown-fields', {
      body: Object.fromEntries([
        ['name', '$NAME'],
        ['inCluster', true],
        ...Array.from({ length: 1000 }, (_, i) => [`f${i}`, i]),
      ]),
      field: 'f999',
    }),
  ];
}

function yamlCases(): BadInputCase[] {
  const kube = (id: string, kubeconfig: string, field = 'kubeconfig') => ({
    id: `generated/${id}`,
    method: 'post' as const,
    path: '/v1/clusters',
    body: kubeconfigBody(kubeconfig),
    status: 400,
    field,
  });
  return [
    kube('billion-laughs', billionLaughs()),
    kube('nested-mapping-bomb', nestedMappingBomb()),
    kube('wide-aliases', wideAliases(), 'kubeconfig.current-context'),
    kube('deep-flow-nesting', `${'['.repeat(100_000)}${']'.repeat(100_000)}`),
    kube(
      'deep-block-nesting',
      Array.from({ length: 1200 }, (_, i) => `${' '.repeat(i)}k:`).join('\n'),
    ),
    kube('binary-kubeconfig', bytes(64 * 1024, 2).toString('latin1')),
    kube(
      'binary-in-token',
      `clusters: [{name: c, cluster: {server: 'https://127.0.0.1:6443'}}]\nusers: [{name: u, user: {token: "${CANARY}${bytes(
        16,
        3,
      )
        .toString('latin1')
        .replace(/[\\"]/g, '')}"}}]`,
      'kubeconfig',
    ),
  ];
}

function byteCases(): BadInputCase[] {
  const raw = (id: string, body: Buffer): BadInputCase => ({
    id: `generated/${id}`,
    method: 'post',
    path: '/v1/clusters',
    raw: body,
    contentType: 'application/json',
    status: 400,
    field: 'body',
  });
  return [
    raw('binary-body', bytes(4096, 4)),
    raw('binary-body-small', bytes(7, 5)),
    raw('nul-bytes', Buffer.alloc(64)),
    raw(
      'invalid-utf8-name',
      invalidUtf8('{"name":"ed', 'ge","inCluster":true}', [0xff]),
    ),
    raw(
      'overlong-slash-in-name',
      invalidUtf8('{"name":"a', 'b","inCluster":true}', [0xc0, 0xaf]),
    ),
    raw(
      'invalid-utf8-in-token',
      invalidUtf8(
        `{"name":"$NAME","kubeconfig":"${tokenKubeconfigLine(CANARY)}`,
        '}}]"}',
        [0xfe, 0xfe],
      ),
    ),
    raw(
      'truncated-utf8-in-server',
      invalidUtf8(
        `{"name":"$NAME","kubeconfig":"clusters: [{name: c, cluster: {server: 'https://127.0.0.1`,
        `:6443'}}]\\nusers: [{name: u, user: {token: ${CANARY}}}]"}`,
        [0xe2, 0x82],
      ),
    ),
    raw(
      'utf16-surrogate-bytes',
      invalidUtf8('{"name":"', '","inCluster":true}', [0xed, 0xa0, 0x80]),
    ),
    raw(
      'invalid-utf8-in-allowlist',
      invalidUtf8('{"clusters":["ed', 'ge"]}', [0x80]),
    ),
    raw(
      'utf16le-body',
      Buffer.from('{"name":"edge","inCluster":true}', 'utf16le'),
    ),
  ].map(c =>
    c.id.endsWith('allowlist')
      ? { ...c, method: 'put', path: '/v1/orgs/$ORG/cluster-allowlist' }
      : c,
  );
}

/** The generated cases: big bodies, alias bombs, deep nesting, binary and invalid UTF-8. */
export function generatedCases(): BadInputCase[] {
  return [...bigCases(), ...yamlCases(), ...byteCases()];
}
