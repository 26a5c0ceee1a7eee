import { createStore, del, get, set } from 'idb-keyval';
import { preferences, savePreferences } from './preferences';

/**
 * "Remember password", never in plain text. The password is encrypted with AES-GCM under
 * a key made here as non-extractable: the CryptoKey object itself is kept in its own
 * IndexedDB store (structured clone keeps it non-extractable, so no script can read its
 * bytes), and only the ciphertext and iv go to the preferences. The account is bound in
 * as additional data: a password decrypts only for the account it was saved with.
 */
const keyStore = createStore('tradeweb-secrets', 'keys');
const keyName = 'remembered-password-key';
const algorithm = 'AES-GCM';
const ivLength = 12;

function available(): boolean {
  return typeof crypto !== 'undefined' && typeof crypto.subtle !== 'undefined' && typeof indexedDB !== 'undefined';
}

async function storedKey(): Promise<CryptoKey | null> {
  const key = await get<unknown>(keyName, keyStore);
  return key instanceof CryptoKey ? key : null;
}

async function encryptionKey(): Promise<CryptoKey> {
  const existing = await storedKey();
  if (existing) return existing;
  const key = await crypto.subtle.generateKey({ name: algorithm, length: 256 }, false, ['encrypt', 'decrypt']);
  await set(keyName, key, keyStore);
  return key;
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

const encoder = new TextEncoder();

/** Encrypts and keeps the password of `account`; false when the browser cannot (nothing is kept then). */
export async function rememberPassword(account: string, password: string): Promise<boolean> {
  if (!available()) return false;
  try {
    const key = await encryptionKey();
    const iv = crypto.getRandomValues(new Uint8Array(ivLength));
    const ciphertext = await crypto.subtle.encrypt({ name: algorithm, iv, additionalData: encoder.encode(account) }, key, encoder.encode(password));
    await savePreferences({ rememberedPassword: { iv: toBase64(iv), ciphertext: toBase64(new Uint8Array(ciphertext)) } });
    return true;
  } catch {
    await forgetPassword();
    return false;
  }
}

/** The remembered password of `account`, or null (none kept, another account, or the key is gone). */
export async function recallPassword(account: string): Promise<string | null> {
  const stored = preferences().rememberedPassword;
  if (!stored || !available()) return null;
  try {
    const key = await storedKey();
    if (!key) return null;
    const plain = await crypto.subtle.decrypt(
      { name: algorithm, iv: fromBase64(stored.iv), additionalData: encoder.encode(account) },
      key,
      fromBase64(stored.ciphertext),
    );
    return new TextDecoder().decode(plain);
  } catch {
    return null;
  }
}

/** Drops the ciphertext and the key. */
export async function forgetPassword(): Promise<void> {
  if (preferences().rememberedPassword) await savePreferences({ rememberedPassword: undefined });
  try {
    if (typeof indexedDB !== 'undefined') await del(keyName, keyStore);
  } catch {
    // Private modes may refuse IndexedDB; nothing was kept there then.
  }
}
