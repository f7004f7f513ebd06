import https from 'node:https';
import YAML from 'yaml';

/** Credentials of one client: a client certificate or a bearer token. */
export interface KubeAccess {
  server: string;
  caData: string;
  certData?: string;
  keyData?: string;
  token?: string;
}

export interface KubeResponse<T = any> {
  status: number;
  body: T;
}

const b64 = (s: string) => Buffer.from(s).toString('base64');
const unb64 = (s?: string) =>
  s ? Buffer.from(s, 'base64').toString('utf8') : undefined;

/** Renders a kubeconfig YAML with inline data for one cluster and one user. */
export function renderKubeconfig(
  name: string,
  access: KubeAccess,
  user = 'admin',
): string {
  const u: Record<string, string> = {};
  if (access.token) u.token = access.token;
  if (access.certData) u['client-certificate-data'] = b64(access.certData);
  if (access.keyData) u['client-key-data'] = b64(access.keyData);
  return YAML.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name,
        cluster: {
          server: access.server,
          'certificate-authority-data': b64(access.caData),
        },
      },
    ],
    users: [{ name: `${name}-${user}`, user: u }],
    contexts: [{ name, context: { cluster: name, user: `${name}-${user}` } }],
    'current-context': name,
  });
}

/** Reads the current context of a kubeconfig that carries inline data. */
export function parseKubeconfig(text: string): KubeAccess {
  const kc = YAML.parse(text);
  const ctxName = kc['current-context'] ?? kc.contexts?.[0]?.name;
  const ctx = kc.contexts.find((c: any) => c.name === ctxName).context;
  const cluster = kc.clusters.find((c: any) => c.name === ctx.cluster).cluster;
  const user = kc.users.find((u: any) => u.name === ctx.user)?.user ?? {};
  return {
    server: cluster.server,
    caData: unb64(cluster['certificate-authority-data'])!,
    certData: unb64(user['client-certificate-data']),
    keyData: unb64(user['client-key-data']),
    token: user.token,
  };
}

/** A tiny JSON client over node:https: enough for the devenv helpers and tests. */
export class KubeClient {
  constructor(readonly access: KubeAccess) {}

  static fromKubeconfig(text: string) {
    return new KubeClient(parseKubeconfig(text));
  }

  request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    contentType = 'application/json',
    timeoutMs = 15000,
  ): Promise<KubeResponse<T>> {
    const url = new URL(path, this.access.server);
    let data: string | undefined;
    if (body !== undefined)
      data = typeof body === 'string' ? body : JSON.stringify(body);
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (data !== undefined) headers['Content-Type'] = contentType;
    if (this.access.token)
      headers.Authorization = `Bearer ${this.access.token}`;
    return new Promise((resolve, reject) => {
      const req = https.request(
        url,
        {
          method,
          headers,
          ca: this.access.caData,
          cert: this.access.certData,
          key: this.access.keyData,
          agent: false,
          timeout: timeoutMs,
        },
        res => {
          const chunks: Buffer[] = [];
          res.on('data', c => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: any = text;
            try {
              parsed = text ? JSON.parse(text) : undefined;
            } catch {
              // plain text answers such as /readyz
            }
            resolve({ status: res.statusCode ?? 0, body: parsed });
          });
        },
      );
      req.on('timeout', () =>
        req.destroy(new Error(`timeout ${method} ${path}`)),
      );
      req.on('error', reject);
      if (data !== undefined) req.write(data);
      req.end();
    });
  }

  /** Like request(), but throws unless the status is 2xx or listed in `ok`. */
  async must<T = any>(
    method: string,
    path: string,
    body?: unknown,
    ok: number[] = [],
    contentType?: string,
  ): Promise<KubeResponse<T>> {
    const res = await this.request<T>(method, path, body, contentType);
    if ((res.status < 200 || res.status > 299) && !ok.includes(res.status)) {
      const answer: any = res.body;
      const msg = typeof answer === 'object' ? answer?.message : answer;
      throw Object.assign(
        new Error(`${method} ${path} -> ${res.status}: ${msg}`),
        { status: res.status },
      );
    }
    return res;
  }

  /** Creates an object; an existing one (409) is left as it is. */
  createIfAbsent(path: string, obj: unknown) {
    return this.must('POST', path, obj, [409]);
  }
}
