import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import type { TokenPair } from '../../../shared/api/auth';
import { useApp } from '../../app-context';
import { showToast } from '../../components/toasts';
import { adoptSession } from '../../engine/signals';
import { signInReturnSignal } from './sign-in-return';

/**
 * The one way a sign-in ends, for the sign-in and sign-up pages: the engine adopts the
 * tokens for every tab, this tab shows the success message and goes to `target`.
 * Answers false (after an error message) when the engine could not adopt them.
 */
export function useSessionStart() {
  const { t } = useTranslation();
  const { engine } = useApp();
  const [, navigate] = useLocation();
  return async function startSession(tokens: TokenPair, target: string, successMessage: string): Promise<boolean> {
    signInReturnSignal.value = target;
    try {
      const snapshot = await engine.signIn({ token: tokens.token, refreshToken: tokens.refreshToken });
      // The engine also tells every tab; adopting its answer here lets the guard see the
      // session before this tab moves to a page that needs it.
      adoptSession(snapshot);
    } catch {
      signInReturnSignal.value = null;
      showToast('error', t('notice.something_wrong'));
      return false;
    }
    showToast('success', successMessage);
    navigate(target, { replace: true });
    signInReturnSignal.value = null;
    return true;
  };
}
