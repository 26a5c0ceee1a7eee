import { showToast } from './toasts';

/** Copies text for the user and tells whether it worked (the messages are already translated). */
export async function copyText(text: string, messages: { copied: string; failed: string }): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    showToast('success', messages.copied);
  } catch {
    showToast('error', messages.failed);
  }
}
