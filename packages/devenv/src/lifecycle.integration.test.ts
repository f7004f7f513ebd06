import fs from 'node:fs';
import { startControlPlane, stopControlPlane } from './controlPlane';
import { isRunning } from './processes';

jest.setTimeout(120_000);

/** PIDs of every process whose command line mentions `text`. */
function processesMentioning(text: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter(d => /^\d+$/.test(d))
    .filter(pid => {
      try {
        return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text);
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe('startControlPlane / stopControlPlane', () => {
  it('starts its own control plane and leaves no process or temp dir once stopped', async () => {
    const cp = await startControlPlane({
      clusters: ['solo'],
      ownerPid: process.pid,
    });
    const procs = cp.state.processes;
    const expected = ['etcd', 'kube-apiserver/solo', 'watchdog'];
    if (cp.state.controllerManager) expected.push('kube-controller-manager');
    expect(procs.map(p => p.name).sort()).toEqual(expected.sort());
    expect(procs.every(isRunning)).toBe(true);
    const version = await cp.client('solo').request('GET', '/version');
    expect(version.body.gitVersion).toMatch(/^v1\./);
    expect(processesMentioning(cp.state.baseDir).length).toBeGreaterThan(0);

    // what a teardown in another process does: only the state file is needed
    await stopControlPlane(cp.statePath);
    expect(procs.filter(isRunning)).toEqual([]);
    expect(processesMentioning(cp.state.baseDir)).toEqual([]);
    expect(fs.existsSync(cp.state.baseDir)).toBe(false);
    expect(fs.existsSync(cp.statePath)).toBe(false);
  });
});
