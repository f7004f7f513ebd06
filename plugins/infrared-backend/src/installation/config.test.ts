import { ConfigReader } from '@backstage/config';
import { derivedInstallationId, readInstallationConfig } from './config';

const read = (data: object) => readInstallationConfig(new ConfigReader(data));

describe('infrared.installation', () => {
  it('derives the id from the portal URL and the gitops repository, so replicas share it', () => {
    const prod = {
      app: { baseUrl: 'https://backstage.example.com/' },
      infrared: {
        gitops: {
          type: 'github',
          repoUrl: 'https://x-token:secret@github.com/acme/gitops.git',
        },
      },
    };
    expect(read(prod)).toEqual({
      id: 'app=https://backstage.example.com gitops=https://github.com/acme/gitops',
      derived: true,
      leaseDurationMs: 60_000,
      renewEveryMs: 15_000,
    });
    // another portal, or another repository: another installation
    expect(
      derivedInstallationId(
        new ConfigReader({
          ...prod,
          app: { baseUrl: 'http://localhost:3000' },
        }),
      ),
    ).not.toBe(read(prod).id);
    expect(
      derivedInstallationId(
        new ConfigReader({
          ...prod,
          infrared: {
            gitops: {
              type: 'github',
              repoUrl: 'https://github.com/acme/trial',
            },
          },
        }),
      ),
    ).not.toBe(read(prod).id);
    // no app.baseUrl is create-app's
    expect(
      read({
        infrared: {
          gitops: { type: 'github', repoUrl: 'https://github.com/acme/gitops' },
        },
      }).id,
    ).toBe('app=http://localhost:3000 gitops=https://github.com/acme/gitops');
    // a local repository (development, tests) is local whatever its path and the portal's URL
    expect(read({ infrared: { gitops: { path: '/tmp/a.git' } } }).id).toBe(
      'gitops=local',
    );
    expect(
      read({
        app: { baseUrl: 'http://127.0.0.1:41234' },
        infrared: { gitops: { type: 'local', path: '/tmp/b.git' } },
      }).id,
    ).toBe('gitops=local');
  });

  it('takes infrared.installation.id and leaseDuration; renews at most every 15 s', () => {
    expect(
      read({
        infrared: { installation: { id: 'prod-eu', leaseDuration: '2s' } },
      }),
    ).toEqual({
      id: 'prod-eu',
      derived: false,
      leaseDurationMs: 2_000,
      renewEveryMs: 500,
    });
    expect(
      read({ infrared: { installation: { leaseDuration: { minutes: 5 } } } })
        .renewEveryMs,
    ).toBe(15_000);
    expect(
      read({ infrared: { installation: { leaseDuration: '1500ms' } } })
        .leaseDurationMs,
    ).toBe(2_000);
    expect(
      read({ infrared: { installation: { leaseDuration: 'PT1M30S' } } })
        .leaseDurationMs,
    ).toBe(90_000);
  });

  it('refuses invalid values, naming the key', () => {
    expect(() => read({ infrared: { installation: { id: ' x' } } })).toThrow(
      'infrared.installation.id',
    );
    expect(() => read({ infrared: { installation: { id: 'a\nb' } } })).toThrow(
      'infrared.installation.id',
    );
    expect(() =>
      read({ infrared: { installation: { leaseDuration: '500ms' } } }),
    ).toThrow('infrared.installation.leaseDuration must be at least 1 second');
    expect(() =>
      read({ infrared: { installation: { leaseDuration: { months: 1 } } } }),
    ).toThrow('infrared.installation.leaseDuration: use seconds');
  });
});
