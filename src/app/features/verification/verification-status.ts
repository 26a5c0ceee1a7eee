import { VerifiedStatus, verificationEditable } from '../../../shared/api/verification';

/** What the form shows in a status (the specification's table): editable or not, and the button's label key. */
export function verificationFormState(status: number): { editable: boolean; buttonKey: 'verify.done' | 'verify.authenticating'; loading: boolean } {
  if (status === VerifiedStatus.notLoaded) return { editable: false, buttonKey: 'verify.done', loading: true };
  return {
    editable: verificationEditable(status),
    buttonKey: status === VerifiedStatus.authenticating ? 'verify.authenticating' : 'verify.done',
    loading: false,
  };
}
