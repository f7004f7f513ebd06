import { ConfigReader } from '@backstage/config';
import {
  GithubPublisher,
  GithubPublisherOptions,
} from '../github/GithubPublisher';
import { captureLogger } from './captureLogger';
import { FakeGithubServer } from './fakeGithubServer';

export const TOKEN = 'ghs_fakeInstallationToken0123456789abcdef';
export const REPO_URL = 'https://github.test/acme/gitops';

/**
 * A fake GitHub per test plus a publisher pointed at it through `integrations.github` (GitHub Enterprise
 * style, with apiBaseUrl). After each test: no request the OpenAPI description refuses, no token in the logs.
 * `retries`: with the retry and throttling plugins, for suites that inject faults (they add milliseconds of
 * timers to every request); their waits take a millisecond where they would take a second, and writes are
 * not paced.
 */
export function useFakeGithub(setup: { retries?: boolean } = {}) {
  const ctx = {} as {
    server: FakeGithubServer;
    logger: ReturnType<typeof captureLogger>;
    sleeps: number[];
    publisher: (options?: Partial<GithubPublisherOptions>) => GithubPublisher;
  };
  beforeEach(async () => {
    ctx.server = new FakeGithubServer(TOKEN);
    await ctx.server.start();
    ctx.logger = captureLogger();
    ctx.sleeps = [];
    ctx.publisher = (options = {}) =>
      new GithubPublisher({
        config: new ConfigReader({
          integrations: {
            github: [
              {
                host: 'github.test',
                apiBaseUrl: ctx.server.apiBaseUrl,
                token: TOKEN,
              },
            ],
          },
        }),
        repoUrl: REPO_URL,
        logger: ctx.logger,
        sleep: async ms => {
          ctx.sleeps.push(ms);
        },
        retry: setup.retries
          ? { retryAfterBaseValue: 1, paceWrites: false }
          : { enabled: false },
        ...options,
      });
  });
  afterEach(async () => {
    await ctx.server.stop();
    expect(ctx.server.violations).toEqual([]);
    expect(ctx.logger.text()).not.toContain(TOKEN);
  });
  return ctx;
}

export const registration = {
  key: 'register-edge-1',
  title: 'Register cluster edge-1',
  body: 'Adds the Argo CD app-of-apps of edge-1.',
  files: {
    'registry/clusters/infrared-mgmt/components/cluster-edge-1.yaml':
      'kind: Application\n',
    'registry/clusters/edge-1/components/README.md': '# edge-1\n',
  },
};
