// Today's cdk8s project (issue 25): cdk8s-cli's typescript-app template depends on cdk8s-plus-33 (cdk8s-cli 2.207
// `templates/typescript-app/package.json`), the library on cdk8s-plus-28. A project holds both: its own cdk8s-plus-33
// subjects and workloads must work where the library takes cdk8s-plus types (ISubject), with the same output as
// cdk8s-plus-28's. (cdk8s-plus-33 is here as cdk8s-cli's dependency; scripts/consumer-test.sh checks it in a project.)
import { Chart, Testing } from 'cdk8s';
import * as plus28 from 'cdk8s-plus-28';
// eslint-disable-next-line import/no-extraneous-dependencies -- installed as cdk8s-cli's dependency (devDeps), what the template uses
import * as plus33 from 'cdk8s-plus-33';
import { AccessLevel, ScopedOperatorTenant, TenancyApp } from '../../src';

type Plus = typeof plus28 | typeof plus33;

function platform(plus: Plus) {
  const app = new TenancyApp({ outdir: Testing.app().outdir, quiet: true });
  const chart = new Chart(app, 'team-a');
  const tenant = new ScopedOperatorTenant(chart, 'Tenant', { namespaceName: 'team-a' });
  tenant.grantOperatorAccess(plus.Group.fromName(chart, 'Admins', 'team-a-admins'), AccessLevel.ADMIN);
  tenant.grantOperatorAccess(plus.User.fromName(chart, 'Alice', 'alice@example.com'), AccessLevel.VIEW);
  tenant.grantSubscriptionManagement(plus.ServiceAccount.fromServiceAccountName(chart, 'Ci', 'ci', { namespaceName: 'team-a' }));
  return { app, chart };
}

describe('a cdk8s-plus-33 project (the newest cdk8s-cli template) beside the library\'s cdk8s-plus-28', () => {
  test('cdk8s-plus-33 Group, User and ServiceAccount as ISubject: the same objects as with cdk8s-plus-28\'s', () => {
    const objects = (plus: Plus) => platform(plus).app.synthObjects().flatMap((c) => c.objects);
    const with28 = objects(plus28);
    expect(objects(plus33)).toEqual(with28);
    const subjects = with28.filter((o) => o.kind === 'RoleBinding').flatMap((o) => o.subjects ?? []);
    expect(subjects).toEqual(expect.arrayContaining([
      { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'team-a-admins' },
      { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice@example.com' },
      { kind: 'ServiceAccount', name: 'ci', namespace: 'team-a' },
    ]));
  });

  test('a cdk8s-plus-33 Deployment in the tenant\'s chart synthesizes beside the tenant', () => {
    const { app, chart } = platform(plus33);
    new plus33.Deployment(chart, 'App', { metadata: { namespace: 'team-a' }, containers: [{ image: 'registry.example.com/app:1', securityContext: { user: 1000 } }] });
    const objects = app.synthObjects().flatMap((c) => c.objects);
    expect(objects.filter((o) => o.kind === 'Deployment').map((o) => [o.apiVersion, o.metadata.namespace, o.spec.template.spec.containers[0].image]))
      .toEqual([['apps/v1', 'team-a', 'registry.example.com/app:1']]);
    expect(objects.filter((o) => o.kind === 'Subscription' || o.kind === 'OperatorGroup').map((o) => o.kind)).toEqual(['OperatorGroup']);
  });
});
