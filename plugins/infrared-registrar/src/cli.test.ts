import * as cli from '@infrared-clusters/infrared-registrar/cli';
import { USAGE } from './command';

describe('the /cli entry point', () => {
  it('offers the registrar command alone', () => {
    expect(Object.keys(cli)).toEqual(['runRegistrarCli']);
  });

  it('runs it: --help prints the usage and exits 0', async () => {
    const write = jest
      .spyOn(process.stdout, 'write')
      .mockImplementation(() => true);
    const exitCode = process.exitCode;
    try {
      cli.runRegistrarCli(['--help']);
      await new Promise(resolve => setImmediate(resolve));
      expect(write.mock.calls.map(c => String(c[0])).join('')).toContain(
        USAGE.split('\n')[0],
      );
      expect(process.exitCode ?? 0).toBe(0);
    } finally {
      write.mockRestore();
      process.exitCode = exitCode;
    }
  });
});
