import { showToast } from '../../app/components/toasts';

/**
 * Runs a staff action: a success toast when it is done (the message may name what the answer
 * says); a failure has already been told by the request client (a toast with the translated
 * code). Resolves whether it succeeded.
 */
export async function runAction<T>(action: () => Promise<T>, successMessage: string | ((result: T) => string)): Promise<boolean> {
  let result: T;
  try {
    result = await action();
  } catch {
    return false;
  }
  showToast('success', typeof successMessage === 'string' ? successMessage : successMessage(result));
  return true;
}
