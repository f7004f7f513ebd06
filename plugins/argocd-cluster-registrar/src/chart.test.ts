/* The chart deploy/helm/argocd-cluster-registrar, rendered by a real helm. */
import fs from 'node:fs';
import path from 'node:path';
import { parseManifests, runHelm } from '@internal/devenv';
import {
  CHART,
  FIXTURES,
  containerArgs,
  helmBin,
  named,
  render,
} from './__testUtils__/chart';
import { REPO } from './__testUtils__/image';

jest.setTimeout(600_000); // a cold helm build takes about 3 minutes

const parseYaml = (text: string): any => parseManifests(text)[0];

const UPSTREAM = path.join(FIXTURES, 'upstream-values.yaml');

/** Every key of upstream's chart v0.6.0 values.yaml (maps and lists as one key). */
const UPSTREAM_KEYS = [
  'targetNamespace',
  'labelPrefix',
  'managedBy',
  'providers',
  'execCredentials',
  'secretNamePattern',
  'secretKey',
  'interval',
  'demotedTTL',
  'dryRun',
  'debug',
  'leaderElection.enabled',
  'probes.enabled',
  'probes.bindAddress',
  'probes.liveness.initialDelaySeconds',
  'probes.liveness.periodSeconds',
  'probes.readiness.initialDelaySeconds',
  'probes.readiness.periodSeconds',
  'metrics.enabled',
  'metrics.bindAddress',
  'metrics.service.enabled',
  'metrics.service.port',
  'metrics.service.annotations',
  'replicaCount',
  'strategy.type',
  'terminationGracePeriodSeconds',
  'commonAnnotations',
  'commonLabels',
  'image.repository',
  'image.tag',
  'image.pullPolicy',
  'resources.requests.cpu',
  'resources.requests.memory',
  'resources.limits.cpu',
  'resources.limits.memory',
  'nodeSelector',
  'tolerations',
  'affinity',
  'admissionPolicy.enabled',
  'admissionPolicy.validationActions',
  'admissionPolicy.failurePolicy',
  'admissionPolicy.authorizedGroups',
  'admissionPolicy.authorizedUsers',
  'admissionPolicy.clusterNameMustMatchNamespace',
];

/** Keys whose value is a free-form map (labels, a Kubernetes field): one key each. */
const MAPS = [
  'metrics.service.annotations',
  'commonAnnotations',
  'commonLabels',
  'nodeSelector',
  'affinity',
];

function keyPaths(value: any, prefix = ''): string[] {
  const key = prefix.slice(0, -1);
  if (
    value &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    !MAPS.includes(key)
  ) {
    return Object.keys(value).flatMap(k =>
      keyPaths(value[k], `${prefix}${k}.`),
    );
  }
  return [key];
}

