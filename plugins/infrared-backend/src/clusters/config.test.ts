import { ConfigReader } from '@backstage/config';
import { readClustersConfig } from './config';

const read = (infrared: object) =>
  readClustersConfig(new ConfigReader({ infrared }));

describe('readClustersConfig', () => {
  it('defaults: 30 s passes, 1000 files a batched gitops change', () => {
    expect(read({})).toEqual({
      managementCluster: 'infrared-mgmt',
      reconcileInterval: { seconds: 30 },
      maxFilesPerChange: 1000,
    });
  });

  it('takes infrared.gitops.batch.maxFilesPerChange', () => {
    expect(
      read({ gitops: { batch: { maxFilesPerChange: 2 } } }).maxFilesPerChange,
    ).toBe(2);
  });

  it.each([0, -3, 1.5])('refuses maxFilesPerChange %p, naming the key', n => {
    expect(() => read({ gitops: { batch: { maxFilesPerChange: n } } })).toThrow(
      /infrared\.gitops\.batch\.maxFilesPerChange must be a whole number of at least 1/,
    );
  });
});
