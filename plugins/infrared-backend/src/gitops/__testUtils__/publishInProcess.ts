/*
 * Another writer of a local gitops repository, as a separate OS process (a second backend replica):
 * started by the tests with `node <this file's runner> <repo> <start-at-ms> <name>...`, it publishes
 * the registration of each named cluster with LocalGitPublisher, all at once, from `start-at-ms` on,
 * and prints the results as JSON.
 */
import { LocalGitPublisher } from '../local/LocalGitPublisher';

export async function publishInProcess(args: string[]): Promise<void> {
  const [path, startAt, ...names] = args;
  const publisher = new LocalGitPublisher({ path });
  await new Promise(r =>
    setTimeout(r, Math.max(0, Number(startAt) - Date.now())),
  );
  const results = await Promise.allSettled(
    names.map(name =>
      publisher.publish({
        key: `cluster-${name}`,
        title: `Register cluster ${name}`,
        body: `Adds ${name}`,
        files: {
          [`registry/clusters/infrared-mgmt/components/cluster-${name}.yaml`]: `name: registry-${name}\n`,
          [`registry/clusters/${name}/components/README.md`]: `# ${name}\n`,
        },
      }),
    ),
  );
  process.stdout.write(
    JSON.stringify(
      results.map(r =>
        r.status === 'fulfilled' ? r.value : { error: String(r.reason) },
      ),
    ),
  );
}
