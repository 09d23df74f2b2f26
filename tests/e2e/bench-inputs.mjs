// The inputs of the JavaScript API's benchmarks (bench-js.mjs in Chromium,
// bench-diff-cpu.mjs in Node): a VMI padded to a size, and a controller's
// 5-op patch (test a label, add a label, replace status.phase, add an
// activePods entry, add migrationState).

/** A VMI padded with interfaces, volumes and annotations to about `bytes`. */
export function vmi(bytes) {
  const doc = {
    apiVersion: 'kubevirt.io/v1',
    kind: 'VirtualMachineInstance',
    metadata: {
      name: 'testvmi', namespace: 'default', resourceVersion: '1041',
      labels: { 'kubevirt.io/nodeName': 'node01', 'kubevirt.io/size': 'small' },
      annotations: {},
      finalizers: ['kubevirt.io/virtualMachineControllerFinalize'],
    },
    spec: { domain: { cpu: { cores: 2 }, memory: { guest: '2Gi' } }, volumes: [] },
    status: { phase: 'Running', nodeName: 'node01', interfaces: [], volumeStatus: [], activePods: {} },
  };
  for (let i = 0; JSON.stringify(doc).length < bytes; i++) {
    doc.metadata.annotations[`example.com/note-${i}`] = `value ${i} `.repeat(4);
    doc.spec.volumes.push({ name: `disk${i}`, persistentVolumeClaim: { claimName: `pvc-${i}` } });
    doc.status.interfaces.push({ name: `net${i}`, ipAddress: `10.244.${i % 250}.${i % 200}`, mac: '52:54:00:00:00:01' });
    doc.status.volumeStatus.push({ name: `disk${i}`, target: `vd${i}`, phase: 'Ready' });
  }
  return doc;
}
export const patch = [
  { op: 'test', path: '/metadata/labels/kubevirt.io~1nodeName', value: 'node01' },
  { op: 'add', path: '/metadata/labels/kubevirt.io~1migrationTargetNodeName', value: 'node02' },
  { op: 'replace', path: '/status/phase', value: 'Running' },
  { op: 'add', path: '/status/activePods/pod-b', value: 'node02' },
  { op: 'add', path: '/status/migrationState', value: { targetNode: 'node02', completed: false } },
];
