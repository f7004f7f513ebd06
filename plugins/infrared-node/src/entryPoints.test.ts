import * as node from '@infrared-clusters/plugin-infrared-node';

describe('the -node entry point', () => {
  it('holds the extension points, their types and the events topic, nothing else', () => {
    // Types leave no runtime key: these are all the values -node exports.
    expect(Object.keys(node).sort()).toEqual([
      'INFRARED_CLUSTER_EVENTS_TOPIC',
      'gitopsPublisherExtensionPoint',
      'isInfraredClusterEventPayload',
    ]);
    expect(node.gitopsPublisherExtensionPoint.id).toBe(
      'infrared.gitops-publisher',
    );
  });
});