describe('the chart deploy/helm/argocd-cluster-registrar', () => {
  beforeAll(() => helmBin());

  it('passes helm lint --strict, with its defaults and with an upstream values file', () => {
    for (const extra of [[], ['-f', UPSTREAM]]) {
      expect(
        runHelm(helmBin(), ['lint', '--strict', CHART, ...extra], REPO),
      ).toMatch(/1 chart\(s\) linted, 0 chart\(s\) failed/);
    }
  });

  it("takes every key of upstream's values.yaml, with upstream's defaults but the image and its memory", () => {
    const ours = parseYaml(
      fs.readFileSync(path.join(REPO, CHART, 'values.yaml'), 'utf8'),
    );
    const have = new Set(keyPaths(ours));
    expect(UPSTREAM_KEYS.filter(k => !have.has(k))).toEqual([]);
    expect(ours).toMatchObject({
      targetNamespace: 'argocd',
      labelPrefix: 'argocd-cluster-registrar/',
      managedBy: 'cluster-registrar',
      providers: [],
      interval: '60s',
      demotedTTL: '0s',
      leaderElection: { enabled: false },
      probes: { enabled: true, bindAddress: ':8081' },
      metrics: { enabled: false, bindAddress: ':8080' },
      replicaCount: 1,
      admissionPolicy: { enabled: false, failurePolicy: 'Fail' },
    });
    // and an upstream user's file sets nothing this chart does not know
    const fixture = keyPaths(parseYaml(fs.readFileSync(UPSTREAM, 'utf8')));
    expect(fixture.filter(k => !UPSTREAM_KEYS.includes(k))).toEqual([]);
  });

  it('by default: a ServiceAccount, the read ClusterRole, the write Role in argocd, a Deployment with probes', () => {
    const objects = render();
    expect(objects.map(named)).toEqual([
      'ServiceAccount registrar/acr-argocd-cluster-registrar-sa',
      'ClusterRole acr-argocd-cluster-registrar-role',
      'ClusterRoleBinding acr-argocd-cluster-registrar-rolebinding',
      'Role argocd/acr-argocd-cluster-registrar-write',
      'RoleBinding argocd/acr-argocd-cluster-registrar-write',
      'Deployment registrar/acr-argocd-cluster-registrar',
    ]);
    expect(containerArgs(objects)).toEqual([
      '--target-namespace=argocd',
      '--label-prefix=argocd-cluster-registrar/',
      '--managed-by=cluster-registrar',
      '--interval=60s',
      '--demoted-ttl=0s',
      '--health-probe-bind-address=:8081',
    ]);
    const pod = objects.find(o => o.kind === 'Deployment').spec.template.spec;
    const [container] = pod.containers;
    expect(container.image).toBe(
      'ghcr.io/darkshiftio/argocd-cluster-registrar:0.1.0',
    );
    expect(container.ports).toEqual([
      { name: 'probes', containerPort: 8081, protocol: 'TCP' },
    ]);
    expect(container.livenessProbe.httpGet).toEqual({
      path: '/healthz',
      port: 'probes',
    });
    expect(container.readinessProbe.httpGet).toEqual({
      path: '/readyz',
      port: 'probes',
    });
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true });
    expect(container.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
  });

  it('grants least privilege: reads cluster-wide, writes only Secrets in targetNamespace, the Lease only with leader election, no events, get, patch', () => {
    const rules = (objects: any[], kind: string) =>
      objects.find(o => o.kind === kind).rules;
    const plain = render();
    expect(rules(plain, 'ClusterRole')).toEqual([
      {
        apiGroups: [''],
        resources: ['namespaces'],
        verbs: ['get', 'list', 'watch'],
      },
      { apiGroups: [''], resources: ['secrets'], verbs: ['list', 'watch'] },
    ]);
    expect(rules(plain, 'Role')).toEqual([
      {
        apiGroups: [''],
        resources: ['secrets'],
        verbs: ['create', 'update', 'delete'],
      },
    ]);
    const leading = render({
      set: { 'leaderElection.enabled': 'true', targetNamespace: 'argo' },
    });
    expect(leading.find(o => o.kind === 'Role').metadata.namespace).toBe(
      'argo',
    );
    expect(rules(leading, 'Role')).toEqual([
      {
        apiGroups: [''],
        resources: ['secrets'],
        verbs: ['create', 'update', 'delete'],
      },
      {
        apiGroups: ['coordination.k8s.io'],
        resources: ['leases'],
        verbs: ['create'],
      },
      {
        apiGroups: ['coordination.k8s.io'],
        resources: ['leases'],
        resourceNames: ['acr-991221237547448b'],
        verbs: ['get', 'update'],
      },
    ]);
    expect(containerArgs(leading)).toContain(
      '--leader-election-id=acr-991221237547448b',
    );
  });

  it("renders an upstream user's values file unchanged: every value reaches its flag or field", () => {
    const objects = render({ release: 'platform', files: [UPSTREAM] });
    expect(objects.map(named)).toEqual([
      'ServiceAccount registrar/platform-argocd-cluster-registrar-sa',
      'ClusterRole platform-argocd-cluster-registrar-role',
      'ClusterRoleBinding platform-argocd-cluster-registrar-rolebinding',
      'Role argocd/platform-argocd-cluster-registrar-write',
      'RoleBinding argocd/platform-argocd-cluster-registrar-write',
      'Service registrar/platform-argocd-cluster-registrar-metrics',
      'Deployment registrar/platform-argocd-cluster-registrar',
      'ValidatingAdmissionPolicy platform-argocd-cluster-registrar-managed-by',
      'ValidatingAdmissionPolicy platform-argocd-cluster-registrar-cluster-name',
      'ValidatingAdmissionPolicyBinding platform-argocd-cluster-registrar-managed-by',
      'ValidatingAdmissionPolicyBinding platform-argocd-cluster-registrar-cluster-name',
    ]);
    expect(containerArgs(objects)).toEqual([
      '--target-namespace=argocd',
      '--label-prefix=argocd-cluster-registrar/',
      '--managed-by=platform-registrar',
      '--provider=k3k',
      '--provider=vcluster',
      '--provider=mytool=mytool-*-kubeconfig=kubeconfig,value',
      '--provider=eks=*-user-kubeconfig=value=exec',
      '--interval=30s',
      '--demoted-ttl=168h',
      '--exec-credentials',
      '--leader-elect',
      // acr- and 16 hex of sha256("argocd-cluster-registrar/|platform-registrar")
      '--leader-election-id=acr-7402b0ecb7ffd3bc',
      '--health-probe-bind-address=:8081',
      '--metrics-bind-address=:8080',
      '--debug',
    ]);
    const deployment = objects.find(o => o.kind === 'Deployment');
    expect(deployment.spec.replicas).toBe(2);
    expect(deployment.metadata.labels.team).toBe('platform');
    expect(deployment.metadata.annotations).toEqual({ owner: 'platform-team' });
    const pod = deployment.spec.template.spec;
    const [container] = pod.containers;
    expect(container.image).toBe(
      'registry.example.com/platform/argocd-cluster-registrar:1.2.3',
    );
    expect(container.imagePullPolicy).toBe('Always');
    expect(
      container.ports.map((p: any) => `${p.name}:${p.containerPort}`),
    ).toEqual(['probes:8081', 'metrics:8080']);
    expect(container.livenessProbe).toMatchObject({
      initialDelaySeconds: 20,
      periodSeconds: 30,
    });
    expect(container.resources.limits).toEqual({
      cpu: '500m',
      memory: '256Mi',
    });
    expect(pod.nodeSelector).toEqual({ 'kubernetes.io/os': 'linux' });
    expect(pod.tolerations).toHaveLength(1);
    expect(pod.affinity.nodeAffinity).toBeDefined();
    const service = objects.find(o => o.kind === 'Service');
    expect(service.spec.ports).toEqual([
      { name: 'metrics', port: 9090, targetPort: 'metrics', protocol: 'TCP' },
    ]);
    expect(service.metadata.annotations).toEqual({
      'prometheus.io/scrape': 'true',
      owner: 'platform-team',
    });
    const binding = objects.find(
      o =>
        o.kind === 'ValidatingAdmissionPolicyBinding' &&
        o.metadata.name.endsWith('managed-by'),
    );
    expect(binding.spec.validationActions).toEqual(['Warn', 'Audit']);
    const policy = objects.find(
      o =>
        o.kind === 'ValidatingAdmissionPolicy' &&
        o.metadata.name.endsWith('managed-by'),
    );
    const authorized = policy.spec.variables.find(
      (v: any) => v.name === 'authorized',
    ).expression;
    expect(authorized).toContain('g in ["platform-admins"]');
    expect(authorized).toContain(
      'request.userInfo.username in ["system:serviceaccount:flux-system:kustomize-controller"]',
    );
  });

  it('renders a 0.2.x values file: secretNamePattern and secretKey become the deprecated flags', () => {
    const args = containerArgs(
      render({ files: [path.join(FIXTURES, 'upstream-0.2-values.yaml')] }),
    );
    expect(args).toEqual(
      expect.arrayContaining([
        '--secret-name-pattern=vc-*',
        '--secret-key=config',
      ]),
    );
    expect(args.filter(a => a.startsWith('--provider'))).toEqual([]);
  });

  it("refuses what upstream's chart refuses, naming why", () => {
    expect(() => render({ set: { replicaCount: '2' } })).toThrow(
      /replicaCount > 1 requires leaderElection.enabled/,
    );
    expect(() =>
      render({ set: { 'providers[0]': 'k3k', secretKey: 'config' } }),
    ).toThrow(
      /providers and secretNamePattern\/secretKey are mutually exclusive/,
    );
    expect(() => render({ set: { secretKey: 'config' } })).toThrow(
      /secretNamePattern is required with secretKey/,
    );
    expect(() =>
      render({
        set: { 'metrics.enabled': 'true', 'metrics.bindAddress': '8080' },
      }),
    ).toThrow(/metrics.bindAddress must end in :PORT/);
    expect(() =>
      render({ set: { 'admissionPolicy.enabled': 'true' } }),
    ).toThrow(
      /admissionPolicy.enabled requires authorizedGroups or authorizedUsers/,
    );
  });

  it('probes off: an empty --health-probe-bind-address, no ports, no probes; metrics off: no flag (the command then serves none)', () => {
    const objects = render({ set: { 'probes.enabled': 'false' } });
    const [container] = objects.find(o => o.kind === 'Deployment').spec.template
      .spec.containers;
    expect(container.args).toContain('--health-probe-bind-address=');
    expect(container.args.some((a: string) => a.startsWith('--metrics'))).toBe(
      false,
    );
    expect(container.ports).toBeUndefined();
    expect(container.livenessProbe).toBeUndefined();
  });

  it("appVersion is the npm package's version, which the image installs", () => {
    const chart = parseYaml(
      fs.readFileSync(path.join(REPO, CHART, 'Chart.yaml'), 'utf8'),
    );
    const pkg = JSON.parse(
      fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'),
    );
    expect(String(chart.appVersion)).toBe(pkg.version);
  });
});
