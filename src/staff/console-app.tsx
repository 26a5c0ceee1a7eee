import { signal } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Redirect, Route, Router, Switch } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import { LoadingScreen } from '../app/boot/blocking-overlay';
import { ConfirmHost } from '../app/components/confirm';
import { ToastHost } from '../app/components/toasts';
import { staffMe } from '../shared/api/staff';
import type { BrandConfig } from '../shared/config/brand-config';
import type { SignedOutReason, StaffClient } from './api/staff-client';
import { ConsoleLayout } from './layout/console-layout';
import { reviewKindsFor, sectionsFor } from './navigation';
import { AuditPage } from './pages/audit';
import { ChangePasswordPage } from './pages/change-password';
import { ConfigPage } from './pages/config';
import { CustomerPage } from './pages/customer';
import { CustomersPage } from './pages/customers';
import { DeclarationsPage } from './pages/declarations';
import { EnrolPage } from './pages/enrol';
import { HomePage } from './pages/home';
import { NoticesPage } from './pages/notices';
import { QueuePage } from './pages/queue';
import { ReviewItemPage } from './pages/review-item';
import { SignInPage } from './pages/sign-in';
import { StaffMembersPage } from './pages/staff-members';
import { StaffContext, useStaff, type StaffSelf, type StaffServices } from './session/staff-context';

/** Set by the request client when the tokens are gone: the console returns to sign-in. */
export const signedOutSignal = signal<SignedOutReason | null>(null, { name: 'staffSignedOut' });

/** Where the console lives: every route is under it, and the server answers its deep links. */
export const consoleBase = '/staff';

type Session = { state: 'checking' } | { state: 'signed-out' } | { state: 'signed-in'; me: StaffSelf };

export function ConsoleApp(props: { client: StaffClient; config: BrandConfig }) {
  useSignals();
  const { t } = useTranslation();
  const { client } = props;
  const [session, setSession] = useState<Session>(() => (client.hasTokens() ? { state: 'checking' } : { state: 'signed-out' }));

  useEffect(() => {
    if (session.state !== 'checking') return;
    let current = true;
    client.call(staffMe, {}, { silent: true }).then(
      (me) => current && setSession({ state: 'signed-in', me }),
      () => current && setSession({ state: 'signed-out' }),
    );
    return () => {
      current = false;
    };
  }, [session.state, client]);

  // The request client lost the tokens (refresh refused, session ended): back to sign-in.
  const lostTokens = signedOutSignal.value !== null;

  const signOut = useCallback(() => {
    void client.signOut();
    setSession({ state: 'signed-out' });
  }, [client]);
  const signedIn = useCallback(() => {
    signedOutSignal.value = null;
    setSession({ state: 'checking' });
  }, []);

  const services = useMemo<StaffServices | null>(
    () => (session.state === 'signed-in' ? { client, me: session.me, config: props.config, signOut } : null),
    [client, session, props.config, signOut],
  );

  let content;
  if (session.state === 'checking') content = <LoadingScreen label={t('common.loading')} />;
  else if (session.state === 'signed-out' || lostTokens || !services) content = <SignInPage client={client} onSignedIn={signedIn} />;
  else if (services.me.mustChangePassword) {
    content = (
      <StaffContext.Provider value={services}>
        <ChangePasswordPage forced onChanged={() => setSession({ state: 'checking' })} />
      </StaffContext.Provider>
    );
  } else {
    content = (
      <StaffContext.Provider value={services}>
        <SignedInRoutes />
      </StaffContext.Provider>
    );
  }
  return (
    <Router base={consoleBase}>
      <Switch>
        {/* An invitation link, signed out: the new member enrols, then signs in. */}
        <Route path="/enrol">{() => <EnrolPage client={client} onDone={() => navigate(`${consoleBase}/`, { replace: true })} />}</Route>
        <Route>{content}</Route>
      </Switch>
      <ToastHost />
      <ConfirmHost />
    </Router>
  );
}

/** The pages a member may open: a section the roles do not allow is not routed at all. */
function SignedInRoutes() {
  const { me } = useStaff();
  const allowed = new Set(sectionsFor(me.roles).map((section) => section.id));
  const kinds = reviewKindsFor(me.roles);
  return (
    <ConsoleLayout>
      <Switch>
        <Route path="/" component={HomePage} />
        <Route path="/password">{() => <ChangePasswordPage forced={false} onChanged={() => undefined} />}</Route>
        {allowed.has('customers') ? <Route path="/customers" component={CustomersPage} /> : null}
        {allowed.has('customers') ? <Route path="/customers/:uid" component={CustomerPage} /> : null}
        {allowed.has('queues') ? <Route path="/queues">{() => <Redirect to={`/queues/${kinds[0] ?? ''}`} replace />}</Route> : null}
        {allowed.has('queues') ? <Route path="/queues/:kind" component={QueuePage} /> : null}
        {allowed.has('queues') ? <Route path="/queues/:kind/:id" component={ReviewItemPage} /> : null}
        {allowed.has('notices') ? <Route path="/notices" component={NoticesPage} /> : null}
        {allowed.has('audit') ? <Route path="/audit" component={AuditPage} /> : null}
        {allowed.has('config') ? <Route path="/config" component={ConfigPage} /> : null}
        {allowed.has('staff') ? <Route path="/staff-members" component={StaffMembersPage} /> : null}
        <Route path="/declarations" component={DeclarationsPage} />
        <Route>{() => <Redirect to="/" replace />}</Route>
      </Switch>
    </ConsoleLayout>
  );
}
