import YAML from 'yaml';
import { KubeClient } from '@infrared-clusters/infrared-kube';
import { ClusterInfo } from './controlPlane';

interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
}

/** One applied object: `Kind namespace/name` and the API server's status. */
export interface AppliedObject {
  object: string;
  status: number;
}

const FIELD_MANAGER = 'infrared-devenv';

/** The objects of a multi-document YAML text (empty documents dropped). */
export function parseManifests(text: string): KubeObject[] {
  return YAML.parseAllDocuments(text)
    .map(d => {
      if (d.errors.length) throw new Error(d.errors[0].message);
      return d.toJSON();
    })
    .filter(Boolean);
}

/** Where a kind lives, from the API server's discovery (one GET per group version). */
class Discovery {
  private readonly groups = new Map<
    string,
    Promise<Array<{ name: string; kind: string; namespaced: boolean }>>
  >();
  constructor(private readonly client: KubeClient) {}

  async path(obj: KubeObject): Promise<string> {
    const base = obj.apiVersion.includes('/')
      ? `/apis/${obj.apiVersion}`
      : `/api/${obj.apiVersion}`;
    if (!this.groups.has(base)) {
      this.groups.set(
        base,
        this.client.must('GET', base).then(res => res.body.resources),
      );
    }
    const resource = (await this.groups.get(base)!).find(
      r => r.kind === obj.kind && !r.name.includes('/'),
    );
    if (!resource) {
      throw new Error(
        `the API server serves no ${obj.kind} in ${obj.apiVersion}`,
      );
    }
    const ns = resource.namespaced
      ? `/namespaces/${obj.metadata.namespace ?? 'default'}`
      : '';
    return `${base}${ns}/${resource.name}/${obj.metadata.name}`;
  }
}

/**
 * Server-side apply of each object, as `kubectl apply --server-side --force-conflicts` does, with
 * strict field validation (an unknown or duplicate field is refused, not dropped). With `dryRun`
 * the API server validates and admits everything but stores nothing. The first refusal throws,
 * naming the object and the API server's message.
 */
export async function serverSideApply(
  cluster: Pick<ClusterInfo, 'kubeconfig'>,
  objects: KubeObject[],
  opts: { dryRun?: boolean } = {},
): Promise<AppliedObject[]> {
  const client = KubeClient.fromKubeconfig(cluster.kubeconfig);
  const discovery = new Discovery(client);
  const query = `?fieldManager=${FIELD_MANAGER}&force=true&fieldValidation=Strict${
    opts.dryRun ? '&dryRun=All' : ''
  }`;
  const applied: AppliedObject[] = [];
  for (const obj of objects) {
    const object = `${obj.kind} ${
      obj.metadata.namespace ? `${obj.metadata.namespace}/` : ''
    }${obj.metadata.name}`;
    const res = await client.request(
      'PATCH',
      `${await discovery.path(obj)}${query}`,
      JSON.stringify(obj),
      'application/apply-patch+yaml',
    );
    if (res.status < 200 || res.status > 299) {
      throw new Error(
        `${object}: the API server refused it (${res.status}): ${
          res.body?.message ?? res.body
        }`,
      );
    }
    applied.push({ object, status: res.status });
  }
  return applied;
}
