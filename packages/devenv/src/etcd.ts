import http from 'node:http';

/** One write to etcd, as its watch API reports it. */
export interface EtcdEvent {
  type: 'PUT' | 'DELETE';
  key: string;
  modRevision: number;
  /** Writes to the key since it was (last) created: 1 on a create. */
  version: number;
}

const b64 = (s: string) => Buffer.from(s).toString('base64');
const unb64 = (s: string) => Buffer.from(s, 'base64').toString('utf8');

/** The first key after every key that starts with `prefix` (etcd's range_end for a prefix). */
function prefixEnd(prefix: string): string {
  const bytes = Buffer.from(prefix);
  bytes[bytes.length - 1]++;
  return bytes.toString('base64');
}

/**
 * The etcd key of a Kubernetes object of a devenv cluster: kube-apiserver runs with
 * `--etcd-prefix=/<cluster>/registry`, and keeps `<resource>/<namespace>/<name>` under it.
 */
export function etcdKey(
  cluster: string,
  resource: string,
  namespace?: string,
  name?: string,
): string {
  return [`/${cluster}/registry/${resource}`, namespace, name]
    .filter(p => p !== undefined)
    .join('/');
}

function post(url: string, body: unknown, timeoutMs: number): Promise<any> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', timeout: timeoutMs },
      res => {
        const chunks: Buffer[] = [];
        res.on('data', c => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode === 200) resolve(JSON.parse(text));
          else reject(new Error(`etcd ${url}: ${res.statusCode} ${text}`));
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`etcd ${url}: timeout`)));
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** etcd's current revision, and how many keys start with `prefix` (when given). */
export async function etcdRevision(
  etcdUrl: string,
  prefix = '/',
): Promise<{ revision: number; count: number }> {
  const res = await post(
    `${etcdUrl}/v3/kv/range`,
    { key: b64(prefix), range_end: prefixEnd(prefix), count_only: true },
    5000,
  );
  return {
    revision: Number(res.header.revision),
    count: Number(res.count ?? 0),
  };
}

function toEvent(e: any): EtcdEvent {
  return {
    type: e.type === 'DELETE' ? 'DELETE' : 'PUT',
    key: unb64(e.kv.key),
    modRevision: Number(e.kv.mod_revision),
    version: Number(e.kv.version ?? 0),
  };
}

/**
 * Every write to keys under `prefix` from `fromRevision` on, read from etcd's history with a watch
 * (so it holds across kube-apiserver restarts, which etcd outlives), up to and including the first
 * event that `until` accepts. Rejects after `timeoutMs` (default 20 s).
 */
export function etcdEvents(
  etcdUrl: string,
  options: {
    prefix: string;
    fromRevision: number;
    until: (event: EtcdEvent) => boolean;
    timeoutMs?: number;
  },
): Promise<EtcdEvent[]> {
  const { prefix, fromRevision, until } = options;
  const timeoutMs = options.timeoutMs ?? 20_000;
  const events: EtcdEvent[] = [];
  const controller = new AbortController();
  const timer = setTimeout(
    () =>
      controller.abort(
        new Error(`etcd watch: no end event after ${timeoutMs} ms`),
      ),
    timeoutMs,
  );
  return new Promise<EtcdEvent[]>((resolve, reject) => {
    const req = http.request(
      `${etcdUrl}/v3/watch`,
      { method: 'POST', signal: controller.signal },
      res => {
        let buffered = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          // one JSON message a line
          const lines = (buffered + chunk).split('\n');
          buffered = lines.pop()!;
          for (const line of lines.filter(l => l.trim())) {
            const message = JSON.parse(line);
            if (message.error) {
              reject(new Error(`etcd watch: ${JSON.stringify(message.error)}`));
              req.destroy();
              return;
            }
            for (const event of (message.result?.events ?? []).map(toEvent)) {
              events.push(event);
              if (until(event)) {
                resolve(events);
                req.destroy();
                return;
              }
            }
          }
        });
      },
    );
    req.on('error', e => reject(controller.signal.reason ?? e));
    req.end(
      JSON.stringify({
        create_request: {
          key: b64(prefix),
          range_end: prefixEnd(prefix),
          start_revision: String(fromRevision),
        },
      }),
    );
  }).finally(() => clearTimeout(timer));
}
