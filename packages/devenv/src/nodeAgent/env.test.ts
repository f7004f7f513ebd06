import {
  containerArgv,
  containerEnv,
  ContainerConfigError,
  expand,
  imageName,
  kubernetesServiceEnv,
  mapImage,
  type ContainerSpec,
  type PodLike,
} from './env';
import { fallbackMessage, parseLog, renderLog } from './logs';

const pod = (container: Partial<ContainerSpec> = {}): PodLike => ({
  metadata: {
    name: 'tofu-x-1-plan-abcde',
    namespace: 'infrared',
    uid: 'u1',
    labels: { app: 'tofu' },
  },
  spec: {
    nodeName: 'devenv-node',
    serviceAccountName: 'infrared-tofu',
    containers: [
      {
        name: 'tofu',
        image: 'example.test/opentofu/opentofu:1.10',
        ...container,
      },
    ],
  },
});
const sources = {
  secret: (n: string) =>
    n === 'creds'
      ? { AWS_KEY: 'k', 'bad name': 'x', GIT_TOKEN: 't' }
      : undefined,
  configMap: (n: string) => (n === 'cfg' ? { REGION: 'us-east-1' } : undefined),
};
const service = kubernetesServiceEnv('127.0.0.1', 6443);

describe('containerEnv: what a kubelet gives the process', () => {
  it('service variables, envFrom (invalid names skipped), then env, which wins', () => {
    const p = pod({
      envFrom: [
        { secretRef: { name: 'creds' } },
        { configMapRef: { name: 'cfg' }, prefix: 'CFG_' },
      ],
      env: [
        { name: 'AWS_KEY', value: 'override' },
        {
          name: 'WHO',
          valueFrom: { fieldRef: { fieldPath: 'metadata.name' } },
        },
        {
          name: 'APP',
          valueFrom: { fieldRef: { fieldPath: "metadata.labels['app']" } },
        },
        {
          name: 'FROM_SECRET',
          valueFrom: { secretKeyRef: { name: 'creds', key: 'GIT_TOKEN' } },
        },
        { name: 'REF', value: '$(CFG_REGION)-$(MISSING)-$$(CFG_REGION)' },
      ],
    });
    const env = containerEnv(p, p.spec.containers[0], sources, service);
    expect(env).toEqual({
      ...service,
      AWS_KEY: 'override',
      GIT_TOKEN: 't',
      CFG_REGION: 'us-east-1',
      WHO: 'tofu-x-1-plan-abcde',
      APP: 'tofu',
      FROM_SECRET: 't',
      REF: 'us-east-1-$(MISSING)-$(CFG_REGION)',
    });
    expect(env.KUBERNETES_SERVICE_HOST).toBe('127.0.0.1');
    expect(env.KUBERNETES_SERVICE_PORT).toBe('6443');
  });

  it.each<[Partial<ContainerSpec>, string]>([
    [{ envFrom: [{ secretRef: { name: 'nope' } }] }, 'secret "nope" not found'],
    [
      { envFrom: [{ configMapRef: { name: 'nope' } }] },
      'configmap "nope" not found',
    ],
    [
      {
        env: [
          {
            name: 'X',
            valueFrom: { secretKeyRef: { name: 'creds', key: 'NOPE' } },
          },
        ],
      },
      "couldn't find key NOPE in Secret infrared/creds",
    ],
  ])('%j: CreateContainerConfigError "%s"', (container, message) => {
    const p = pod(container);
    expect(() =>
      containerEnv(p, p.spec.containers[0], sources, service),
    ).toThrow(new ContainerConfigError(message));
  });

  it('optional sources that are missing are skipped', () => {
    const p = pod({
      envFrom: [{ secretRef: { name: 'nope', optional: true } }],
      env: [
        {
          name: 'X',
          valueFrom: {
            secretKeyRef: { name: 'nope', key: 'k', optional: true },
          },
        },
      ],
    });
    expect(containerEnv(p, p.spec.containers[0], sources, service)).toEqual(
      service,
    );
  });
});

describe('images and argv', () => {
  const tofu = {
    name: 'opentofu',
    path: ['/cache/tofu/bin'],
    entrypoint: ['tofu'],
  };
  it.each([
    ['ghcr.example/opentofu/opentofu:1.10', 'opentofu'],
    ['opentofu', 'opentofu'],
    ['localhost:5000/team/opentofu@sha256:abc', 'opentofu'],
    ['busybox:1', 'busybox'],
  ])('%s is %s', (image, name) => {
    expect(imageName(image)).toBe(name);
  });

  it('an image no program stands for cannot run here (ErrImagePull)', () => {
    expect(() => mapImage('busybox:1', [tofu])).toThrow(
      /image busybox:1 is not available on this node/,
    );
  });

  it('command (or the entrypoint) and args, $(VAR) expanded', () => {
    expect(
      containerArgv(
        { name: 'c', image: 'opentofu', args: ['version', '$(X)'] },
        tofu,
        { X: 'y' },
      ),
    ).toEqual(['tofu', 'version', 'y']);
    expect(
      containerArgv(
        {
          name: 'c',
          image: 'opentofu',
          command: ['/bin/sh', '-ec', 'echo $HOME'],
        },
        tofu,
        {},
      ),
    ).toEqual(['/bin/sh', '-ec', 'echo $HOME']);
  });

  it('expand leaves what it cannot resolve', () => {
    expect(expand('$(A', { A: 'x' })).toBe('$(A');
  });
});

describe('logs as the kubelet serves them', () => {
  const text = [
    '2026-01-01T00:00:00.000Z stdout F one',
    '2026-01-01T00:00:01.000Z stderr F two',
    '2026-01-01T00:00:02.000Z stdout F three',
    '',
  ].join('\n');
  const entries = parseLog(text);
  it.each([
    [{}, 'one\ntwo\nthree\n'],
    [{ tailLines: 2 }, 'two\nthree\n'],
    [{ tailLines: 0 }, ''],
    [{ limitBytes: 5 }, 'one\nt'],
    [{ timestamps: true, tailLines: 1 }, '2026-01-01T00:00:02.000Z three\n'],
    [{ since: new Date('2026-01-01T00:00:01.000Z') }, 'two\nthree\n'],
  ])('%j', (options, expected) => {
    expect(renderLog(entries, options)).toBe(expected);
  });

  it('FallbackToLogsOnError: the last 80 lines, at most 2048 bytes', () => {
    const many = parseLog(
      Array.from(
        { length: 100 },
        (_, i) => `2026-01-01T00:00:00.000Z stdout F line ${i}`,
      ).join('\n'),
    );
    const message = fallbackMessage(many);
    expect(message.startsWith('line 20\n')).toBe(true);
    const long = parseLog(
      `2026-01-01T00:00:00.000Z stdout F ${'x'.repeat(5000)}`,
    );
    expect(Buffer.byteLength(fallbackMessage(long))).toBe(2048);
  });
});
